"""Printing effect-language trees back to source text: the exact inverse of `parser`.

For every program or expression `src`, `parse(to_text(parse(src))) == parse(src)` (positions are not
compared). Parentheses are added only where the grammar's precedence needs them:

    where  <  or  <  and  <  not  <  comparison (== != < <= > >= in, not in)  <  + -  <  * /
           <  unary -  <  postfix (.attr, [index])  <  atoms

Binary operators are left-associative; comparisons and `where` do not chain, so a nested one is
parenthesised. One subtlety: `hand of P` / `field of P` take a postfix expression, so a zone that is
itself followed by `.attr` or `[i]` must be parenthesised (`(hand of me)[0]`, not `hand of me[0]`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from . import tree as A
from .node import AND, ATOM, COMPARE, NOT, OR, POSTFIX, PRODUCT, SUM, UNARY, WHERE

_BINARY: dict[str, tuple[int, int, int]] = {
    # op: (level of the node, level required on the left, level required on the right)
    "or": (OR, OR, AND),
    "and": (AND, AND, NOT),
    "+": (SUM, SUM, PRODUCT),
    "-": (SUM, SUM, PRODUCT),
    "*": (PRODUCT, PRODUCT, UNARY),
    "/": (PRODUCT, PRODUCT, UNARY),
}
_COMPARISONS = {"==", "!=", "<", "<=", ">", ">=", "in", "not in"}

INDENT = "  "


def level(node: A.Node) -> int:
    """The precedence level of an expression node."""
    if _own(node, "text"):
        return cast(A.Expression, node).level()
    if isinstance(node, A.Where):
        return WHERE
    if isinstance(node, A.BinOp):
        return COMPARE if node.op in _COMPARISONS else _BINARY[node.op][0]
    if isinstance(node, A.Not):
        return NOT
    if isinstance(node, A.Neg):
        return UNARY
    if isinstance(node, (A.Attr, A.Index)):
        return POSTFIX
    return ATOM


def expr_text(node: A.Node, need: int = WHERE) -> str:
    """An expression as source text, parenthesised if its level is below `need`."""
    text = _expr(node)
    return f"({text})" if level(node) < need else text


def _postfix_obj(node: A.Node) -> str:
    """The object of `.attr` / `[i]`: a postfix expression, and never a bare `hand of P`."""
    if isinstance(node, A.Zone) and node.player is not None:
        return f"({_expr(node)})"
    return expr_text(node, POSTFIX)


def _own(node: A.Node, method: str) -> bool:
    """Whether a construct prints itself (the constructs not moved yet are printed here)."""
    base = A.Expression if isinstance(node, A.Expression) else A.Statement
    return getattr(type(node), method, None) is not getattr(base, method, None)


class Printer:
    """The printer as each construct's `text` sees it: its children's text, parenthesised as needed."""

    @staticmethod
    def expr(node: A.Node, need: int = WHERE) -> str:
        """An expression, parenthesised if its level is below `need`."""
        return expr_text(node, need)

    @staticmethod
    def postfix_obj(node: A.Node) -> str:
        """The object of `.attr` / `[i]`: a postfix expression, and never a bare `hand of P`."""
        return _postfix_obj(node)

    @staticmethod
    def nested(body: Sequence[A.Node], depth: int, multiline: bool) -> str:
        """The statements of an `if` or `for each` body, indented one step deeper when multiline."""
        return _nested(body, depth, multiline)

    @staticmethod
    def dest(d: A.Dest) -> str:
        return dest_text(d)


PRINTER = Printer()


def _expr(node: A.Node) -> str:
    if _own(node, "text"):
        return cast(A.Expression, node).text(PRINTER)
    match node:
        case A.Num(value=v):
            return str(v)
        case A.Str(value=v):
            return f'"{v}"'
        case A.Name(name=n):
            return n
        case A.Call(func=f, args=args):
            return f"{f}({', '.join(expr_text(a) for a in args)})"
        case A.ListLit(items=items):
            return f"[{', '.join(expr_text(a) for a in items)}]"
        case A.Zone(zone=z, player=p):
            return z if p is None else f"{z} of {expr_text(p, POSTFIX)}"
        case A.Attr(obj=o, name=n):
            return f"{_postfix_obj(o)}.{n}"
        case A.Index(obj=o, index=i):
            return f"{_postfix_obj(o)}[{expr_text(i)}]"
        case A.Where(source=s, cond=c, var=v):
            return f"{expr_text(s, OR)} where {v + ': ' if v else ''}{expr_text(c, OR)}"
        case A.BinOp(op=op, left=lhs, right=rhs) if op in _COMPARISONS:
            return f"{expr_text(lhs, SUM)} {op} {expr_text(rhs, SUM)}"
        case A.BinOp(op=op, left=lhs, right=rhs):
            _, lneed, rneed = _BINARY[op]
            return f"{expr_text(lhs, lneed)} {op} {expr_text(rhs, rneed)}"
        case A.Not(operand=o):
            return f"not {expr_text(o, NOT)}"
        case A.Neg(operand=o):
            return f"-{expr_text(o, UNARY)}"
    raise TypeError(f"not an expression node: {type(node).__name__}")


def dest_text(d: A.Dest) -> str:
    if d.zone == "hand":
        return f"hand of {expr_text(d.player, POSTFIX)}" if d.player is not None else "hand"
    if d.zone == "field":
        return f"field of {expr_text(d.player, POSTFIX)} as {d.role}" if d.player is not None else "field"
    return d.zone + (" reversed" if d.reversed else "")  # deck top, deck bottom, scrap, shown


def _block(body: Sequence[A.Node], depth: int, multiline: bool) -> str:
    """Statements joined; `;` is written where the next statement could otherwise be misread."""
    texts = [_stmt(s, depth, multiline) for s in body]
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


def _nested(body: Sequence[A.Node], depth: int, multiline: bool) -> str:
    if not body:
        return "\n" if multiline else " "
    if multiline:
        return "\n" + _block(body, depth + 1, True) + "\n" + INDENT * depth
    return " " + _block(body, depth, False) + " "


def _stmt(node: A.Node, depth: int = 0, multiline: bool = False) -> str:
    if _own(node, "text"):
        return cast(A.Statement, node).text(PRINTER, depth, multiline)
    e = expr_text
    match node:
        case A.Scrap(cards=c):
            return f"scrap {e(c)}"
        case A.Move(cards=c, dest=d):
            return f"move {e(c)} to {dest_text(d)}"
        case A.Attach(card=c, host=h, role=r):
            return f"attach {e(c)} to {e(h)} as {r}"
        case A.Draw(count=c, player=p):
            return f"draw {e(c)}" + (f" for {e(p)}" if p is not None else "")
        case A.Reveal(count=c):
            return f"reveal {e(c)}"
        case A.Shuffle(cards=c):
            return f"shuffle {e(c)} into deck"
        case A.ShuffleUnder(cards=c):
            return f"shuffle {e(c)} under deck"
        case A.Swap(left=lhs, right=rhs):
            return f"swap {e(lhs)} with {e(rhs)}"
        case A.Choose(source=s, chooser=w, verb=v, ordered=True):
            return f"choose order of {e(s)} by {e(w)} as {v}"
        case A.Choose(count=c, source=s, chooser=w, verb=v, upto=True):
            return f"choose up to {e(c)} from {e(s)} by {e(w)} as {v}"
        case A.Choose(count=c, source=s, chooser=w, verb=v):
            return f"choose {e(c)} from {e(s)} by {e(w)} as {v}"
        case A.ChooseNumber(low=lo, high=hi, chooser=w, verb=v):
            return f"choose a number from {e(lo)} to {e(hi)} by {e(w)} as {v}"
        case A.PlayFrom(source=s):
            return f"play from {e(s)}"
        case A.Let(name=n, value=v):
            return f"let {n} = {e(v)}"
        case A.If(then=t, orelse=o) | A.Ask(then=t, orelse=o):
            if isinstance(node, A.Ask):  # `if P agrees to VERB then`: otherwise as an `if`
                text = f"if {e(node.player)} agrees to {node.verb} then{_nested(t, depth, multiline)}"
            else:
                text = f"if {e(node.cond)} then{_nested(t, depth, multiline)}"
            while len(o) == 1 and isinstance(o[0], A.If):  # an else that is one `if`: `else if`
                link = o[0]
                text += f"else if {e(link.cond)} then{_nested(link.then, depth, multiline)}"
                o = link.orelse
            if o:
                text += f"else{_nested(o, depth, multiline)}"
            return text + "end"
        case A.ForEach(var=v, source=s, body=b):
            return f"for each {v} in {e(s)} do{_nested(b, depth, multiline)}end"
        case A.Mark(cards=c, mark=m, turns=None):
            return f"mark {e(c)} as {m}"
        case A.Mark(cards=c, mark=m, turns=t) if t is not None:
            return f"mark {e(c)} as {m} for {e(t)} turns"
        case A.SetCounter(target=t, value=v, turns=n):
            return f"set {expr_text(t, POSTFIX)} to {e(v)}" + (f" for {e(n)} turns" if n is not None else "")
        case A.AddCounter(value=v, target=t):
            return f"add {e(v)} to {expr_text(t, POSTFIX)}"
        case A.Unmark(cards=c, mark=m):
            return f"unmark {e(c)} as {m}"
        case A.Pass():
            return "pass"
        case A.Win(player=p):
            return f"win {e(p)}"
        case A.Nothing():
            return "nothing"
        case A.Show(cards=c, player=p):
            return f"show {e(c)} to {e(p) if p is not None else 'all'}"
    raise TypeError(f"not a statement node: {type(node).__name__}")


def to_text(node: A.Node | Sequence[A.Node], multiline: bool = False) -> str:
    """Source text for a program, a statement, a destination, an expression, or a tuple of statements.

    `multiline=True` writes one statement per line with `if`/`for each` bodies indented (the same
    program: the parser ignores layout)."""
    if isinstance(node, A.Program):
        return _block(node.body, 0, multiline)
    if isinstance(node, (tuple, list)):
        return _block(node, 0, multiline)
    if isinstance(node, A.Dest):
        return dest_text(node)
    if isinstance(node, A.Statement):
        return _stmt(node, 0, multiline)
    return expr_text(cast(A.Node, node))


__all__ = ["to_text", "expr_text", "dest_text", "level", "Printer", "PRINTER"]
