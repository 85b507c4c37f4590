"""Tab offers exactly the moves the user may make now: at any position of a game, against the bot
or hot-seat, from either seat, the moves completion offers are the decider's legal moves when the
decision is the user's, and none when it is the bot's, the game is over, or a saved game is being
stepped through."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter import Game, load_ruleset
from repl.completion import CompletionContext, complete
from repl.session import Session


def _game(spec: str, seed: int, moves: int) -> Game:
    game = Game.new(load_ruleset(spec), seed)
    rnd = random.Random(seed)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(legal[rnd.randrange(len(legal))])
    return game


@settings(max_examples=40, deadline=None)
@given(
    spec=st.sampled_from(["default", "micro", "default+twinned"]),
    seed=st.integers(0, 1000),
    moves=st.integers(0, 80),
    vs=st.sampled_from(["human", "random"]),
    human=st.integers(0, 1),
)
def test_tab_offers_the_deciders_legal_moves_only_to_the_decider(
    spec: str, seed: int, moves: int, vs: str, human: int
) -> None:
    game = _game(spec, seed, moves)
    s = Session(game, vs, human, ruleset=spec, out=lambda line: None)
    d = s.game.decision
    offered = [x.text for x in complete("", CompletionContext.of(s)) if x.text not in s_commands()]
    users = d is not None and s.game.outcome is None and (vs == "human" or d.player == human)
    # in the order `moves` lists them (by rule, then as typed): issue 45
    by_rule = [str(m) for _, ms in s.game.legal_by_rule() for m in ms] if users else []
    expected = [str(m) for m in s.game.legal_moves()] if users else []
    assert offered == by_rule and sorted(offered) == sorted(expected), (
        f"{spec} seed {seed} after {moves} moves, vs {vs}, the user p{human + 1}"
    )


def s_commands() -> set[str]:
    from repl.registry import REGISTRY

    return set(REGISTRY.commands)
