"""Loading rulesets: YAML files → validated, composed, compiled `Rules` (immutable during a game).

`load_ruleset("default")`, `load_ruleset("default+classic-2s+twinned")`, `load_ruleset("./my.yaml")`.
A ruleset may `extends` another and list `options`; an option is a partial ruleset merged on top.
Every problem is collected with its file, line and column; `check` returns them all.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from interpreter.core.cards import (
    ALL_RANKS,
    CARD_COUNT,
    JOKERS,
    NAMES,
    RANK_OF,
    SUIT_OF,
    SUITS,
    UnknownCardError,
    parse_card,
)
from interpreter.core.errors import Location, RulesetError, RulesetErrors, suggest
from interpreter.language import tree as A
from interpreter.language.compiler import BUILTIN, Compiler, Context, reads_only_fields, reads_only_own_field
from interpreter.language.parser import parse_expr, parse_program

from .schema import RULESET
from .yamlsrc import KEY, YamlDoc, load_yaml

SHIPPED = "rulesets"
_DEF_RE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\(\s*([A-Za-z_][A-Za-z0-9_]*(?:\s*,\s*[A-Za-z_]"
                     r"[A-Za-z0-9_]*)*)?\s*\))?\s*$")


def shipped_names() -> list[str]:
    return sorted(p.name[:-5] for p in resources.files(SHIPPED).iterdir() if p.name.endswith(".yaml"))


def _read_part(part: str) -> YamlDoc:
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


# -- composition --------------------------------------------------------------------------------

@dataclass
class Composed:
    """Merged ruleset data, where each value came from, and which part set each path."""

    data: dict
    marks: dict
    setters: dict = field(default_factory=dict)  # path -> part name that set it
    parts: list[str] = field(default_factory=list)    # the base and what it extends, base-most first
    lines: dict = field(default_factory=dict)         # part -> its YamlDoc
    options: list[str] = field(default_factory=list)  # options applied, in order
    applied_by: dict = field(default_factory=dict)    # option -> the part that applied it
    aliases: set = field(default_factory=set)         # the `name:` of every part

    def label(self, part: str) -> str:
        """A part as its `name:` says (a file on disk by its name, not its path)."""
        doc = self.lines.get(part)
        name = doc.data.get("name") if doc is not None and isinstance(doc.data, dict) else None
        return name if isinstance(name, str) and _looks_like_path(part) else part

    def present(self) -> set[str]:
        """Every name a `requires`/`conflicts` entry can refer to: parts, options and their names."""
        return set(self.parts) | set(self.options) | self.aliases

    def span(self, path):
        p = tuple(path)
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


META_KEYS = ("extends", "options", "kind", "requires", "conflicts", "name", "description", "source")


def _merge(dst: Composed, doc_data: Any, doc: YamlDoc, path: tuple, part: str, option: bool,
           errors: list[RulesetError], may_override: frozenset[str] = frozenset()) -> None:
    """Merge one file's data into `dst`. An option may not change what another option set
    (unless it `requires` that option); a ruleset file overrides whatever it extends."""
    for key, value in doc_data.items():
        p = path + (key,)
        if key in META_KEYS and not path:
            continue
        cur = _get(dst.data, p)
        if value is None and not path and isinstance(cur, dict):
            # `plays:` with nothing under it would wipe out a whole section of what it extends:
            # almost always an indentation slip
            errors.append(RulesetError(
                f"'{key}' has no value here, which would remove every entry of '{key}' it extends",
                doc.key_where(p), code="E012",
                hint=f"indent the entries under '{key}:'; to remove one entry, write it with no value"))
            continue
        if isinstance(value, dict) and isinstance(cur, dict):
            dst.marks[p + (KEY,)] = doc.marks.get(p + (KEY,), dst.marks.get(p + (KEY,)))
            _merge(dst, value, doc, p, part, option, errors, may_override)
            continue
        if option and cur != value:
            clash = [s for q, s in dst.setters.items() if (q[:len(p)] == p or p[:len(q)] == q)
                     and s in dst.options and s not in may_override and s != part]
            if clash:
                errors.append(RulesetError(
                    f"options clash: '{part}' and '{clash[0]}' both change {'.'.join(map(str, p))} "
                    f"differently", doc.where(p), code="E301",
                    hint=f"use one of them, or make '{part}' require '{clash[0]}'"))
                continue
        _set(dst.data, p, copy.deepcopy(value))
        for m in [m for m in dst.marks if m[:len(p)] == p]:
            del dst.marks[m]
        for m, s in doc.marks.items():
            if m[:len(p)] == p:
                dst.marks[m] = s
        dst.setters[p] = part
        for sp in [q for q in dst.setters if q[:len(p)] == p and q != p]:
            del dst.setters[sp]


def _get(data: Any, path: tuple) -> Any:
    for k in path:
        if not isinstance(data, dict) or k not in data:
            return None
        data = data[k]
    return data


def _set(data: dict, path: tuple, value: Any) -> None:
    for k in path[:-1]:
        if not isinstance(data.get(k), dict):
            data[k] = {}
        data = data[k]
    if value is None:
        data.pop(path[-1], None)
    else:
        data[path[-1]] = value


def compose(spec: str, errors: list[RulesetError] | None = None) -> Composed:
    """Read `base+option+option...` into one merged document.

    Problems of composition (clashes, options that do not fit) are collected; they are raised
    together unless an `errors` list is given to collect them (`check` does, to report them all).
    """
    parts = [p for p in spec.split("+")]
    if not parts or any(not p.strip() for p in parts):
        raise RulesetError(f"'{spec}' is not a ruleset name: write NAME or NAME+OPTION+...", None, code="E002")
    collect = errors is not None
    errs: list[RulesetError] = errors if errors is not None else []
    out = _compose_one(parts[0].strip(), errs, [], None)
    for opt in parts[1:]:
        _apply_option(out, opt.strip(), errs, None, "the command line")
    if errs and not collect:
        raise RulesetErrors(errs)
    out.data["name"] = spec if len(parts) > 1 else out.data.get("name", spec)
    return out


def _relative(part: str, to: Path | None) -> str:
    """A path written in a ruleset file is relative to that file's directory."""
    if to is not None and _looks_like_path(part) and not Path(part).is_absolute():
        return str(to.parent / part)
    return part


