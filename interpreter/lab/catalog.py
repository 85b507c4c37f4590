"""The rules of a ruleset, numbered: its plays, responses, choices, endings and triggers (`Catalog`), in the
ruleset's own order (the same numbers in every process), and the one character that stands for each
in a game's record (`rule_code`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from interpreter.core.cards import ALL_RANKS
from interpreter.core.errors import CuttleError
from interpreter.language import tree as A
from interpreter.language.compiler import CHOOSE
from interpreter.language.instructions import ASK, DECLINE
from interpreter.language.parser import parse_program
from interpreter.rules import Composed, Rules
from interpreter.rules.triggers import ZONE_WORDS

Program = tuple[Any, ...]  # a compiled program: its instructions
_RULE = "the rule "  # the owner of a trigger's choices: "the rule mulligan"

_CATALOGS: dict[str, Catalog] = {}


def catalog_of(rules: Rules) -> Catalog:
    """The catalogue of `rules`, made once per process."""
    cat = _CATALOGS.get(rules.hash)
    if cat is None or cat.rules is not rules:
        cat = _CATALOGS[rules.hash] = Catalog(rules)
    return cat


@dataclass(frozen=True)
class RuleInfo:
    kind: str  # play | response | choice | end | trigger | counter
    name: str
    detail: str  # how it is played: verb and ranks, or where a choice is made
    origin: str  # which part of the ruleset made or changed it ("" for the base)
    answerable: bool = False  # a play some response can answer (so it can be countered)
    watch: bool = True  # named as a dead rule if it never fires in a run
    answer: str = ""  # a question's (`if P agrees to VERB`) choice: "yes" (VERB) or "no" (decline)


class Catalog:
    """The plays, responses, choices and endings of a ruleset, numbered in the ruleset's own order
    (the same numbers in every process), and the engine objects that stand for them."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.infos: list[RuleInfo] = []
        self.number: dict[Any, int] = {}  # PlayDef or ResponseDef (hashed as objects) -> rule number
        self.choices: dict[tuple[str, str], int] = {}  # (owner, verb) -> rule number
        self.declined: dict[tuple[str, str], int] = {}  # (owner, verb) of a question -> its "no" answer's number
        self.owners: dict[int, str] = {}  # id(program) -> the rule it belongs to
        self._alive: list[Program] = []  # the programs of `owners` (so their ids stay theirs)
        # each kind of rule in its turn (the order numbers them); the programs whose choices are rules
        programs = self._plays() + self._responses() + [("turn.end", rules.turn_end)]
        programs += [(f"{_RULE}{t.name}", t.program) for t in rules.triggers]  # (a mulligan's question)
        self._choices(programs)
        self._endings()
        self.trigger_code: dict[str, str] = {}  # a trigger's name -> its character (filled below)
        for t in rules.triggers:
            event = t.event + (" " + _zone_words(t.zones, t.within) if t.zones else "")
            k = self._add(RuleInfo("trigger", t.name, f"when {event}", origin(rules.composed, ("triggers", t.name))))
            self.trigger_code[t.name] = rule_code(k)
        for name, of in rules.counters.items():  # summarised from the column `counters`, never named dead
            self._add(RuleInfo("counter", name, f"of {of}", origin(rules.composed, ("counters", name)), watch=False))
        if len(self.infos) > MAX_RULES:
            raise CuttleError(
                f"ruleset '{rules.name}' has {len(self.infos):,} plays, responses and choices; "
                f"the lab records at most {MAX_RULES:,}"
            )
        # what a game's record writes for each: a play or response (its object), a choice (its number)
        self.code: dict[Any, str] = {k: rule_code(k) for k in range(len(self.infos))}
        self.code.update((d, rule_code(k)) for d, k in self.number.items())

    def _plays(self) -> list[tuple[str, Program]]:
        rules, comp = self.rules, self.rules.composed
        programs: list[tuple[str, Program]] = []
        for p in rules.plays:
            ranks = " ".join(sorted(p.ranks, key=_rank_order)) if p.ranks else ""
            detail = p.verb + (f" ({ranks})" if ranks else "") + (f", {p.ncards} cards" if p.ncards > 1 else "")
            answerable = bool(p.kind and rules.answering.get(p.kind))
            self.number[p] = self._add(RuleInfo("play", p.name, detail, origin(comp, ("plays", p.name)), answerable))
            programs += [(p.name, p.program), (f"{p.name} (countered)", p.countered)]
        return programs

    def _responses(self) -> list[tuple[str, Program]]:
        comp = self.rules.composed
        programs: list[tuple[str, Program]] = []
        for r in self.rules.responses:
            detail = f"{r.verb} ({' '.join(sorted(r.ranks, key=_rank_order))}) answers {', '.join(sorted(r.answers))}"
            self.number[r] = self._add(RuleInfo("response", r.name, detail, origin(comp, ("responses", r.name))))
            programs.append((r.name, r.program))
        return programs

    def _choices(self, programs: list[tuple[str, Program]]) -> None:
        """The choices made in `programs` (owner, program), each (owner, verb) once; then one per verb for
        a choice made in a program none of them owns."""
        comp = self.rules.composed
        by_player = _turn_end_choices(self.rules)  # the turn's own choices that a player (not `random`) makes
        verbs: list[str] = []
        for owner, prog in programs:
            self.owners[id(prog)] = owner
            for ins in prog:
                if ins[0] == CHOOSE and (owner, ins[4]) not in self.choices:
                    verb = ins[4]
                    verbs.append(verb)
                    where = "when a turn ends" if owner == "turn.end" else f"in the effect of {owner}"
                    path = (
                        ("turn", "end")
                        if owner == "turn.end"
                        else ("triggers", owner[len(_RULE) :])
                        if owner.startswith(_RULE)
                        else ("plays", owner.split(" ")[0])
                    )
                    asked = ins[-1] == ASK
                    self.choices[(owner, verb)] = self._add(
                        RuleInfo(
                            "choice",
                            f"{owner}: {verb}",
                            f"a '{verb}' question {where}, answered yes" if asked else f"a '{verb}' choice {where}",
                            origin(comp, path),
                            watch=owner == "turn.end" and verb in by_player,
                            answer="yes" if asked else "",
                        )
                    )
                    if asked:  # its other answer: counted apart, so a report says how often each was given
                        self.declined[(owner, verb)] = self._add(
                            RuleInfo(
                                "choice",
                                f"{owner}: {verb}, declined",
                                f"a '{verb}' question {where}, answered no ('{DECLINE}')",
                                origin(comp, path),
                                watch=False,
                                answer="no",
                            )
                        )
        for verb in dict.fromkeys(verbs):  # a choice in a program none of the above owns
            self.choices[("effect", verb)] = self._add(
                RuleInfo("choice", f"effect: {verb}", f"a '{verb}' choice elsewhere", "", watch=False)
            )

    def _endings(self) -> None:
        rules = self.rules
        if rules.passes_to_end:
            what = f"{rules.passes_to_end} passes in a row end the game"
            self._add(RuleInfo("end", "end.passes", what, origin(rules.composed, ("end", "passes"))))

    def _add(self, info: RuleInfo) -> int:
        self.infos.append(info)
        return len(self.infos) - 1

    def choice(self, prog: Program, verb: str, declined: bool = False) -> int:
        """The number of a choice made in `prog` (the program waiting for it); with `declined`, of the
        answer no to a question."""
        owner = self.owners.get(id(prog))
        if owner is None:
            te = self.rules.turn_end
            owner = "turn.end" if te and prog[: len(te)] == te else "effect"  # the turn's end program + next turn
            self.owners[id(prog)] = owner
            self._alive.append(prog)  # keeps the program (and so its id) alive
        if declined:
            n = self.declined.get((owner, verb))
            if n is not None:
                return n
        n = self.choices.get((owner, verb))
        return self.choices[("effect", verb)] if n is None else n


