"""Composition: a ruleset spec (`base+option+...`, a file that `extends` another and lists
`options`) read into one merged document, remembering where every value came from and which part
set it. Clashes between options, and options that do not fit, are collected as errors."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.core.errors import Location, RulesetError, RulesetErrors, suggest
from interpreter.core.limits import MAX_KIND_RULE_CHARS, MAX_PARTS
from interpreter.core.source import Span

from .additions import field_kind_of, is_addition, join
from .paths import PathDict
from .sources import looks_like_path, read_part, relative, shipped_names
from .yamlsrc import KEY, YamlDoc


@dataclass
class Composed:
    """Merged ruleset data, where each value came from, and which part set each path."""

    data: dict
    marks: PathDict
    setters: PathDict = field(default_factory=PathDict)  # path -> part name that set it
    parts: list[str] = field(default_factory=list)  # the base and what it extends, base-most first
    lines: dict = field(default_factory=dict)  # part -> its YamlDoc
    options: list[str] = field(default_factory=list)  # options applied, in order
    applied_by: dict = field(default_factory=dict)  # option -> the part that applied it
    aliases: set = field(default_factory=set)  # the `name:` of every part
    joined: PathDict = field(default_factory=PathDict)  # path -> Joined: a rule several files wrote (additions.py)

    def label(self, part: str) -> str:
        """A part as its `name:` says (a file on disk by its name, not its path)."""
        doc = self.lines.get(part)
        name = doc.data.get("name") if doc is not None and isinstance(doc.data, dict) else None
        return name if isinstance(name, str) and looks_like_path(part) else part

    def present(self) -> set[str]:
        """Every name a `requires`/`conflicts` entry can refer to: parts, options and their names."""
        return set(self.parts) | set(self.options) | self.aliases

    def span(self, path):
        p = tuple(path)
        if p in self.joined:
            return self.joined[p].span
        while p:
            if p in self.marks:
                return self.marks[p]
            p = p[:-1]
        return self.marks.get(())

    def where(self, path):
        s = self.span(path)
        return s.here() if s else None

    def key_where(self, path):
        s = self.marks.get(tuple(path) + (KEY,))
        return s.here() if s else self.where(path)


#: who applied an option named after `+` (Composed.applied_by), rather than a file's `options:`
COMMAND_LINE = "the command line"

META_KEYS = ("extends", "options", "kind", "requires", "conflicts", "name", "description", "source")


def _merge(
    dst: Composed,
    doc_data: Any,
    doc: YamlDoc,
    path: tuple,
    part: str,
    option: bool,
    errors: list[RulesetError],
    may_override: frozenset[str] = frozenset(),
) -> None:
    """Merge one file's data into `dst`. An option may not change what another option set
    (unless it `requires` that option); a ruleset file overrides whatever it extends."""
    for key, value in doc_data.items():
        p = path + (key,)
        if key in META_KEYS and not path:
            continue
        cur = get_path(dst.data, p)
        if value is None and not path and isinstance(cur, dict):
            # `plays:` with nothing under it would wipe out a whole section of what it extends:
            # almost always an indentation slip
            errors.append(
                RulesetError(
                    f"'{key}' has no value here, which would remove every entry of '{key}' it extends",
                    doc.key_where(p),
                    code="E012",
                    hint=f"indent the entries under '{key}:'; to remove one entry, write it with no value",
                )
            )
            continue
        kind = field_kind_of(p)
        if kind is not None and is_addition(
            value, kind
        ):  # {before/after: TEXT} or {and/or: TEXT}: added to the rule it extends
            try:
                text, joined = join(
                    kind,
                    p,
                    cur,
                    dst.span(p),
                    dst.joined.get(p),
                    value,
                    {k: doc.marks.get(p + (k,)) for k in value},
                    doc.key_where(p),
                )
            except RulesetError as e:
                errors.append(e)
                continue
            set_path(dst.data, p, text)
            dst.joined[p] = joined
            dst.setters[p] = part
            continue
        if isinstance(value, dict) and isinstance(cur, dict):
            dst.marks[p + (KEY,)] = doc.marks.get(p + (KEY,), dst.marks.get(p + (KEY,)))
            _merge(dst, value, doc, p, part, option, errors, may_override)
            continue
        if option and cur != value:
            setters = dst.setters
            clash = [
                s
                for s in (setters[q] for q in setters.along(p) + setters.under(p))
                if s in dst.options and s not in may_override and s != part
            ]
            if clash:  # each option by its name, which `requires` takes (not the path of its file)
                mine, theirs = dst.label(part), dst.label(clash[0])
                errors.append(
                    RulesetError(
                        f"options clash: '{mine}' and '{theirs}' both change {'.'.join(map(str, p))} differently",
                        doc.where(p),
                        code="E301",
                        hint=f"use one of them, or make '{mine}' require '{theirs}'",
                    )
                )
                continue
        set_path(dst.data, p, copy.deepcopy(value))
        for j in dst.joined.under(p):  # replaced: no longer the joined rule
            del dst.joined[j]
        for m in dst.marks.under(p):
            del dst.marks[m]
        for m in doc.marks.under(p):
            dst.marks[m] = doc.marks[m]
        dst.setters[p] = part
        for sp in dst.setters.under(p):
            if sp != p:
                del dst.setters[sp]


def get_path(data: Any, path: tuple) -> Any:
    for k in path:
        if not isinstance(data, dict) or k not in data:
            return None
        data = data[k]
    return data


def set_path(data: dict, path: tuple, value: Any) -> None:
    for k in path[:-1]:
        if not isinstance(data.get(k), dict):
            data[k] = {}
        data = data[k]
    if value is None:
        data.pop(path[-1], None)
    else:
        data[path[-1]] = value


def compose(spec: str, errors: list[RulesetError] | None = None, over: YamlDoc | None = None) -> Composed:
    """Read `base+option+option...` into one merged document.

    Problems of composition (clashes, options that do not fit) are collected; they are raised
    together unless an `errors` list is given to collect them (`check` does, to report them all).
    `over` is a document made in memory that extends the whole of `spec` (merged last, as a file
    with `extends:` would be; `cuttle sweep`'s values, rules/overrides.py); its `name` names the result.
    """
    parts = [p for p in spec.split("+")]
    if not parts or any(not p.strip() for p in parts):
        raise RulesetError(f"'{spec}' is not a ruleset name: write NAME or NAME+OPTION+...", None, code="E002")
    collect = errors is not None
    errs: list[RulesetError] = errors if errors is not None else []
    out = _compose_one(parts[0].strip(), errs, [], None)
    for opt in parts[1:]:
        _apply_option(out, opt.strip(), errs, None, COMMAND_LINE)
    name = spec if len(parts) > 1 else out.data.get("name", spec)
    if over is not None:
        out.parts.append(over.file)
        out.lines[over.file] = over
        _merge(out, over.data, over, (), over.file, False, errs)
        name = over.data.get("name", name)
    _apply_kind_rules(out, errs)
    if errs and not collect:
        raise RulesetErrors(errs)
    out.data["name"] = name
    return out


def _of_play(plays: dict, name: str, key: str) -> tuple[Any, str]:
    """A field of a play, its own or the one of the play it copies (`like`), and the play that wrote it."""
    seen: set[str] = set()
    p, at = plays.get(name), name
    while isinstance(p, dict) and key not in p and isinstance(p.get("like"), str) and p["like"] not in seen:
        seen.add(p["like"])
        at = p["like"]
        p = plays.get(at)
    return (p.get(key) if isinstance(p, dict) else None), at


def _kind_of_play(plays: dict, name: str) -> Any:
    """A play's kind, its own or the one of the play it copies (`like`)."""
    return _of_play(plays, name, "kind")[0]


KIND_RULES = ("legal", "target")
"""The fields of a kind that hold for every play of that kind: its `legal` is added to each play's own
`legal` (`{and: ...}`), its `target` (a condition on `it`) keeps only the targets for which it holds."""


def _apply_kind_rules(out: Composed, errors: list[RulesetError]) -> None:
    """A kind's `legal` and `target` hold for every play of that kind: once every file is merged, each is
    added to each such play's own field as `{and: ...}` would add it (additions.py), so the page, the hash,
    `explain` and the engine read one rule, and an error in it points into the kind's line. A play that
    inherits the field through `like` has it joined to what it inherits; a play without a target has
    none to filter."""
    kinds, plays = out.data.get("kinds"), out.data.get("plays")
    if not isinstance(kinds, dict) or not isinstance(plays, dict):
        return
    for kname, k in kinds.items():
        for key in KIND_RULES:
            text = k.get(key) if isinstance(k, dict) else None
            if isinstance(text, str) and text.strip():
                _apply_kind_rule(out, errors, plays, str(kname), key, text)


def _apply_kind_rule(out: Composed, errors: list[RulesetError], plays: dict, kname: str, key: str, text: str) -> None:
    """One kind's `legal` or `target`, added to every play of that kind (that has a target, for one)."""
    kspan = out.span(("kinds", kname, key))
    mine = [
        n
        for n, play in plays.items()
        if isinstance(play, dict)
        and _kind_of_play(plays, n) == kname
        and (key != "target" or _of_play(plays, n, key)[0] is not None)
    ]
    if len(text) * len(mine) > MAX_KIND_RULE_CHARS:  # copied into every play: a cost that multiplies
        errors.append(
            RulesetError(
                f"kinds.{kname}.{key} is added to {len(mine):,} plays: {len(text) * len(mine):,} characters "
                f"in all, more than the limit of {MAX_KIND_RULE_CHARS:,} (MAX_KIND_RULE_CHARS)",
                out.where(("kinds", kname, key)),
                code="E212",
                hint="write a shorter condition, or give it to fewer plays",
            )
        )
        return
    # what each play has before any gets the kind's rule (a twin `like` a play must not get it twice)
    bases = {name: _of_play(plays, name, key) for name in mine}
    prior = {at: (out.span(("plays", at, key)), out.joined.get(("plays", at, key))) for _, at in bases.values()}
    for name in mine:
        path = ("plays", name, key)
        base, at = bases[name]
        try:
            joined_text, joined = join(
                "expr",
                path,
                base,
                *prior[at],
                {"and": out.joined.get(("kinds", kname, key), text)},  # (an option's addition: its parts)
                {"and": kspan if isinstance(kspan, Span) else None},
                out.where(("kinds", kname, key)),
            )
        except RulesetError as e:
            errors.append(e)
            continue
        set_path(out.data, path, joined_text)
        out.joined[path] = joined


def _check_meta(doc: YamlDoc, errors: list[RulesetError]) -> None:
    """The keys about a file itself (not merged): name, kind, extends, options, requires, conflicts."""
    data = doc.data
    for key in ("name", "description", "source", "extends"):
        if key in data and not isinstance(data[key], str):
            errors.append(
                RulesetError(f"{key}: expected text, got {type(data[key]).__name__}", doc.where((key,)), code="E012")
            )
            data.pop(key) if key == "extends" else None
    if "kind" in data and data["kind"] not in ("base", "option"):
        near = suggest(str(data["kind"]), ("base", "option"))
        errors.append(
            RulesetError(
                f"kind: expected base or option, got '{data['kind']}'",
                doc.where(("kind",)),
                code="E012",
                hint=f"did you mean '{near}'?" if near else None,
            )
        )
    for key in ("options", "requires", "conflicts"):
        if key in data and (not isinstance(data[key], list) or not all(isinstance(x, str) for x in data[key])):
            errors.append(
                RulesetError(f"{key}: expected a list of ruleset names [a, b]", doc.where((key,)), code="E012")
            )
            data[key] = []
    for i, opt in enumerate(data.get("options") or []):
        if not looks_like_path(opt) and opt not in shipped_names():
            near = suggest(opt, shipped_names())
            errors.append(
                RulesetError(
                    f"options: no ruleset named '{opt}'",
                    doc.where(("options", i)),
                    code="E002",
                    hint=f"did you mean '{near}'?" if near else f"shipped: {', '.join(shipped_names())}",
                )
            )
    if isinstance(data.get("options"), list):
        data["options"] = [o for o in data["options"] if looks_like_path(o) or o in shipped_names()]


def _compose_one(part: str, errors: list[RulesetError], seen: list[str], rel: Path | None) -> Composed:
    part = relative(part, rel)  # (a refused path is pointed at by the caller, at its `extends:`)
    if len(seen) >= MAX_PARTS:
        raise RulesetError(
            f"ruleset '{part}' extends more than {MAX_PARTS} files in a chain (MAX_PARTS)", None, code="E003"
        )
    if part in seen:
        raise RulesetError(f"ruleset '{part}' extends itself ({' -> '.join(seen + [part])})", None, code="E003")
    doc = read_part(part)
    if not isinstance(doc.data, dict):
        raise RulesetError("a ruleset file must be a mapping of keys (name:, plays:, ...)", doc.where(()), code="E004")
    data = doc.data
    if {"setup", "moves", "expect"} & set(data) and not {"plays", "extends", "kind"} & set(data):
        raise RulesetError(
            "this is a scenario file, not a ruleset: run it with `cuttle run FILE`", doc.where(()), code="E004"
        )
    _check_meta(doc, errors)
    here = Path(part) if looks_like_path(part) else None
    if data.get("kind") == "option":
        raise RulesetError(
            f"'{part}' is an option, not a whole ruleset: use it as BASE+{part}"
            + (f" (in the extends of '{seen[-1]}')" if seen else ""),
            doc.where(("kind",)),
            code="E302",
        )
    if "extends" in data:
        try:
            base = _compose_one(str(data["extends"]), errors, seen + [part], here)
        except RulesetError as e:
            if e.where is None:  # point at the `extends:` line that names it
                e = RulesetError(e.message, doc.where(("extends",)), code=e.code, hint=e.hint)
            raise e from None
    else:
        base = Composed({}, PathDict())
    base.parts.append(part)
    if isinstance(data.get("name"), str) and data["name"] != part:
        base.aliases.add(data["name"])
    base.lines[part] = doc
    for i, opt in enumerate(data.get("options", []) or []):
        _apply_option(base, str(opt), errors, here, part, doc.where(("options", i)))
    # the file's own data last: it overrides what it extends and the options it applies
    _merge(base, data, doc, (), part, False, errors)
    for k in ("name", "description", "source"):
        if k in data:
            base.data[k] = data[k]
    if "name" not in data and "extends" in data:  # a house file that names itself nowhere: by its file
        base.data["name"] = Path(part).stem
    base.marks[()] = doc.marks.get(())
    return base


def _requires_hint(base: Composed, req: str, opt: str) -> str | None:
    if req not in shipped_names():
        return None
    try:
        kind = read_part(req).data.get("kind")
    except RulesetError:
        return None
    if kind == "option":
        return f"write e.g. {'+'.join(base.parts[-1:] + base.options + [req, opt])}"
    return f"write e.g. {req}+{opt}"


def _apply_option(
    base: Composed, opt: str, errors: list[RulesetError], rel: Path | None, by: str, use: Location | None = None
) -> None:
    """Apply an option; `use` is where a ruleset file lists it (problems are reported there)."""
    if len(base.parts) + len(base.options) >= MAX_PARTS:
        raise RulesetError(f"more than {MAX_PARTS} rulesets and options in one (MAX_PARTS)", use, code="E303")
    try:
        opt = relative(opt, rel)
        doc = read_part(opt)
    except RulesetError as e:
        if e.where is None and use is not None:  # point at the `options:` entry that names it
            raise RulesetError(e.message, use, code=e.code, hint=e.hint) from None
        raise
    if not isinstance(doc.data, dict):
        raise RulesetError("an option file must be a mapping of keys", doc.where(()), code="E004")
    _check_meta(doc, errors)
    data = doc.data
    if data.get("kind") != "option":
        raise RulesetError(
            f"'{opt}' is a whole ruleset, not an option: it cannot be applied with '+' or "
            f"listed in options (use extends)",
            doc.where(("kind",)),
            code="E302",
        )
    present = base.present()
    have = "+".join([base.label(x) for x in base.parts[-1:]] + base.options)
    names = {opt} | ({data["name"]} if isinstance(data.get("name"), str) else set())
    for i, req in enumerate(data.get("requires", []) or []):
        if str(req) not in present:
            errors.append(
                RulesetError(
                    f"option '{opt}' needs '{req}', which '{have}' does not have",
                    use or doc.where(("requires", i)),
                    code="E303",
                    hint=_requires_hint(base, str(req), opt),
                )
            )
    for i, con in enumerate(data.get("conflicts", []) or []):
        if str(con) in present:
            errors.append(
                RulesetError(
                    f"option '{opt}' cannot be combined with '{con}' (in '{have}')",
                    use or doc.where(("conflicts", i)),
                    code="E303",
                )
            )
    # an option already applied cannot also conflict with this one from its side
    for other in base.options:
        odoc = base.lines.get(other)
        ocon = [str(x) for x in ((odoc.data.get("conflicts") or []) if odoc else [])]
        for i, con in enumerate(ocon):
            if con in names:
                errors.append(
                    RulesetError(
                        f"option '{other}' cannot be combined with '{opt}'",
                        use or (odoc.where(("conflicts", i)) if odoc else None),
                        code="E303",
                    )
                )
    if names & present:
        first = base.applied_by.get(opt, "")
        errors.append(
            RulesetError(
                f"option '{opt}' is applied twice"
                + (f" (it is already part of '{first}')" if first and first != COMMAND_LINE else ""),
                use,
                code="E303",
            )
        )
        return
    base.lines[opt] = doc
    requires = frozenset(str(r) for r in (data.get("requires") or []))
    may = frozenset(o for o in base.options if o in requires or base.lines[o].data.get("name") in requires)
    _merge(base, data, doc, (), opt, True, errors, may)
    base.options.append(opt)
    base.applied_by[opt] = by
    if isinstance(data.get("name"), str):
        base.aliases.add(data["name"])