def _looks_like_path(part: str) -> bool:
    return "/" in part or part.endswith((".yaml", ".yml"))


def _check_meta(doc: YamlDoc, errors: list[RulesetError]) -> None:
    """The keys about a file itself (not merged): name, kind, extends, options, requires, conflicts."""
    data = doc.data
    for key in ("name", "description", "source", "extends"):
        if key in data and not isinstance(data[key], str):
            errors.append(RulesetError(f"{key}: expected text, got {type(data[key]).__name__}", doc.where((key,)),
                                       code="E012"))
            data.pop(key) if key == "extends" else None
    if "kind" in data and data["kind"] not in ("base", "option"):
        near = suggest(str(data["kind"]), ("base", "option"))
        errors.append(RulesetError(f"kind: expected base or option, got '{data['kind']}'", doc.where(("kind",)),
                                   code="E012", hint=f"did you mean '{near}'?" if near else None))
    for key in ("options", "requires", "conflicts"):
        if key in data and (not isinstance(data[key], list) or not all(isinstance(x, str) for x in data[key])):
            errors.append(RulesetError(f"{key}: expected a list of ruleset names [a, b]", doc.where((key,)),
                                       code="E012"))
            data[key] = []
    for i, opt in enumerate(data.get("options") or []):
        if not _looks_like_path(opt) and opt not in shipped_names():
            near = suggest(opt, shipped_names())
            errors.append(RulesetError(f"options: no ruleset named '{opt}'", doc.where(("options", i)), code="E002",
                                       hint=f"did you mean '{near}'?" if near else
                                       f"shipped: {', '.join(shipped_names())}"))
    if isinstance(data.get("options"), list):
        data["options"] = [o for o in data["options"] if _looks_like_path(o) or o in shipped_names()]


def _compose_one(part: str, errors: list[RulesetError], seen: list[str], rel: Path | None) -> Composed:
    part = _relative(part, rel)
    if part in seen:
        raise RulesetError(f"ruleset '{part}' extends itself ({' -> '.join(seen + [part])})", None, code="E003")
    doc = _read_part(part)
    if not isinstance(doc.data, dict):
        raise RulesetError("a ruleset file must be a mapping of keys (name:, plays:, ...)", doc.where(()),
                           code="E004")
    data = doc.data
    if {"setup", "moves", "expect"} & set(data) and not {"plays", "extends", "kind"} & set(data):
        raise RulesetError("this is a scenario file, not a ruleset: run it with `cuttle run FILE`",
                           doc.where(()), code="E004")
    _check_meta(doc, errors)
    here = Path(part) if _looks_like_path(part) else None
    if data.get("kind") == "option":
        raise RulesetError(f"'{part}' is an option, not a whole ruleset: use it as BASE+{part}"
                           + (f" (in the extends of '{seen[-1]}')" if seen else ""),
                           doc.where(("kind",)), code="E302")
    if "extends" in data:
        try:
            base = _compose_one(str(data["extends"]), errors, seen + [part], here)
        except RulesetError as e:
            if e.where is None:  # point at the `extends:` line that names it
                e = RulesetError(e.message, doc.where(("extends",)), code=e.code, hint=e.hint)
            raise e from None
    else:
        base = Composed({}, {})
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
    base.marks[()] = doc.marks.get(())
    return base


def _requires_hint(base: Composed, req: str, opt: str) -> str | None:
    if req not in shipped_names():
        return None
    try:
        kind = _read_part(req).data.get("kind")
    except RulesetError:
        return None
    if kind == "option":
        return f"write e.g. {'+'.join(base.parts[-1:] + base.options + [req, opt])}"
    return f"write e.g. {req}+{opt}"


