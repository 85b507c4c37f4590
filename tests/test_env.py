"""The PettingZoo environment: PettingZoo's own API and seed tests, observations from a player's
view only, tokens that spell exactly the legal moves, and the documented example."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from interpreter.core.cards import CARD_COUNT, parse_card  # noqa: E402
from interpreter.env import env, raw_env  # noqa: E402
from interpreter.env.cuttle import AGENTS  # noqa: E402
from tests.test_bot import permuted  # noqa: E402

DOC = Path(__file__).resolve().parent.parent / "docs" / "players.md"


# api_test's three style hints do not apply to a game with an action mask and named seats: the
# observation is PettingZoo's classic {"observation", "action_mask"} Dict (as in its chess and go
# environments), and the agents are p1/p2 as the rules name them.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:We recommend agents to be named in the format")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("spec", ["default", "micro+jokers+twinned", "published+tens-block+best-of-5"])
def test_pettingzoo_api_test(spec: str) -> None:
    api_test(env(ruleset=spec), num_cycles=300)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(ruleset="default+twinned"), num_cycles=300)


def spelled_moves(e: raw_env) -> set[str]:
    """Every move the mask lets an agent spell, token by token, from the current decision."""
    spelled: set[str] = set()

    def walk(prefix: list[int]) -> None:
        e.prefix = prefix
        for a in np.flatnonzero(e.action_mask()):
            if a == 0:
                spelled.add(" ".join(e.tokens[t] for t in prefix))
                continue
            e.prefix = prefix + [int(a)]
            cands = e._candidates()
            if len(cands) == 1 and len(cands[0]) == len(prefix) + 1:
                spelled.add(" ".join(e.tokens[t] for t in prefix + [int(a)]))
            else:
                walk(prefix + [int(a)])
        e.prefix = prefix

    walk([])
    e.prefix = []
    return spelled


def test_the_mask_spells_exactly_the_legal_moves() -> None:
    e = raw_env(ruleset="default+twinned+classic-2s")
    e.reset(seed=5)
    rnd = random.Random(0)
    checked = 0
    for _ in range(60):
        if e.game.outcome is not None:
            break
        assert spelled_moves(e) == {str(m) for m in e.game.legal_moves()}
        checked += 1
        legal = e.game.legal_moves()
        move = rnd.choice(legal)
        tokens = e.move_tokens(move)
        longer = any(len(t) > len(tokens) and t[: len(tokens)] == tokens for t in map(e.move_tokens, legal))
        before, steps = len(e.game.moves), 0
        while len(e.game.moves) == before:
            e.step(e.next_token(move))
            steps += 1
        assert e.game.moves[-1] == move
        assert steps == len(tokens) + longer  # played at its last token (`end` only where a longer move goes on)
    assert checked >= 20


def test_observations_never_read_hidden_cards() -> None:
    e = raw_env(ruleset="default")
    e.reset(seed=11)
    rng = random.Random(3)
    real = e.game
    for _ in range(30):
        for p, agent in enumerate(("p1", "p2")):
            e.game = real
            seen = e.observe(agent)
            e.game = permuted(real, p, rng)  # the cards p cannot see, dealt again
            other = e.observe(agent)
            assert np.array_equal(seen["observation"], other["observation"])
            assert np.array_equal(seen["action_mask"], other["action_mask"])
        e.game = real
        real.push(real.legal_moves()[rng.randrange(len(real.legal_moves()))])
        if real.outcome is not None:
            break


def plane(obs: np.ndarray, name: str) -> set[int]:
    """The cards set in one plane of an observation."""
    from interpreter.env.encoding import PLANES

    i = PLANES.index(name) * CARD_COUNT
    return {int(c) for c in np.flatnonzero(obs[i : i + CARD_COUNT])}


def test_observations_show_the_hidden_cards_a_player_knows() -> None:
    """A card of the opponent's hidden hand or of the deck that a player has seen (a 9's target back
    in a hand, a 7's card left on the deck) is in the observation, and so are the cards of their own
    hand that the opponent knows; each plane holds exactly what the player's view says."""
    e = raw_env(ruleset="default")
    rng = random.Random(7)
    found = {"opponent_hand_known": 0, "deck_known": 0, "hand_known_to_opponent": 0}
    for seed in range(40):
        e.reset(seed=seed)
        game = e.game
        while game.outcome is None:
            for p, agent in enumerate(("p1", "p2")):
                view = game.view(p)
                obs = e.observe(agent)["observation"]
                want = {
                    "opponent_hand_known": view.opponent_hand_known,
                    "deck_known": [n for _, n in view.deck_known],
                    "hand_known_to_opponent": view.opponent_knows.hand,
                }
                for name, cards in want.items():
                    assert plane(obs, name) == {parse_card(c) for c in cards}, (seed, agent, name)
                    found[name] += bool(cards)
            moves = game.legal_moves()
            game.push(moves[rng.randrange(len(moves))])
    assert all(n > 0 for n in found.values()), found  # every kind of knowledge came up and was checked


