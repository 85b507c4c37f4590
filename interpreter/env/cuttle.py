"""A PettingZoo AEC environment of any ruleset: agents `p1` and `p2` (`p1` to `pN` at a table of more
seats, each rewarded +1 when it wins, alone or with its team), a fixed discrete action space
with a mask of the legal actions, observations from each player's own view, rewards on the outcome.

An action is one *token* of a move: a verb, a card, or `end`. A move of the notation (`scuttle 9H
9D`, `counter 2D 4C`, `discard 3H 5C 9S`) is played as its tokens in order, by the same agent, one
step each; the mask allows exactly the tokens that continue some legal move. The move is played as
soon as its tokens name exactly one legal move; `end` is offered only where a legal move is also
the beginning of a longer one (`oneoff AS` and the twin `oneoff AS AH`). So every ruleset, house
rules included, has a fixed action space: 1 + its verbs + 54 cards (+ `-` and the ten digits, for a
ruleset where a player names a number: `value 10` is its verb and its characters; + `p1`..`pN` where a
move names a player: `oneoff 4C p3` is its verb, its card and the player).

    from interpreter.env import env
    e = env(ruleset="micro", seed=3)
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from interpreter.core.cards import CARD_COUNT, NAMES
from interpreter.core.errors import CuttleError
from interpreter.core.terminal import say
from interpreter.engine.game import Game
from interpreter.engine.moves import Move
from interpreter.rules import load_ruleset

from .encoding import encode, size

AGENTS = ["p1", "p2"]
END = "end"
DIGITS = ("-", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9")


class raw_env(AECEnv):  # noqa: N801  (PettingZoo's naming)
    metadata = {"name": "cuttle_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self, ruleset: str = "default", seed: int | None = None, max_steps: int = 5000, render_mode: str | None = None
    ) -> None:
        super().__init__()
        self.rules = load_ruleset(ruleset)
        # (a ruleset where a player names a number, `choose a number ... as value`, also has its digits:
        # `value 10` is played as `value`, `1`, `0`, then `end` where `value 1` is also legal)
        digits = [*DIGITS] if self.rules.ctx.numbers else []
        self.seats = [f"p{s + 1}" for s in range(self.rules.seats)]  # the agents
        players = [*self.seats] if self.rules.seated else []  # (a move may name a player: its tokens)
        self.tokens: list[str] = [END, *self.rules.verbs, *NAMES[:CARD_COUNT], *digits, *players]
        self.index = {t: i for i, t in enumerate(self.tokens)}
        self.possible_agents = list(self.seats)
        self.agents = list(self.seats)
        n = len(self.tokens)
        self.action_spaces = {a: gymnasium.spaces.Discrete(n) for a in self.seats}
        self.observation_spaces = {
            a: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(0.0, np.inf, (size(n, self.rules.seats),), dtype=np.float32),
                    "action_mask": gymnasium.spaces.Box(0, 1, (n,), dtype=np.int8),
                }
            )
            for a in self.seats
        }
        self.max_steps = max_steps
        self.render_mode = render_mode
        self._seeds = random.Random(0 if seed is None else seed)
        self.game: Game | None = None
        self.prefix: list[int] = []

    # -- spaces ----------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    # -- the AEC API -----------------------------------------------------------------------------
    @property
    def _live(self) -> Game:
        """The game under way (`reset` starts one)."""
        if self.game is None:
            raise CuttleError("the environment has no game yet: call reset() first")
        return self.game

    def _decider(self) -> int:
        """The player who must decide now (the game is not over)."""
        d = self._live.decision
        if d is None:
            raise CuttleError("the game is over: no one is to decide")
        return d.player

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        self.game = Game.new(self.rules, self._seeds.getrandbits(32))
        self.agents = list(self.seats)
        self.rewards = {a: 0.0 for a in self.seats}
        self._cumulative_rewards = {a: 0.0 for a in self.seats}
        self.terminations = {a: False for a in self.seats}
        self.truncations = {a: False for a in self.seats}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.seats}
        self.prefix = []
        self.steps = 0
        self.agent_selection = self.seats[self._decider()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        p = self.seats.index(agent)
        game = self._live
        mine = game.decision is not None and game.decision.player == p
        view = game.view(p)
        obs = encode(view, self.prefix if mine else [], len(self.tokens))
        mask = self.action_mask() if mine and game.outcome is None else np.zeros(len(self.tokens), dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        a = int(action)  # type: ignore[arg-type]
        if not (0 <= a < len(self.tokens)) or not self.action_mask()[a]:
            raise ValueError(
                f"action {a} ('{self.tokens[a] if 0 <= a < len(self.tokens) else '?'}') is not "
                "legal now: use the observation's action_mask"
            )
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {x: 0.0 for x in self.agents}
        self.steps += 1
        move = self._complete(a)
        if move is not None:
            self._live.push(move)
            self.prefix = []
        out = self._live.outcome
        if out is not None:
            for i, x in enumerate(self.seats):
                self.rewards[x] = 0.0 if out.winner is None else (1.0 if i in out.winners else -1.0)
                self.terminations[x] = True
                self.infos[x] = {"outcome": str(out)}
        elif self.steps >= self.max_steps:
            for x in self.seats:
                self.truncations[x] = True
        else:
            self.agent_selection = self.seats[self._decider()]
        self._accumulate_rewards()
        if self.render_mode == "ansi" and move is not None:
            say(self.render())

    def render(self) -> str:
        game = self._live
        if game is None:
            return ""
        last = game.narration[-1] if game.narration else "the deal"
        return last + ("" if game.outcome is None else f"\n{game.outcome}")

    def close(self) -> None:
        pass

    # -- moves as tokens -------------------------------------------------------------------------
    def move_tokens(self, move: Move) -> list[int]:
        if move.number is not None:  # a number named: its verb, then its characters (`-`, digits)
            return [self.index[move.verb], *(self.index[ch] for ch in str(move.number))]
        named = [] if move.player is None else [self.index[f"p{move.player + 1}"]]  # a player it names, last
        return [self.index[move.verb], *(self.index[NAMES[c]] for c in move.cards), *named]

    def _candidates(self) -> list[list[int]]:
        n = len(self.prefix)
        return [t for t in (self.move_tokens(m) for m in self._live.legal_moves()) if t[:n] == self.prefix]

    def action_mask(self) -> np.ndarray:
        """1 for every token that continues a legal move from the tokens chosen so far."""
        mask = np.zeros(len(self.tokens), dtype=np.int8)
        n = len(self.prefix)
        complete = False
        for t in self._candidates():
            if len(t) > n:
                mask[t[n]] = 1
            else:
                complete = True
        if complete:
            mask[0] = 1  # `end`: the tokens so far are a legal move, and also the start of a longer one
        return mask

    def _complete(self, a: int) -> Move | None:
        """Add a token; the move if the tokens now name exactly one legal move."""
        if a == 0:
            return self._move_of(self.prefix)
        self.prefix = self.prefix + [a]
        n = len(self.prefix)
        cands = self._candidates()
        if len(cands) == 1 and len(cands[0]) == n:
            return self._move_of(self.prefix)
        return None

    def _move_of(self, tokens: list[int]) -> Move:
        for m in self._live.legal_moves():
            if self.move_tokens(m) == tokens:
                return m
        raise ValueError("the tokens name no legal move")  # the mask makes this unreachable

    def next_token(self, move: Move) -> int:
        """The action that continues `move` from the tokens chosen so far (`end` once it is whole)."""
        tokens = self.move_tokens(move)
        n = len(self.prefix)
        if tokens[:n] != self.prefix:
            raise ValueError(f"'{move}' does not continue the move being built")
        return tokens[n] if len(tokens) > n else 0


class PlayerAgent:
    """A registered player (`make_player(...)`) acting through the environment, a token at a time:
    it chooses its move from the game when a move starts, then plays its tokens."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.move: Move | None = None

    def act(self, environment: Any) -> int:
        e = environment.unwrapped
        if not e.prefix or self.move is None:
            self.move = self.player.choose(e.game)
        return e.next_token(self.move)


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's standard wrappers: an illegal action ends the game with
    -1 for the agent that took it; actions out of range and calls out of order are errors."""
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