def _apply_option(base: Composed, opt: str, errors: list[RulesetError], rel: Path | None, by: str,
                  use: Location | None = None) -> None:
    """Apply an option; `use` is where a ruleset file lists it (problems are reported there)."""
    opt = _relative(opt, rel)
    doc = _read_part(opt)
    if not isinstance(doc.data, dict):
        raise RulesetError("an option file must be a mapping of keys", doc.where(()), code="E004")
    _check_meta(doc, errors)
    data = doc.data
    if data.get("kind") != "option":
        raise RulesetError(f"'{opt}' is a whole ruleset, not an option: it cannot be applied with '+' or "
                           f"listed in options (use extends)", doc.where(("kind",)), code="E302")
    present = base.present()
    have = "+".join([base.label(x) for x in base.parts[-1:]] + base.options)
    names = {opt} | ({data["name"]} if isinstance(data.get("name"), str) else set())
    for i, req in enumerate(data.get("requires", []) or []):
        if str(req) not in present:
            errors.append(RulesetError(f"option '{opt}' needs '{req}', which '{have}' does not have",
                                       use or doc.where(("requires", i)), code="E303",
                                       hint=_requires_hint(base, str(req), opt)))
    for i, con in enumerate(data.get("conflicts", []) or []):
        if str(con) in present:
            errors.append(RulesetError(f"option '{opt}' cannot be combined with '{con}' (in '{have}')",
                                       use or doc.where(("conflicts", i)), code="E303"))
    # an option already applied cannot also conflict with this one from its side
    for other in base.options:
        odoc = base.lines.get(other)
        ocon = [str(x) for x in ((odoc.data.get("conflicts") or []) if odoc else [])]
        for i, con in enumerate(ocon):
            if con in names:
                errors.append(RulesetError(f"option '{other}' cannot be combined with '{opt}'",
                                           use or odoc.where(("conflicts", i)), code="E303"))
    if names & present:
        first = base.applied_by.get(opt, "")
        errors.append(RulesetError(
            f"option '{opt}' is applied twice" + (f" (it is already part of '{first}')" if first and
                                                  first != "the command line" else ""), use, code="E303"))
        return
    base.lines[opt] = doc
    requires = frozenset(str(r) for r in (data.get("requires") or []))
    may = frozenset(o for o in base.options if o in requires or base.lines[o].data.get("name") in requires)
    _merge(base, data, doc, (), opt, True, errors, may)
    base.options.append(opt)
    base.applied_by[opt] = by
    if isinstance(data.get("name"), str):
        base.aliases.add(data["name"])


# -- validation ---------------------------------------------------------------------------------

def _validate(c: Composed, errors: list[RulesetError]) -> None:
    _check_map(c, c.data, RULESET, (), errors)


def _check_map(c: Composed, data: Any, schema: dict, path: tuple, errors: list[RulesetError]) -> None:
    if not isinstance(data, dict):
        errors.append(RulesetError(f"{'.'.join(map(str, path)) or 'the ruleset'} must be a mapping",
                                   c.where(path), code="E010"))
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
            errors.append(RulesetError(f"unknown key '{key}' in {'.'.join(map(str, path)) or 'the ruleset'}",
                                       c.key_where(p), code="E011", hint=hint))
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
        if not isinstance(value, (str, bool)):
            bad(f"expected an expression (text, or true/false), got {type(value).__name__}")
    elif typ in ("str", "program"):
        if not isinstance(value, str):
            bad(f"expected text, got {type(value).__name__}")
    elif typ == "word":
        if not isinstance(value, str) or not re.fullmatch(r"[a-z][a-z0-9_-]*", value):
            bad("expected a lower-case word")
    elif typ == "int":
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            bad("expected a whole number 0 or more")
    elif typ == "bool":
        if not isinstance(value, bool):
            bad("expected true or false")
    elif typ in ("ranks", "words", "card-list"):
        if not isinstance(value, list):
            bad("expected a list [...]")
            return
        for i, v in enumerate(value):
            if typ == "ranks" and str(v) not in ALL_RANKS:
                errors.append(RulesetError(f"{name}: unknown rank '{v}'", c.where(path + (i,)), code="E013",
                                           hint=rank_hint(str(v))))
            elif typ == "card-list":
                try:
                    parse_card(str(v))
                except UnknownCardError:
                    near = suggest(str(v).upper(), NAMES)
                    errors.append(RulesetError(f"{name}: '{v}' is not a card", c.where(path + (i,)), code="E014",
                                               hint=f"did you mean '{near}'?" if near else
                                               "write a rank A,2-10,J,Q,K then a suit C,D,H,S (7H, 10S); "
                                               "Jokers are RJ and BJ"))
            elif typ == "words" and not isinstance(v, str):
                errors.append(RulesetError(f"{name}: expected words", c.where(path + (i,)), code="E012"))
    elif isinstance(typ, tuple) and typ[0] == "enum":
        if value not in typ[1:]:
            bad(f"expected one of {', '.join(typ[1:])}, got '{value}'", hint=(
                f"did you mean '{suggest(str(value), typ[1:])}'?" if suggest(str(value), typ[1:]) else None))


def _int(v: Any, default: int) -> int:
    """A whole number from the data (a wrong one is reported by validation; the default stands in)."""
    return v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else default


def _list(v: Any) -> list:
    return v if isinstance(v, list) else []


# -- plays written `like` another --------------------------------------------------------------

