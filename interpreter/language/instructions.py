"""What a compiled program is made of: its instructions' op codes and the marks on them, how two
instruction lists join."""

from __future__ import annotations

from typing import Any

# instruction op codes
EXEC, JUMP_IF_NOT, JUMP, CHOOSE, PLAY, BUILTIN = range(6)
UPTO = "up to"  # the last item of a CHOOSE instruction of `choose up to N` (`choose order of` has True)
ASK = "agrees"  # the last item of a CHOOSE instruction of `if P agrees to VERB` (a question: VERB or decline)
DECLINE = "decline"  # the move that answers a question no
AGREED = " agreed"  # the binding a question's answer is kept in, read by the jump after it (not a name)
NUMBER = "a number"  # the last item of a CHOOSE instruction of `choose a number from A to B`


def concat(a: tuple[Any, ...], b: tuple[Any, ...]) -> tuple[Any, ...]:
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
