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

from . import effect_ast as A
from .cards import ALL_RANKS, CARD_COUNT, JOKERS, NAMES, RANK_OF, SUIT_OF, SUITS, UnknownCardError, parse_card
from .compiler import BUILTIN, Compiler, Context, reads_only_fields
from .effect_parser import parse_expr, parse_program
from .errors import RulesetError, RulesetErrors, suggest
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
    parts: list[str] = field(default_factory=list)
    lines: dict = field(default_factory=dict)

    def span(self, path):
        p = tuple(path)
        while p:
            if p in self.marks:
                return self.marks[p]
            p = p[:-1]
        return None

    def where(self, path):
        s = self.span(path)
        return s.here() if s else None

    def key_where(self, path):
        s = self.marks.get(tuple(path) + (KEY,))
        return s.here() if s else self.where(path)


def _merge(dst: Composed, doc_data: Any, doc: YamlDoc, path: tuple, part: str, option: bool,
           errors: list[RulesetError]) -> None:
    for key, value in doc_data.items():
        p = path + (key,)
        if key in ("extends", "options", "kind", "requires", "conflicts") and not path:
            continue
        cur = _get(dst.data, p)
        if isinstance(value, dict) and isinstance(cur, dict):
            dst.marks[p + (KEY,)] = doc.marks.get(p + (KEY,), dst.marks.get(p + (KEY,)))
            _merge(dst, value, doc, p, part, option, errors)
            continue
        if option and p in dst.setters and dst.setters[p] != dst.parts[0] and cur != value:
            errors.append(RulesetError(
                f"options clash: '{part}' and '{dst.setters[p]}' both change {'.'.join(map(str, p))} "
                f"differently", doc.where(p), code="E301"))
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


def compose(spec: str) -> Composed:
    """Read `base+option+option...` into one merged document."""
    parts = [p for p in spec.split("+")]
    if not parts or any(not p.strip() for p in parts):
        raise RulesetError(f"'{spec}' is not a ruleset name: write NAME or NAME+OPTION+...", None, code="E002")
    errors: list[RulesetError] = []
    out = _compose_one(parts[0].strip(), errors, [])
    for opt in parts[1:]:
        _apply_option(out, opt.strip(), errors)
    if errors:
        raise RulesetErrors(errors)
    out.data["name"] = spec if len(parts) > 1 else out.data.get("name", spec)
    return out


def _compose_one(part: str, errors: list[RulesetError], seen: list[str]) -> Composed:
    if part in seen:
        raise RulesetError(f"ruleset '{part}' extends itself ({' -> '.join(seen + [part])})", None, code="E003")
    doc = _read_part(part)
    if not isinstance(doc.data, dict):
        raise RulesetError("a ruleset file must be a mapping of keys (name:, plays:, ...)", doc.where(()),
                           code="E004")
    data = doc.data
    if data.get("kind") == "option" and not seen:
        raise RulesetError(f"'{part}' is an option, not a whole ruleset: use it as BASE+{part}", None,
                           code="E302")
    if "extends" in data:
        base = _compose_one(str(data["extends"]), errors, seen + [part])
    else:
        base = Composed({}, {}, parts=[part])
    base.parts = base.parts or [part]
    base.lines[part] = doc
    _merge(base, data, doc, (), part, False, errors)
    for k in ("name", "description", "source"):
        if k in data:
            base.data[k] = data[k]
    base.marks[()] = doc.marks.get(())
    for opt in data.get("options", []) or []:
        _apply_option(base, str(opt), errors)
    return base


def _apply_option(base: Composed, opt: str, errors: list[RulesetError]) -> None:
    doc = _read_part(opt)
    if not isinstance(doc.data, dict):
        raise RulesetError("an option file must be a mapping of keys", doc.where(()), code="E004")
    data = doc.data
    if data.get("kind") != "option":
        raise RulesetError(f"'{opt}' is a whole ruleset, not an option: it cannot follow '+'", None, code="E302")
    present = set(base.parts)
    for req in data.get("requires", []) or []:
        if req not in present:
            errors.append(RulesetError(f"option '{opt}' needs '{req}' (have {'+'.join(base.parts)})",
                                       doc.where(("requires",)), code="E303"))
    for con in data.get("conflicts", []) or []:
        if con in present:
            errors.append(RulesetError(f"option '{opt}' cannot be combined with '{con}'",
                                       doc.where(("conflicts",)), code="E303"))
    if opt in present:
        errors.append(RulesetError(f"option '{opt}' is applied twice", None, code="E303"))
    base.lines[opt] = doc
    _merge(base, data, doc, (), opt, True, errors)
    base.parts.append(opt)


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
            errors.append(RulesetError(f"unknown key '{key}' in {'.'.join(map(str, path)) or 'the ruleset'}",
                                       c.key_where(p), code="E011",
                                       hint=f"did you mean '{near}'?" if near else
                                       f"expected one of: {', '.join(schema)}"))
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

    if typ in ("str", "expr", "program"):
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
                near = suggest(str(v), ALL_RANKS)
                errors.append(RulesetError(f"{name}: unknown rank '{v}'", c.where(path + (i,)), code="E013",
                                           hint=f"did you mean '{near}'?" if near else
                                           f"ranks: {', '.join(ALL_RANKS)}"))
            elif typ == "card-list":
                try:
                    parse_card(str(v))
                except UnknownCardError as e:
                    errors.append(RulesetError(f"{name}: {e}", c.where(path + (i,)), code="E014"))
            elif typ == "words" and not isinstance(v, str):
                errors.append(RulesetError(f"{name}: expected words", c.where(path + (i,)), code="E012"))
    elif isinstance(typ, tuple) and typ[0] == "enum":
        if value not in typ[1:]:
            bad(f"expected one of {', '.join(typ[1:])}, got '{value}'", hint=(
                f"did you mean '{suggest(str(value), typ[1:])}'?" if suggest(str(value), typ[1:]) else None))


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
# After a response's own effect: open a window for the other player, or settle the chain.
AFTER_RESPONSE = (BUILTIN, "after_response", None)


