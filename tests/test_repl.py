"""The REPL: completion as a pure function, and whole sessions driven through a pipe input."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from prompt_toolkit import PromptSession
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from interpreter import Game, load_ruleset
from interpreter.players.heuristic import Bot
from interpreter.scripting.scenario import run_file
from repl.app import build_prompt, new_session, run
from repl.commands import REGISTRY
from repl.completion import CompletionContext, complete
from repl.narrate import Teller
from repl.render import RED, Painter, board
from repl.session import Session
from repl.validation import problem

from .playout import play_out

# -- completion, without a terminal ---------------------------------------------------------------

MOVES = (("draw", "draw"), ("points 7H", "points 7♥"), ("points 10S", "points 10♠"),
         ("scuttle 10S 9H", "scuttle 10♠ 9♥"), ("oneoff 6D", "oneoff 6♦"))


def ctx(**kw: object) -> CompletionContext:
    base: dict = {"moves": MOVES, "verbs": ("draw", "points", "scuttle", "oneoff", "counter", "resolve"),
                  "cards": ("7H", "10S", "KD"), "rulesets": ("default", "micro"),
                  "files": lambda prefix: [f for f in ("game.yaml", "games/", "other.yaml") if f.startswith(prefix)]}
    base.update(kw)
    return CompletionContext(**base)


def texts(line: str, c: CompletionContext | None = None) -> list[str]:
    return [s.text for s in complete(line, c or ctx())]


def test_empty_line_offers_commands_and_every_legal_move() -> None:
    got = texts("")
    assert set(REGISTRY.names()) <= set(got)
    assert {m for m, _ in MOVES} <= set(got)


def test_a_prefix_offers_whole_legal_moves() -> None:
    assert texts("po") == ["points 7H", "points 10S"]
    assert texts("points 1") == ["points 10S"]
    assert texts("SC") == ["scenario", "scuttle 10S 9H"]
    s = complete("points 1", ctx())[0]
    assert s.start == -len("points 1") and s.meta == "points 10♠"


def test_no_moves_when_it_is_not_the_users_decision() -> None:
    assert texts("po", ctx(moves=())) == []


def test_commands_and_their_arguments() -> None:
    assert texts("sa") == ["save"]
    assert texts("save ") == ["game.yaml", "games/", "other.yaml"]
    assert texts("load gam") == ["game.yaml", "games/"]
    assert complete("replay gam", ctx())[0].start == -3
    assert texts("rules m") == ["micro"]
    assert texts("explain sc") == ["scuttle"]
    assert texts("explain points ") == ["7H", "10S", "KD"]
    assert texts("goto ") == []
    assert texts("undo ") == []


def test_validator_is_syntax_only() -> None:
    assert problem("points 7H") is None  # legal or not is for the game to say
    assert problem("points KH") is None
    assert "not a card" in problem("points 7X")
    assert "did you mean 'points'" in problem("pionts 7H", ("points", "draw"))
    assert "usage: save FILE" in problem("save")
    assert "whole number" in problem("goto x")
    assert problem("") is None


# -- rendering and narration ----------------------------------------------------------------------

def test_board_hides_the_opponents_hand_and_colours_red_suits() -> None:
    game = Game.new(load_ruleset("default"), 3)
    view = game.view(0)
    text = board(view, color=False)
    for card in game.view(1)["hand"]:
        assert Painter(False).card(card) not in text.split("hand")[1].splitlines()[0]
    assert "6 cards, hidden" in text
    assert "\x1b[" not in text
    assert RED + "♥" not in text
    colored = board(view, color=True)
    assert RED in colored


def test_narration_tells_a_counter_in_words() -> None:
    data = {"turn": "p1", "p1": {"hand": ["6D", "9C"], "points": ["7H"]}, "p2": {"hand": ["2C", "3H"],
                                                                                  "royals": ["KS"]}}
    from interpreter.scripting.setup import build_position
    rules = load_ruleset("default")
    game = Game(rules, build_position(rules, data, 0), 0, setup=data)
    teller = Teller(0)
    before = game.view(0)
    game.play("oneoff 6D")
    assert teller.tell(before, game.view(0), game.moves[-1]) == "You play 6♦ as a one-off"
    before = game.view(0)
    game.play("counter 2C 3H")
    assert teller.tell(before, game.view(0), game.moves[-1]) == "P2 counters your 6♦ with 2♣, discarding 3♥"
    before = game.view(0)
    game.play("resolve")
    assert teller.tell(before, game.view(0), game.moves[-1]) == "You let P2's 2♣ resolve: 6♦ goes to the scrap"


def test_narration_of_glasses_reveals_without_moving_cards() -> None:
    from interpreter.scripting.setup import build_position
    rules = load_ruleset("default")
    setup = {"p1": {"hand": ["8C", "3D"]}, "p2": {"hand": ["5C", "2H"]}}
    game = Game(rules, build_position(rules, setup, 0), 0, setup)
    game.play("glasses 8C")
    before = game.view(0)
    game.play("resolve")
    line = Teller(0, Painter(False)).tell(before, game.view(0), game.moves[-1])
    assert "P2's hand is now face up: 5♣ and 2♥" in line and "goes to P2's hand" not in line


# -- whole sessions through prompt_toolkit's pipe input --------------------------------------------

@pytest.fixture
def pipe() -> Iterator[PipeInput]:
    with create_pipe_input() as inp:
        yield inp


def make(pipe: PipeInput, seed: int = 3, vs: str = "bot", as_player: str = "1") -> tuple[Session, PromptSession,
                                                                                          list[str]]:
    lines: list[str] = []
    s = new_session(SimpleNamespace(seed=seed, ruleset="default", vs=vs, as_player=as_player), out=lines.append,
                    color=False)
    s.advance()
    return s, build_prompt(s, input=pipe, output=DummyOutput(), history=InMemoryHistory()), lines


def type_line(s: Session, prompt: PromptSession, pipe: PipeInput, text: str) -> str:
    """Type `text` and Enter; return the line the prompt accepted, after the session handled it."""
    pipe.send_text(text + "\r")
    line = prompt.prompt()
    s.handle(line)
    return line


def test_a_game_played_to_its_end_against_the_bot(pipe: PipeInput) -> None:
    s, prompt, lines = make(pipe, seed=5)
    me = Bot(99)
    play_out(s.game, lambda g: str(me.choose(g)), max_moves=300, play=lambda m: type_line(s, prompt, pipe, str(m)))
    assert any("Game over" in line for line in lines)
    assert not any(line.startswith("error") for line in lines)
    assert any(line.startswith("P2 ") for line in lines)  # the bot's moves are told
    before = len(lines)
    type_line(s, prompt, pipe, "draw")
    assert len(lines) == before + 1 and "the game is over" in lines[-1]


def test_bot_moves_first_when_the_user_is_p2(pipe: PipeInput) -> None:
    s, prompt, lines = make(pipe, seed=4, as_player="2")
    assert s.game.moves and s.game.decision.player == 1
    assert lines[0].startswith("P1 ")


def test_undo_and_redo(pipe: PipeInput) -> None:
    s, prompt, lines = make(pipe, seed=3)
    start = s.game.state.key()
    type_line(s, prompt, pipe, "points 10C")
    assert len(s.game.moves) >= 2  # the bot answered
    after = s.game.state.key()
    type_line(s, prompt, pipe, "undo")
    assert s.game.state.key() == start and s.game.moves == []
    type_line(s, prompt, pipe, "redo")
    assert s.game.state.key() == after
    type_line(s, prompt, pipe, "undo")
    n = len(lines)
    type_line(s, prompt, pipe, "undo")
    assert lines[n:] == ["error: nothing of yours to undo"]
    assert s.game.state.key() == start


def test_hot_seat_shows_each_players_view_in_turn(pipe: PipeInput) -> None:
    s, prompt, lines = make(pipe, seed=3, vs="human")
    type_line(s, prompt, pipe, "points 10C")
    assert s.viewer == 1
    assert any("P2's view" in line for line in lines)
    assert "You (P2)" in lines[-2]
    type_line(s, prompt, pipe, "undo")
    assert s.viewer == 0 and s.game.moves == []


def test_hot_seat_hands_over_before_the_next_view(pipe: PipeInput) -> None:
    s, prompt, lines = make(pipe, seed=3, vs="human")
    handovers: list[tuple[int, int, int]] = []
    s.handover = lambda prev, nxt: handovers.append((prev, nxt, len(lines)))
    n = len(lines)
    type_line(s, prompt, pipe, "points 10C")
    assert handovers == [(0, 1, n)]  # before anything about the move or P2's board is printed
    type_line(s, prompt, pipe, "moves")
    assert len(handovers) == 1  # a command does not hand over


def test_save_and_load(pipe: PipeInput, tmp_path: Path) -> None:
    s, prompt, lines = make(pipe, seed=3)
    type_line(s, prompt, pipe, "points 10C")
    path = tmp_path / "game.yaml"
    type_line(s, prompt, pipe, f"save {path}")
    assert lines[-1].startswith("saved")
    saved = yaml.safe_load(path.read_text())
    assert saved["moves"] == [str(m) for m in s.game.moves]
    key = s.game.state.key()
    type_line(s, prompt, pipe, "new 8")
    assert s.game.seed == 8
    type_line(s, prompt, pipe, f"load {path}")
    assert s.game.state.key() == key
    # a save that cannot be written leaves nothing behind and says so in one line
    n = len(lines)
    type_line(s, prompt, pipe, f"save {tmp_path}/no/such/dir/g.yaml")
    assert len(lines) == n + 1 and lines[-1].startswith("error: cannot write")
    assert not (tmp_path / "no").exists()


def test_replay_stepping(pipe: PipeInput, tmp_path: Path) -> None:
    s, prompt, lines = make(pipe, seed=6)
    me = Bot(1)
    play_out(s.game, lambda g: str(me.choose(g)), play=lambda m: s.handle(str(m)))
    total = len(s.game.moves)
    final = s.game.state.key()
    path = tmp_path / "done.yaml"
    type_line(s, prompt, pipe, f"save {path}")
    type_line(s, prompt, pipe, f"replay {path}")
    assert s.replay is not None and s.replay.at == 0 and s.game.moves == []
    type_line(s, prompt, pipe, "next")
    type_line(s, prompt, pipe, "next")
    assert s.replay.at == 2 and len(s.game.moves) == 2
    type_line(s, prompt, pipe, "prev")
    assert s.replay.at == 1
    type_line(s, prompt, pipe, f"goto {total}")
    assert s.game.state.key() == final
    n = len(lines)
    type_line(s, prompt, pipe, "goto 9999")
    assert len(lines) == n + 1 and lines[-1].startswith("error: goto")
    type_line(s, prompt, pipe, "draw")
    assert "replaying" in lines[-1]
    type_line(s, prompt, pipe, "goto 3")
    type_line(s, prompt, pipe, "resume")
    assert s.replay is None and len(s.game.moves) >= 3


def test_replaying_an_unfinished_game_shows_only_your_side(pipe: PipeInput, tmp_path: Path) -> None:
    s, prompt, lines = make(pipe, seed=6)
    type_line(s, prompt, pipe, "points 10S" if s.game.is_legal("points 10S") else str(s.game.legal_moves()[0]))
    path = tmp_path / "midgame.yaml"
    type_line(s, prompt, pipe, f"save {path}")
    type_line(s, prompt, pipe, f"replay {path}")
    assert s.replay is not None and not s.replay.open_hands
    assert s.view()["opponent_hand"] is None  # the bot's hand stays hidden
    assert "not finished" in "\n".join(lines[-20:])
    type_line(s, prompt, pipe, "goto 1")
    assert s.view()["opponent_hand"] is None


def test_hot_seat_undo_hands_over_too(pipe: PipeInput) -> None:
    s, prompt, lines = make(pipe, seed=3, vs="human")
    calls: list[tuple[int, int]] = []
    s.handover = lambda prev, nxt: calls.append((prev, nxt))
    type_line(s, prompt, pipe, "points 10C")
    type_line(s, prompt, pipe, "undo")
    assert calls == [(0, 1), (1, 0)]


def test_bad_input_prints_one_line_and_changes_nothing(pipe: PipeInput) -> None:
    s, prompt, lines = make(pipe, seed=3)
    key = s.game.state.key()
    for bad in ("points KH", "scuttle 10C 9H", "resolve", "frobnicate", "save", "goto 3", "next",
                "explain", "load /no/such/file.yaml", "replay /no/such/file.yaml", "rules nosuch", "undo",
                "points 7X", "oneoff"):
        n = len(lines)
        s.handle(bad)
        assert len(lines) == n + 1, (bad, lines[n:])
        assert lines[-1].startswith("error: "), (bad, lines[-1])
        assert s.game.state.key() == key, bad


def test_validator_stops_a_malformed_line_and_ctrl_c_clears_it(pipe: PipeInput) -> None:
    s, prompt, lines = make(pipe, seed=3)
    key = s.game.state.key()
    pipe.send_text("points 7X\r")  # refused by the validator: stays in the buffer
    pipe.send_text("\x03")  # Ctrl-C clears it
    pipe.send_text("moves\r")
    assert prompt.prompt() == "moves"
    assert s.game.state.key() == key


def test_ctrl_d_quits_cleanly(pipe: PipeInput) -> None:
    s, prompt, lines = make(pipe, seed=3)
    pipe.send_text("show\r")
    pipe.send_text("\x04")
    assert run(s, prompt) == 0
    assert lines[-1] == "bye"


def test_quit_command(pipe: PipeInput) -> None:
    s, prompt, lines = make(pipe, seed=3)
    pipe.send_text("help\rquit\r")
    assert run(s, prompt) == 0
    assert any("save FILE" in line for line in lines)


def test_scenario_file_passes_cuttle_run(pipe: PipeInput, tmp_path: Path) -> None:
    s, prompt, lines = make(pipe, seed=9)
    me = Bot(2)
    for _ in range(6):
        s.handle(str(me.choose(s.game)))
    path = tmp_path / "pos.yaml"
    type_line(s, prompt, pipe, f"scenario {path}")
    assert "passes" in lines[-1]
    result = run_file(path)
    assert result.ok, result.failures
    doc = yaml.safe_load(path.read_text())
    assert doc["moves"] == [str(m) for m in s.game.moves] and "expect" in doc


def test_log_tells_every_move(pipe: PipeInput) -> None:
    s, prompt, lines = make(pipe, seed=3)
    type_line(s, prompt, pipe, "points 10C")
    n = len(lines)
    type_line(s, prompt, pipe, "log")
    assert len(lines) - n == len(s.game.moves)
    assert lines[n].strip().startswith("1. You play 10♣ for points")


@pytest.mark.parametrize("spec", ["micro+jokers", "default+random-4s", "published+best-of-5"])
def test_scenario_export_replays_random_effects_exactly(spec: str, tmp_path) -> None:
    import random

    from repl.export import write_scenario

    for seed in range(3):
        game = Game.new(load_ruleset(spec), seed)
        rnd = random.Random(seed)
        while game.outcome is None and len(game.moves) < 60:
            moves = game.legal_moves()
            game.play(moves[rnd.randrange(len(moves))])
        path = tmp_path / f"{seed}.yaml"
        write_scenario(game, str(path))
        result = run_file(path)
        assert result.ok, result.failures
