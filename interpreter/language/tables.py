"""The effect grammar's LALR tables, kept as data beside the grammar so that a command does not
build them each time it starts (building takes about 0.13 s of CPU, reading them about 0.03 s).

`effect.tables.json` holds what Lark's own `memo_serialize` gives (the way Lark's standalone tool
ships a parser), as JSON: plain data, never code and never a pickle. It is stamped with the SHA-256
of the grammar text and the Lark version it was made with, and read only when both match: any other
file (a stale one, a damaged one, another Lark) is ignored and the tables are built from the grammar
as before. `python tools/grammar_tables.py` writes it anew; a test fails when it is stale.
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from typing import Any

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

TABLES = "effect.tables.json"
OPTIONS: dict[str, Any] = {
    "parser": "lalr",
    "propagate_positions": True,
    "maybe_placeholders": True,
    "start": ["start", "cexpr"],
}


def grammar_text() -> str:
    return resources.files("interpreter.language").joinpath("effect.lark").read_text(encoding="utf-8")


def stamp(grammar: str) -> dict[str, str]:
    return {"grammar_sha256": hashlib.sha256(grammar.encode("utf-8")).hexdigest(), "lark": lark.__version__}


def build(grammar: str) -> Lark:
    return Lark(grammar, **OPTIONS)


# JSON has neither tuples nor keys other than text: both are written as tagged lists
def _enc(x: Any) -> Any:
    if isinstance(x, dict):
        if all(isinstance(k, str) for k in x):
            return {k: _enc(v) for k, v in x.items()}
        return {"__items__": [[_enc(k), _enc(v)] for k, v in x.items()]}
    if isinstance(x, tuple):
        return {"__tuple__": [_enc(v) for v in x]}
    if isinstance(x, list):
        return [_enc(v) for v in x]
    if x is None or isinstance(x, (str, int, float, bool)):
        return x
    raise TypeError(f"cannot keep a {type(x).__name__} in the tables")


def _dec(x: Any) -> Any:
    if isinstance(x, dict):
        if len(x) == 1 and "__items__" in x:
            return {_key(_dec(k)): _dec(v) for k, v in x["__items__"]}
        if len(x) == 1 and "__tuple__" in x:
            return tuple(_dec(v) for v in x["__tuple__"])
        return {k: _dec(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_dec(v) for v in x]
    return x


def _key(k: Any) -> Any:
    return tuple(k) if isinstance(k, list) else k


def tables_of(parser: Lark) -> dict[str, Any]:
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    return {"data": _enc(data), "memo": _enc(memo)}


def stored() -> str | None:
    try:
        return resources.files("interpreter.language").joinpath(TABLES).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def load(grammar: str, text: str | None) -> Lark | None:
    """The parser from the tables file's `text`, or None when it is missing, stale or unreadable."""
    if text is None:
        return None
    try:
        doc = json.loads(text)
        if not isinstance(doc, dict) or doc.get("stamp") != stamp(grammar):
            return None
        return Lark._load_from_dict(_dec(doc["tables"]["data"]), _dec(doc["tables"]["memo"]))
    except Exception:  # any other file: build the tables from the grammar instead
        return None


def document(grammar: str) -> str:
    """The text of the tables file for `grammar` (what `main` writes)."""
    return json.dumps({"stamp": stamp(grammar), "tables": tables_of(build(grammar))}, separators=(",", ":")) + "\n"


def main() -> None:
    grammar = grammar_text()
    target = resources.files("interpreter.language").joinpath(TABLES)
    with resources.as_file(target) as path:
        path.write_text(document(grammar), encoding="utf-8")