class Rules:
    """A loaded ruleset: immutable, shared by every game played with it."""

    def __init__(self, composed: Composed) -> None:
        self.composed = composed
        self.data = composed.data
        self.name = str(self.data.get("name", "?"))
        self.parts = list(composed.parts)
        self.hash = hashlib.sha256(json.dumps(self.data, sort_keys=True, default=str).encode()).hexdigest()[:16]
        errors: list[RulesetError] = []
        _validate(composed, errors)
        if errors:
            raise RulesetErrors(errors)
        self._build(errors)
        if errors:
            raise RulesetErrors(errors)

    # -- building -------------------------------------------------------------------------------
    def _build(self, errors: list[RulesetError]) -> None:
        d, c = self.data, self.composed
        deck = d.get("deck", {}) or {}
        suits = [str(s) for s in deck.get("suits", list(SUITS))]
        for i, s in enumerate(suits):
            if s not in SUITS:
                errors.append(RulesetError(f"deck.suits: unknown suit '{s}' (C, D, H, S)", c.where(("deck", "suits", i)),
                                           code="E015"))
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
        jokers = int(deck.get("jokers", 0) or 0)
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
                                           hint=f"did you mean '{suggest(str(k), ALL_RANKS)}'?"))
        self.values = values
        deal = d.get("deal") or {}
        self.deal = (int(deal.get("first", 5)), int(deal.get("second", 6)))
        if sum(self.deal) > len(self.deck_cards):
            errors.append(RulesetError(f"deal: {sum(self.deal)} cards dealt from a deck of {len(self.deck_cards)}",
                                       c.where(("deal",)), code="E017"))
        end = d.get("end") or {}
        self.passes_to_end = int(end.get("passes", 3))
        self.on_passes = end.get("on_passes", "most_points")
        self.match_wins = int((d.get("match") or {}).get("wins", 1))

        ctx = Context(constants={}, suit_rank=suit_rank, values=values, ranks=ALL_RANKS)
        self.ctx = ctx
        for k, v in (d.get("constants") or {}).items():
            if isinstance(v, bool) or not isinstance(v, (int, list)):
                errors.append(RulesetError(f"constants.{k}: expected a number or a list of numbers",
                                           c.where(("constants", k)), code="E012"))
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
            ctx.defines[m.group(1)] = (params, ast, c.span(("define", key)))

        def expr(path: tuple, bound: set[str], default: str | None = None):
            src = _get(d, path)
            if src is None:
                if default is None:
                    return None
                src, span = default, None
            else:
                span = c.span(path)
            try:
                return Compiler(ctx, span).expr(parse_expr(str(src), span), frozenset(bound))
            except RulesetError as e:
                errors.append(e)
                return None

        def prog(path: tuple, bound: set[str], default: str = "nothing") -> tuple:
            src = _get(d, path)
            span = c.span(path) if src is not None else None
            try:
                return Compiler(ctx, span).program(parse_program(str(src if src is not None else default), span),
                                                   frozenset(bound))
            except RulesetError as e:
                errors.append(e)
                return ()

        base = {"me", "opponent"}
        goal_src = str(_get(d, ("end", "goal")) or "21")
        score_src = str(_get(d, ("end", "score")) or "total(field of me where it.role == point)")
        self.goal_fn = expr(("end", "goal"), base, "21")
        self.score_fn = expr(("end", "score"), base, "total(field of me where it.role == point)")
        try:  # the win check is skipped while no field changed, when goal and score read only fields
            self.win_reads_fields_only = all(reads_only_fields(parse_expr(x), ctx) for x in (goal_src, score_src))
        except RulesetError:
            self.win_reads_fields_only = False
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
        for name, p in (d.get("plays") or {}).items():
            if not isinstance(p, dict):
                continue
            path = ("plays", name)
            kind = p.get("kind")
            if kind is not None and kind not in self.kinds:
                near = suggest(kind, self.kinds)
                errors.append(RulesetError(f"plays.{name}.kind: unknown kind '{kind}'", c.where(path + ("kind",)),
                                           code="E019", hint=f"did you mean '{near}'?" if near else
                                           f"kinds: {', '.join(self.kinds) or 'none defined'}"))
                kind = None
            if "verb" not in p:
                errors.append(RulesetError(f"plays.{name}: needs a verb", c.key_where(path), code="E020"))
                continue
            ncards = int(p.get("cards", 1))
            if ncards > 0 and not p.get("ranks"):
                errors.append(RulesetError(f"plays.{name}: needs ranks (or cards: 0)", c.key_where(path), code="E020"))
                continue
            bound = base | {"card", "cards"}
            target = expr(path + ("target",), bound)
            eff_bound = bound | ({"target"} if "target" in p else set())
            effect = prog(path + ("effect",), eff_bound)
            after = self.kinds[kind]["after"] if kind else ()
            countered = prog(path + ("countered",), eff_bound) if "countered" in p else (
                self.kinds[kind]["countered"] if kind else ())
            self.plays.append(PlayDef(
                name=name, verb=p["verb"], ranks=frozenset(str(r) for r in p.get("ranks", [])), ncards=ncards,
                kind=kind, free=bool(p.get("free", False)), legal=expr(path + ("legal",), bound), target=target,
                program=_concat(effect, after) + (CLEANUP, CHECK_WIN), countered=countered + (CLEANUP, CHECK_WIN),
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
                name=name, verb=r["verb"], ranks=frozenset(str(x) for x in r["ranks"]), extra=int(r.get("extra", 0)),
                answers=frozenset(r.get("answers", [])), kind=str(r.get("kind", name)),
                legal=expr(path + ("legal",), bound),
                program=prog(path + ("effect",), bound, "scrap cards; scrap extra") + (AFTER_RESPONSE,),
                counterable=expr(path + ("counterable",), bound) or (lambda g, e: True), source=r))
        known_kinds = set(self.kinds) | {r.kind for r in self.responses}
        for r in self.responses:
            for a in r.answers:
                if a not in known_kinds:
                    near = suggest(a, known_kinds)
                    errors.append(RulesetError(f"responses.{r.name}.answers: unknown kind '{a}'",
                                               c.where(("responses", r.name, "answers")), code="E019",
                                               hint=f"did you mean '{near}'?" if near else None))
        verbs_by_kind: dict[str, list[str]] = {}
        for p in self.plays:
            verbs_by_kind.setdefault(p.verb, []).append(p.name)
        self.verbs = sorted({p.verb for p in self.plays} | {r.verb for r in self.responses} | {"resolve"}
                            | ctx.verbs)
        seen: dict[tuple[str, str], str] = {}
        for p in self.plays:
            for r in p.ranks:
                if (p.verb, r) in seen:
                    errors.append(RulesetError(
                        f"plays.{p.name}: '{p.verb}' with a {r} is already defined by plays.{seen[(p.verb, r)]}",
                        c.where(("plays", p.name, "ranks")), code="E021"))
                seen[(p.verb, r)] = p.name
        self.by_rank: dict[str, list[PlayDef]] = {r: [p for p in self.plays if r in p.ranks and p.ncards > 0]
                                                 for r in ALL_RANKS}
        self.cardless = [p for p in self.plays if p.ncards == 0]
        self.answering: dict[str, list[ResponseDef]] = {}
        for r in self.responses:
            for a in r.answers:
                self.answering.setdefault(a, []).append(r)

    # -- queries used by expressions and the engine --------------------------------------------
    def score_of(self, g, player: int) -> int:
        return self.score_fn(g, {"me": player, "opponent": 1 - player}) if self.score_fn else 0

    def goal_of(self, g, player: int) -> int:
        return self.goal_fn(g, {"me": player, "opponent": 1 - player}) if self.goal_fn else 21

    def hand_visible(self, g, viewer: int) -> bool:
        return bool(self.visible_fn(g, {"me": viewer, "opponent": 1 - viewer}))

    def can_play(self, g, player: int, cards) -> bool:
        from .engine import plays_for  # the engine enumerates; imported here to avoid a cycle
        return bool(plays_for(g, player, tuple(cards), free_ok=False))


def _concat(a: tuple, b: tuple) -> tuple:
    """Join two instruction lists, shifting jump targets of the second."""
    from .compiler import JUMP, JUMP_IF_NOT
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
        return Rules(compose(spec))
    return _load_cached(spec)


def check(spec: str) -> list[RulesetError]:
    """Every problem of a ruleset, not just the first (empty if it is valid)."""
    try:
        load_ruleset(spec) if not ("/" in spec or spec.endswith((".yaml", ".yml"))) else Rules(compose(spec))
    except RulesetErrors as e:
        return e.errors
    except RulesetError as e:
        return [e]
    return []


__all__ = ["Rules", "PlayDef", "ResponseDef", "load_ruleset", "check", "compose", "shipped_names", "A"]
