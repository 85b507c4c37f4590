"""Validation of a composed ruleset against its schema (schema.py): unknown keys, wrong types,
unknown ranks and cards, each reported with its place and the nearest valid name."""

from __future__ import annotations

from typing import Any

from interpreter.core.cards import ALL_RANKS, MOVE_WORD, NAMES, UnknownCardError, parse_card
from interpreter.core.errors import RulesetError, suggest
from interpreter.core.limits import MAX_SETTING

from .compose import Composed
from .lint import rank_hint
from .schema import ENDING_WORDS, RULESET, ending_slip


def validate(c: Composed, errors: list[RulesetError]) -> None:
    _check_map(c, c.data, RULESET, (), errors)


def _check_map(c: Composed, data: Any, schema: dict, path: tuple, errors: list[RulesetError]) -> None:
    if not isinstance(data, dict):
        errors.append(
            RulesetError(f"{'.'.join(map(str, path)) or 'the ruleset'} must be a mapping", c.where(path), code="E010")
        )
        return
    for key, value in data.items():
        p = path + (key,)
        if "*" in schema:
            sub = schema["*"]
        elif key in schema:
            sub = schema[key]
        else:
            near = suggest(key, schema)
            hint = f"did you mean '{near}'?" if near else f"expected one of: {', '.join(schema)}"
            if not path and key in ("setup", "moves", "expect"):
                hint = "this looks like a scenario file: run it with `cuttle run FILE`"
            errors.append(
                RulesetError(
                    f"unknown key '{key}' in {'.'.join(map(str, path)) or 'the ruleset'}",
                    c.key_where(p),
                    code="E011",
                    hint=hint,
                )
            )
            continue
        if isinstance(sub, dict):
            _check_map(c, value, sub, p, errors)
            continue
        typ = sub[0]
        if isinstance(typ, dict):
            _check_map(c, value, typ, p, errors)
        else:
            _check_value(c, value, typ, p, errors)


def _check_value(c: Composed, value: Any, typ: Any, path: tuple, errors: list[RulesetError]) -> None:
    name = ".".join(map(str, path))

    def bad(msg: str, code: str = "E012", hint: str | None = None) -> None:
        errors.append(RulesetError(f"{name}: {msg}", c.where(path), code=code, hint=hint))

    if typ == "expr":
        if not isinstance(value, (str, bool, int)):  # (a whole number is the expression it writes)
            bad(f"expected an expression (text, a whole number, or true/false), got {type(value).__name__}")
    elif typ == "ending":  # a shipped word, or an expression naming the winner
        if not isinstance(value, str):
            bad(f"expected {' or '.join(ENDING_WORDS)}, or an expression naming the winner, got {type(value).__name__}")
        elif ending_slip(value):  # a slip of a shipped word (`most_point`), not a name of the rules
            bad(
                f"expected {' or '.join(ENDING_WORDS)}, or an expression naming the winner, got '{value}'",
                hint=f"did you mean '{ending_slip(value)}'?",
            )
    elif typ in ("str", "program"):
        if not isinstance(value, str):
            bad(f"expected text, got {type(value).__name__}")
    elif typ == "word":
        if not isinstance(value, str) or not MOVE_WORD.match(value):
            bad("expected a lower-case word (a letter, then letters, digits, '-' or '_'): it begins a move")
    elif typ == "int":
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            bad("expected a whole number 0 or more")
        elif value > MAX_SETTING:
            bad(f"expected a whole number up to {MAX_SETTING:,} (MAX_SETTING)")
    elif typ == "bool":
        if not isinstance(value, bool):
            bad("expected true or false")
    elif typ in ("ranks", "words", "card-list"):
        if not isinstance(value, list):
            bad("expected a list [...]")
            return
        for i, v in enumerate(value):
            if typ == "ranks" and str(v) not in ALL_RANKS:
                errors.append(
                    RulesetError(
                        f"{name}: unknown rank '{v}'", c.where(path + (i,)), code="E013", hint=rank_hint(str(v))
                    )
                )
            elif typ == "card-list":
                try:
                    parse_card(str(v))
                except UnknownCardError:
                    near = suggest(str(v).upper(), NAMES)
                    errors.append(
                        RulesetError(
                            f"{name}: '{v}' is not a card",
                            c.where(path + (i,)),
                            code="E014",
                            hint=f"did you mean '{near}'?"
                            if near
                            else "write a rank A,2-10,J,Q,K then a suit C,D,H,S (7H, 10S); Jokers are RJ and BJ",
                        )
                    )
            elif typ == "words" and not isinstance(v, str):
                errors.append(RulesetError(f"{name}: expected words", c.where(path + (i,)), code="E012"))
    elif isinstance(typ, tuple) and typ[0] == "enum":
        if value not in typ[1:]:
            bad(
                f"expected one of {', '.join(typ[1:])}, got '{value}'",
                hint=(f"did you mean '{suggest(str(value), typ[1:])}'?" if suggest(str(value), typ[1:]) else None),
            )


def int_or(v: Any, default: int) -> int:
    """A whole number from the data (a wrong one is reported by validation; the default stands in)."""
    return v if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_SETTING else default


def list_or(v: Any) -> list:
    return v if isinstance(v, list) else []
