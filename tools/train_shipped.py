"""Train the learnt evaluations shipped with the shipped rulesets (interpreter/players/evaluations/):
`python tools/train_shipped.py [NAME ...] [--force] [--budget SECONDS]`.

Each shipped base, and each option on the base it needs (as `cuttle bench --all` plays them), gets the
evaluation `cuttle train` would make (seed 0, the default budget), written as `NAME.json`. A ruleset
whose shipped evaluation is already made for its current play hash is skipped unless `--force`; the
default rules come first, since every other starts from theirs. The user's cache folder is not read
(a temporary one stands in), so what is shipped depends on the repository alone. (`default.json`
was trained before the fits were pulled towards generation 0 rather than towards the best evaluation
so far, which for the default rules, starting from the hand-set weights with the least pull, changes
little; `--force default` trains it again with today's fit.)
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

FOLDER = Path(__file__).resolve().parent.parent / "interpreter" / "players" / "evaluations"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="shipped ruleset names (default: all)")
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--budget", type=float, default=180.0)
    a = ap.parse_args(argv)
    os.environ["CUTTLE_EVALUATIONS"] = tempfile.mkdtemp(prefix="cuttle-evaluations-")
    from interpreter.lab.bench import shipped_specs
    from interpreter.lab.train import TrainConfig, Trainer
    from interpreter.players import learnt
    from interpreter.rules import load_ruleset

    specs = sorted(shipped_specs(), key=lambda ns: ns[0] != "default")
    if a.names:
        specs = [ns for ns in specs if ns[0] in a.names]
    FOLDER.mkdir(exist_ok=True)
    for name, spec in specs:
        rules = load_ruleset(spec)
        have = learnt.shipped().get(rules.hash)
        if have is not None and not a.force:
            print(f"{name}: shipped for {rules.hash} already")
            continue
        t0 = time.process_time()
        out = Trainer(rules, TrainConfig(budget=a.budget)).run()
        ev = out.evaluation
        (FOLDER / f"{name}.json").write_text(learnt.to_text(ev))
        learnt._SHIPPED_BY_HASH = None  # the next ruleset starts from what was just written
        print(
            f"{name} ({spec}, {rules.hash}): {out.stopped}; {ev.describe()} ({time.process_time() - t0:.0f} s)",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