def _resolve_likes(plays: dict, c: Composed, errors: list[RulesetError]) -> dict[str, tuple[dict, dict]]:
    """Each play with the fields it inherits through `like: OTHER` (its own fields win), and for each
    field the path where it is written (so errors point at the model's text)."""
    out: dict[str, tuple[dict, dict]] = {}

    def resolve(name: str, chain: list[str]) -> tuple[dict, dict] | None:
        if name in out:
            return out[name]
        p = plays.get(name)
        if not isinstance(p, dict):
            return None
        at = {k: ("plays", name, k) for k in p}
        model = p.get("like")
        if model is None:
            return dict(p), at
        if not isinstance(model, str) or model not in plays:
            near = suggest(str(model), [k for k in plays if k != name])
            errors.append(RulesetError(f"plays.{name}.like: there is no play '{model}' to be like",
                                       c.where(("plays", name, "like")), code="E022",
                                       hint=f"did you mean '{near}'?" if near else
                                       f"plays: {', '.join(plays)}"))
            return dict(p), at
        if model in chain:
            errors.append(RulesetError(f"plays.{name}.like: '{name}' is like itself "
                                       f"({' -> '.join(chain + [name, model])})",
                                       c.where(("plays", name, "like")), code="E023"))
            return dict(p), at
        got = resolve(model, chain + [name])
        if got is None:
            return dict(p), at
        mp, mat = got
        merged = {k: v for k, v in mp.items() if k != "like"}
        merged.update(p)
        where = {k: v for k, v in mat.items() if k != "like"}
        where.update(at)
        return merged, where

    for name in plays:
        got = resolve(name, [])
        if got is not None:
            out[name] = got
    return out


# -- the effect language: checks that need the ruleset (ranks, cards) -----------------------------

_RANK_WORDS = {"ace": "A", "1": "A", "one": "A", "jack": "J", "queen": "Q", "king": "K", "t": "10", "ten": "10",
               "11": "J", "12": "Q", "13": "K", "joker": "Joker", "jokers": "Joker"}


def _rank_word(text: str) -> str | None:
    """The rank a word probably means (`Ace` -> A, `jack` -> J, `11` -> J), or None."""
    return _RANK_WORDS.get(str(text).strip().lower()) or suggest(str(text).upper(), ALL_RANKS) or suggest(
        str(text), ALL_RANKS)


def rank_hint(text: str) -> str:
    """'did you mean ...' for a word that is not a rank."""
    near = _rank_word(text)
    return f"did you mean '{near}'?" if near else f"ranks: {', '.join(ALL_RANKS)}"


def _lint(node: Any, span: Any, ctx: Context) -> list[RulesetError]:
    """Rank and card literals in an effect-language tree: each wrong one with its place and the
    nearest valid name."""
    out: list[RulesetError] = []
    if span is None:
        return out

    def at(n: A.Node):
        return span.locate(n.line or 1, n.column or 1)

    def literal_ranks(n: Any):
        if isinstance(n, A.ListLit):
            for i in n.items:
                yield from literal_ranks(i)
        elif isinstance(n, (A.Num, A.Str)):
            yield n, str(n.value)

    bound = {"me", "opponent", "card", "cards", "target", "it", "extra", "answered", "chosen", "random", "none"}

    for n in A.walk(node):  # names a program binds itself (let, for each, choose ... as)
        if isinstance(n, (A.Let, A.ForEach, A.Choose)):
            for attr in ("name", "var", "verb"):
                if isinstance(getattr(n, attr, None), str):
                    bound.add(getattr(n, attr))
    for params, _, _ in ctx.defines.values():
        bound.update(params)

    def walk(n: Any) -> None:
        if isinstance(n, tuple):
            for x in n:
                walk(x)
            return
        if not isinstance(n, A.Node):
            return
        if isinstance(n, A.BinOp) and n.op in ("==", "!=", "in", "not in"):
            for side, other in ((n.left, n.right), (n.right, n.left)):
                if isinstance(other, A.Attr) and other.name == "rank":
                    for lit, text in literal_ranks(side):
                        if text not in ctx.ranks:
                            out.append(RulesetError(f"'{text}' is not a rank", at(lit), code="E203",
                                                    hint=rank_hint(text)))
                    if isinstance(side, A.Name) and side.name not in ctx.ranks and side.name not in bound \
                            and side.name not in ctx.defines and side.name not in ctx.constants \
                            and _rank_word(side.name):
                        out.append(RulesetError(f"'{side.name}' is not a rank", at(side), code="E203",
                                                hint=rank_hint(side.name)))
                if isinstance(other, A.Attr) and other.name == "name":
                    for lit, text in literal_ranks(side):
                        if isinstance(lit, A.Str) and text.upper() not in NAMES:
                            near = suggest(text.upper(), NAMES)
                            out.append(RulesetError(f"'{text}' is not a card", at(lit), code="E014",
                                                    hint=f"did you mean '{near}'?" if near else
                                                    "cards are written 7H, 10S, QC, RJ"))
        for f in n.__dataclass_fields__:
            if f not in ("line", "column"):
                walk(getattr(n, f))

    walk(node)
    return out


def _same_place(a: RulesetError, b: RulesetError) -> bool:
    return a.where is not None and b.where is not None and (a.where.file, a.where.line, a.where.column) == (
        b.where.file, b.where.line, b.where.column)


# -- compiled rules -----------------------------------------------------------------------------

