"""`interpreter.env`: a PettingZoo AEC environment of any ruleset (needs the `rl` extra:
`pip install 'cuttle-lab[rl]'`). See docs/players.md."""

from .cuttle import AGENTS, PlayerAgent, env, raw_env

__all__ = ["AGENTS", "PlayerAgent", "env", "raw_env"]
