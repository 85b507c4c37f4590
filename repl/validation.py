"""Syntax-only validation of a line before it is sent: a known command with well-formed arguments,
or text that parses as a move. Whether a move is *legal* is for the game to say after Enter."""

from __future__ import annotations

from collections.abc import Callable, Collection

from prompt_toolkit.document import Document
from prompt_toolkit.validation import ValidationError, Validator

from interpreter import InvalidMoveError, Move
from interpreter.core.errors import suggest

from .commands import MOVE, REGISTRY


def problem(line: str, verbs: Collection[str] = ()) -> str | None:
    """One line saying what is malformed in `line`, or None if it is well formed.

    With `verbs` (the ruleset's), a first word that is neither a command nor a verb is malformed too.
    """
    text = line.strip()
    if not text:
        return None
    word, *args = text.split()
    cmd = REGISTRY.get(word)
    if cmd is not None:
        bad = cmd.check_args(args)
        if bad:
            return bad
        if cmd.args and cmd.args[0].kind == MOVE:
            return problem(" ".join(args), verbs) if args else None
        return None
    if verbs and word.lower() not in verbs:
        near = suggest(word.lower(), [*REGISTRY.names(), *verbs])
        return (f"'{word}' is neither a command nor a move" + (f"; did you mean '{near}'?" if near else "")
                + " ('help', 'moves')")
    try:
        Move.parse(text)
    except InvalidMoveError as e:
        # short enough for the bottom bar: the part after "'LINE' is not a move: "
        return str(e).splitlines()[0].split(" is not a move: ", 1)[-1]
    return None


class LineValidator(Validator):
    def __init__(self, verbs: Callable[[], Collection[str]] = lambda: ()) -> None:
        self.verbs = verbs

    def validate(self, document: Document) -> None:
        msg = problem(document.text, self.verbs())
        if msg:
            raise ValidationError(message=msg, cursor_position=len(document.text))
