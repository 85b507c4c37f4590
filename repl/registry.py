"""The REPL's command registry: each command's name, arguments, help, and handler (the commands
themselves are declared in commands.py, which registers them when the package loads).

`help` is generated from this registry, and completion and validation read the argument kinds
from it, so a command is declared once, here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# Argument kinds: what completion offers and what validation checks.
FILE, MOVE, INT, RULESET, WORD = "file", "move", "int", "ruleset", "word"
# When a command works: while playing, or while stepping through a saved game.
PLAY, REPLAY = "play", "replay"


@dataclass(frozen=True)
class Arg:
    name: str
    kind: str
    optional: bool = False

    def usage(self) -> str:
        return f"[{self.name}]" if self.optional else self.name


@dataclass(frozen=True)
class Command:
    name: str
    args: tuple[Arg, ...]
    help: str
    handler: Callable[[Any, list[str]], None]
    aliases: tuple[str, ...] = ()
    rest: bool = False  # the last argument takes the rest of the line (a move)
    only: str = ""  # PLAY or REPLAY: the command works only then (Tab offers it only then)

    def usage(self) -> str:
        return " ".join([self.name, *(a.usage() for a in self.args)])

    def check_args(self, args: list[str]) -> str | None:
        """A one-line complaint about the arguments, or None if their number and form are right."""
        need = sum(1 for a in self.args if not a.optional)
        if len(args) < need:
            return f"'{self.name}' needs {self.args[len(args)].name}: usage: {self.usage()}"
        if len(args) > len(self.args) and not self.rest:
            n = len(self.args)
            return f"'{self.name}' takes {n or 'no'} argument{'' if n == 1 else 's'}: usage: {self.usage()}"
        for a, value in zip(self.args, args, strict=False):
            if a.kind == INT and not value.lstrip("-").isdigit():
                return f"'{self.name}': {a.name} must be a whole number, not '{value}': usage: {self.usage()}"
        return None


@dataclass
class Registry:
    commands: dict[str, Command] = field(default_factory=dict)
    by_alias: dict[str, Command] = field(default_factory=dict)

    def command(
        self,
        name: str,
        *args: Arg,
        help: str,
        aliases: tuple[str, ...] = (),
        rest: bool = False,
        only: str = "",
    ) -> Callable[[Callable[[Any, list[str]], None]], Callable[[Any, list[str]], None]]:
        def deco(fn: Callable[[Any, list[str]], None]) -> Callable[[Any, list[str]], None]:
            cmd = Command(name, tuple(args), help, fn, aliases, rest, only)
            self.commands[name] = cmd
            for a in (name, *aliases):
                self.by_alias[a] = cmd
            return fn

        return deco

    def get(self, word: str) -> Command | None:
        return self.by_alias.get(word.lower())

    def names(self) -> list[str]:
        return list(self.commands)

    def help_text(self) -> str:
        width = max(len(c.usage()) for c in self.commands.values())
        lines = [
            "Type a move to play it (e.g. 'points 7H', 'scuttle 9H 9D', 'counter 2D 4C', 'resolve'); "
            "Tab offers the legal moves first, then the commands; Enter on an empty line plays the only "
            "legal move when there is just one. Commands:"
        ]
        for c in self.commands.values():
            alias = f"  (also: {', '.join(c.aliases)})" if c.aliases else ""
            lines.append(f"  {c.usage():<{width}}  {c.help}{alias}")
        lines.append(
            "Keys: Tab completes, Ctrl-C clears the line, Ctrl-D quits, Up/Down walk the history "
            "(a line that failed is there to fix)."
        )
        return "\n".join(lines)


REGISTRY = Registry()
command = REGISTRY.command
