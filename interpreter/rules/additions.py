"""Additive composition: a file that extends another (or an option) adds to a rule instead of
replacing it (docs/rulesets.md, "Adding to a rule").

* a program field (`effect`, `turn.end`, a kind's `after`, ...) written `{before: TEXT}` and/or
  `{after: TEXT}` runs TEXT before/after the program it extends;
* a condition (`legal`, `visibility.hand`, ...) written `{and: TEXT}` or `{or: TEXT}` becomes
  `(BASE) and (TEXT)` / `(BASE) or (TEXT)`;
* a set of cards (a play's `target`) written `{and: COND}` keeps the cards for which COND holds,
  `(BASE) where (COND)` (`it` is the card), and `{or: CARDS}` adds cards, `(BASE) + (CARDS)`;
* a number (`end.goal`, `end.score`) written `{add: TEXT}` becomes `(BASE) + (TEXT)` (a negative
  TEXT takes away).

Each part is parsed on its own, with its own place in its own file, and the trees are joined into one:
its lines are numbered part after part and a `JoinedSpan` maps each line back to the file that wrote
it, so an error in an added text points into that file. The merged data holds the joined rule printed
as text (so rules pages, `cuttle diff` and the ruleset's hash read it as one rule).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from interpreter.core.errors import RulesetError
from interpreter.core.source import JoinedSpan, Span
from interpreter.language import tree as A
from interpreter.language.node import parts
from interpreter.language.parser import parse_expr, parse_program
from interpreter.language.printer import to_text

from .schema import RULESET

PROGRAM_KEYS = ("before", "after")
EXPR_KEYS = ("and", "or", "add")
NUMBERS = ("goal", "score")
"""Expression fields that hold a number: `add` adds to them, `(BASE) + (TEXT)`."""


@dataclasses.dataclass(frozen=True)
class Joined:
    """A rule made of several parts: its tree (lines numbered part after part), where each part's lines
    are, and how many lines it has in all."""

    tree: Any
    span: JoinedSpan
    lines: int


def field_kind(path: tuple) -> str | None:
    """'program' or 'expr' if `path` of a ruleset holds effect-language text, else None."""
    schema: Any = RULESET
    typ: Any = None
    for key in path:
        if not isinstance(schema, dict):
            return None
        sub = schema.get("*", schema.get(key)) if key not in schema else schema[key]
        if sub is None:
            return None
        typ = sub[0] if isinstance(sub, tuple) else sub
        schema = typ
    return typ if typ in ("program", "expr") else None


def is_addition(value: Any, kind: str | None) -> bool:
    """Whether a value written at a field of this kind is an addition (a mapping of before/after or
    and/or) rather than a replacement."""
    return kind is not None and isinstance(value, dict)


CARD_SETS = ("target",)
"""Expression fields that hold a set of cards, not a condition: `and` filters them, `or` adds to them."""

ALWAYS_TRUE = ("legal", "when")
"""Conditions that hold when they are not written (a play's, a response's, a trigger's)."""


def field_kind_of(path: tuple) -> str | None:
    """field_kind, for the fields that may be added to (every effect field but a definition)."""
    return field_kind(path) if path[:1] != ("define",) else None


def _shift(node: Any, by: int) -> Any:
    """The tree with every line number moved down by `by` (its place in the joined rule)."""
    if isinstance(node, tuple):
        return tuple(_shift(x, by) for x in node)
    if not isinstance(node, A.Node):
        return node
    changes = {f: _shift(getattr(node, f), by) for f in parts(node)}
    return dataclasses.replace(node, **changes, line=node.line + by if node.line else 0)


def _lines(text: Any) -> int:
    """The lines a part takes (a number or true/false written as YAML: one)."""
    return text.count("\n") + 1 if isinstance(text, str) else 1


def _parse(text: Any, kind: str, span: Span | None) -> Any:
    if isinstance(text, bool):
        return A.Name("true" if text else "false")
    return (parse_program if kind == "program" else parse_expr)(str(text), span)


def _check_added(
    kind: str, path: tuple, base: Any, prior: Joined | None, added: dict, spans: dict[str, Span | None], where_key: Any
) -> bool:
    """The checks of an addition (its keys for the kind of field, something to add to, text in
    each part); True when there is nothing to add to that needs nothing (the addition is the rule)."""
    dotted = ".".join(map(str, path))
    keys = PROGRAM_KEYS if kind == "program" else EXPR_KEYS
    wrong = [k for k in added if k not in keys]
    cut = [k for k in added if k in keys and isinstance(added[k], str) and added[k].count("(") > added[k].count(")")]
    if wrong and cut:  # `{and: marked(card, frozen)}`: YAML ended the text at the comma, `frozen)` a key
        raise RulesetError(
            f"{dotted}: the comma in {{{cut[0]}: {added[cut[0]]}, {wrong[0]}}} ended the text: in YAML's braces a "
            f"comma separates keys, so '{wrong[0]}' was read as a key of its own",
            where_key,
            code="E030",
            hint=f"quote the text ({cut[0]}: \"...\") or write it on the line under '{cut[0]}:' (block form)",
        )
    if wrong or not added:
        what = (
            "a program: write {before: TEXT} and/or {after: TEXT}"
            if kind == "program"
            else "an expression: write {and: TEXT} or {or: TEXT} ({add: TEXT} for a number)"
        )
        raise RulesetError(
            f"{dotted} is {what}" + (f", not '{wrong[0]}'" if wrong else ""),
            where_key,
            code="E030",
            hint="or write the whole rule as text to replace it",
        )
    if kind == "expr" and len(added) > 1:
        raise RulesetError(
            f"{dotted}: write {{and: TEXT}} or {{or: TEXT}}, not both (which comes first?)",
            where_key,
            code="E030",
            hint="join them in one text: {and: (A) or (B)}",
        )
    numeric = path[-1] in NUMBERS
    if kind == "expr" and ("add" in added) != numeric:
        raise RulesetError(
            f"{dotted} is a number: write {{add: TEXT}} to add to it"
            if numeric
            else f"{dotted} is not a number: 'add' adds only to end.goal and end.score",
            where_key,
            code="E030",
            hint="or write the whole rule as text to replace it",
        )
    # Nothing to add to: a program that is not there has no steps, and a play's, response's or trigger's
    # condition that is not there always holds ({and: X} is then X); any other field has a default of its own.
    always = path[-1] in ALWAYS_TRUE or path[:1] == ("kinds",) and path[-1] in CARD_SETS  # (a kind's target)
    empty = base is None and prior is None and (kind == "program" or always and "and" in added)
    if base is None and not empty:
        why = " (without one it always holds: an 'or' would change nothing)" if always else ""
        raise RulesetError(
            f"{dotted}: there is no rule here to add to (nothing it extends sets {dotted}){why}",
            where_key,
            code="E030",
            hint="write the whole rule as text",
        )
    for k, v in added.items():
        if isinstance(v, int) and not isinstance(v, bool) and kind == "expr":  # `{add: 3}`: the number 3
            continue
        if not isinstance(v, Joined) and (not isinstance(v, str) or not v.strip()):
            raise RulesetError(
                f"{dotted}.{k} must be effect-language text" + (" or a whole number" if kind == "expr" else ""),
                _here(spans.get(k)) or where_key,
                code="E030",
            )
    return empty


def join(
    kind: str,
    path: tuple,
    base: Any,
    base_span: Span | JoinedSpan | None,
    prior: Joined | None,
    added: dict,
    spans: dict[str, Span | None],
    where_key: Any,
) -> tuple[str, Joined]:
    """The rule at `path` with `added` ({before/after} or {and/or}) joined to `base` (its text, or `prior`
    if it was already joined). Returns the joined rule printed as text and the Joined. Raises a
    RulesetError (at `where_key`) for a wrong key or nothing to add to, or the parse error of a part."""
    empty = _check_added(kind, path, base, prior, added, spans, where_key)
    if empty:
        parts = []
    elif prior is not None:
        parts = [(prior.tree, prior.span, prior.lines)]
    else:
        tree = _parse(base, kind, base_span if isinstance(base_span, Span) else None)
        parts = [
            (
                tree,
                JoinedSpan((1,), (base_span if isinstance(base_span, Span) else None,)),
                _lines(base),
            )
        ]
    pieces: list[tuple[str, Any, JoinedSpan, int]] = []  # (role, tree, where its lines are, lines)
    for k, v in added.items():
        if isinstance(v, Joined):  # a rule itself joined from parts (a kind's, added to its plays)
            pieces.append((k, v.tree, v.span, v.lines))
        else:
            pieces.append((k, _parse(v, kind, spans.get(k)), JoinedSpan((1,), (spans.get(k),)), _lines(v)))
    before = [p for p in pieces if p[0] == "before"]
    after = [p for p in pieces if p[0] != "before"]
    seq: list[tuple[Any, JoinedSpan, int]] = [(t, s, n) for _, t, s, n in before]
    seq += parts
    seq += [(t, s, n) for _, t, s, n in after]
    starts: list[int] = []
    out_spans: list[Any] = []
    trees = []
    line = 0
    for tree, jspan, n in seq:
        trees.append(_shift(tree, line))
        starts += [line + s for s in jspan.starts]
        out_spans += list(jspan.spans)
        line += n
    if kind == "program":
        body = tuple(x for t in trees for x in (t.body if isinstance(t, A.Program) else (t,)))
        joined: Any = A.Program(body)
    else:
        op = next(iter(added))
        if len(trees) < 2:
            joined = trees[0]
        elif path[-1] in CARD_SETS and path[:1] != (
            "kinds",
        ):  # a set of cards (a kind's target: a condition): `and` keeps those for which the text holds, `or` adds
            joined = A.Where(trees[0], trees[1]) if op == "and" else A.BinOp("+", trees[0], trees[1])
        elif op == "add":  # a number: the addition is added to it
            joined = A.BinOp("+", trees[0], trees[1])
        else:
            joined = A.BinOp(op, trees[0], trees[1])
    result = Joined(joined, JoinedSpan(tuple(starts), tuple(out_spans)), line)
    return to_text(joined, multiline=kind == "program"), result


def _here(span: Any) -> Any:
    """Where a span starts, or None without one."""
    return span.here() if span is not None else None


__all__ = ["Joined", "field_kind", "field_kind_of", "is_addition", "join", "PROGRAM_KEYS", "EXPR_KEYS"]
