"""The player registry: names, levels and options from a spec string, and clear refusals."""

from __future__ import annotations

import pytest

from interpreter import make_player, players
from interpreter.players.heuristic import Bot, RandomPlayer
from interpreter.players.ismcts import ISMCTS
from interpreter.players.registry import PlayerError


def test_names_levels_and_descriptions() -> None:
    table = players()
    for name in ("random", "heuristic", "ismcts", "ismcts:fast", "ismcts:strong"):
        assert name in table and table[name]


def test_specs_make_players() -> None:
    assert isinstance(make_player("random"), RandomPlayer)
    assert isinstance(make_player("bot"), Bot)
    assert make_player("ismcts").iterations == 2500
    assert (
        make_player("ismcts:fast").iterations
        < make_player("ismcts").iterations
        < make_player("ismcts:strong").iterations
    )
    p = make_player("ismcts:strong?iterations=123&exploration=0.5", seed=4)
    assert isinstance(p, ISMCTS) and p.iterations == 123 and p.exploration == 0.5 and p.seed == 4
    assert make_player("ismcts", iterations=9).iterations == 9


@pytest.mark.parametrize(
    "value,meant",
    [("true", True), ("On", True), ("yes", True), ("1", True), ("off", False), ("No", False), ("0", False)],
)
def test_a_yes_no_option_takes_each_of_its_spellings(value: str, meant: bool) -> None:
    """`forget` (sharp) is off by default; every spelling of yes or no sets it as written."""
    assert make_player("sharp").forget is False  # type: ignore[attr-defined]
    assert make_player(f"sharp?forget={value}").forget is meant  # type: ignore[attr-defined]
    assert make_player("sharp", forget=meant).forget is meant  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "spec,words",
    [
        ("ismct", "did you mean 'ismcts'"),
        ("ismcts:hard", "no level 'hard'"),
        ("ismcts?iteration=5", "did you mean 'iterations'"),
        ("ismcts?iterations=many", "whole number"),
        ("ismcts?iterations", "key=value"),
        ("random?seed=3", "no option 'seed'"),
        ("sharp?forget=maybe", "option forget takes true or false, not 'maybe'"),
    ],
)
def test_bad_specs_are_refused_clearly(spec: str, words: str) -> None:
    with pytest.raises(PlayerError, match=words):
        make_player(spec)


def test_a_player_asked_for_the_wrong_seat_names_the_seat_asked() -> None:
    """At p1's decision, asking the heuristic or ISMCTS for p2's move is refused naming p2."""
    from interpreter import Game, load_ruleset

    game = Game.new(load_ruleset("micro"), 1)
    assert game.decision is not None and game.decision.player == 0
    for player in (Bot(1), ISMCTS(1, iterations=10)):
        with pytest.raises(ValueError, match=r"^it is not p2's decision$"):
            player.choose(game, 1)


def test_the_list_of_players_says_each_alias_and_nothing_for_a_player_without_one() -> None:
    table = players()
    assert table["random"] == "uniformly random legal moves"
    assert table["heuristic"].endswith("; also called bot") and "also called" not in table["sharp"]
    assert table["ismcts:default"].endswith("; plain 'ismcts' plays this level")


def test_an_option_with_no_near_name_is_refused_with_the_options_there_are() -> None:
    with pytest.raises(PlayerError) as e:
        make_player("random?zzz=1")
    assert str(e.value) == "player 'random' has no option 'zzz' (it takes none)"
    with pytest.raises(PlayerError) as e:
        make_player("heuristic?qqqq=1")
    assert str(e.value) == "player 'heuristic' has no option 'qqqq' (options: samples, depth, max_nodes)"
