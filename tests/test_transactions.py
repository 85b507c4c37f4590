"""A move is a transaction: its new state and its place in the history are made before anything is
committed, so a rule that fails at any step leaves the game, its history and its saves exactly as
they were. Narration is written only when asked for and cannot fail a move (a line it cannot write
in words tells the move plainly). Effects are type-checked at load (`win` takes a player)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.core.errors import RuleRuntimeError
from interpreter.rules import check
from interpreter.scripting import records


def _house(tmp_path: Path, effect: str, extra: str = "") -> str:
    lines = "".join(f"      {x}\n" for x in effect.splitlines())
    p = tmp_path / "house.yaml"
    p.write_text(
        f"name: house\nextends: default\n{extra}plays:\n  points:\n    effect: |\n{lines}"
        f"      move card to field of me as point\n",
        encoding="utf-8",
    )
    return str(p)


def _snapshot(game: Game) -> tuple:
    return game.state.key(), list(game.moves), list(game.narration), game.can_undo


def test_a_rule_failing_half_way_leaves_the_game_as_it_was(tmp_path: Path) -> None:
    # the effect scraps the whole hand, then fails: the scrapping is not kept either
    rules = load_ruleset(_house(tmp_path, "scrap hand of me\nwin who[0]", "constants:\n  who: [7]\n"))
    game = Game.new(rules, 2)
    game.play("draw")
    game.play("draw")
    before = _snapshot(game)
    move = next(m for m in game.legal_moves() if m.verb == "points")
    with pytest.raises(RuleRuntimeError, match="the move is refused"):
        game.play(move)
    assert _snapshot(game) == before
    records.save(game, tmp_path / "game.yaml")  # still saves, and the save replays
    assert records.load(tmp_path / "game.yaml").moves == game.moves


def test_narration_is_written_when_asked_and_cannot_fail_a_move(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game.new(load_ruleset("default"), 5)
    calls: list[int] = []

    def broken(*args: object) -> str:
        calls.append(1)
        raise TypeError("narration failed")

    monkeypatch.setattr(Game, "_narrate_moves", broken)
    game.play("draw")
    assert calls == [], "a move nobody narrates must not be narrated"
    assert game.narration == ["p1: draw"] and calls == [1]  # told plainly, the game goes on
    assert len(game.moves) == 1 and game.can_undo
    monkeypatch.undo()
    game.play("draw")
    assert game.narration[1].startswith("p2: draw (")


@pytest.mark.parametrize(
    ("effect", "why"),
    [
        ("win cards", "win needs a player, but this is cards"),
        ("win none", "win needs a player, but this is a card"),
        ("win random", "not random"),
        ("draw 1 for cards", "needs a player"),
    ],
)
def test_win_takes_a_player_checked_at_load(tmp_path: Path, effect: str, why: str) -> None:
    errors = check(_house(tmp_path, effect))
    assert errors and why in errors[0].message and errors[0].code == "E210"