@dataclass(frozen=True)
class PlayDef:
    name: str
    verb: str
    ranks: frozenset[str]
    ncards: int
    kind: str | None
    free: bool
    legal: Any
    target: Any
    program: tuple           # effect + kind.after, then a win check
    countered: tuple
    counterable: Any         # from the kind, or None
    source: dict             # the data, for rules pages and diffs


@dataclass(frozen=True)
class ResponseDef:
    name: str
    verb: str
    ranks: frozenset[str]
    extra: int
    answers: frozenset[str]
    kind: str
    legal: Any
    program: tuple
    counterable: Any
    source: dict


CHECK_WIN = (BUILTIN, "check_win", None)
# A played card that its effect left on the stack goes to the scrap (e.g. the second card of a twin).
CLEANUP = (BUILTIN, "cleanup", None)
FINISH_PLAY = (BUILTIN, "finish_play", None)  # CLEANUP, then CHECK_WIN
# Between the effect and the kind's `after` of a play whose effect has `play from`: the play chosen there
# starts now, so the card that offered it (a 7) reaches the scrap only once that play has resolved.
START_CHOSEN = (BUILTIN, "start_chosen", None)
# After a response's own effect: open a window for the other player, or settle the chain.
AFTER_RESPONSE = (BUILTIN, "after_response", None)


