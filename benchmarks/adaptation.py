"""Adaptation measured: does a player with the ruleset's learnt evaluation play a house rule differently,
and better, than the untrained one (the hand-set evaluation, `weights=default`)?

    python -m benchmarks.adaptation RULE [--positions 200] [--games 400] [--player sharp] [--seed 70000]

RULE is one of `benchmarks/adaptation/*.yaml` (house rules whose direction is known: a 9 that scraps, Kings
that lower the goal by 2 only, a round limit, a 10 that can be played as a Wall against scuttles) or
`default`. The ruleset's learnt evaluation is looked up as the players look it up (train it first:
`cuttle train RULE`).

1. **Choices in paired positions**: positions of games the untrained player plays against itself under
   the rule (seeds from `--seed`), kept where the rule's changed play is legal for the player to decide
   (`PLAYS` below; for the round limit, the first player's main decisions in the last six turns while not
   ahead); both players choose in each, and the share that chose the changed play is printed for each,
   with the positions where they differ.
2. **The duel**: the trained player against the untrained, `--games` games on paired deals (each deal
   twice, seats swapped, seeds from `--seed` + 500,000): wins, losses, draws, the score with its 95%
   (Wilson) interval.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

from interpreter import Game, load_ruleset, make_player
from interpreter.engine.machine import MAIN
from interpreter.engine.moves import Move
from interpreter.lab.playing import play
from interpreter.lab.stats import wilson
from interpreter.lab.train import MAX_DECISIONS
from interpreter.players.learnt import lookup
from interpreter.rules import Rules

HERE = Path(__file__).parent / "adaptation"
UNTRAINED = "sharp?weights=default"


def _nine(m: Move, game: Game) -> bool:
    return m.verb == "oneoff" and bool(m.cards) and game.rules.values.get("9") is not None and _rank(m) == "9"


def _rank(m: Move) -> str:
    from interpreter.core.cards import RANK_OF

    return RANK_OF[m.cards[0]] if m.cards else ""


def _late_and_behind(game: Game) -> bool:
    st = game.state
    me = st.pending.player
    return (
        st.turn_no >= 24 and st.first_player() == me and game.rules.score_of(st, me) <= game.rules.score_of(st, 1 - me)
    )


# rule -> (what the changed play is, is a move that play, must the position qualify otherwise)
PLAYS: dict[str, tuple[str, Callable[[Move, Game], bool], Callable[[Game], bool]]] = {
    "nine-scraps": ("a 9's one-off", _nine, lambda g: True),
    "default": ("a 9's one-off", _nine, lambda g: True),
    "ten-wall": ("a 10 played as a Wall", lambda m, g: m.verb == "wall", lambda g: True),
    "kings-lower-by-two": ("a King played", lambda m, g: m.verb == "royal" and _rank(m) == "K", lambda g: True),
    "round-limit": (
        "a draw by the first player, not ahead, in the last six turns",
        lambda m, g: m.verb == "draw",
        _late_and_behind,
    ),
}


def spec_of(rule: str) -> str:
    return rule if rule == "default" else str(HERE / f"{rule}.yaml")


def positions(rules: Rules, rule: str, count: int, seed: int) -> list[Game]:
    """Up to `count` positions of untrained self-play where the changed play is legal (one in three
    such positions of a game is kept, so that they come from many games)."""
    _, is_play, qualifies = PLAYS[rule]
    out: list[Game] = []
    s = seed
    while len(out) < count and s < seed + 20 * count:
        game = Game.new(rules, s)
        seats = (
            make_player("sharp?weights=default", seed=2 * s + 1),
            make_player("sharp?weights=default", seed=2 * s + 2),
        )
        k = 0
        for _ in range(5000):
            d = game.decision
            if d is None:
                break
            if (
                game.state.pending.kind == MAIN
                and qualifies(game)
                and any(is_play(m, game) for m in game.legal_moves())
            ):
                if k % 3 == 0 and len(out) < count:
                    out.append(Game(rules, game.state.copy(), s))
                k += 1
            game.play(seats[d.player].choose(game))
        s += 1
    return out


def choices(rule: str, games: list[Game], trained: str, untrained: str) -> tuple[int, int, int]:
    """How often each player chose the changed play, and in how many positions they chose differently."""
    _, is_play, _ = PLAYS[rule]
    a = b = differ = 0
    for i, g in enumerate(games):
        ma = make_player(trained, seed=i).choose(g)
        mb = make_player(untrained, seed=i).choose(g)
        a += is_play(ma, g)
        b += is_play(mb, g)
        differ += ma != mb
    return a, b, differ


def duel(spec: str, trained: str, untrained: str, games: int, seed: int) -> tuple[int, int, int]:
    rules = load_ruleset(spec)
    w = lo = d = 0
    for i in range(games // 2):
        s = seed + i
        for t_seat in (0, 1):
            game = Game.new(rules, s)
            names = (trained, untrained) if t_seat == 0 else (untrained, trained)
            seats = (make_player(names[0], seed=2 * s + 1), make_player(names[1], seed=2 * s + 2))
            play(game, seats, MAX_DECISIONS)
            out = game.outcome
            if out is None or out.winner not in (0, 1):
                d += 1
            elif out.winner == t_seat:
                w += 1
            else:
                lo += 1
    return w, lo, d


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.adaptation", description=__doc__.splitlines()[0])
    ap.add_argument("rule", choices=sorted(PLAYS))
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--player", default="sharp", help="sharp, sharp:fast, ismcts:fast, ...")
    ap.add_argument("--seed", type=int, default=70000)
    a = ap.parse_args(argv)
    spec = spec_of(a.rule)
    rules = load_ruleset(spec)
    ev = lookup(rules)
    if ev is None:
        print(f"{a.rule}: no learnt evaluation (run `cuttle train {spec}` first)", file=sys.stderr)
        return 2
    sep = "&" if "?" in a.player else "?"
    trained, untrained = f"{a.player}{sep}weights=auto", f"{a.player}{sep}weights=default"
    print(f"{a.rule} ({rules.hash}); {ev.describe()}")
    what = PLAYS[a.rule][0]
    t0 = time.process_time()
    if a.positions:
        ps = positions(rules, a.rule, a.positions, a.seed)
        x, y, differ = choices(a.rule, ps, trained, untrained)
        n = len(ps)
        print(
            f"  {what}, chosen in {n} paired positions where legal: trained {x} ({100 * x / max(n, 1):.1f}%), "
            f"untrained {y} ({100 * y / max(n, 1):.1f}%); the two chose differently in {differ}"
        )
    if a.games:
        w, lo, d = duel(spec, trained, untrained, a.games, a.seed + 500_000)
        n = w + lo + d
        low, high = wilson(w + d / 2, n)
        print(
            f"  {a.player} trained against untrained: won {w}, lost {lo}, drawn {d} of {n}: "
            f"{100 * (w + d / 2) / max(n, 1):.1f}% (95% interval {100 * low:.1f}-{100 * high:.1f}%)"
        )
    print(f"  ({time.process_time() - t0:.0f} s of CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
