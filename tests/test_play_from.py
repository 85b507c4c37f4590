"""Playing from a position (issue 45 item 3): `cuttle play --from FILE` and `load FILE` in the REPL
take a scenario (its setup after its moves: what `scenario FILE --here` exports) or a saved game, and
the game goes on from there; its record replays to the same position."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from interpreter import Game, load_ruleset
from interpreter.cli import main
from interpreter.scripting.records import replay
from interpreter.scripting.scenario import scenario_game
from interpreter.scripting.setup import build_position
from repl.app import intro, new_session
from repl.session import Session

POSITION = """\
name: a 9 waiting for its answer
ruleset: cuttle-cards
setup:
  turn: p1
  p1:
    hand: [9C, 5D]
  p2:
    hand: [4H]
    royals: [KS]
moves:
  - oneoff 9C KS
expect:
  decider: p2
"""


def from_file(path: Path, vs: str = "human") -> tuple[Session, list[str]]:
    lines: list[str] = []
    s = new_session(SimpleNamespace(from_file=str(path), vs=vs, as_player="1"), out=lines.append, color=False)
    return s, lines


def test_play_from_a_scenario_starts_at_its_position_after_its_moves(tmp_path: Path) -> None:
    path = tmp_path / "pos.yaml"
    path.write_text(POSITION, encoding="utf-8")
    s, _ = from_file(path)
    assert s.game.state.key() == scenario_game(path).state.key()
    assert s.game.rules.name == "cuttle-cards" and s.ruleset == "cuttle-cards"
    assert f"from {path}, a scenario, after its 1 move (`cuttle run {path}` checks its expectations)" in intro(s)
    assert s.unsaved() == 0  # the file's moves are the start, not moves of this session
    s.handle("resolve")
    s.handle(f"save {tmp_path / 'game.yaml'}")
    again = replay(yaml.safe_load((tmp_path / "game.yaml").read_text(encoding="utf-8")), tmp_path / "game.yaml")
    assert again.state.key() == s.game.state.key()


def test_an_exported_position_plays_on_from_where_it_was_exported(tmp_path: Path) -> None:
    """`scenario FILE --here` in one game, `cuttle play --from FILE` in another: the same position."""
    rules = load_ruleset("default")
    setup = {"p1": {"hand": ["6D", "9C", "2H"]}, "p2": {"hand": ["5C", "2D", "7S"]}}
    game = Game(rules, build_position(rules, setup, 0), 0, setup)
    lines: list[str] = []
    s = Session(game, "human", 0, out=lines.append)
    s.handle("oneoff 6D")  # a counter window: p2 decides, the 6 still on the stack
    s.handle(f"scenario {tmp_path / 'here.yaml'} --here")
    other, _ = from_file(tmp_path / "here.yaml")
    assert other.game.state.key() == s.game.state.key() and other.game.decision.player == 1


def test_play_from_a_saved_game_and_load_of_a_scenario(tmp_path: Path) -> None:
    path = tmp_path / "pos.yaml"
    path.write_text(POSITION, encoding="utf-8")
    s, lines = from_file(path, vs="bot")
    s.handle(f"save {tmp_path / 'g.yaml'}")
    assert lines[-1] == f"saved 1 move to {tmp_path / 'g.yaml'}"
    t, _ = from_file(tmp_path / "g.yaml", vs="bot")
    assert t.game.state.key() == s.game.state.key()
    u, more = from_file(tmp_path / "g.yaml", vs="bot")
    u.handle(f"load {path}")
    assert any(line.startswith(f"loaded {path}: ruleset cuttle-cards, seed 0, a scenario") for line in more)
    assert "cuttle run" in next(line for line in more if line.startswith("loaded"))


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--seed", "3"], "plays the file's own ruleset and deal: leave out --seed"),
        (["--ruleset", "published"], "plays the file's own ruleset and deal: leave out --ruleset"),
    ],
)
def test_from_with_a_ruleset_or_seed_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    path = tmp_path / "pos.yaml"
    path.write_text(POSITION, encoding="utf-8")
    assert main(["play", "--from", str(path), *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_a_file_that_is_neither_a_record_nor_a_scenario_is_said_so(tmp_path: Path) -> None:
    path = tmp_path / "other.yaml"
    path.write_text("a: 1\n", encoding="utf-8")
    lines: list[str] = []
    s = Session(Game.new(load_ruleset("default"), 1), "bot", 0, out=lines.append)
    s.handle(f"load {path}")
    assert len(lines) == 1 and "is neither a game record (`save FILE`) nor a scenario" in lines[0]