class Rules:
    """A loaded ruleset: immutable, shared by every game played with it."""

    def __init__(self, composed: Composed) -> None:
        self.composed = composed
        self.data = composed.data
        self.name = str(self.data.get("name", "?"))
        self.plain_programs: dict[int, bool] = {}  # engine cache: program id -> never waits for a decision
        self.program_refs: list[tuple] = []  # keeps those programs (and so their ids) alive
        self.spec = self.name  # how it was asked for (a name, NAME+OPTION..., or a path): set by load_ruleset
        self.parts = list(composed.parts) + list(composed.options)
        self.hash = hashlib.sha256(json.dumps(self.data, sort_keys=True, default=str).encode()).hexdigest()[:16]
        errors: list[RulesetError] = []
        _validate(composed, errors)
        invalid = bool(errors)
        try:
            self._build(errors)
        except (TypeError, ValueError, AttributeError, KeyError, IndexError):
            if not invalid:  # data that passed validation must build: a bug, not a user error
                raise
        if errors:
            raise RulesetErrors(_tidy(errors))

    # -- building -------------------------------------------------------------------------------
    def _build(self, errors: list[RulesetError]) -> None:
        d, c = self.data, self.composed
        deck = d.get("deck", {}) or {}
        suits = [str(s) for s in deck.get("suits", list(SUITS))]
        for i, s in enumerate(suits):
            if s not in SUITS:
                errors.append(RulesetError(f"deck.suits: unknown suit '{s}' (C, D, H, S)",
                                           c.where(("deck", "suits", i)), code="E015"))
        self.suits = tuple(s for s in suits if s in SUITS)
        suit_rank = {s: i for i, s in enumerate(self.suits)}
        if "cards" in deck:
            cards = []
            for i, t in enumerate(deck["cards"]):
                try:
                    cards.append(parse_card(str(t)))
                except UnknownCardError:
                    pass  # already reported by validation
                if cards.count(cards[-1] if cards else -1) > 1:
                    errors.append(RulesetError(f"deck.cards: {t} appears twice", c.where(("deck", "cards", i)),
                                               code="E016"))
        else:
            ranks = [str(r) for r in deck.get("ranks", list(ALL_RANKS[:-1]))]
            cards = [i for i in range(CARD_COUNT) if RANK_OF[i] in ranks and SUIT_OF[i] in self.suits]
        jokers = _int(deck.get("jokers"), 0)
        if jokers > len(JOKERS):
            errors.append(RulesetError(f"deck.jokers: at most {len(JOKERS)}", c.where(("deck", "jokers")),
                                       code="E016"))
        cards += [NAMES.index(j) for j in JOKERS[:jokers] if NAMES.index(j) not in cards]
        self.deck_cards: tuple[int, ...] = tuple(sorted(cards))
        self.ranks_in_deck = tuple(r for r in ALL_RANKS if any(RANK_OF[x] == r for x in self.deck_cards))
        values = {str(k): int(v) for k, v in (d.get("values") or {}).items() if isinstance(v, int)}
        for k in (d.get("values") or {}):
            if str(k) not in ALL_RANKS:
                errors.append(RulesetError(f"values: unknown rank '{k}'", c.key_where(("values", k)), code="E013",
                                           hint=rank_hint(str(k))))
        self.values = values
        deal = d.get("deal") or {}
        self.deal = (_int(deal.get("first"), 5), _int(deal.get("second"), 6))
        # deal.extra: cards given to each player on top of the deal (not shuffled into the deck)
        extra: list[tuple[int, ...]] = []
        for pname in ("p1", "p2"):
            given = []
            for i, t in enumerate((deal.get("extra") or {}).get(pname) or []):
                try:
                    x = parse_card(str(t))
                except UnknownCardError:
                    continue  # already reported by validation
                if x not in self.deck_cards:
                    errors.append(RulesetError(f"deal.extra.{pname}: {NAMES[x]} is not in the deck",
                                               c.where(("deal", "extra", pname, i)), code="E017",
                                               hint="add it to deck.cards (or deck.jokers for RJ, BJ)"))
                elif x in given or any(x in e for e in extra):
                    errors.append(RulesetError(f"deal.extra.{pname}: {NAMES[x]} is given twice",
                                               c.where(("deal", "extra", pname, i)), code="E017"))
                else:
                    given.append(x)
            extra.append(tuple(given))
        self.deal_extra: tuple[tuple[int, ...], ...] = tuple(extra)
        dealt = sum(self.deal) + sum(len(e) for e in extra)
        if dealt > len(self.deck_cards):
            errors.append(RulesetError(f"deal: {dealt} cards dealt from a deck of {len(self.deck_cards)}",
                                       c.where(("deal",)), code="E017"))
        end = d.get("end") or {}
        self.passes_to_end = _int(end.get("passes"), 3)
        self.on_passes = end.get("on_passes", "most_points")
        self.match_wins = max(1, _int((d.get("match") or {}).get("wins"), 1))

        ctx = Context(constants={}, suit_rank=suit_rank, values=values, ranks=ALL_RANKS)
        self.ctx = ctx
        for k, v in (d.get("constants") or {}).items():
            if isinstance(v, bool) or not isinstance(v, (int, list)):
                errors.append(RulesetError(f"constants.{k}: expected a number or a list of numbers",
                                           c.where(("constants", k)), code="E012"))
                ctx.constants[k] = 0  # still a known name, so its uses are not reported as well
            else:
                ctx.constants[k] = v
        # roles and marks used anywhere are names; collect them before compiling expressions
        text_blob = json.dumps(d, default=str)
        ctx.roles |= set(re.findall(r"\bas\s+([A-Za-z_][A-Za-z0-9_]*)", text_blob))
        ctx.marks |= set(re.findall(r"\bmark\s+.+?\s+as\s+([A-Za-z_][A-Za-z0-9_]*)", text_blob))
        for key, body in (d.get("define") or {}).items():
            m = _DEF_RE.match(str(key))
            if not m:
                errors.append(RulesetError(f"define: '{key}' is not NAME or NAME(a, b)", c.key_where(("define", key)),
                                           code="E018"))
                continue
            params = tuple(p.strip() for p in (m.group(2) or "").split(",") if p.strip())
            try:
                ast = parse_expr(str(body), c.span(("define", key)))
            except RulesetError as e:
                errors.append(e)
                continue
            errors.extend(_lint(ast, c.span(("define", key)), ctx))
            ctx.defines[m.group(1)] = (params, ast, c.span(("define", key)))
        # every definition is checked, used or not (a cycle, an unknown name inside it)
        for dname, (params, _, dspan) in list(ctx.defines.items()):
            call = A.Call(dname, tuple(A.Name(p) for p in params)) if params else A.Name(dname)
            try:
                Compiler(ctx, dspan).expr(call, frozenset(params) | {"me", "opponent"})
            except RulesetError as e:
                errors.append(e)

        def compiled(path: tuple, bound: set[str], default: str | None, program: bool):
            src = _get(d, path)
            is_default = src is None
            if src is None:
                if default is None:
                    return None
                src, span = default, None
            else:
                span = c.span(path)
            if isinstance(src, bool) and not program:  # an expression may be written true or false
                value = src
                return lambda g, e: value
            try:
                ast = (parse_program if program else parse_expr)(str(src), span)
            except RulesetError as e:
                errors.append(e)
                return None
            found = _lint(ast, span, ctx)
            errors.extend(found)
            try:
                comp = Compiler(ctx, span)
                return comp.program(ast, frozenset(bound)) if program else comp.expr(ast, frozenset(bound))
            except RulesetError as e:
                if is_default:  # the ruleset left it out, and the built-in default does not fit it
                    errors.append(RulesetError(
                        f"{'.'.join(map(str, path))} is not given, and its default `{default}` does not fit this "
                        f"ruleset ({e.message}): write {'.'.join(map(str, path))}", c.where(()), code="E024"))
                    return None
                if not any(_same_place(e, f) for f in found):
                    m = re.match(r"unknown name '(.+)'$", e.message)
                    if m and (e.hint is None or "did you mean" not in e.hint) and _rank_word(m.group(1)):
                        e = RulesetError(e.message + " (not a rank)", e.where, code=e.code,
                                         hint=rank_hint(m.group(1)))
                    errors.append(e)
                return None

        def expr(path: tuple, bound: set[str], default: str | None = None):
            return compiled(path, bound, default, False)

        def prog(path: tuple, bound: set[str], default: str = "nothing") -> tuple:
            return compiled(path, bound, default, True) or ()

        base = {"me", "opponent"}
        goal_src = str(_get(d, ("end", "goal")) or "21")
        score_src = str(_get(d, ("end", "score")) or "total(field of me where it.role == point)")
        self.goal_fn = expr(("end", "goal"), base, "21")
        self.score_fn = expr(("end", "score"), base, "total(field of me where it.role == point)")
        try:  # the win check is skipped while no field changed, when goal and score read only fields
            self.win_reads_fields_only = all(reads_only_fields(parse_expr(x), ctx) for x in (goal_src, score_src))
            self.win_reads_own_field_only = all(reads_only_own_field(parse_expr(x), ctx)
                                                for x in (goal_src, score_src))
        except RulesetError:
            self.win_reads_fields_only = self.win_reads_own_field_only = False
        self.visible_fn = expr(("visibility", "hand"), base) or (lambda g, e: False)
        self.playable_fn = expr(("turn", "playable"), base | {"it"})
        self.turn_end = prog(("turn", "end"), base)

        kinds = d.get("kinds") or {}
        self.kinds = {}
        for k in kinds:
            self.kinds[k] = {
                "counterable": expr(("kinds", k, "counterable"), base | {"card", "cards"}),
                "after": prog(("kinds", k, "after"), base | {"card", "cards"}),
                "countered": prog(("kinds", k, "countered"), base | {"card", "cards"}, "scrap cards"),
            }
        self.plays: list[PlayDef] = []
        resolved = _resolve_likes(d.get("plays") or {}, c, errors)
        for name, (p, at) in resolved.items():
            path = ("plays", name)

            def fpath(key: str, name: str = name, at: dict = at) -> tuple:
                return at.get(key, ("plays", name, key))
            kind = p.get("kind")
            if kind is not None and kind not in self.kinds:
                near = suggest(kind, self.kinds)
                errors.append(RulesetError(f"plays.{name}.kind: unknown kind '{kind}'", c.where(fpath("kind")),
                                           code="E019", hint=f"did you mean '{near}'?" if near else
                                           f"kinds: {', '.join(self.kinds) or 'none defined'}"))
                kind = None
            if "verb" not in p:
                errors.append(RulesetError(f"plays.{name}: needs a verb", c.key_where(path), code="E020"))
                continue
            ncards = _int(p.get("cards"), 1)
            if ncards > 0 and not p.get("ranks"):
                errors.append(RulesetError(f"plays.{name}: needs ranks (or cards: 0)", c.key_where(path), code="E020"))
                continue
            bound = base | {"card", "cards"}
            target = expr(fpath("target"), bound)
            eff_bound = bound | ({"target"} if "target" in p else set())
            effect = prog(fpath("effect"), eff_bound)
            after = self.kinds[kind]["after"] if kind else ()
            countered = prog(fpath("countered"), eff_bound) if "countered" in p else (
                self.kinds[kind]["countered"] if kind else ())
            self.plays.append(PlayDef(
                name=name, verb=p["verb"], ranks=frozenset(str(r) for r in _list(p.get("ranks"))), ncards=ncards,
                kind=kind, free=bool(p.get("free", False)), legal=expr(fpath("legal"), bound), target=target,
                program=_concat(_with_chosen_play(effect), after) + (FINISH_PLAY,),
                countered=countered + (FINISH_PLAY,),
                counterable=self.kinds[kind]["counterable"] if kind else None, source=p))
        self.responses: list[ResponseDef] = []
        for name, r in (d.get("responses") or {}).items():
            if not isinstance(r, dict):
                continue
            path = ("responses", name)
            if "verb" not in r or not r.get("ranks"):
                errors.append(RulesetError(f"responses.{name}: needs a verb and ranks", c.key_where(path),
                                           code="E020"))
                continue
            bound = base | {"card", "cards", "extra", "answered"}
            self.responses.append(ResponseDef(
                name=name, verb=r["verb"], ranks=frozenset(str(x) for x in _list(r["ranks"])),
                extra=_int(r.get("extra"), 0),
                answers=frozenset(str(a) for a in _list(r.get("answers"))), kind=str(r.get("kind", name)),
                legal=expr(path + ("legal",), bound),
                program=prog(path + ("effect",), bound, "scrap cards; scrap extra") + (AFTER_RESPONSE,),
                counterable=expr(path + ("counterable",), bound) or (lambda g, e: True), source=r))
        used = ctx.used_names
        for k in (d.get("constants") or {}):
            near = suggest(k, [n for n in used if n != k])
            if k not in used and near:
                errors.append(RulesetError(f"constants.{k} is never used", c.key_where(("constants", k)),
                                           code="E025", hint=f"did you mean '{near}'?"))
        known_kinds = set(self.kinds) | {r.kind for r in self.responses}
        for r in self.responses:
            for i, a in enumerate(_list(r.source.get("answers"))):
                if a not in known_kinds:
                    near = suggest(a, known_kinds)
                    errors.append(RulesetError(f"responses.{r.name}.answers: unknown kind '{a}'",
                                               c.where(("responses", r.name, "answers", i)), code="E019",
                                               hint=f"did you mean '{near}'?" if near else None))
        verbs_by_kind: dict[str, list[str]] = {}
        for p in self.plays:
            verbs_by_kind.setdefault(p.verb, []).append(p.name)
        self.verbs = sorted({p.verb for p in self.plays} | {r.verb for r in self.responses} | {"resolve"}
                            | ctx.verbs)
        seen: dict[tuple[str, str, int], str] = {}
        for p in self.plays:  # one play per move word, rank and number of cards
            for r in p.ranks:
                if (p.verb, r, p.ncards) in seen:
                    errors.append(RulesetError(
                        f"plays.{p.name}: '{p.verb}' with {p.ncards if p.ncards != 1 else 'a'} {r} is already "
                        f"defined by plays.{seen[(p.verb, r, p.ncards)]}",
                        c.where(("plays", p.name, "ranks")), code="E021",
                        hint="give one of them another verb, or another number of cards"))
                seen[(p.verb, r, p.ncards)] = p.name
        self.by_rank: dict[str, list[PlayDef]] = {r: [p for p in self.plays if r in p.ranks and p.ncards > 0]
                                                 for r in ALL_RANKS}
        self.cardless = [p for p in self.plays if p.ncards == 0]
        self.answering: dict[str, list[ResponseDef]] = {}
        for r in self.responses:
            for a in r.answers:
                self.answering.setdefault(a, []).append(r)

    # -- queries used by expressions and the engine --------------------------------------------
    def ranks_by_role(self) -> dict[str, set[str]]:
        """Which ranks the plays put into play in each role (`move card to field of me as ROLE`,
        `attach card to target as ROLE`): what a position may hold, for checking scenario setups."""
        found: dict[str, set[str]] = {}
        for p in self.plays:
            src = p.source.get("effect") if isinstance(p.source, dict) else None
            if not isinstance(src, str):
                continue
            try:
                tree = parse_program(src)
            except RulesetError:
                continue
            for n in A.walk(tree):
                if isinstance(n, A.Move) and n.dest.zone == "field" and n.dest.role:
                    found.setdefault(n.dest.role, set()).update(p.ranks)
                elif isinstance(n, A.Attach):
                    found.setdefault(n.role, set()).update(p.ranks)
        return found

    # Bindings for expressions about one player. Generated code only reads its bindings, so these
    # two dicts are shared by every call instead of being built each time.
    _PLAYER_ENV = ({"me": 0, "opponent": 1}, {"me": 1, "opponent": 0})

    def score_of(self, g, player: int) -> int:
        return self.score_fn(g, self._PLAYER_ENV[player]) if self.score_fn else 0

    def goal_of(self, g, player: int) -> int:
        return self.goal_fn(g, self._PLAYER_ENV[player]) if self.goal_fn else 21

    def reached_goal(self, g, player: int) -> bool:
        env = self._PLAYER_ENV[player]
        return self.score_fn(g, env) >= self.goal_fn(g, env)

    def hand_visible(self, g, viewer: int) -> bool:
        return bool(self.visible_fn(g, {"me": viewer, "opponent": 1 - viewer}))

    def can_play(self, g, player: int, cards) -> bool:
        from interpreter.engine.machine import plays_for  # the engine enumerates; imported here to avoid a cycle
        return bool(plays_for(g, player, tuple(cards), free_ok=False))