MAX_RULES = 0xD800 - 0xCC  # rule_code stays below the surrogate code points


def rule_code(k: int) -> str:
    """The character that stands for rule number `k` in a game's record: A-Z for rules 0-25, a-z for
    26-51, then U+0100 onwards. Code points grow with the number, so sorting a record's characters
    puts its rules in rule order."""
    return chr(65 + k) if k < 26 else chr(71 + k) if k < 52 else chr(0xCC + k)


def code_rule(ch: str) -> int:
    """The rule number `rule_code` wrote as `ch`."""
    o = ord(ch)
    return o - 65 if o < 91 else o - 71 if o < 123 else o - 0xCC


def _zone_words(zones: frozenset[int], within: bool) -> str:
    """The zone word of a card event (`card leaves field`), as the trigger was written."""
    for word, zs in ZONE_WORDS.items():
        if zs == zones and (word == "play") == within:
            return word
    return "zone"


def _rank_order(rank: str) -> int:
    return ALL_RANKS.index(rank) if rank in ALL_RANKS else len(ALL_RANKS)


def _turn_end_choices(rules: Rules) -> list[str]:
    """The verbs of the choices a player makes in the turn's end rule (not those made `by random`)."""
    src = (rules.data.get("turn") or {}).get("end")
    if not isinstance(src, str):
        return []
    try:
        tree = parse_program(src)
    except CuttleError:
        return []
    return sorted(
        {
            n.verb
            for n in A.walk(tree)
            if isinstance(n, A.Choose) and not (isinstance(n.chooser, A.Name) and n.chooser.name == "random")
        }
    )


def origin(comp: Composed, path: tuple[str, ...]) -> str:
    """Which part of a composed ruleset made the entry at `path`, or changed it: '' when it is the
    base's own and unchanged; 'from X' when X added it; 'changed by X' when X changed it."""
    base = comp.parts[0] if comp.parts else ""
    made = None
    for i in range(len(path), 0, -1):
        if path[:i] in comp.setters:
            made = comp.setters[path[:i]]
            break
    changed = sorted(
        {s for p, s in comp.setters.items() if p[: len(path)] == path and len(p) > len(path) and s != made},
        key=lambda s: comp.label(s),
    )
    if made is not None and made != base:
        return f"from {comp.label(made)}"
    if changed:
        return "changed by " + ", ".join(comp.label(s) for s in changed)
    return ""
