"""The state operations the effect language may use are declared once (language/protocol.py): the
allow-list of generated code is made from that declaration, the engine's state offers every one of
them, and the reference evaluator uses no other (mypy checks the same with the types; this scan
needs no mypy)."""

from __future__ import annotations

import ast
from pathlib import Path

from interpreter import Game, load_ruleset
from interpreter.language import allowlist
from interpreter.language.protocol import ReferenceState, RuleState, members

LANGUAGE = Path(__file__).resolve().parent.parent / "interpreter" / "language"


def test_the_allow_list_is_the_protocol() -> None:
    assert allowlist.STATE_ATTRS == members(RuleState)
    assert {a for base, a in allowlist.ALLOWED_ATTRS if base == "g"} == members(RuleState)
    assert members(RuleState) < members(ReferenceState)


def test_the_engine_state_offers_every_declared_operation() -> None:
    g = Game.new(load_ruleset("default"), 1).state
    missing = sorted(m for m in members(ReferenceState) if not hasattr(g, m))
    assert not missing, f"declared in language/protocol.py but not on the engine's State: {missing}"


def _state_uses(path: Path) -> set[tuple[str, int]]:
    """Every attribute the code reads of a parameter or local named `g` (the state)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        (n.attr, n.lineno)
        for n in ast.walk(tree)
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "g"
    }


def test_the_reference_and_the_helpers_use_only_declared_operations() -> None:
    allowed = members(ReferenceState)
    files = sorted([*LANGUAGE.glob("constructs/*.py"), LANGUAGE / "reference.py", LANGUAGE / "runtime.py"])
    assert len(files) > 30
    undeclared = [f"{p.name}:{line}: g.{a}" for p in files for a, line in sorted(_state_uses(p)) if a not in allowed]
    assert not undeclared, f"state operations not declared in language/protocol.py: {undeclared}"
