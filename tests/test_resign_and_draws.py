"""Resigning and draw offers (issue 45 item 3): moves of every ruleset outside its rules — `resign`,
and a draw offered as the other player answered it, `draw-agreed` or `draw-refused` — played by the
player deciding now, ending the game with a typed outcome (engine/outcome.py: RESIGN, AGREED), kept
in the record and replayed; in the REPL, `resign` (asked once), `offer` (the bot answers at once; in
hot-seat the other player answers with `accept` or `refuse`, after a hand-over)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from interpreter import Game, IllegalMoveError, InvalidMoveError, load_ruleset
from interpreter.engine.game import META_VERBS
from interpreter.engine.outcome import Termination
from interpreter.scripting.records import record_of, replay, save
from interpreter.scripting.setup import build_position
from repl.session import SHOW, Session

AHEAD = {"p1": {"hand": ["3D", "4C"], "points": ["10H", "9H"]}, "p2": {"hand": ["5C", "6S"], "points": ["2C"]}}
BEHIND = {"p1": {"hand": ["3D", "4C"], "points": ["2C"]}, "p2": {"hand": ["5C", "6S"], "points": ["10H", "9H"]}}


def game_at(setup: dict, spec: str = "default") -> Game:
    rules = load_ruleset(spec)
    return Game(rules, build_position(rules, setup, 0), 0, setup)


def session_at(setup: dict, vs: str = "bot") -> tuple[Session, list[str]]:
    game = game_at(setup)
    lines: list[str] = []
    return Session(game, vs, 0, ruleset="default", out=lines.append), lines


def test_resign_ends_the_game_for_the_player_deciding_and_undo_takes_it_back() -> None:
    g = game_at(AHEAD)
    g.play("draw")  # p2 decides now
    start = g.state.key()
    g.play("resign")
    o = g.outcome
    assert o is not None and (o.winner, o.termination, o.seat) == (0, Termination.RESIGN, 1)
    assert str(o) == "P1 wins: P2 resigned" and g.decision is None
    with pytest.raises(IllegalMoveError, match="the game is over"):
        g.play("resign")
    g.undo()
    assert g.outcome is None and g.state.key() == start and g.decision.player == 1


def test_a_draw_offer_refused_changes_nothing_and_one_agreed_ends_in_a_draw() -> None:
    g = game_at(AHEAD)
    start = g.state.key()
    g.play("draw-refused")
    assert g.state.key() == start and g.outcome is None and [str(m) for m in g.moves] == ["draw-refused"]
    g.play("draw-agreed")
    o = g.outcome
    assert o is not None and (o.winner, o.termination, o.seat) == (None, Termination.AGREED, 0)
    assert str(o) == "Draw: P1 offered a draw and P2 accepted"
    assert g.narration == ["p1: offers a draw, refused", "p1: offers a draw, accepted — " + str(o)]


def test_they_are_kept_in_the_record_and_replayed(tmp_path: Path) -> None:
    g = game_at(AHEAD)
    for m in ("draw-refused", "draw", "resign"):
        g.play(m)
    path = tmp_path / "g.yaml"
    save(g, path)
    rec = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert rec["moves"] == ["draw-refused", "draw", "resign"] and rec["result"] == "P1 wins: P2 resigned"
    again = replay(rec, path)
    assert again.state.key() == g.state.key() and again.outcome == g.outcome
    assert record_of(again) == record_of(g)


def test_they_are_never_among_the_legal_moves_and_name_no_card() -> None:
    """A bot, the lab and the PettingZoo environment list the legal moves: they never resign."""
    g = game_at(AHEAD)
    assert not {str(m).split()[0] for m in g.legal_moves()} & set(META_VERBS)
    assert g.is_legal("resign") and g.is_legal("draw-agreed")
    with pytest.raises(InvalidMoveError, match="names no card"):
        g.play("resign 3D")
    assert g.explain("resign") == "'resign' is legal (by p1, who decides now)"


def test_resign_in_the_repl_asks_once(tmp_path: Path) -> None:
    s, lines = session_at(AHEAD)
    s.handle("resign")
    assert lines[-1].startswith("resign? P2 wins the game: type resign again") and s.game.outcome is None
    s.handle("show")
    s.handle("resign")  # anything in between: asked again
    assert s.game.outcome is None
    s.handle("resign")
    assert "You resign" in lines and any("Game over — You lose: P1 resigned." in ln for ln in lines)


@pytest.mark.parametrize("setup, answer", [(AHEAD, "accepts"), (BEHIND, "refuses")], ids=["bot behind", "bot ahead"])
def test_the_bot_accepts_a_draw_only_when_it_is_behind(setup: dict, answer: str) -> None:
    """P2 (the bot) judges the position as its heuristic does, from what both players see."""
    s, lines = session_at(setup)
    s.handle("offer draw")
    assert f"You offer a draw; P2 {answer}" in lines
    assert (s.game.outcome is not None) == (answer == "accepts")


def test_hot_seat_the_other_player_answers_after_a_hand_over() -> None:
    s, lines = session_at(AHEAD, vs="human")
    calls: list[tuple] = []
    s.handover = lambda previous, nxt, can_cancel: calls.append((previous, nxt)) or SHOW  # type: ignore[func-returns-value]
    s.handle("offer")
    assert calls == [(0, 1)] and s.viewer == 1 and s.prompt_text() == "p2 (draw offer)> "
    n = len(lines)
    for line in ("moves", "draw", "undo"):
        s.handle(line)
    assert lines[n:] == ["error: P1 offers a draw: accept or refuse it first"] * 3
    s.handle("refuse")
    assert calls[-1] == (1, 0) and s.viewer == 0 and s.game.outcome is None
    assert "P1 offers a draw; you refuse" in lines and "You offer a draw; P2 refuses" in lines
    s.handle("offer")
    s.handle("accept")
    o = s.game.outcome
    assert o is not None and o.termination is Termination.AGREED
    assert [str(m) for m in s.game.moves] == ["draw-refused", "draw-agreed"]
    s.handle("accept")
    assert lines[-1].startswith("error: there is no draw offer to answer")


def test_a_ruleset_with_a_play_named_resign_keeps_it(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(
        "name: house\nextends: default\nplays:\n  give-up:\n    verb: resign\n    cards: 0\n    effect: draw 1\n",
        encoding="utf-8",
    )
    g = Game.new(load_ruleset(str(house)), 3)
    assert "resign" in {str(m) for m in g.legal_moves()}
    before = len(g.view(0).hand)
    g.play("resign")
    assert g.outcome is None and len(g.view(0).hand) == before + 1  # the house's play: draw 1
