"""`python -m interpreter.bot`: the bot against random play (win rate and time per move)."""

import sys

from interpreter.players.heuristic import main

if __name__ == "__main__":
    sys.exit(main())
