"""One seeded game of a lab run, and the record of what happened in it.

A run (`Job`) is one or two rulesets (`sim`, `compare`), two players, a master seed and a cap on
decisions. Game `i` of a run gets its seed from (master seed, i) alone, and each seat's player its
seed from the game's seed and the seat: a game is the same whatever process, machine or order plays
it, and game `i` of two rulesets with the same deck and deal starts from the same deal.

While a game is played, a `Recorder` notes which plays and responses became legal for each seat,
which were chosen, which plays were countered, and which choices inside effects were made (the
owner of a choice is the program waiting for it: a play, a response or the turn's end rule).
It works on the engine's own action tuples, and a game is kept as six short strings, one character
per rule (`rule_code`): per seat, the plays and responses that became legal, everything chosen in
the order it was chosen, and the plays that were countered. Making them is a few joins in C; the
counts per rule are read from them where they are needed (the store's view `uses`, the summary).

Random play against random play runs on the raw engine (`deal`, `legal_actions`, `apply_action`);
any other pairing goes through `Game`, asking each player's `choose(game)`. A `random` player picks
`legal[rng.randrange(len(legal))]` either way, from the same generator (players/picks.py: cheap to
seed and to draw from), so both paths play exactly the same game (tests/test_lab_run.py checks it).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from interpreter.core.errors import CuttleError, rule_failure
from interpreter.engine.decision import MAIN, PLAY_D, RESPOND
from interpreter.engine.game import Game
from interpreter.engine.legal import RESOLVE_ACTION, legal_actions, move_of
from interpreter.engine.machine import apply_action, deal
from interpreter.engine.moves import Move
from interpreter.engine.state import DRAW, State
from interpreter.language import tree as A
from interpreter.language.compiler import CHOOSE
from interpreter.language.parser import parse_program
from interpreter.players import parse_spec
from interpreter.players.heuristic import RandomPlayer
from interpreter.players.picks import Picks
from interpreter.rules import Composed, Rules

MAX_DECISIONS = 20000
MASK = (1 << 64) - 1
SEATS = ("p1", "p2")

# -- seeds ---------------------------------------------------------------------------------------


def game_seed(master: int, index: int) -> int:
    """The seed of game `index` of a run: a function of the master seed and the index only (63 bits of
    BLAKE2b of `cuttle-lab-game:MASTER:INDEX`, so that it fits SQLite's INTEGER)."""
    digest = hashlib.blake2b(b"cuttle-lab-game:%d:%d" % (master, index), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def player_seed(seed: int, seat: int) -> int:
    """The seed of the player in `seat` (0 = p1) of the game with this seed: splitmix64's mixer
    applied to another sequence than the game's own generator walks (that one adds the golden
    ratio to `seed`), so a player's choices owe nothing to the shuffle."""
    z = (seed * 0xD1B54A32D192ED03 + (seat + 1) * 0x8CB92BA72F3D8DD7) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return (z ^ (z >> 31)) >> 1


# -- what a run is -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """One ruleset of a run. Workers build the rules from the merged data (`composed`), so they
    read no file: a worker on another machine needs only Cuttle Lab installed."""

    label: str  # "a" (or "b" in a comparison)
    spec: str  # as the user wrote it
    name: str
    hash: str
    composed: Composed = field(repr=False, compare=False)

    def show(self, other: Side | None = None) -> str:
        """How to call this ruleset in a report: its name, or what the user wrote if two share a name."""
        return self.spec if other is not None and other.name == self.name else self.name

    @classmethod
    def of(cls, label: str, rules: Rules) -> Side:
        remember(rules)
        return cls(label, rules.spec, rules.name, rules.hash, rules.composed)


@dataclass(frozen=True)
class Job:
    sides: tuple[Side, ...]
    players: tuple[str, str]  # canonical player specs, p1 then p2
    seed: int
    max_decisions: int = MAX_DECISIONS

    def identity(self) -> dict[str, Any]:
        """What makes two runs the same run: the rulesets' contents (not the paths they were read
        from), the players, the seed and the cap; not the number of games."""
        return {
            "rulesets": [{"side": s.label, "name": s.name, "hash": s.hash} for s in self.sides],
            "players": list(self.players),
            "seed": self.seed,
            "max_decisions": self.max_decisions,
        }


def canonical_player(spec: str) -> str:
    """A player spec in one spelling (`bot` → `heuristic`, options sorted), so that the same player
    written two ways is the same run; raises PlayerError for an unknown player, level or option."""
    entry, _ = parse_spec(spec)  # validates everything
    text = spec.strip()
    text, _, query = text.partition("?")
    _, _, level = text.partition(":")
    level = level.strip().lower() or (entry.default_level or "")
    items = sorted(i.strip() for i in query.split("&") if i.strip())
    return entry.name + (f":{level}" if level else "") + ("?" + "&".join(items) if items else "")


# -- the rules a worker plays, built once per process --------------------------------------------

_RULES: dict[str, Rules] = {}
_CATALOGS: dict[str, Catalog] = {}
_FACTORIES: dict[str, Callable[[int], Any]] = {}


def remember(rules: Rules) -> None:
    """Keep a loaded ruleset for the games of this process (and of processes forked from it)."""
    _RULES.setdefault(rules.hash, rules)


def rules_of(side: Side) -> Rules:
    rules = _RULES.get(side.hash)
    if rules is None:
        rules = Rules(side.composed)
        rules.spec = side.spec
        if rules.hash != side.hash:
            raise CuttleError(
                f"this worker builds ruleset '{side.name}' with hash {rules.hash}, not {side.hash}: "
                "every worker needs the same version of Cuttle Lab"
            )
        _RULES[side.hash] = rules
    return rules


def catalog_of(rules: Rules) -> Catalog:
    cat = _CATALOGS.get(rules.hash)
    if cat is None or cat.rules is not rules:
        cat = _CATALOGS[rules.hash] = Catalog(rules)
    return cat


def _player_factory(spec: str) -> Callable[[int], Any]:
    f = _FACTORIES.get(spec)
    if f is None:
        entry, options = parse_spec(spec)
        f = _FACTORIES[spec] = lambda seed: entry.factory(seed=seed, **options)
    return f


_PLAIN: dict[str, bool] = {}


def _plain_random(spec: str) -> bool:
    """Whether `spec` makes a plain `RandomPlayer` (its picks: `Picks(seed)`, see players/picks.py)."""
    plain = _PLAIN.get(spec)
    if plain is None:
        p = _player_factory(spec)(0)
        plain = _PLAIN[spec] = type(p) is RandomPlayer and type(p.rng) is Picks
    return plain


# -- the rules of a ruleset, numbered ------------------------------------------------------------


@dataclass(frozen=True)
class RuleInfo:
    kind: str  # play | response | choice | end
    name: str
    detail: str  # how it is played: verb and ranks, or where a choice is made
    origin: str  # which part of the ruleset made or changed it ("" for the base)
    answerable: bool = False  # a play some response can answer (so it can be countered)
    watch: bool = True  # named as a dead rule if it never fires in a run


class Catalog:
    """The plays, responses, choices and endings of a ruleset, numbered in the ruleset's own order
    (the same numbers in every process), and the engine objects that stand for them."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.infos: list[RuleInfo] = []
        self.number: dict[Any, int] = {}  # PlayDef or ResponseDef (hashed as objects) -> rule number
        self.choices: dict[tuple[str, str], int] = {}  # (owner, verb) -> rule number
        self.owners: dict[int, str] = {}  # id(program) -> the rule it belongs to
        self._alive: list[tuple] = []  # the programs of `owners` (so their ids stay theirs)
        comp = rules.composed
        programs: list[tuple[str, tuple]] = []
        for p in rules.plays:
            ranks = " ".join(sorted(p.ranks, key=_rank_order)) if p.ranks else ""
            detail = p.verb + (f" ({ranks})" if ranks else "") + (f", {p.ncards} cards" if p.ncards > 1 else "")
            self.number[p] = self._add(
                RuleInfo(
                    "play",
                    p.name,
                    detail,
                    origin(comp, ("plays", p.name)),
                    bool(p.kind and rules.answering.get(p.kind)),
                )
            )
            programs += [(p.name, p.program), (f"{p.name} (countered)", p.countered)]
        for r in rules.responses:
            detail = f"{r.verb} ({' '.join(sorted(r.ranks, key=_rank_order))}) answers {', '.join(sorted(r.answers))}"
            self.number[r] = self._add(RuleInfo("response", r.name, detail, origin(comp, ("responses", r.name))))
            programs.append((r.name, r.program))
        programs.append(("turn.end", rules.turn_end))
        by_player = _turn_end_choices(rules)  # the turn's own choices that a player (not `random`) makes
        verbs: list[str] = []
        for owner, prog in programs:
            self.owners[id(prog)] = owner
            for ins in prog:
                if ins[0] == CHOOSE and (owner, ins[4]) not in self.choices:
                    verb = ins[4]
                    verbs.append(verb)
                    where = "when a turn ends" if owner == "turn.end" else f"in the effect of {owner}"
                    self.choices[(owner, verb)] = self._add(
                        RuleInfo(
                            "choice",
                            f"{owner}: {verb}",
                            f"a '{verb}' choice {where}",
                            origin(comp, ("turn", "end") if owner == "turn.end" else ("plays", owner.split(" ")[0])),
                            watch=owner == "turn.end" and verb in by_player,
                        )
                    )
        for verb in dict.fromkeys(verbs):  # a choice in a program none of the above owns
            self.choices[("effect", verb)] = self._add(
                RuleInfo("choice", f"effect: {verb}", f"a '{verb}' choice elsewhere", "", watch=False)
            )
        if rules.passes_to_end:
            self._add(
                RuleInfo(
                    "end",
                    "end.passes",
                    f"{rules.passes_to_end} passes in a row end the game",
                    origin(comp, ("end", "passes")),
                )
            )
        if len(self.infos) > MAX_RULES:
            raise CuttleError(
                f"ruleset '{rules.name}' has {len(self.infos):,} plays, responses and choices; "
                f"the lab records at most {MAX_RULES:,}"
            )
        # what a game's record writes for each: a play or response (its object), a choice (its number)
        self.code: dict[Any, str] = {k: rule_code(k) for k in range(len(self.infos))}
        self.code.update((d, rule_code(k)) for d, k in self.number.items())

    def _add(self, info: RuleInfo) -> int:
        self.infos.append(info)
        return len(self.infos) - 1

    def choice(self, prog: tuple, verb: str) -> int:
        """The number of a choice made in `prog` (the program waiting for it)."""
        owner = self.owners.get(id(prog))
        if owner is None:
            te = self.rules.turn_end
            owner = "turn.end" if te and prog[: len(te)] == te else "effect"  # the turn's end program + next turn
            self.owners[id(prog)] = owner
            self._alive.append(prog)  # keeps the program (and so its id) alive
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


def _rank_order(rank: str) -> int:
    from interpreter.core.cards import ALL_RANKS

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


def origin(comp: Composed, path: tuple) -> str:
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


# -- one game ------------------------------------------------------------------------------------


@dataclass
class GameResult:
    """What one game of one ruleset did: the row of `games`."""

    side: str
    index: int
    seed: int
    winner: str | None  # p1 | p2 | draw, or None for a game cut off at the decision cap
    end: str  # goal | passes | no-move | cutoff | other
    goal: int | None  # the winner's goal when the game ended at it
    scores: tuple[int, int]
    turns: int
    decisions: int
    hands: int
    reason: str
    rules_hash: str
    # per seat, one character per rule (rule_code): the plays and responses that became legal (each
    # once, in rule order), what was chosen (plays, responses, choices; in the order chosen), and the
    # plays that were countered: p1's three, then p2's (the columns p1_offered ... p2_countered)
    codes: tuple[str, str, str, str, str, str] = ("", "", "", "", "", "")

    @property
    def uses(self) -> tuple[tuple[int, ...], ...]:
        """The game's rows of the view `uses`: (rule, p1 offered, p1 used, p1 countered, p2 offered,
        p2 used, p2 countered) per rule legal or used, in rule order."""
        return uses_of(self.codes)


def uses_of(codes: Sequence[str]) -> tuple[tuple[int, ...], ...]:
    """A game's six strings as counts per rule, as the view `uses` gives them (a rule chosen counts as
    offered, which is what a choice needs: it is never in the offered string)."""
    o1, u1, c1, o2, u2, c2 = codes
    return tuple(
        (
            code_rule(ch),
            int(ch in o1 or ch in u1),
            u1.count(ch),
            c1.count(ch),
            int(ch in o2 or ch in u2),
            u2.count(ch),
            c2.count(ch),
        )
        for ch in sorted(set(o1 + u1 + o2 + u2))
    )


class Recorder:
    """Notes, per seat, what became legal, what was chosen and what was countered."""

    __slots__ = ("cat", "seen", "chosen", "countered")

    def __init__(self, cat: Catalog) -> None:
        self.cat = cat
        self.seen: tuple[set, set] = (set(), set())  # the PlayDefs/ResponseDefs legal at least once
        self.chosen: tuple[list, list] = ([], [])  # each play's and response's def, each choice's number
        self.countered: tuple[list, list] = ([], [])  # the def of each play that was countered

    def offer(self, d: Any, acts: list) -> None:
        """The legal actions of a decision: a play action carries its PlayDef, a response its ResponseDef."""
        k = d.kind
        if k == MAIN or k == PLAY_D:
            self.seen[d.player].update(map(_second, acts))
        elif k == RESPOND and len(acts) > 1:  # the last action is `resolve`
            self.seen[d.player].update(map(_second, acts[:-1]))

    def act(self, g: State, d: Any, a: tuple) -> None:
        """The chosen action, before it is applied."""
        a0 = a[0]
        if a0 == "play" or a0 == "respond":
            self.chosen[d.player].append(a[1])
        elif a0 == "choose":
            self.chosen[d.player].append(self.cat.choice(g.frames[-1][0], d.verb))

    def settle(self, g: State, a: tuple, chain: tuple) -> None:
        """After a response or `resolve`: if the chain of responses settled, whether the play was countered."""
        if a[0] == "resolve":
            responses = len(chain) - 1
        elif a[0] == "respond" and not (len(g.chain) == len(chain) + 1 and g.chain[0] is chain[0]):
            responses = len(chain)  # the response could not be answered: the chain settled at once
        else:
            return
        if responses % 2 == 1:
            self.countered[chain[0][1]].append(chain[0][0])

    def codes(self) -> tuple[str, str, str, str, str, str]:
        """The game's six strings (see GameResult.codes)."""
        code = self.cat.code.__getitem__
        seen, chosen, countered = self.seen, self.chosen, self.countered
        return (
            "".join(sorted(map(code, seen[0]))),
            "".join(map(code, chosen[0])),
            "".join(map(code, countered[0])),
            "".join(sorted(map(code, seen[1]))),
            "".join(map(code, chosen[1])),
            "".join(map(code, countered[1])),
        )


_second = itemgetter(1)


class GameFailed(CuttleError):
    """A game of a run that the rules (or a player) could not play on, with the game named."""


def play_game(
    rules: Rules,
    index: int,
    seed: int,
    players: Sequence[str],
    cap: int = MAX_DECISIONS,
    side: str = "a",
    through_game: bool = False,
) -> GameResult:
    """Play game `index` (seeded `seed`) of `rules` between `players` (specs, p1 first)."""
    rec = Recorder(catalog_of(rules))
    try:
        if not through_game and _plain_random(players[0]) and _plain_random(players[1]):
            picks = (Picks(player_seed(seed, 0)), Picks(player_seed(seed, 1)))  # as RandomPlayer(seed).rng
            g, n, turns = _random_game(rules, seed, picks, cap, rec)
        else:
            seats = [_player_factory(players[s])(player_seed(seed, s)) for s in (0, 1)]
            g, n, turns = record(Game.new(rules, seed), seats, cap, rec)
    except CuttleError as e:  # the rules refused something in this game: say which game, to replay it
        raise GameFailed(
            f"{e} (game {index} of the run, seed {seed}: `cuttle play {rules.spec} --seed {seed}` deals it)"
        ) from None
    except Exception as e:
        raise rule_failure(rules.name, f"playing game {index} (seed {seed})", e) from None
    return _result(rules, side, index, seed, g, n, turns, cap, rec)


def _random_game(rules: Rules, seed: int, rngs: tuple, cap: int, rec: Recorder) -> tuple[State, int, int]:
    """Uniformly random play on the raw engine (what `cuttle bench` measures), recorded as
    `Recorder` records: inlined here for the hot path, the decisions whose actions the state keeps
    (a main decision, plays from a 7's cards: every action a play) and `resolve`."""
    g = deal(rules, seed)
    turns = 1
    turn_no, hands = g.turn_no, g.hands
    match = rules.match_wins > 1  # a single game's turns are its turn number at the end
    offered: tuple[list, list] = ([], [])  # every action offered to each seat, read once at the end of the game
    see = (offered[0].extend, offered[1].extend)
    keep = (rec.chosen[0].append, rec.chosen[1].append)
    draw = (rngs[0].draw, rngs[1].draw)  # Picks: a pick among n is (draw() * n) >> 32, as randrange(n)
    choice_of = rec.cat.choice
    while g.winner is None and g.moves_made < cap:
        acts = g.actions
        if acts is not None:  # kept on the state: a main decision or a `play from`, each action a play
            p = g.pending.player
            a = acts[(draw[p]() * len(acts)) >> 32]
            see[p](acts)
            keep[p](a[1])
            apply_action(g, a)
        else:
            d = g.pending
            acts = legal_actions(g)
            p = d.player
            a = acts[(draw[p]() * len(acts)) >> 32]
            if a is RESOLVE_ACTION:
                if len(acts) > 1:
                    see[p](acts[:-1])  # the last is `resolve`
                chain = g.chain
                apply_action(g, a)
                if len(chain) % 2 == 0:  # an odd number of responses: the play was countered
                    rec.settle(g, a, chain)
            elif a[0] == "choose":  # what `rec.act` does for a choice
                keep[p](choice_of(g.frames[-1][0], d.verb))
                apply_action(g, a)
            else:
                rec.offer(d, acts)
                rec.act(g, d, a)
                if d.kind == RESPOND:
                    chain = g.chain
                    apply_action(g, a)
                    rec.settle(g, a, chain)
                else:
                    apply_action(g, a)
        if match and (g.turn_no != turn_no or g.hands is not hands):
            turns += 1
            turn_no, hands = g.turn_no, g.hands
    for p in (0, 1):  # the plays offered, each once (a set of plays: they hash as objects)
        rec.seen[p].update({a[1] for a in offered[p]})
    return g, g.moves_made, turns if match else g.turn_no


def record(game: Game, seats: Sequence[Any], cap: int, rec: Recorder) -> tuple[State, int, int]:
    """Play `game` to its end (or `cap` decisions) with any players, through the public Game API
    (each decides with `choose(game)`), recording into `rec`; returns the last state, the number of
    decisions and the number of turns."""
    n = 0
    turns = 1
    turn_no, hands = game.state.turn_no, len(game.state.hands)
    while game.state.winner is None and n < cap:
        g = game.state
        d = g.pending
        acts = legal_actions(g)
        rec.offer(d, acts)
        move = seats[d.player].choose(game)
        a = _action_of(g, acts, move)
        rec.act(g, d, a)
        chain = g.chain
        game.push(move)
        if d.kind == RESPOND:
            rec.settle(game.state, a, chain)
        n += 1
        g = game.state
        if g.turn_no != turn_no or len(g.hands) != hands:
            turns += 1
            turn_no, hands = g.turn_no, len(g.hands)
    return game.state, n, turns


def _action_of(g: State, acts: list, move: Move) -> tuple:
    for a in acts:
        if move_of(g, a) == move:
            return a
    raise CuttleError(f"a player chose '{move}', which is not a legal move")


def _result(
    rules: Rules, side: str, index: int, seed: int, g: State, n: int, turns: int, cap: int, rec: Recorder
) -> GameResult:
    w = g.winner
    scores = (rules.score_of(g, 0), rules.score_of(g, 1))
    goal = None
    if w is None:
        winner, end = None, "cutoff"
    else:
        winner = "draw" if w == DRAW else SEATS[w]
        if rules.passes_to_end and g.passes >= rules.passes_to_end:
            end = "passes"
        elif w in (0, 1) and scores[w] >= (at := rules.goal_of(g, w)):
            end, goal = "goal", at
        elif g.pending is None and "no legal move" in g.reason:
            end = "no-move"
        else:
            end = "other"
    return GameResult(
        side, index, seed, winner, end, goal, scores, turns, n, max(1, len(g.hands)), g.reason, rules.hash, rec.codes()
    )


# -- a game as a row of the database (store.py: the table `games`) ------------------------------------


def game_row(r: GameResult, players: tuple[str, str]) -> tuple:
    """The game as a row of the table `games`, in the table's column order."""
    return (
        r.side,
        r.index,
        r.seed,
        players[0],
        players[1],
        r.winner,
        r.end,
        r.goal,
        r.scores[0],
        r.scores[1],
        r.turns,
        r.decisions,
        r.hands,
        r.reason,
        *r.codes,
    )


def run_chunk(job: Job, indices: Sequence[int]) -> list[tuple]:
    """Games `indices` of a run, on every ruleset of it (the same seeds: paired games), as rows of the
    table `games`. They are made where the games are played: a worker process sends plain tuples of
    numbers and strings, which cost the parent a tenth of what unpickling the results would, and the
    parent only inserts them (its share of the CPU is what keeps N workers from being N times faster)."""
    out = []
    sides = [(s.label, rules_of(s)) for s in job.sides]
    players = job.players
    for i in indices:
        seed = game_seed(job.seed, i)
        for label, rules in sides:
            out.append(game_row(play_game(rules, i, seed, players, job.max_decisions, label), players))
    return out


def deals_alike(a: Rules, b: Rules, seeds: Sequence[int]) -> bool:
    """Whether two rulesets deal the same cards from the same seeds (so their games can be paired)."""
    for s in seeds:
        ga, gb = deal(a, s), deal(b, s)
        if ga.zones != gb.zones or ga.turn != gb.turn:
            return False
    return True


__all__ = [
    "Job",
    "Side",
    "GameResult",
    "Recorder",
    "Catalog",
    "RuleInfo",
    "play_game",
    "run_chunk",
    "game_row",
    "uses_of",
    "rule_code",
    "code_rule",
    "game_seed",
    "player_seed",
    "canonical_player",
    "deals_alike",
    "rules_of",
    "catalog_of",
    "MAX_DECISIONS",
]
