"""What a compiled program is made of: its instructions' op codes and the marks on them, how two
instruction lists join, and the reason a rule's `win` gives (which the lab reads back)."""

from __future__ import annotations

# instruction op codes
EXEC, JUMP_IF_NOT, JUMP, CHOOSE, PLAY, BUILTIN = range(6)
UPTO = "up to"  # the last item of a CHOOSE instruction of `choose up to N` (`choose order of` has True)
ASK = "agrees"  # the last item of a CHOOSE instruction of `if P agrees to VERB` (a question: VERB or decline)
DECLINE = "decline"  # the move that answers a question no
AGREED = " agreed"  # the binding a question's answer is kept in, read by the jump after it (not a name)
NUMBER = "a number"  # the last item of a CHOOSE instruction of `choose a number from A to B`


WIN_REASON = "a rule declared the winner"
DRAW_REASON = "a rule declared a draw"  # `win nobody`


def win_reason(rule: str) -> str:
    """The reason of a game won by a `win` statement: names the rule when it is known
    ('a rule declared the winner (triggers.NAME)'); the lab reads it back (`win_rule`)."""
    return f"{WIN_REASON} ({rule})" if rule else WIN_REASON


def draw_reason(rule: str) -> str:
    """The reason of a game a `win nobody` ended in a draw: 'a rule declared a draw (triggers.NAME)'."""
    return f"{DRAW_REASON} ({rule})" if rule else DRAW_REASON


def win_rule(reason: str) -> str | None:
    """The rule named by a `win_reason` or a `draw_reason` (None: the reason is not a rule's ending;
    '' for no name)."""
    at, phrase = max((reason.rfind(p), p) for p in (WIN_REASON, DRAW_REASON))
    if at < 0:
        return None
    rest = reason[at + len(phrase) :]
    if not rest.startswith(" ("):
        return ""
    depth = 0  # the parenthesis that closes the name (a match's reason wraps the hand's in its own)
    for i, ch in enumerate(rest[1:], 1):
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            return rest[2:i]
    return ""


def concat(a: tuple, b: tuple) -> tuple:
    """Join two instruction lists, shifting the jump targets of the second."""
    n = len(a)
    out = list(a)
    for ins in b:
        if ins[0] == JUMP_IF_NOT:
            ins = (ins[0], ins[1], ins[2] + n)
        elif ins[0] == JUMP:
            ins = (ins[0], ins[1] + n)
        out.append(ins)
    return tuple(out)