def _with_chosen_play(effect: tuple) -> tuple:
    """An effect with `play from` ends by starting the play chosen there (START_CHOSEN)."""
    from interpreter.language.compiler import PLAY
    return effect + (START_CHOSEN,) if any(ins[0] == PLAY for ins in effect) else effect


def _concat(a: tuple, b: tuple) -> tuple:
    """Join two instruction lists, shifting jump targets of the second."""
    from interpreter.language.compiler import JUMP, JUMP_IF_NOT
    n = len(a)
    out = list(a)
    for ins in b:
        if ins[0] == JUMP_IF_NOT:
            ins = (ins[0], ins[1], ins[2] + n)
        elif ins[0] == JUMP:
            ins = (ins[0], ins[1] + n)
        out.append(ins)
    return tuple(out)


@cache
def _load_cached(spec: str) -> Rules:
    return Rules(compose(spec))


def load_ruleset(spec: str) -> Rules:
    """Load a ruleset by name (`default`), combination (`default+twinned`) or path. Shipped ones are cached."""
    if "/" in spec or spec.endswith((".yaml", ".yml")):
        rules = Rules(compose(spec))
        rules.spec = spec
        return rules
    rules = _load_cached(spec)
    rules.spec = spec
    return rules


def check(spec: str) -> list[RulesetError]:
    """Every problem of a ruleset, not just the first (empty if it is valid), in file order.
    An option file on its own is checked on the base it requires (default if none)."""
    errors: list[RulesetError] = []
    if "+" not in spec:
        try:
            doc = _read_part(spec)
        except RulesetError as e:
            return [e]
        if isinstance(doc.data, dict) and doc.data.get("kind") == "option":
            base, before = "default", []
            for req in doc.data.get("requires") or []:
                try:
                    kind = _read_part(str(req)).data.get("kind")
                except (RulesetError, AttributeError):
                    continue
                if kind == "option":
                    before.append(str(req))
                else:
                    base = str(req)
            spec = "+".join([base, *before, spec])
    try:
        Rules(compose(spec, errors))
    except RulesetErrors as e:
        errors.extend(e.errors)
    except RulesetError as e:
        errors.append(e)
    return _tidy(errors)


def _tidy(errors: list[RulesetError]) -> list[RulesetError]:
    """Each problem once, in the order of the files' lines."""
    seen: set = set()
    out = []
    for e in errors:
        w = e.where
        k = (e.code, e.message, (w.file, w.line, w.column) if w else None)
        if k not in seen:
            seen.add(k)
            out.append(e)
    return sorted(out, key=lambda e: (e.where is None, e.where.file if e.where else "",
                                      e.where.line if e.where else 0, e.where.column if e.where else 0))


__all__ = ["Rules", "PlayDef", "ResponseDef", "load_ruleset", "check", "compose", "shipped_names", "A"]
