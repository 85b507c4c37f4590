"""The architecture: the rooms of interpreter/ and repl/ in layers, checked by import-linter against
the contracts in pyproject.toml, and docs/architecture.md kept in step with them."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[1]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
LAYERS = next(c for c in CONFIG["contracts"] if c["id"] == "layers")["layers"]


def _modules(layer: str) -> list[str]:
    return [m.strip() for m in re.split(r"[|:]", layer)]


def test_every_contract_is_kept(capsys: pytest.CaptureFixture[str]) -> None:
    status = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True)
    out = capsys.readouterr().out
    assert status == 0, out
    assert out.count(" KEPT") == len(CONFIG["contracts"]), out


def test_every_room_is_in_a_layer() -> None:
    """A new subpackage (or top-level module) of interpreter/ that no layer names would go unchecked."""
    layered = {m for layer in LAYERS for m in _modules(layer)}
    rooms = {
        f"interpreter.{p.name}" for p in (ROOT / "interpreter").iterdir() if p.is_dir() and (p / "__init__.py").exists()
    }
    rooms |= {f"interpreter.{p.stem}" for p in (ROOT / "interpreter").glob("*.py") if p.stem != "__init__"}
    assert rooms - layered == set(), f"rooms missing from the layers contract: {sorted(rooms - layered)}"
    assert layered - rooms - {"repl"} == set(), f"layers naming no room: {sorted(layered - rooms - {'repl'})}"


def test_the_diagram_shows_the_contracted_layers_in_order() -> None:
    """docs/architecture.md draws the layers top to bottom; the contract is the truth it must show."""
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = doc.split("<!-- layers -->", 2)[1]
    drawn = re.findall(r"`((?:interpreter|repl)[a-z_.]*)`", block)
    expected = [m for layer in LAYERS for m in _modules(layer)]
    assert drawn == expected, "docs/architecture.md's layer diagram is out of step with pyproject.toml"


def test_the_rooms_table_names_every_module_of_each_room() -> None:
    """docs/architecture.md lists each room's modules: a module added without a word there fails."""
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    rooms = {p.name: p for p in (ROOT / "interpreter").iterdir() if (p / "__init__.py").exists()}
    rooms["repl"] = ROOT / "repl"
    for room, folder in rooms.items():
        row = next((line for line in doc.splitlines() if line.startswith(f"| `{room}` |")), None)
        assert row is not None, f"docs/architecture.md has no row for the room {room}"
        listed = set(re.findall(r"`([a-z_]+)`", row.split("|")[2]))
        modules = {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
        assert modules <= listed, f"{room}: not in docs/architecture.md: {sorted(modules - listed)}"


def test_no_function_is_over_100_lines() -> None:
    """Modules of one concern, functions of one task: a function longer than a screenful or two is
    split along its parts (issue 22 item 4)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    long = []
    for package in ("interpreter", "repl"):
        for path in sorted((root / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    length = (node.end_lineno or node.lineno) - node.lineno + 1
                    if length > 100:
                        long.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({length} lines)")
    assert long == []
