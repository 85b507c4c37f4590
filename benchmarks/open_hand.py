"""A yardstick opponent that is not one of the shipped players: it sees every card.

`OpenHandPlayer` reads the true state — the opponent's hidden hand and the order of the deck — and,
for each legal move, plays `playouts` random games to the end from the position after it (on the
raw engine, from copies of the true state), then plays the move that won most often for itself (a
draw counts one half); a move that wins at once is played without playouts. It is
"perfect-information Monte Carlo" with the information given rather than sampled: the kind of
opponent issue 11 names ("an opponent that simply runs 16 random playouts per legal move, and is
allowed to see every card"). It cheats by design, so it is not a registered player; it exists to
measure the registered ones against:

    python -m benchmarks.open_hand --player ismcts --games 200 [--playouts 16] [--seed 0] [--jobs 2]

Seats alternate (the measured player is p1 in the even games); the measured player is seeded
`2 * seed + 1` as `cuttle match` seeds its first player, the open-hand player from the game's seed,
so a game is the same in any process. The games are played by the lab's game loop (lab/playing.py).
"""

from __future__ import annotations

import argparse
import random
import sys
from multiprocessing import Pool

from interpreter import Game, load_ruleset, make_player
from interpreter.core.errors import CuttleError
from interpreter.engine.machine import apply_action, legal_actions, move_of
from interpreter.engine.moves import Move
from interpreter.engine.state import DRAW
from interpreter.lab.bench import finish
from interpreter.lab.playing import Timed
from interpreter.lab.playing import play as play_out
from interpreter.lab.stats import wilson

PLAYOUT_CAP = 1000  # decisions per playout: a random game is far shorter (a cut playout counts as a draw)
MAX_MOVES = 5000


class OpenHandPlayer:
    """Random playouts from the true state, `playouts` per legal move; the best mean result is played."""

    def __init__(self, seed: int = 0, playouts: int = 16) -> None:
        self.rnd = random.Random(f"open-hand:{seed}")
        self.playouts = playouts

    def choose(self, game: Game) -> Move:
        g = game.state
        me = g.pending.player
        acts = legal_actions(g)
        if len(acts) == 1:
            return move_of(g, acts[0])
        randrange = self.rnd.randrange
        best, best_act = -1.0, acts[0]
        for a in acts:
            c = g.copy()
            apply_action(c, a)
            if c.winner == me:  # a move that wins at once is played
                return move_of(g, a)
            score = 0.0
            for _ in range(self.playouts):
                c = g.copy()
                apply_action(c, a)
                finish(c, randrange, PLAYOUT_CAP)
                w = c.winner
                score += 1.0 if w == me else 0.5 if w is None or w == DRAW else 0.0
            if score > best:
                best, best_act = score, a
        return move_of(g, best_act)


def play(args: tuple[str, str, int, int, bool]) -> tuple[int, int | None, float, int]:
    """One game: (seed, the measured player's seat, the winner or None, its CPU seconds, its moves)."""
    ruleset, spec, seed, playouts, first = args
    game = Game.new(load_ruleset(ruleset), seed)
    seat = 0 if first else 1
    measured = Timed(make_player(spec, seed=2 * seed + 1))
    opponent = OpenHandPlayer(seed, playouts)
    play_out(game, (measured, opponent) if first else (opponent, measured), MAX_MOVES)
    out = game.outcome
    return seat, None if out is None else out.winner, sum(measured.times), len(measured.times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.open_hand", description=__doc__.splitlines()[0])
    ap.add_argument("--player", default="ismcts", help="the registered player to measure (see `cuttle players`)")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--playouts", type=int, default=16, help="random playouts per legal move (16)")
    ap.add_argument("--ruleset", "-r", default="default")
    ap.add_argument("--seed", type=int, default=0, help="the first game's seed")
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args(argv)
    try:
        if a.games < 1 or a.playouts < 1:
            raise CuttleError("--games and --playouts must be 1 or more")
        load_ruleset(a.ruleset)
        make_player(a.player)
    except CuttleError as e:
        print(f"python -m benchmarks.open_hand: {e}", file=sys.stderr)
        return 2
    plan = [(a.ruleset, a.player, a.seed + i, a.playouts, i % 2 == 0) for i in range(a.games)]
    if a.jobs > 1:
        with Pool(a.jobs) as pool:
            results = pool.map(play, plan, chunksize=1)
    else:
        results = [play(x) for x in plan]
    won = sum(1 for seat, w, _, _ in results if w == seat)
    drawn = sum(1 for _, w, _, _ in results if w is None)  # (an outcome's winner: None for a draw)
    as_p = [sum(1 for seat, w, _, _ in results if seat == p and w == p) for p in (0, 1)]
    n_p = [sum(1 for seat, *_ in results if seat == p) for p in (0, 1)]
    lo, hi = wilson(won, len(results))
    cpu, moves = sum(r[2] for r in results), sum(r[3] for r in results)
    print(
        f"ruleset {a.ruleset}: {a.player} against the open-hand player ({a.playouts} playouts per move, sees "
        f"every card), {len(results)} games, seeds {a.seed}..{a.seed + a.games - 1}, seats alternating"
    )
    print(
        f"  {a.player}: won {won}/{len(results)} ({100 * won / len(results):.1f}%, 95% interval "
        f"{100 * lo:.1f}-{100 * hi:.1f}%), drawn {drawn}; as p1 {as_p[0]}/{n_p[0]}, as p2 {as_p[1]}/{n_p[1]}; "
        f"mean CPU per move {1000 * cpu / max(moves, 1):.0f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
