"""Solving seeded Micro deals with the exact solver, as docs/players.md reports it (a source checkout).

    python -m benchmarks.micro_deals solve FIRST LAST NODES [--ruleset micro] [--cards-left N] [--method M] [--p2-first]
    python -m benchmarks.micro_deals summary FILE...
    python -m benchmarks.micro_deals verify SEED... [--nodes N] [--p2-first]

`solve` prints one line per deal (as `cuttle solve micro --seed N --nodes NODES` solves it): seed,
the result for p1 (`p1`, `p2`, `draw`, or `unknown` when the budget ran out), the best move, nodes,
CPU and wall seconds, and the root's proof numbers when the budget ran out. With `--cards-left N`
each deal is first played at random (seeded) until at most N cards are left in the two hands (an
endgame). `--p2-first` asks df-pn "can p2 force a win?" before "can p1?" (the same values; other
deals fall within the budget). `summary` counts such lines; `verify` walks each proof of a won deal
again over the real engine (one proven move for the winner, every legal reply for the loser, down to
ends the winner won).
The outputs of the report are in benchmarks/results/.
"""

from __future__ import annotations

import argparse
import gc
import random
import re
import statistics
import sys
import time

from interpreter import Game, load_ruleset
from interpreter.engine.machine import apply_action, legal_actions
from interpreter.engine.moves import Move
from interpreter.engine.state import HAND0, State
from interpreter.lab.playing import play
from interpreter.players.solver import METHODS, Solver

RESULT = {None: "unknown", 1: "p1", -1: "p2", 0: "draw"}


def endgame(spec: str, seed: int, cards_left: int) -> State | None:
    """The deal of `seed` played at random (seeded) to a main decision with at most `cards_left` cards
    in the two hands, or None if the game ends first."""
    game = Game.new(load_ruleset(spec), seed)
    seat = RandomMoves(random.Random(seed))

    def endgame_reached(game: Game) -> bool:
        g = game.state
        return len(g.zones[HAND0]) + len(g.zones[HAND0 + 1]) <= cards_left and g.pending.kind == "main"

    played = play(game, (seat, seat), sys.maxsize, until=endgame_reached)
    return played.state.copy() if played.state.winner is None else None


class RandomMoves:
    """A seat that picks among `legal_moves()` with its generator."""

    def __init__(self, rnd: random.Random) -> None:
        self.rnd = rnd

    def choose(self, game: Game) -> Move:
        moves = game.legal_moves()
        return moves[self.rnd.randrange(len(moves))]


def solve(a: argparse.Namespace) -> None:
    rules = load_ruleset(a.ruleset)
    for seed in range(a.first, a.last + 1):
        state = Game.new(rules, seed).state if a.cards_left is None else endgame(a.ruleset, seed, a.cards_left)
        if state is None:
            print(seed, "over", flush=True)
            continue
        c0, w0 = time.process_time(), time.perf_counter()
        solver = Solver(a.nodes, 1e9, a.method)
        solver.opponent_first = a.p2_first
        s = solver.solve(state)
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        value = None if s.value is None else s.value if s.player == 0 else -s.value
        roots = [t.get(solver.key(state)) for t in solver.proofs.tables] if a.method == "dfpn" else [None, None]
        print(
            seed,
            RESULT[value],
            str(s.move).replace(" ", "_"),
            s.nodes,
            f"{cpu:.2f}",
            f"{wall:.2f}",
            "" if s.complete else f"p1wins={roots[0]} p2wins={roots[1]}",
            flush=True,
        )
        del solver, s
        gc.collect()


def summary(a: argparse.Namespace) -> None:
    rows = [line.split() for f in a.files for line in open(f, encoding="utf-8") if line.strip()]
    rows = [r for r in rows if r[1] != "over"]
    solved = [r for r in rows if r[1] != "unknown"]
    count = {k: sum(r[1] == k for r in rows) for k in ("p1", "p2", "draw", "unknown")}
    print(
        f"deals {len(rows)}: p1 {count['p1']}, p2 {count['p2']}, draws {count['draw']}, "
        f"budget ran out {count['unknown']}"
    )
    for name, rs in (("solved", solved), ("all", rows)):
        if rs:
            cpu = [float(r[4]) for r in rs]
            nodes = [int(r[3]) for r in rs]
            print(
                f"{name}: CPU median {statistics.median(cpu):.2f} s max {max(cpu):.2f} s total "
                f"{sum(cpu) / 60:.1f} min; nodes median {statistics.median(nodes):,.0f} max {max(nodes):,}"
            )
    print("solved seeds:", " ".join(f"{r[0]}({r[1]},{r[2]})" for r in sorted(solved, key=lambda r: int(r[0]))))
    # an unsolved deal where one question was answered "no": that player cannot force a win
    refuted = {
        p: [r[0] for r in rows if r[1] == "unknown" and re.search(rf"p{p}wins=\[\d+, 0\]", " ".join(r[6:]))]
        for p in (1, 2)
    }
    for p in (1, 2):
        if refuted[p]:
            print(
                f"unsolved, p{p} cannot force a win (p{3 - p} at least draws): {len(refuted[p])}:", " ".join(refuted[p])
            )


def walk(solver: Solver, g: State, winner: int, seen: set) -> int:
    """Positions walked; raises AssertionError if the proof does not hold here."""
    if g.winner is not None:
        assert g.winner == winner, "a leaf of the proof is not a win"
        return 0
    key = solver.key(g)
    if key in seen:
        return 0
    seen.add(key)
    acts = legal_actions(g)
    if g.pending.player == winner:
        for act in acts:
            c = g.copy()
            apply_action(c, act)
            if c.winner == winner or solver.known(c, winner) == 1:
                return 1 + walk(solver, c, winner, seen)
        raise AssertionError("no proven move for the winner")
    total = 1
    for act in acts:
        c = g.copy()
        apply_action(c, act)
        total += walk(solver, c, winner, seen)
    return total


def verify(a: argparse.Namespace) -> None:
    rules = load_ruleset("micro")
    for seed in a.seeds:
        state = Game.new(rules, seed).state
        solver = Solver(a.nodes, 1e9)
        solver.opponent_first = a.p2_first
        s = solver.solve(state)
        if not (s.complete and s.value):
            print(seed, f"not a proven win for either player ({s.describe()})", flush=True)
            continue
        winner = s.player if s.value == 1 else 1 - s.player
        n = walk(solver, state, winner, set())
        print(seed, f"p{winner + 1} win re-checked over {n} positions", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.micro_deals", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    s = sub.add_parser("solve")
    s.add_argument("first", type=int)
    s.add_argument("last", type=int)
    s.add_argument("nodes", type=int)
    s.add_argument("--ruleset", default="micro")
    s.add_argument("--cards-left", type=int, default=None)
    s.add_argument("--method", choices=METHODS, default="dfpn")
    s.add_argument(
        "--p2-first", action="store_true", help="df-pn: ask 'can p2 force a win?' before 'can p1?' (the same values)"
    )
    m = sub.add_parser("summary")
    m.add_argument("files", nargs="+")
    v = sub.add_parser("verify")
    v.add_argument("seeds", type=int, nargs="+")
    v.add_argument("--nodes", type=int, default=100_000)
    v.add_argument("--p2-first", action="store_true")
    a = ap.parse_args(argv)
    {"solve": solve, "summary": summary, "verify": verify}[a.what](a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
