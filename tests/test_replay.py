"""Replaying a record: `cuttle replay FILE` steps through it in the REPL, `--print` prints it, and
`--view 1|2` shows only what that player could see."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.cli import main
from interpreter.core.cards import card_symbol, parse_card
from interpreter.players.heuristic import Bot
from interpreter.scripting import records


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Game]:
    """A game played to its end by the bot on both sides, saved as a record."""
    game = Game.new(load_ruleset("default"), 12)
    bot = Bot(4)
    for _ in range(500):
        if game.outcome is not None:
            break
        game.play(bot.choose(game))
    assert game.outcome is not None
    path = tmp_path_factory.mktemp("records") / "done.yaml"
    records.save(game, path)
    return path, game


def never_seen_by(game: Game, player: int) -> set[str]:
    """The cards the other player held that `player` never saw, at any point of the game."""
    seen: set[str] = set()
    held: set[str] = set()
    for n in range(len(game.moves) + 1):
        v, theirs = game.view_after(n, player), game.view_after(n, 1 - player)
        held |= set(theirs.hand)
        seen |= set(v.hand) | set(v.opponent_hand or ()) | set(v.scrap) | set(v.shown)
        seen |= set(v.stack) | set(v.deck_top_known)
        for side in (v.you, v.opponent):
            seen |= {e.card for e in side.points} | {j for e in side.points for j in e.jacks}
            seen |= set(side.royals)
    return held - seen


def test_print_view_1_hides_the_other_players_hidden_cards(finished, capsys: pytest.CaptureFixture[str]) -> None:
    path, game = finished
    secret = {card_symbol(parse_card(c)) for c in never_seen_by(game, 0)}
    assert secret  # P2 drew cards P1 never saw: the test has something to catch
    assert main(["replay", str(path), "--print", "--view", "1"]) == 0
    out = capsys.readouterr().out
    assert not [c for c in secret if c in out]
    assert "── default · turn" in out and " P1 " in out and "hidden" in out  # the board, from P1's side
    assert main(["replay", str(path), "--print", "--view", "all"]) == 0
    assert [c for c in secret if c in capsys.readouterr().out]  # shown when asked for


def test_print_view_2_hides_the_first_players_hidden_cards(finished, capsys: pytest.CaptureFixture[str]) -> None:
    path, game = finished
    secret = {card_symbol(parse_card(c)) for c in never_seen_by(game, 1)}
    assert main(["replay", str(path), "--print", "--view", "2"]) == 0
    out = capsys.readouterr().out
    assert not [c for c in secret if c in out]


def test_replay_steps_through_the_record_in_the_repl(
    finished, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path, game = finished
    n = len(game.moves)
    monkeypatch.setattr("sys.stdin", io.StringIO(f"next\n\ngoto {n}\nnext\nprev\nquit\n"))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"replay 0/{n}> next" in out and f"replay 2/{n}> goto {n}" in out
    assert f"error: the record has ended: all {n} moves are played (prev or goto N)" in out
    assert f"replay {n - 1}/{n}> quit" in out and out.rstrip().endswith("bye")


def test_replaying_an_unfinished_game_shows_only_one_side(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    game = Game.new(load_ruleset("default"), 3)
    bot = Bot(1)
    for _ in range(6):
        game.play(bot.choose(game))
    path = tmp_path / "midgame.yaml"
    records.save(game, path)
    secret = {card_symbol(parse_card(c)) for c in never_seen_by(game, 0)}
    assert secret
    monkeypatch.setattr("sys.stdin", io.StringIO("goto 6\nprev\nprev\nprev\nprev\nprev\nprev\nprev\nquit\n"))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "shown from P1's side, as the game is not finished" in out
    assert "error: this is the start of the record" in out
    assert not [c for c in secret if c in out]
