"""Printing effect-language trees back to source text: the exact inverse of `parser`.

For every program or expression `src`, `parse(to_text(parse(src))) == parse(src)` (positions are not
compared). Parentheses are added only where the grammar's precedence needs them:

    where  <  or  <  and  <  not  <  comparison (== != < <= > >= in, not in)  <  + -  <  * /
           <  unary -  <  postfix (.attr, [index])  <  atoms

Binary operators are left-associative; comparisons and `where` do not chain, so a nested one is
parenthesised. One subtlety: `hand of P` / `field of P` take a postfix expression, so a zone that is
itself followed by `.attr` or `[i]` must be parenthesised (`(hand of me)[0]`, not `hand of me[0]`).

Each construct prints itself (its node's `text`, and an expression's `level`, in constructs/); this
module joins statements and parenthesises a child whose level is below what its parent needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from . import tree as A
from .node import POSTFIX, WHERE

INDENT = "  "


class Printer:
    """The printer as each construct's `text` sees it: its children's text, parenthesised as needed."""

    @staticmethod
    def expr(node: A.Node, need: int = WHERE) -> str:
        """An expression, parenthesised if its level is below `need`."""
        x = cast(A.Expression, node)
        text = x.text(PRINTER)
        return f"({text})" if x.level() < need else text

    @staticmethod
    def postfix_obj(node: A.Node) -> str:
        """The object of `.attr` / `[i]`: a postfix expression, and never a bare `hand of P`."""
        if isinstance(node, A.Zone) and node.player is not None:
            return f"({node.text(PRINTER)})"
        return Printer.expr(node, POSTFIX)

    @staticmethod
    def nested(body: Sequence[A.Node], depth: int, multiline: bool) -> str:
        """The statements of an `if` or `for each` body, indented one step deeper when multiline."""
        if not body:
            return "\n" if multiline else " "
        if multiline:
            return "\n" + _block(body, depth + 1, True) + "\n" + INDENT * depth
        return " " + _block(body, depth, False) + " "


PRINTER = Printer()


def _block(body: Sequence[A.Node], depth: int, multiline: bool) -> str:
    """Statements joined; `;` is written where the next statement could otherwise be misread."""
    texts = [cast(A.Statement, s).text(PRINTER, depth, multiline) for s in body]
    if not multiline:
        return "; ".join(texts)
    out = []
    for i, t in enumerate(texts):
        here = body[i]
        needs_semi = (
            i + 1 < len(body)
            and isinstance(here, A.Draw)
            and here.player is None
            and isinstance(body[i + 1], A.ForEach)
        )
        out.append(INDENT * depth + t + (";" if needs_semi else ""))
    return "\n".join(out)


def to_text(node: A.Node | Sequence[A.Node], multiline: bool = False) -> str:
    """Source text for a program, a statement, a destination, an expression, or a tuple of statements.

    `multiline=True` writes one statement per line with `if`/`for each` bodies indented (the same
    program: the parser ignores layout)."""
    if isinstance(node, A.Program):
        return _block(node.body, 0, multiline)
    if isinstance(node, (tuple, list)):
        return _block(node, 0, multiline)
    if isinstance(node, A.Dest):
        return node.text(PRINTER)
    if isinstance(node, A.Statement):
        return node.text(PRINTER, 0, multiline)
    return PRINTER.expr(cast(A.Node, node))


__all__ = ["to_text", "Printer", "PRINTER"]
