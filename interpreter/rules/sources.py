"""Where ruleset files come from: the shipped rulesets by name, or a file by path."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from interpreter.core.errors import RulesetError, suggest

from .yamlsrc import YamlDoc, load_yaml

SHIPPED = "rulesets"


def shipped_names() -> list[str]:
    return sorted(p.name[:-5] for p in resources.files(SHIPPED).iterdir() if p.name.endswith(".yaml"))


def read_part(part: str) -> YamlDoc:
    """A shipped ruleset by name, or a file by path."""
    looks_like_path = "/" in part or part.endswith((".yaml", ".yml"))
    if not looks_like_path:
        f = resources.files(SHIPPED).joinpath(part + ".yaml")
        if not f.is_file():
            near = suggest(part, shipped_names())
            raise RulesetError(f"no ruleset named '{part}'", None, code="E002",
                               hint=(f"did you mean '{near}'? " if near else "")
                               + f"shipped: {', '.join(shipped_names())}; or give a path to a .yaml file")
        return load_yaml(f.read_text(encoding="utf-8"), f"rulesets/{part}.yaml")
    p = Path(part)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise RulesetError(f"cannot read ruleset file '{part}': {e.strerror}", None, code="E002") from None
    return load_yaml(text, str(part))


def relative(part: str, to: Path | None) -> str:
    """A path written in a ruleset file is relative to that file's directory."""
    if to is not None and looks_like_path(part) and not Path(part).is_absolute():
        return str(to.parent / part)
    return part


def looks_like_path(part: str) -> bool:
    return "/" in part or part.endswith((".yaml", ".yml"))
