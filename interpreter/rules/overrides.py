"""A ruleset with some of its values set by key path, built as data: `cuttle sweep`'s variants.

    setting = parse_setting("end.goal=18,21,24")          # a key path and the values it takes
    rules = load_with("default", [(setting, "18")])       # default with end.goal set to 18

A variant is the ruleset composed as usual, then one document made in memory merged over it, as a
file that `extends` it would be (compose.py `over`): each value is read as YAML, so `8`, `[21, 14]`,
`{add: 3}` or an effect-language text are what they would be in a file, and an addition (`{and:
...}`, `{add: N}`) joins the rule it extends. Every problem is the loader's own error, pointing
into the value as the command line wrote it (`--set end.goal:1:1: ...`), under a line that names the
key, the value and the ruleset.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from interpreter.core.errors import CuttleError, RulesetError, RulesetErrors, suggest
from interpreter.core.source import Span

from .compose import compose
from .load import load_ruleset
from .model import Rules
from .paths import PathDict
from .schema import RULESET
from .yamlsrc import KEY, YamlDoc, load_yaml

_KEY = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_ -]*$")  # a name with spaces, as a trigger's may be ("two jacks")
_PART = re.compile(r'\s*(?:"([^"]*)"|([^."]*))\s*(?:\.|$)')  # a key, or a quoted one (dots allowed inside)
MAX_VALUES = 50  # values of one --set (a grid multiplies them)
# keys that say what a ruleset is composed of, read while composing (before `over` is merged): set by
# --set, they would be dropped, while the sweep labelled its variants with them
COMPOSITION = ("extends", "options", "requires", "conflicts", "kind")


class SettingError(CuttleError):
    """A --set that names no key, or gives no value."""


@dataclass(frozen=True)
class Setting:
    """One `--set KEY=V1,V2,...`: a key path and the values (as written) it takes in turn."""

    key: str  # as written: constants.hand_limit
    path: tuple[str, ...]
    values: tuple[str, ...]


def split_values(text: str) -> list[str]:
    """V1,V2,... split at the commas outside brackets and quotes, so that `[21, 14],[18, 12]` is two
    lists and `'a, b'` one text."""
    out: list[str] = []
    cur: list[str] = []
    depth, quote = 0, ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
        elif ch == "," and depth <= 0:
            out.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    out.append("".join(cur).strip())
    return out


def key_path(key: str) -> tuple[str, ...] | None:
    """`triggers.two jacks.when` or `triggers."a.b".when` as its keys, or None when it is not one."""
    if not key.strip() or key.rstrip().endswith("."):
        return None
    parts: list[str] = []
    at = 0
    while at < len(key):
        m = _PART.match(key, at)
        quoted, plain = (m.group(1), m.group(2)) if m else (None, None)
        if quoted is not None and quoted.strip():
            parts.append(quoted)
        elif plain is not None and _KEY.match(plain.strip()):
            parts.append(plain.strip())
        else:
            return None
        at = m.end() if m else len(key)
    return tuple(parts)


def parse_setting(text: str) -> Setting:
    """`KEY=V1,V2,...` as a Setting, or a SettingError that says what is wrong with it."""
    key, eq, rest = text.partition("=")
    key = key.strip()
    if not eq or not key:
        raise SettingError(f"--set '{text}': write KEY=V1,V2,... (for example --set end.goal=18,21,24)")
    path = key_path(key)
    if path is None:
        raise SettingError(
            f"--set '{text}': '{key}' is not a key path: write the keys from the top of a ruleset file, "
            "joined by dots (constants.hand_limit, end.goal, triggers.two jacks.when; a key with a dot in "
            'double quotes: triggers."a.b".when)'
        )
    if path[0] in COMPOSITION:
        raise SettingError(
            f"--set {key}: '{path[0]}' says what the ruleset is made of, not a value of its rules, so a sweep "
            f"cannot vary it; give other rulesets or options as the ruleset itself (default+twinned), or "
            f"compare them (cuttle compare default default+twinned)"
        )
    values = split_values(rest)
    if any(not v for v in values):
        raise SettingError(f"--set '{text}': a value is empty (write KEY=V1,V2,... with no empty value)")
    if any(ch in v for v in values for ch in "\n\r\0"):
        raise SettingError(f"--set '{key}': a value may not hold a line break")
    if len(set(values)) != len(values):
        raise SettingError(f"--set '{text}': a value is given twice")
    if len(values) > MAX_VALUES:
        raise SettingError(f"--set '{key}': {len(values)} values, more than {MAX_VALUES}")
    return Setting(key, path, tuple(values))


def _schema_at(path: Sequence[str]) -> Any:
    """The schema entry of a key path (schema.py), or None where the schema has no such key."""
    node: Any = RULESET
    for key in path:
        if isinstance(node, tuple):
            node = node[0]
        if not isinstance(node, dict):
            return None
        node = node.get("*", node.get(key))
    return node


def check_path(spec: str, data: dict, setting: Setting) -> None:
    """A key path must name a value the ruleset has, or a key its schema allows (the validator then
    judges the value): a misspelt constant would otherwise add a new one and change nothing."""
    node: Any = data
    for i, key in enumerate(setting.path):
        here = ".".join(setting.path[: i + 1])
        if not isinstance(node, dict):
            raise SettingError(
                f"--set {setting.key}: {'.'.join(setting.path[:i])} of '{spec}' is a value, not a section with keys"
            )
        if key in node:
            node = node[key]
            continue
        schema = _schema_at(setting.path[:i])
        free = isinstance(schema, tuple) and isinstance(schema[0], dict) and "*" in schema[0]
        if free or i == 0 and key not in RULESET:
            near = suggest(key, [str(k) for k in node])
            raise SettingError(
                f"--set {setting.key}: '{spec}' has no {here}"
                + (f" (did you mean {'.'.join(setting.path[:i] + (near,))}?)" if near else "")
                + (f"; its {'.'.join(setting.path[:i])} are: {', '.join(map(str, node))}" if i and node else "")
            )
        return  # a key the schema allows and the ruleset leaves out: the validator judges it


def _document(point: Sequence[tuple[Setting, str]], name: str) -> YamlDoc:
    """The document that sets each key of `point` to its value, each value read as YAML on its own
    (its errors point into the value: `--set KEY:1:COL`)."""
    doc = YamlDoc({"name": name}, "--set", (), PathDict())
    for setting, text in point:
        value = load_yaml(text, f"--set {setting.key}")
        where = value.marks.get(()) or Span(f"--set {setting.key}", 1, 1, None, (text,))
        node = doc.data
        for i, key in enumerate(setting.path[:-1]):
            node = node.setdefault(key, {})
            for p in (setting.path[: i + 1], setting.path[: i + 1] + (KEY,)):
                if p not in doc.marks:
                    doc.marks[p] = where
        node[setting.path[-1]] = _as_schema_wants(setting.path, value.data)
        doc.marks[setting.path + (KEY,)] = where
        for p, span in value.marks.items():
            doc.marks[setting.path + p] = span
    return doc


def _as_schema_wants(path: Sequence[str], value: Any) -> Any:
    """A number given for an expression (`--set end.goal=18`) as the expression it means ("18"), and
    so is one inside an addition to it (`{add: 3}`, `{and: ...}`)."""
    entry = _schema_at(path)
    if not (isinstance(entry, tuple) and entry[0] == "expr"):
        return value
    if isinstance(value, dict):
        return {k: _number_text(v) for k, v in value.items()}
    return _number_text(value)


def _number_text(value: Any) -> Any:
    return str(value) if isinstance(value, int | float) and not isinstance(value, bool) else value


def label(point: Sequence[tuple[Setting, str]]) -> str:
    """A variant in words: `end.goal=18 constants.hand_limit=6`."""
    return " ".join(f"{s.key}={v}" for s, v in point)


def load_with(spec: str, point: Sequence[tuple[Setting, str]]) -> Rules:
    """Ruleset `spec` with each key of `point` set to its value (see the module's docstring);
    a CuttleError naming the key, the value and the ruleset when that is not a valid ruleset."""
    base = load_ruleset(spec)
    for setting, _ in point:
        check_path(spec, base.composed.data, setting)
    name = f"{base.name} {label(point)}"
    try:
        doc = _document(point, name)
        rules = Rules(compose(spec, over=doc))
    except (RulesetError, RulesetErrors) as e:
        errors = e.errors if isinstance(e, RulesetErrors) else [e]
        # a problem in a value given by --set is the cause; what it sets off in the ruleset's own files
        # (a role its broken effect no longer declares) would point at lines the user did not write
        own = [err for err in errors if err.where is not None and err.where.file.startswith("--set ")]
        errors = own or errors
        raise CuttleError(
            f"--set {label(point)} does not make a valid ruleset of '{spec}':\n"
            + "\n".join(err.render() for err in errors)
        ) from None
    rules.spec = f"{spec} {' '.join(f'--set {s.key}={v}' for s, v in point)}"
    return rules


def values_of(point: Sequence[tuple[Setting, str]]) -> dict[str, Any]:
    """Each key of `point` with its value as written, read as YAML (a number as a number), for JSON."""
    return {s.key: load_yaml(v, f"--set {s.key}").data for s, v in point}
