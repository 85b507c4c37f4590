"""Summarise solve_deals.py outputs: python measure/summary.py FILE..."""

import statistics
import sys

rows = [line.split() for f in sys.argv[1:] for line in open(f, encoding="utf-8") if line.strip()]
rows = [r for r in rows if r[1] != "over"]
solved = [r for r in rows if r[1] != "unknown"]
count = {k: sum(r[1] == k for r in rows) for k in ("p1", "p2", "draw", "unknown")}
print(f"deals {len(rows)}: p1 {count['p1']}, p2 {count['p2']}, draws {count['draw']}, "
      f"budget ran out {count['unknown']}")
for name, rs in (("solved", solved), ("all", rows)):
    if rs:
        cpu = [float(r[4]) for r in rs]
        nodes = [int(r[3]) for r in rs]
        print(f"{name}: CPU median {statistics.median(cpu):.2f} s max {max(cpu):.2f} s total {sum(cpu) / 60:.1f} min; "
              f"nodes median {statistics.median(nodes):,.0f} max {max(nodes):,}")
print("solved seeds:", " ".join(f"{r[0]}({r[1]},{r[2]})" for r in sorted(solved, key=lambda r: int(r[0]))))
