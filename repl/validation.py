"""Syntax-only checking of a line: a known command with well-formed arguments, or text that parses
as a move. The session answers a malformed line with this one-line complaint (the prompt never holds
a line back, so input is never glued to the next line); whether a move is *legal* is for the game."""

from __future__ import annotations

from collections.abc import Collection

from interpreter import InvalidMoveError, Move
from interpreter.core.errors import suggest

from .registry import MOVE, REGISTRY


def cmd_is_move(word: str, args: list[str], verbs: Collection[str]) -> bool:
    """Whether a line whose first word names a command is a move instead: the word is also one of
    the ruleset's verbs (the default game's `scrap JH`, beside the `scrap` command) and the
    arguments do not fit the command, so the line can only mean the move."""
    cmd = REGISTRY.get(word)
    return cmd is not None and word.lower() in verbs and cmd.check_args(args) is not None


def problem(line: str, verbs: Collection[str] = ()) -> str | None:
    """One line saying what is malformed in `line`, or None if it is well formed.

    With `verbs` (the ruleset's), a first word that is neither a command nor a verb is malformed too.
    """
    text = line.strip()
    if not text:
        return None
    word, *args = text.split()
    cmd = REGISTRY.get(word)
    if cmd is not None and not cmd_is_move(word, args, verbs):
        bad = cmd.check_args(args)
        if bad:
            return bad
        if cmd.args and cmd.args[0].kind == MOVE:
            return problem(" ".join(args), verbs) if args else None
        return None
    if verbs and word.lower() not in verbs:
        near = suggest(word.lower(), [*REGISTRY.names(), *verbs])
        return (
            f"'{word}' is neither a command nor a move"
            + (f"; did you mean '{near}'?" if near else "")
            + " ('help', 'moves')"
        )
    try:
        Move.parse(text)
    except InvalidMoveError as e:
        # short enough for the bottom bar: the part after "'LINE' is not a move: "
        return str(e).splitlines()[0].split(" is not a move: ", 1)[-1]
    return None
