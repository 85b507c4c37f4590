"""Completion as a pure function of the input line and a snapshot of the game (no terminal needed).

`complete(line, ctx)` returns what Tab may offer for the text before the cursor: the legal moves of
the moment first (whole moves, so 'sc' offers 'scuttle 9H 9D'), then the commands, and their arguments (file
names for save/load/replay/scenario, ruleset names for rules, verbs and cards for explain).
`CompletionContext.of(session)` takes the snapshot; `SessionCompleter` wraps it for prompt_toolkit.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from .registry import FILE, MOVE, PLAY, REGISTRY, REPLAY, RULESET, Command, Registry

if TYPE_CHECKING:
    from .session import Session


@dataclass(frozen=True)
class Suggestion:
    text: str  # what replaces the current word (or the whole line, for a move)
    start: int  # where the replaced text starts, relative to the cursor (<= 0)
    display: str = ""
    meta: str = ""


@dataclass(frozen=True)
class CompletionContext:
    moves: tuple[tuple[str, str], ...] = ()  # (canonical, pretty) legal moves, if it is the user's decision
    verbs: tuple[str, ...] = ()  # every verb of the ruleset (for explain)
    cards: tuple[str, ...] = ()  # cards worth naming in explain (hand, board)
    rulesets: tuple[str, ...] = ()
    files: Callable[[str], list[str]] = field(default=lambda prefix: [])
    registry: Registry = field(default_factory=lambda: REGISTRY)
    replaying: bool = False  # stepping through a saved game: its commands are offered, not play's

    @classmethod
    def of(cls, session: Session) -> CompletionContext:
        from interpreter import shipped_names

        moves: tuple[tuple[str, str], ...] = ()
        if session.my_decision():  # in the order `moves` lists them: by rule, then as typed
            ordered = [m for _, ms in session.game.legal_by_rule() for m in ms]
            moves = tuple((str(m), m.pretty()) for m in ordered)
        v = session.view()
        cards = list(v.hand) + [e.card for side in (v.you, v.opponent) for e in side.points]
        cards += [r for side in (v.you, v.opponent) for r in side.royals] + list(v.shown)
        return cls(
            moves=moves,
            verbs=tuple(session.game.rules.verbs),
            cards=tuple(dict.fromkeys(cards)),
            rulesets=tuple(shipped_names()),
            files=list_files,
            replaying=session.replay is not None,
        )


def list_files(prefix: str) -> list[str]:
    """Paths starting with `prefix` (the one impure helper: it reads the file system)."""
    folder, stem = os.path.split(os.path.expanduser(prefix))
    try:
        entries = sorted(os.scandir(folder or "."), key=lambda e: e.name)
    except OSError:
        return []
    base = prefix[: len(prefix) - len(stem)]
    return [
        base + e.name + ("/" if e.is_dir() else "")
        for e in entries
        if e.name.startswith(stem) and (stem.startswith(".") or not e.name.startswith("."))
    ]


def _starts(candidate: str, prefix: str) -> bool:
    return candidate.lower().startswith(prefix.lower())


def complete(line: str, ctx: CompletionContext) -> list[Suggestion]:
    """The completions of `line` (the text before the cursor)."""
    text = line.lstrip()
    words = text.split()
    new_word = not text or text[-1].isspace()
    current = "" if new_word else (words[-1] if words else "")
    out: list[Suggestion] = []
    cmd: Command | None = ctx.registry.get(words[0]) if words and (len(words) > 1 or new_word) else None
    index = (len(words) - 1 if not new_word else len(words)) - 1  # after the command word
    if cmd is not None and (index < len(cmd.args) or cmd.rest) and cmd.args:
        return _argument(cmd.args[min(index, len(cmd.args) - 1)].kind, current, index, ctx)
    # a command that takes no more arguments may still begin a move (`scrap JH` beside `scrap`)
    # the first word, or a move being typed: the legal moves first, then the commands
    for canonical, pretty in ctx.moves:
        if _starts(canonical, text):
            out.append(Suggestion(canonical, -len(text), canonical, pretty))
    if len(words) <= 1 and not new_word or not words:
        now = REPLAY if ctx.replaying else PLAY
        for name, c in ctx.registry.commands.items():
            if _starts(name, current) and c.only in ("", now):
                out.append(Suggestion(name, -len(current), name, c.help))
    return out


def _argument(kind: str, current: str, index: int, ctx: CompletionContext) -> list[Suggestion]:
    pool: Iterable[str]
    if kind == FILE:
        pool = ctx.files(current)
        return [
            Suggestion(p, -len(current), p.rstrip("/").rsplit("/", 1)[-1] + ("/" if p.endswith("/") else ""))
            for p in pool
        ]
    if kind == RULESET:
        pool = ctx.rulesets
    elif kind == MOVE:
        pool = ctx.verbs if index == 0 else ctx.cards
    else:
        return []
    return [Suggestion(p, -len(current), p) for p in pool if _starts(p, current)]


class SessionCompleter(Completer):
    """prompt_toolkit glue: completes from a fresh snapshot of the session at each keystroke."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        try:
            found = complete(document.text_before_cursor, CompletionContext.of(self.session))
        except Exception:  # completion must never break the prompt
            return
        for s in found:
            yield Completion(s.text, start_position=s.start, display=s.display or s.text, display_meta=s.meta)