def test_rewards_on_the_outcome() -> None:
    e = env(ruleset="micro")
    e.reset(seed=1)
    rnd = np.random.default_rng(0)
    total = {"p1": 0.0, "p2": 0.0}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        total[agent] += reward
        e.step(None if term or trunc else int(rnd.choice(np.flatnonzero(obs["action_mask"]))))
    outcome = e.unwrapped.game.outcome
    assert outcome is not None
    if outcome.winner is None:
        assert total == {"p1": 0.0, "p2": 0.0}
    else:
        assert total[f"p{outcome.winner + 1}"] == 1.0 and total[f"p{2 - outcome.winner}"] == -1.0


@pytest.mark.slow
def test_the_documented_example_runs() -> None:
    code = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    example = [c for c in code if "interpreter.env" in c]
    assert example, "docs/players.md has no example of the environment"
    scope: dict = {}
    exec(compile(example[0], str(DOC), "exec"), scope)  # noqa: S102  (our own documentation)
    assert scope["games"] == 4 and sum(scope["results"].values()) == 4


@pytest.mark.parametrize("spec", ["default", "micro", "published", "default+twinned", "default+best-of-5"])
def test_a_deep_copy_of_the_environment_plays_on_alone(spec: str) -> None:
    import copy

    env = raw_env(spec)
    env.reset(seed=2)
    env.step(int(env.action_mask().argmax()))
    twin = copy.deepcopy(env)
    before = env.game.state.key()
    twin.step(int(twin.action_mask().argmax()))  # the copy plays on ...
    assert env.game.state.key() == before  # ... and the original is untouched
    env.step(int(env.action_mask().argmax()))
    assert env.game.state.key() == twin.game.state.key()  # the same move, the same position


def test_hands_won_are_seen_from_each_seat_after_a_hand_of_a_match() -> None:
    """In a match (best of 5), once a hand is won, the winner's observation counts it as
    `my_hands_won` and the loser's as `opponent_hands_won`."""
    from interpreter.env.encoding import PLANES, SCALARS

    def scalar(obs: np.ndarray, name: str) -> float:
        return float(obs[len(PLANES) * CARD_COUNT + SCALARS.index(name)])

    e = raw_env(ruleset="default+best-of-5")
    e.reset(seed=4)
    game = e.game
    rng = random.Random(4)
    while game.outcome is None and sum(game.state.wins) == 0:
        moves = game.legal_moves()
        game.push(moves[rng.randrange(len(moves))])
    assert sum(game.state.wins) == 1 and game.outcome is None
    won = game.state.wins.index(1)
    winner, loser = AGENTS[won], AGENTS[1 - won]
    mine, theirs = e.observe(winner)["observation"], e.observe(loser)["observation"]
    assert (scalar(mine, "my_hands_won"), scalar(mine, "opponent_hands_won")) == (1.0, 0.0)
    assert (scalar(theirs, "my_hands_won"), scalar(theirs, "opponent_hands_won")) == (0.0, 1.0)


def test_a_draw_gives_both_agents_nothing_and_each_move_is_rendered(capsys: pytest.CaptureFixture[str]) -> None:
    """Three passes in a row draw a game of the micro rules: both agents end with a reward of 0 (not
    -1), terminated, told the outcome; in `ansi` mode each move played is said as it is played."""
    e = env(ruleset="micro", render_mode="ansi")
    e.reset(seed=1)
    assert e.unwrapped.render() == "the deal"
    pass_token = e.unwrapped.index["pass"]
    total = {"p1": 0.0, "p2": 0.0}
    ended: dict[str, str] = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        total[agent] += reward
        if term or trunc:
            ended[agent] = info["outcome"]
            e.step(None)
            continue
        assert obs["action_mask"][pass_token]
        e.step(pass_token)
    assert total == {"p1": 0.0, "p2": 0.0}
    assert set(ended) == {"p1", "p2"} and all(o.startswith("Draw: 3 passes in a row") for o in ended.values())
    said = capsys.readouterr().out.splitlines()
    assert said[:2] == ["p1: pass", "p2: pass"] and said[2].startswith("p1: pass")  # the last, then the outcome
    assert said[3] == "Draw: 3 passes in a row: points 0-0" and len(said) == 4


def test_a_game_longer_than_max_steps_is_truncated_for_every_agent(capsys: pytest.CaptureFixture[str]) -> None:
    """`max_steps` counts tokens: the one that reaches it truncates the game for every agent, with no
    reward and no outcome; until then nothing is truncated. A move of several tokens is rendered once,
    when it is played."""
    e = raw_env(ruleset="default", max_steps=7, render_mode="ansi")
    e.reset(seed=2)
    for step in range(1, 8):
        assert not any(e.truncations.values()), step
        e.step(int(np.flatnonzero(e.action_mask())[-1]))
    assert e.game.outcome is None
    assert e.truncations == {"p1": True, "p2": True} and e.terminations == {"p1": False, "p2": False}
    assert e.rewards == {"p1": 0.0, "p2": 0.0}
    assert 0 < len(e.game.moves) < 7 and capsys.readouterr().out.splitlines() == e.game.narration
