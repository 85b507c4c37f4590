"""Parsing the effect language: Lark (LALR, grammar loaded once) → frozen dataclasses.

`parse_program` and `parse_expr` are the one error boundary: every Lark exception becomes a
RulesetError with the position, what was expected, and a caret under the offending text.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, cast

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from interpreter.core.errors import RulesetError, suggest
from interpreter.core.limits import MAX_EFFECT_CHARS, MAX_EXPR_DEPTH, MAX_EXPR_NODES, MAX_NUMBER_DIGITS
from interpreter.core.source import Span

from . import tables
from . import tree as A

_TERMINAL_WORDS = {
    "NAME": "a name",
    "NUMBER": "a number",
    "STRING": "a string",
    "COMPARE": "a comparison",
    "SEMICOLON": "';'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COMMA": "','",
    "DOT": "'.'",
    "PLUS": "'+'",
    "MINUS": "'-'",
    "STAR": "'*'",
    "SLASH": "'/'",
    "EQUAL": "'='",
    "$END": "the end of the text",
    "_A_NUMBER": "'a number'",
}


@cache
def _parser() -> Lark:
    """The grammar's parser: from its stored LALR tables when they match the grammar (tables.py),
    else built from `effect.lark`."""
    grammar = tables.grammar_text()
    return tables.load(grammar, tables.stored()) or tables.build(grammar)


def _pos(meta_or_token) -> dict[str, Any]:
    return {"line": getattr(meta_or_token, "line", 0) or 0, "column": getattr(meta_or_token, "column", 0) or 0}


class _Helpers:
    """The parse actions of the grammar rules that make no node of their own: their parents read them."""

    def stmts(self, meta, c):  # the statements of a block
        return tuple(c)

    def verb(self, meta, c):  # the word naming a choice or a question (`as VERB`, `agrees to VERB`)
        return str(c[0])

    def in_order(self, meta, c):  # the order of a destination on the deck
        return "in order"

    def reversed_(self, meta, c):
        return "reversed"

    def face_down(self, meta, c):  # a card put in play face down, seen by its owner
        return "down"

    def face_down_unseen(self, meta, c):  # ... seen by nobody
        return "unseen"


def _action(cls: type[A.Node], rule: str) -> Any:
    def action(self: Transformer[Any, Any], meta: Any, c: list[Any]) -> Any:
        return cls.parse(rule, c, _pos(meta))

    action.__name__ = rule
    return action


def _transformer() -> type[Transformer[Any, Any]]:
    """The parse actions: each construct's `parse` for its grammar rules (the table of constructs),
    and the rules that make no node of their own (`_Helpers`)."""
    actions = {name: f for name, f in vars(_Helpers).items() if not name.startswith("__")}
    actions.update({rule: _action(cls, rule) for cls in A.CONSTRUCTS for rule in cls.RULES})
    return cast(type[Transformer[Any, Any]], v_args(meta=True)(type("_ToAst", (Transformer,), actions)))


_ToAst = _transformer()


def _describe_expected(expected) -> str:
    words = sorted({_TERMINAL_WORDS.get(e, f"'{e.lower()}'" if e.isupper() else e) for e in expected})
    if len(words) > 8:
        words = words[:8] + ["..."]
    return ", ".join(words)


_KEYWORDS = (
    "scrap",
    "move",
    "attach",
    "draw",
    "reveal",
    "shuffle",
    "swap",
    "choose",
    "play",
    "let",
    "if",
    "for",
    "mark",
    "unmark",
    "set",
    "add",
    "pass",
    "win",
    "nothing",
    "where",
    "and",
    "or",
    "not",
    "in",
    "then",
    "else",
    "end",
    "each",
    "do",
    "to",
    "from",
    "by",
    "as",
    "of",
    "hand",
    "field",
    "deck",
    "shown",
    "top",
    "bottom",
    "into",
    "with",
    "turns",
    "show",
    "all",
    "under",
    "order",
    "reversed",
    "number",
    "turn",
    "up",
    "face",
    "down",
    "unseen",
)


def _within_budget(tree: Tree[Any], span: Span) -> None:
    """Depth, size and number lengths of a parse tree, checked without recursion before the tree is
    transformed (Lark's transformer recurses, and so do the compiler and the printer)."""
    count = 0
    stack: list[tuple[Tree[Any] | Token, int]] = [(tree, 1)]
    while stack:
        t, depth = stack.pop()
        count += 1
        if isinstance(t, Token):
            if t.type == "NUMBER" and len(t) > MAX_NUMBER_DIGITS:
                raise RulesetError(
                    f"a number of {len(t)} digits; at most {MAX_NUMBER_DIGITS} (MAX_NUMBER_DIGITS)",
                    span.locate(t.line or 1, t.column or 1),
                    code="E213",
                )
            continue
        if depth > MAX_EXPR_DEPTH:
            meta = t.meta
            raise RulesetError(
                f"this effect is nested more than {MAX_EXPR_DEPTH} deep (MAX_EXPR_DEPTH)",
                span.locate(getattr(meta, "line", 1) or 1, getattr(meta, "column", 1) or 1),
                code="E212",
            )
        if count > MAX_EXPR_NODES:
            raise RulesetError(
                f"this effect has more than {MAX_EXPR_NODES} parts (MAX_EXPR_NODES)", span.here(), code="E212"
            )
        stack.extend((c, depth + 1) for c in t.children if c is not None)


# Parsed texts, by (text, start rule): the tree of a text does not depend on where it is written
# (its nodes hold places within the text; a file's span is applied when an error is reported), and
# trees are immutable, so the same text (a base ruleset's, read again for each house rule built on
# it) is parsed once per process. Bounded (short texts, a few thousand of them: a few MB at most);
# only trees are kept, never an error (its place differs).
_PARSED: dict[tuple[str, str], Any] = {}
_PARSED_MAX = 4096
_PARSED_TEXT_MAX = 2000


def _parse(src: str, start: str, span: Span | None):
    found = _PARSED.get((src, start))
    if found is not None:
        return found
    tree = _parse_text(src, start, span)
    if len(src) <= _PARSED_TEXT_MAX:
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        _PARSED[(src, start)] = tree
    return tree


# "you may": what a designer may write, and how the language says it
_MAY_WORDS = {
    "may": "a choice that may be declined is `choose up to N from CARDS by P as VERB` (the verb alone chooses "
    "none); a yes-or-no question is `if P agrees to VERB then ... end` (the moves: VERB and decline)",
    "agree": "a question is `if P agrees to VERB then ... end` (the moves: VERB and decline)",
    "agrees": "a question names its answer yes: `if P agrees to VERB then ... end` (the moves: VERB and decline)",
}


def _pos_of(e: UnexpectedInput) -> int:
    """Where in the text an unexpected token starts."""
    return getattr(getattr(e, "token", None), "start_pos", None) or 0


def _parse_text(src: str, start: str, span: Span | None):
    span = span or Span("<effect>", 1, 1, None, tuple(src.splitlines()))
    if len(src) > MAX_EFFECT_CHARS:
        raise RulesetError(
            f"this effect text has {len(src):,} characters; at most {MAX_EFFECT_CHARS:,} (MAX_EFFECT_CHARS)",
            span.here(),
            code="E212",
        )
    try:
        tree = _parser().parse(src, start=start)
    except UnexpectedInput as e:
        line, column = e.line or 1, e.column or 1
        hint = None
        if isinstance(e, UnexpectedToken):
            got = "end of the text" if e.token.type == "$END" else f"'{e.token}'"
            msg = f"unexpected {got}; expected {_describe_expected(e.accepts or e.expected)}"
            before = src[: _pos_of(e)].rstrip()
            if str(e.token) == "=" and before.endswith(("!=", "==")):  # `!==`, `===`: one '=' too many
                hint = f"did you mean '{before[-2:]}'? (a comparison is written == or !=, with no third '=')"
            elif str(e.token) == "=":  # the slip of every programmer: `it.role = point`
                hint = "did you mean '=='? (a comparison is written ==; `set X to N` changes a number)"
            elif str(e.token) in _MAY_WORDS or "agrees" in src[: _pos_of(e)].split()[-1:]:
                hint = _MAY_WORDS.get(str(e.token), _MAY_WORDS["agrees"])
            elif e.token.type == "NAME":
                near = suggest(str(e.token), _KEYWORDS)
                if near:
                    hint = f"did you mean '{near}'?"
            if hint is None:
                # A misspelled keyword just before (`drw 1`, or `scrapp x`, which the lexer reads as
                # `scrap` + `p`): point at that word instead.
                pos = getattr(e.token, "start_pos", None)
                words = list(re.finditer(r"[A-Za-z_]\w*", src[:pos])) if pos else []
                if words:
                    w = words[-1]
                    near = suggest(w.group(), _KEYWORDS)
                    if w.group() not in _KEYWORDS and near and not src[w.end() : pos].strip(" \t"):
                        msg = f"unexpected '{w.group()}'; expected {_describe_expected(e.accepts or e.expected)}"
                        hint = f"did you mean '{near}'?"
                        line = src.count("\n", 0, w.start()) + 1
                        column = w.start() - (src.rfind("\n", 0, w.start()) + 1) + 1
        elif isinstance(e, UnexpectedCharacters):
            msg = f"unexpected character '{src[e.pos_in_stream or 0]}'"
        else:  # UnexpectedEOF, the only other kind of UnexpectedInput
            msg = f"unexpected end of text; expected {_describe_expected(getattr(e, 'expected', ()))}"
        if isinstance(e, UnexpectedEOF) or (isinstance(e, UnexpectedToken) and e.token.type == "$END"):
            lines = src.splitlines() or [""]
            line, column = len(lines), len(lines[-1]) + 1
        raise RulesetError(msg, span.locate(line, column), code="E101", hint=hint) from None
    except LarkError as e:  # pragma: no cover - defensive
        raise RulesetError(str(e), span.locate(1, 1), code="E101") from None
    _within_budget(tree, span)
    try:
        return _ToAst().transform(tree)
    except RecursionError:  # pragma: no cover - the budget above keeps trees shallow
        raise RulesetError("this effect is nested too deeply", span.here(), code="E212") from None


def parse_program(src: str, span: Span | None = None) -> A.Program:
    """Parse a sequence of statements."""
    return _parse(src, "start", span)


def parse_expr(src: str, span: Span | None = None) -> A.Node:
    """Parse one expression."""
    return _parse(src, "cexpr", span)


__all__ = ["parse_program", "parse_expr", "Span"]
