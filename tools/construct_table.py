"""Write docs/effect-language.md's table of constructs anew from the constructs' own examples (each
construct class's `EXAMPLES`, language/node.py's `Example`): `python tools/construct_table.py`.
tests/test_every_construct.py fails while the table differs from what this writes."""

from __future__ import annotations

import sys
from pathlib import Path

from interpreter.language import tree as A

DOC = Path(__file__).resolve().parent.parent / "docs" / "effect-language.md"
MARK = "<!-- constructs -->"

#: how a hole of an example's form reads in the table
SHOWN = {
    "player": "P",
    "card": "CARD",
    "cards": "CARDS",
    "int": "N",
    "bool": "COND",
    "it:int": "N",
    "it:bool": "COND",
    "x:bool": "COND",
    "dest": "DEST",
    "body": "...",
    "compare": "CMP",
    "arith": "OP",
    "n": "K",
}


def form(text: str) -> str:
    """An example's form as the table shows it: holes in capitals, on one line (statements apart by
    `;`, but after `then`, `do` and `else` and before `end`)."""
    for hole, shown in SHOWN.items():
        text = text.replace("{" + hole + "}", shown)
    out = ""
    for line in (line.strip() for line in text.splitlines()):
        if out:
            block = out.endswith((" then", " do", "else")) or line == "end" or line.startswith("else")
            out += " " if block else "; "
        out += line
    return out


def what(cls: type) -> str:
    """What a construct is: the first paragraph of its class's docstring, or else of its module's, on
    one line (a dataclass without a docstring of its own is given its signature as one)."""
    doc = cls.__doc__ or ""
    if not doc or doc.startswith(f"{cls.__name__}("):
        doc = sys.modules[cls.__module__].__doc__ or ""
    return " ".join(doc.strip().split("\n\n")[0].split())


def table() -> str:
    """The table: one row per construct of `CONSTRUCTS`, in its order, with each example's form."""
    rows = ["| construct | what it is | examples (the fuzzing fills each capital) |", "|---|---|---|"]
    for cls in A.CONSTRUCTS:
        examples = " · ".join(f"`{form(ex.form)}`" for ex in cls.EXAMPLES)
        said = what(cls).replace("|", "\\|")
        rows.append(f"| `{cls.__name__}` | {said} | {examples} |")
    return "\n".join(rows) + "\n"


def written(doc: str) -> str:
    """The document with the table between its two marks written anew."""
    before, _, rest = doc.partition(MARK)
    _, _, after = rest.partition(MARK)
    return f"{before}{MARK}\n{table()}{MARK}{after}"


def main() -> None:
    text = DOC.read_text(encoding="utf-8")
    if text.count(MARK) != 2:
        raise SystemExit(f"{DOC}: expected two {MARK} marks around the table")
    DOC.write_text(written(text), encoding="utf-8")


if __name__ == "__main__":
    main()
