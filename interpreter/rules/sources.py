"""Where ruleset files come from: the shipped rulesets by name, or a file by path.

A file named by the user (on the command line, to the API) may be anywhere. A file named *by
another file* (`extends:`, `options:`, a scenario's or a record's `ruleset:`) is read relative to
that file's folder, must be a `.yaml`/`.yml` file, and must lie in that folder or below it, or in
the folder the user works in when the naming file lies there too (core/files.py `may_name`): a
ruleset shared by a stranger cannot make Cuttle Lab read, or echo, anything else on the machine.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from importlib import resources
from pathlib import Path

from interpreter.core.errors import RulesetError, suggest
from interpreter.core.files import FileProblem, may_name, read_text

from .yamlsrc import YamlDoc, load_yaml

SHIPPED = "rulesets"
_SHIPPED_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")


def shipped_names() -> list[str]:
    return sorted(p.name[:-5] for p in resources.files(SHIPPED).iterdir() if p.name.endswith(".yaml"))


def shipped_catalogue() -> list[tuple[str, str, str]]:
    """Every shipped ruleset as (name, kind, one-line description), bases first, then options."""
    rows = []
    for name in shipped_names():
        data = read_part(name).data
        data = data if isinstance(data, dict) else {}
        rows.append((name, str(data.get("kind", "base")), " ".join(str(data.get("description", "")).split())))
    return sorted(rows, key=lambda r: (r[1] != "base", r[0] != "default", r[0]))


_SHIPPED_DOCS: dict[tuple[str, str], YamlDoc] = {}


def _shipped(part: str, text: str) -> YamlDoc:
    """A shipped ruleset's document, read once per process for the same text (every house rule that
    extends `default` reads it again); each caller gets its own copy of the data, which composition
    may change. Spans and lines are immutable and shared."""
    doc = _SHIPPED_DOCS.get((part, text))
    if doc is None:
        doc = _SHIPPED_DOCS[(part, text)] = load_yaml(text, f"rulesets/{part}.yaml")
    return dataclasses.replace(doc, data=copy.deepcopy(doc.data), marks=doc.marks.copy())


def read_part(part: str) -> YamlDoc:
    """A shipped ruleset by name, or a file by path."""
    if not looks_like_path(part):
        f = resources.files(SHIPPED).joinpath(part + ".yaml") if _SHIPPED_NAME.match(part) else None
        if f is None or not f.is_file():
            near = suggest(part, shipped_names())
            raise RulesetError(
                f"no ruleset named '{part}'",
                None,
                code="E002",
                hint=(f"did you mean '{near}'? " if near else "")
                + f"shipped: {', '.join(shipped_names())} (`cuttle rules` describes them); "
                + "or give a path to a .yaml file",
            )
        return _shipped(part, f.read_text(encoding="utf-8"))
    try:
        text = read_text(part, "ruleset file")
    except FileProblem as e:
        raise RulesetError(str(e), None, code="E002") from None
    return load_yaml(text, str(part))


def relative(part: str, to: Path | None) -> str:
    """A path written in the file `to` (None: named by the user) is read relative to that file's folder,
    and must name a .yaml file in that folder or below (RulesetError otherwise, without reading it)."""
    if to is None or not looks_like_path(part):
        return part
    return str(confined(part, to, "a ruleset"))


def resolve_spec(spec: str, to: Path) -> str:
    """A spec (`base+option+...`) written in the file `to`: each file part confined to `to`'s folder."""
    return "+".join(relative(part.strip(), to) for part in spec.split("+"))


def confined(part: str, to: Path, what: str) -> Path:
    """`part`, written in the file `to`, as a path relative to `to`'s folder; refused if it leads
    outside both that folder and the working folder (`may_name`)."""
    folder = to.parent
    hint = (
        f"a file may name a shipped ruleset, or a .yaml file in its own folder ({folder}) or below it, "
        f"or anywhere in the folder you work in when the file lies there too: run cuttle from the "
        f"folder that holds both"
    )
    if "\0" in part or Path(part).is_absolute():
        raise RulesetError(f"{what} path written in '{to}' may not be absolute: '{part}'", None, code="E004", hint=hint)
    if not part.endswith((".yaml", ".yml")):
        raise RulesetError(
            f"{what} path written in '{to}' must name a .yaml file: '{part}'", None, code="E004", hint=hint
        )
    path = folder / part
    if not may_name(path, to):
        raise RulesetError(
            f"{what} path written in '{to}' leads outside its folder and the working folder: '{part}'",
            None,
            code="E004",
            hint=hint,
        )
    return path


def looks_like_path(part: str) -> bool:
    return "/" in part or "\\" in part or part.endswith((".yaml", ".yml"))
