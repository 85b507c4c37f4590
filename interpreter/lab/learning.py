"""Which evaluation a lab run's players play with: each ruleset's learnt one, trained first if need be.

`sharp` and `ismcts` (with `weights=auto`, their default) play a ruleset with its learnt evaluation
(players/learnt.py). Before a run's first game, `evaluations` finds it for each ruleset of the run — the
user's cache, else a shipped one — and, when there is none and training is allowed (`--no-train` not
given), trains it (`cuttle train`'s loop, lab/train.py) and keeps it in the cache. The run then carries
them to every worker (`Side.evaluation`), and its identity records them, so a database resumed with
another evaluation is refused instead of mixing games played two ways.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from interpreter.players.learnt import Evaluation, lookup
from interpreter.players.registry import make_player
from interpreter.rules import Rules

from .train import TrainConfig, Trainer, save

Notify = Callable[[str], None]


def learning(players: Sequence[str]) -> bool:
    """Whether any of the players plays with the ruleset's learnt evaluation (`weights=auto`)."""
    return any(bool(getattr(make_player(p), "learnt", False)) for p in players)


def evaluations(
    rules: Sequence[Rules], train: bool, notify: Notify, progress: Callable[[str, int, int], None] | None = None
) -> list[Evaluation | None]:
    """The learnt evaluation of each ruleset (None: the hand-set one plays), training those without one
    when `train`; `notify` is told what was found or trained, in a line each."""
    out: list[Evaluation | None] = []
    for r in rules:
        ev = lookup(r)
        if ev is None and train:
            notify(
                f"training an evaluation for {r.name} first (self-play, up to {TrainConfig().budget:.0f} s of CPU; "
                "kept for the next run; --no-train plays the untrained one)"
            )
            trained = Trainer(r, TrainConfig(), progress).run()
            save(r, trained.evaluation)
            ev = trained.evaluation
            notify(f"  {r.name}: {ev.describe()}")
        elif ev is None:
            notify(f"{r.name}: no learnt evaluation; the players play the hand-set one (--no-train)")
        out.append(ev)
    return out
