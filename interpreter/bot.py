"""`python -m interpreter.bot`: two players by name against each other (default: heuristic vs random)."""

import sys

from interpreter.lab.matches import main

if __name__ == "__main__":
    sys.exit(main())
