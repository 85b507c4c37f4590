"""The REPL's command registry: each command's name, arguments, help, and handler.

`help` is generated from this registry, and completion and validation read the argument kinds
from it, so a command is declared once, here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .session import Session

# Argument kinds: what completion offers and what validation checks.
FILE, MOVE, INT, RULESET, WORD = "file", "move", "int", "ruleset", "word"


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
    handler: Callable[[Session, list[str]], None]
    aliases: tuple[str, ...] = ()
    rest: bool = False  # the last argument takes the rest of the line (a move)

    def usage(self) -> str:
        return " ".join([self.name, *(a.usage() for a in self.args)])

    def check_args(self, args: list[str]) -> str | None:
        """A one-line complaint about the arguments, or None if their number and form are right."""
        need = sum(1 for a in self.args if not a.optional)
        if len(args) < need:
            return f"'{self.name}' needs {self.args[len(args)].name}: usage: {self.usage()}"
        if len(args) > len(self.args) and not self.rest:
            return f"'{self.name}' takes {len(self.args) or 'no'} argument(s): usage: {self.usage()}"
        for a, value in zip(self.args, args, strict=False):
            if a.kind == INT and not value.lstrip("-").isdigit():
                return f"'{self.name}': {a.name} must be a whole number, not '{value}': usage: {self.usage()}"
        return None


@dataclass
class Registry:
    commands: dict[str, Command] = field(default_factory=dict)
    by_alias: dict[str, Command] = field(default_factory=dict)

    def command(self, name: str, *args: Arg, help: str, aliases: tuple[str, ...] = (),
                rest: bool = False) -> Callable[[Callable[[Session, list[str]], None]],
                                                Callable[[Session, list[str]], None]]:
        def deco(fn: Callable[[Session, list[str]], None]) -> Callable[[Session, list[str]], None]:
            cmd = Command(name, tuple(args), help, fn, aliases, rest)
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
        lines = ["Type a move to play it (e.g. 'points 7H', 'scuttle 9H 9D', 'counter 2D 4C', 'resolve');",
                 "Tab completes the legal moves and the commands. Commands:"]
        for c in self.commands.values():
            alias = f"  (also: {', '.join(c.aliases)})" if c.aliases else ""
            lines.append(f"  {c.usage():<{width}}  {c.help}{alias}")
        lines.append("Keys: Tab completes, Ctrl-C clears the line, Ctrl-D quits, Up/Down walk the history.")
        return "\n".join(lines)


REGISTRY = Registry()
command = REGISTRY.command


# -- the commands ---------------------------------------------------------------------------------
# Each handler raises CommandError (or a CuttleError) for a bad request; the session prints its
# first line and nothing changes.

@command("moves", help="list the legal moves of the moment")
def _moves(s: Session, args: list[str]) -> None:
    s.cmd_moves()


@command("explain", Arg("MOVE", MOVE), help="say why a move is illegal now (the rule that forbids it)", rest=True)
def _explain(s: Session, args: list[str]) -> None:
    s.cmd_explain(" ".join(args))


@command("hint", help="a suggested move: solved exactly when nothing is hidden, else ISMCTS's pick and win rate")
def _hint(s: Session, args: list[str]) -> None:
    s.cmd_hint()


@command("undo", help="take back your last move (and the bot's answer to it)")
def _undo(s: Session, args: list[str]) -> None:
    s.cmd_undo()


@command("redo", help="play again a move taken back by undo")
def _redo(s: Session, args: list[str]) -> None:
    s.cmd_redo()


@command("show", help="show the board again", aliases=("board",))
def _show(s: Session, args: list[str]) -> None:
    s.cmd_show()


@command("log", help="every move of the game so far, in words")
def _log(s: Session, args: list[str]) -> None:
    s.cmd_log()


@command("save", Arg("FILE", FILE), help="save the game as a record (written whole or not at all)")
def _save(s: Session, args: list[str]) -> None:
    s.cmd_save(args[0])


@command("load", Arg("FILE", FILE), Arg("--force", WORD, optional=True),
         help="load a saved game and play on from where it stopped (--force: even if its ruleset changed)")
def _load(s: Session, args: list[str]) -> None:
    s.cmd_load(args[0], force=_force(args))


@command("replay", Arg("FILE", FILE), Arg("--force", WORD, optional=True),
         help="step through a saved game with next, prev and goto N (--force: even if its ruleset changed)")
def _replay(s: Session, args: list[str]) -> None:
    s.cmd_replay(args[0], force=_force(args))


def _force(args: list[str]) -> bool:
    if len(args) > 1 and args[1] != "--force":
        from .session import CommandError
        raise CommandError(f"unknown option '{args[1]}' (the only option is --force)")
    return len(args) > 1


@command("next", help="replay: the next move", aliases=("n",))
def _next(s: Session, args: list[str]) -> None:
    s.cmd_step(+1)


@command("prev", help="replay: the previous move", aliases=("p",))
def _prev(s: Session, args: list[str]) -> None:
    s.cmd_step(-1)


@command("goto", Arg("N", INT), help="replay: the position after move N (0 = the start)")
def _goto(s: Session, args: list[str]) -> None:
    s.cmd_goto(int(args[0]))


@command("resume", help="replay: stop replaying and play on from this position")
def _resume(s: Session, args: list[str]) -> None:
    s.cmd_resume()


@command("scenario", Arg("FILE", FILE), help="write the position and the moves as a scenario file for `cuttle run`")
def _scenario(s: Session, args: list[str]) -> None:
    s.cmd_scenario(args[0])


@command("new", Arg("SEED", INT, optional=True), help="start a new game (same ruleset and opponent)")
def _new(s: Session, args: list[str]) -> None:
    s.cmd_new(int(args[0]) if args else None)


@command("rules", Arg("RULESET", RULESET, optional=True), help="print the rules of this game (or of RULESET)")
def _rules(s: Session, args: list[str]) -> None:
    s.cmd_rules(args[0] if args else None)


@command("help", help="this list", aliases=("?",))
def _help(s: Session, args: list[str]) -> None:
    s.say(REGISTRY.help_text())


@command("quit", help="leave (Ctrl-D does too)", aliases=("exit",))
def _quit(s: Session, args: list[str]) -> None:
    s.running = False
