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

from interpreter import Game, Move, load_ruleset
from interpreter.players.heuristic import Bot
from interpreter.scripting.records import save
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

MOVES = (
    ("draw", "draw"),
    ("points 7H", "points 7♥"),
    ("points 10S", "points 10♠"),
    ("scuttle 10S 9H", "scuttle 10♠ 9♥"),
    ("oneoff 6D", "oneoff 6♦"),
)


def ctx(**kw: object) -> CompletionContext:
    base: dict = {
        "moves": MOVES,
        "verbs": ("draw", "points", "scuttle", "oneoff", "counter", "resolve"),
        "cards": ("7H", "10S", "KD"),
        "rulesets": ("default", "micro"),
        "files": lambda prefix: [f for f in ("game.yaml", "games/", "other.yaml") if f.startswith(prefix)],
    }
    base.update(kw)
    return CompletionContext(**base)


def texts(line: str, c: CompletionContext | None = None) -> list[str]:
    return [s.text for s in complete(line, c or ctx())]


def test_empty_line_offers_every_legal_move_first_then_the_commands() -> None:
    got = texts("")
    assert got[: len(MOVES)] == [m for m, _ in MOVES]
    assert got[len(MOVES) :] == [n for n in REGISTRY.names() if REGISTRY.get(n).only != "replay"]


def test_tab_offers_only_the_commands_that_work_now() -> None:
    playing, replaying = texts(""), texts("", ctx(moves=(), replaying=True))
    assert {"next", "prev", "goto", "resume"}.isdisjoint(playing)
    assert {"undo", "redo", "hint", "moves", "scenario"}.isdisjoint(replaying)
    assert {"next", "prev", "goto", "resume", "save", "quit", "help"} <= set(replaying)
    assert {"undo", "hint", "moves", "save", "quit", "help"} <= set(playing)


def test_a_prefix_offers_whole_legal_moves() -> None:
    assert texts("po") == ["points 7H", "points 10S"]
    assert texts("points 1") == ["points 10S"]
    assert texts("SC") == ["scuttle 10S 9H", "scrap", "scenario"]  # the move first, on a typed first letter too
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
    for card in game.view(1).hand:
        assert Painter(False).card(card) not in text.split("hand")[1].splitlines()[0]
    assert "6 cards, hidden" in text
    assert "\x1b[" not in text
    assert RED + "♥" not in text
    colored = board(view, color=True)
    assert RED in colored


def test_narration_tells_a_counter_in_words() -> None:
    data = {
        "turn": "p1",
        "p1": {"hand": ["6D", "9C"], "points": ["7H"]},
        "p2": {"hand": ["2C", "3H"], "royals": ["KS"]},
    }
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


def make(
    pipe: PipeInput, seed: int = 3, vs: str = "bot", as_player: str = "1"
) -> tuple[Session, PromptSession, list[str]]:
    lines: list[str] = []
    s = new_session(
        SimpleNamespace(seed=seed, ruleset="default", vs=vs, as_player=as_player), out=lines.append, color=False
    )
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
    n = len(lines)
    type_line(s, prompt, pipe, "redo")
    assert s.game.state.key() == after
    assert lines[n] == "redone: " + ", ".join(m.pretty() for m in s.game.moves), lines[n:]
    type_line(s, prompt, pipe, "undo")
    n = len(lines)
    type_line(s, prompt, pipe, "undo")
    assert lines[n:] == ["error: nothing of yours to undo"]
    assert s.game.state.key() == start


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
    assert s.view().opponent_hand is None  # the bot's hand stays hidden
    assert "not finished" in "\n".join(lines[-20:])
    type_line(s, prompt, pipe, "goto 1")
    assert s.view().opponent_hand is None


def test_bad_input_prints_one_line_and_changes_nothing(pipe: PipeInput) -> None:
    s, prompt, lines = make(pipe, seed=3)
    key = s.game.state.key()
    for bad in (
        "points KH",
        "scuttle 10C 9H",
        "resolve",
        "frobnicate",
        "save",
        "goto 3",
        "next",
        "explain",
        "load /no/such/file.yaml",
        "replay /no/such/file.yaml",
        "rules nosuch",
        "undo",
        "points 7X",
        "oneoff",
    ):
        n = len(lines)
        s.handle(bad)
        assert len(lines) == n + 1, (bad, lines[n:])
        assert lines[-1].startswith("error: "), (bad, lines[-1])
        assert s.game.state.key() == key, bad


def test_a_failed_line_is_answered_and_the_next_line_starts_empty(pipe: PipeInput) -> None:
    """A malformed line and an illegal one behave alike: one error line that stays on the screen, an
    empty prompt after it (the line is in the history, to fix), and nothing glued to the next line."""
    s, prompt, lines = make(pipe, seed=3)
    key = s.game.state.key()
    for bad, says in (("points 7X", "not a card"), ("points KH", "illegal"), ("asdf", "neither a command")):
        n = len(lines)
        assert type_line(s, prompt, pipe, bad) == bad
        assert len(lines) == n + 1 and lines[-1].startswith("error: ") and says in lines[-1], lines[n:]
        assert type_line(s, prompt, pipe, "moves") == "moves"  # not 'asdfmoves'
        assert s.game.state.key() == key
    pipe.send_text("points 7\x03moves\r")  # Ctrl-C still clears a line being typed
    assert prompt.prompt() == "moves"
    pipe.send_text("\x1b[A\r")  # Up brings back the last line
    assert prompt.prompt() == "moves"


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
    assert lines[-1] == f"wrote {path}: {len(s.game.moves)} moves; `cuttle run {path}` passes"
    result = run_file(path)
    assert result.ok, result.failures
    doc = yaml.safe_load(path.read_text())
    assert doc["moves"] == [str(m) for m in s.game.moves] and "expect" in doc


def test_log_tells_every_move(pipe: PipeInput) -> None:
    s, prompt, lines = make(pipe, seed=3)
    type_line(s, prompt, pipe, "points 10C")
    n = len(lines)
    type_line(s, prompt, pipe, "log")
    told = "\n".join(lines[n:]).splitlines()
    assert len(told) == len(s.game.moves)
    assert told[0].strip().startswith("1. You play 10♣ for points")


def test_long_output_goes_through_the_pager_and_short_output_does_not() -> None:
    s, lines = session_at({"p1": {"hand": ["6D"]}, "p2": {"hand": ["5C"]}}, vs="human")
    paged: list[str] = []
    s.pager = lambda text: paged.append(text) or len(text.splitlines()) > 30  # a 30-line terminal
    n = len(lines)
    s.handle("rules")  # some 60 lines: paged
    assert len(paged) == 1 and "Card by card" in paged[0] and lines[n:] == []
    s.handle("log")  # "no moves yet": short, printed
    assert lines[-1] == "no moves yet"
    s.handle("help")  # offered to the pager, which finds it fits: printed
    assert len(paged) == 2 and "undo" in paged[1] and lines[-1] == paged[1]


def test_the_pager_runs_only_on_a_terminal_for_text_taller_than_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from interpreter.core import terminal

    ran: list[list[str]] = []
    monkeypatch.setattr(terminal.subprocess, "run", lambda cmd, **kw: ran.append(cmd))
    monkeypatch.setenv("PAGER", "less -R")
    tall = "\n".join(f"line {i}" for i in range(50))
    assert terminal.page(tall, rows=0) is False and ran == []  # not a terminal
    assert terminal.page("short\ntext", rows=24) is False and ran == []
    assert terminal.page(tall, rows=24) is True and ran == [["less", "-R"]]


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


def test_scenario_export_mid_window_with_queued_trigger_events_replays(tmp_path) -> None:
    """A ruleset with triggers (scuttled-draw): a scenario written while a response window is open or
    trigger events wait to run replays its moves from the start and passes, so nothing queued is lost."""
    import random
    import shutil

    from repl.export import write_scenario

    shutil.copy(Path(__file__).resolve().parent.parent / "examples" / "house" / "scuttled-draw.yaml", tmp_path)
    rules = load_ruleset(str(tmp_path / "scuttled-draw.yaml"))
    written = {"events": 0, "window": 0}
    for seed in range(12):
        game = Game.new(rules, seed)
        rnd = random.Random(seed)
        while game.decision is not None and min(written.values()) < 4:
            queued, window = bool(game.state.events), bool(game.state.chain)
            if (queued and written["events"] < 4) or (window and written["window"] < 4):
                path = tmp_path / f"{seed}-{len(game.moves)}.yaml"
                write_scenario(game, str(path))  # (names scuttled-draw.yaml, beside it)
                result = run_file(path)
                assert result.ok, result.failures
                written["events"] += queued
                written["window"] += window
            moves = game.legal_moves()
            game.play(moves[rnd.randrange(len(moves))])
    assert min(written.values()) >= 4


# -- a session on a given position ------------------------------------------------------------------


class Scripted:
    """A stand-in for the bot that plays the given moves in order."""

    def __init__(self, *moves: str) -> None:
        self.moves = list(moves)

    def choose(self, game: Game) -> str:
        return self.moves.pop(0)


def session_at(
    setup: dict, spec: str = "default", vs: str = "bot", human: int = 0, width: int = 0, bot: Scripted | None = None
) -> tuple[Session, list[str]]:
    from interpreter.scripting.setup import build_position

    rules = load_ruleset(spec)
    game = Game(rules, build_position(rules, setup, 0), 0, setup)
    lines: list[str] = []
    s = Session(game, vs, human, ruleset=spec, out=lines.append, width=lambda: width)
    if bot is not None:
        s.bot = bot  # type: ignore[assignment]
    return s, lines


# -- what a player expects (issue 13) --------------------------------------------------------------


def test_enter_on_an_empty_line_plays_the_only_legal_move() -> None:
    s, lines = session_at({"p1": {"hand": ["6D", "9C"]}, "p2": {"hand": ["5C"]}}, vs="human")
    s.handle("oneoff 6D")
    assert s.game.decision.player == 1 and [str(m) for m in s.game.legal_moves()] == ["resolve"]
    s.handle("")
    assert [str(m) for m in s.game.moves] == ["oneoff 6D", "resolve"]
    n = len(s.game.moves)
    s.handle("")  # several legal moves: an empty line does nothing
    assert len(s.game.moves) == n and not any(line.startswith("error") for line in lines)


def test_the_respond_prompt_offers_a_counter_only_when_there_is_one() -> None:
    s, lines = session_at({"p1": {"hand": ["6D", "9C"]}, "p2": {"hand": ["5C"]}}, vs="human")
    s.handle("oneoff 6D")
    assert s.status() == "you cannot counter P1's 6♦ (oneoff): press Enter to continue"
    assert "may counter" not in "\n".join(lines[-3:])
    s, lines = session_at({"p1": {"hand": ["6D", "9C"]}, "p2": {"hand": ["2C", "5C"]}}, vs="human")
    s.handle("oneoff 6D")
    assert s.status() == "you may counter P1's 6♦ (oneoff) or let it resolve"


def test_set_auto_plays_forced_moves_by_itself() -> None:
    setup = {"p1": {"hand": ["4C", "9C"]}, "p2": {"hand": ["KD", "3D"]}, "deck": ["5H", "6H"]}
    s, lines = session_at(setup, bot=Scripted("oneoff 4C", "draw"), human=1)
    s.handle("set auto on")  # the stand-in for the bot plays its 4 at once
    # P2 cannot counter (no 2): resolve is forced; then discarding both cards is the only choice; with an
    # empty hand, drawing is the only move of P2's turn; after P1's draw, P2 has two moves and decides
    assert [str(m) for m in s.game.moves] == ["oneoff 4C", "resolve", "discard 3D KD", "draw", "draw"]
    assert sum("(the only legal move)" in line for line in lines) == 3
    assert s.game.decision.player == 1 and s.game.decision.kind == "main"
    s.handle("set auto off")
    assert not s.auto
    s, lines = session_at(setup, bot=Scripted("oneoff 4C"), human=1)
    s.advance()  # auto is off by default: the forced resolve waits for the user
    assert [str(m) for m in s.game.moves] == ["oneoff 4C"]


def test_everything_wraps_to_a_narrow_terminal(pipe: PipeInput) -> None:
    from interpreter.core.terminal import painted
    from repl.toolbar import toolbar_text
    from repl.wrap import visible_width

    lines: list[str] = []
    s = new_session(SimpleNamespace(seed=11, ruleset="default", vs="bot", as_player="1"), out=lines.append, color=True)
    s.width = lambda: 60
    s.advance()
    me = Bot(5)
    for _ in range(400):
        if s.game.outcome is not None:
            break
        s.handle(str(me.choose(s.game)))
        assert visible_width(toolbar_text(s)) <= 60
        assert f"{s.view().you.score}/{s.view().you.goal}" in toolbar_text(s)
    for command in ("help", "rules", "log", "show", "scrap", "explain scuttle 10S 9H"):
        s.handle(command)
    text = "\n".join(lines)
    long = [ln for ln in text.split("\n") if visible_width(ln) > 60 and " " in ln.strip()]
    assert long == []
    assert "\x1b[31m" in painted(text)  # the colours were kept through the wrapping (as the project's marks)


def test_the_toolbar_shortens_its_fields_rather_than_losing_them() -> None:
    from repl.toolbar import toolbar_text

    s, _ = session_at({"p1": {"hand": ["6D", "9C"], "points": ["7H"]}, "p2": {"hand": ["5C"], "points": ["3C"]}})
    wide, narrow = toolbar_text(s, 200), toolbar_text(s, 40)
    assert "Tab: moves" in wide and "deck" in wide
    assert len(narrow) <= 40 and "you 7/21 · P2 3/21" in narrow
    # the deck and scrap counts stay, both of them, down to 45 columns (they dropped the scrap below 70)
    assert toolbar_text(s, 60) == " your turn │ you 7/21 · P2 3/21 │ deck 47 · scrap 0"
    for width in range(45, 120):
        bar = toolbar_text(s, width)
        assert len(bar) <= width and "47" in bar and "scrap" in bar, (width, bar)


def test_a_replay_toolbar_offers_the_replay_keys(tmp_path: Path) -> None:
    from repl.toolbar import toolbar_text

    game = Game.new(load_ruleset("default"), 5)
    play_out(game, lambda g: g.legal_moves()[0])
    save(game, tmp_path / "g.yaml")
    s, _ = session_at({"p1": {"hand": ["6D"]}, "p2": {"hand": ["5C"]}})
    s.handle(f"replay {tmp_path / 'g.yaml'}")
    for _ in ("at the start", "at the end"):
        bar = toolbar_text(s, 200)
        assert "Enter: next · prev · resume" in bar and "Tab: moves" not in bar and "undo" not in bar, bar
        assert "you " not in bar  # a replay names the seats
        s.handle(f"goto {len(s.replay.moves)}")


def test_scrap_lists_the_scrap_pile_and_hands_are_sorted() -> None:
    s, lines = session_at(
        {"p1": {"hand": ["KS", "3D", "AH", "10C", "3C"]}, "p2": {"hand": ["5C"]}, "scrap": ["9D", "2H"]}, vs="human"
    )
    s.handle("scrap")
    assert lines[-1] == "Scrap (2 cards, the top last): 9♦ 2♥"
    s.handle("show scrap")
    assert lines[-1] == "Scrap (2 cards, the top last): 9♦ 2♥"
    s.handle("show")
    assert "hand    A♥ 3♣ 3♦ 10♣ K♠" in "\n".join(lines[-4:])


def test_game_over_is_said_once_as_you_win_or_you_lose(pipe: PipeInput) -> None:
    from repl.toolbar import toolbar_text

    s, prompt, lines = make(pipe, seed=5)
    me = Bot(99)
    for _ in range(400):
        if s.game.outcome is not None:
            break
        n = len(lines)
        s.handle(str(me.choose(s.game)))
    ending = "\n".join(lines[n:])
    assert ending.count("Game over") == 1 and ending.count("wins") == 0
    assert ("You win" in ending) != ("You lose" in ending)
    assert "Tab: moves" not in toolbar_text(s) and "game over" in lines[n:][-2] + ending
    assert s.prompt_text() == "game over> "


def test_a_drawn_game_is_not_worded_like_drawing_a_card() -> None:
    s, lines = session_at(
        {"p1": {"hand": ["9C"]}, "p2": {"hand": ["5C"]}, "unplaced": "scrap"}, spec="published", vs="human"
    )
    for _ in range(3):
        s.handle("pass")
    text = "\n".join(lines)
    assert "Game over — Draw: 3 passes in a row end the game with no winner." in text
    assert "draw (" not in text and text.count("Game over") == 1


def test_save_and_scenario_refuse_a_planted_link_even_with_force(tmp_path: Path) -> None:
    """A dangling link at the save's place would carry the record out of the folder (issue 42.1)."""
    s, lines = session_at({"p1": {"hand": ["6D", "9C"]}, "p2": {"hand": ["5C", "7D"]}}, vs="human")
    outside = tmp_path / "outside" / "planted.yaml"
    outside.parent.mkdir()
    (tmp_path / "game.yaml").symlink_to(outside)
    s.handle("points 9C")
    for command in ("save", "save --force", "scenario --force", "scenario --here --force"):
        verb, *flags = command.split()
        s.handle(" ".join([verb, str(tmp_path / "game.yaml"), *flags]))
        assert lines[-1].startswith("error: ") and "symbolic link" in lines[-1], (command, lines[-1])
        assert not outside.exists() and (tmp_path / "game.yaml").is_symlink()


def test_save_refuses_another_games_file_and_quit_asks_once(tmp_path: Path) -> None:
    s, lines = session_at({"p1": {"hand": ["6D", "9C"]}, "p2": {"hand": ["5C", "7D"]}}, vs="human")
    other = tmp_path / "other.yaml"
    g = Game.new(load_ruleset("default"), 1)
    from interpreter.scripting import records

    records.save(g, other)
    before = other.read_text()
    s.handle("points 9C")
    s.handle(f"save {other}")
    assert lines[-1].startswith(f"error: {other} holds another game") and other.read_text() == before
    s.handle(f"save {other} --force")
    assert lines[-1].startswith("saved") and other.read_text() != before
    s.handle("points 7D")
    s.handle(f"save {other}")  # the same game, further on: no question
    assert lines[-1].startswith("saved 2 moves")
    s.handle("oneoff 6D")
    s.handle("quit")
    assert s.running and "1 move of this game is not saved" in lines[-1]
    s.handle("quit")
    assert not s.running


def test_quit_without_unsaved_moves_does_not_ask() -> None:
    s, lines = session_at({"p1": {"hand": ["6D", "9C"]}, "p2": {"hand": ["5C", "7D"]}}, vs="human")
    s.handle("quit")
    assert not s.running


def test_the_intro_names_the_familiar_rules_where_these_differ() -> None:
    from repl.app import intro

    s, _ = session_at({"p1": {"hand": ["6D"]}, "p2": {"hand": ["5C"]}})
    text = intro(s)
    assert "cuttle.cards; --ruleset cuttle-cards plays them" in text and "(--ruleset default+classic-2s)" in text
    assert "other rules that differ: when 3 passes in a row end the game; a card can be played; 9 (one-off)" in text
    s, _ = session_at({"p1": {"hand": ["6D"]}, "p2": {"hand": ["5C"]}}, spec="cuttle-cards")
    assert "cuttle.cards" not in intro(s)
    s, _ = session_at({"p1": {"hand": ["6D"]}, "p2": {"hand": ["5C"]}}, spec="cuttle-cards+twinned")
    assert "here, two cards of a rank played together" in intro(s) and "there," not in intro(s)


def test_the_jokers_narration_shuffles_then_draws() -> None:
    from interpreter.scripting.setup import build_position

    rules = load_ruleset("micro+jokers")
    setup = {
        "turn": "p1",
        "p1": {"hand": ["RJ", "AS", "2H", "3S"], "points": ["9S"]},
        "p2": {"hand": ["BJ", "4C", "6D", "JS", "QH", "KC", "9H", "10H", "10C"]},
        "scrap": ["9C", "9D", "2C", "3D"],
    }
    game = Game(rules, build_position(rules, setup, 1), 1, setup)
    game.play("oneoff RJ")
    before = game.view(1)
    game.play("resolve")
    line = Teller(1).tell(before, game.view(1), game.moves[-1])
    assert line.startswith("You let P1's RJ resolve: the scrap (2♣ 3♦ 9♣ 9♦) is shuffled into a new deck; P1 draws "), (
        line
    )


def test_every_command_is_documented_in_the_playing_guide() -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "playing.md").read_text(encoding="utf-8")
    missing = [name for name in REGISTRY.names() if f"`{name}" not in doc]
    assert not missing, f"docs/playing.md does not document: {missing}"


def test_scenario_export_keeps_turn_number_marks_and_counters(tmp_path) -> None:
    from interpreter.core.cards import parse_card
    from interpreter.scripting.setup import build_position
    from repl.export import setup_of

    (tmp_path / "h.yaml").write_text(
        "name: h\nkind: base\nextends: default\ncounters:\n  tally: {of: player}\n  uses: {of: card}\n",
        encoding="utf-8",
    )
    rules = load_ruleset(str(tmp_path / "h.yaml"))
    setup = {
        "turn": "p2",
        "turn_number": 6,
        "p1": {"hand": ["9S"], "marks": ["wronged"], "counters": {"tally": 2}},
        "p2": {"hand": ["3D"]},
        "cards": {"9S": {"marks": ["hot"], "counters": {"uses": 1}}},
    }
    state = build_position(rules, setup, 0)
    again = build_position(rules, setup_of(state), 0)
    assert (again.turn_no, again.marks.keys(), again.counters.keys()) == (6, state.marks.keys(), state.counters.keys())
    assert again.counter(-1, "tally") == 2 and again.counter(parse_card("9S"), "uses") == 1


def test_clear_and_ctrl_l_on_an_empty_line_redraw_the_board(pipe: PipeInput) -> None:
    s, prompt, lines = make(pipe, seed=3)
    cleared: list[bool] = []
    s.clear_screen = lambda: cleared.append(True)
    start = s.game.state.key()
    type_line(s, prompt, pipe, "clear")
    assert cleared == [True] and "── default · turn 1 · P1 to act" in lines[-2]  # the board, drawn again
    board_lines = len(lines)
    pipe.send_text("\x0c")  # Ctrl-L on an empty line: the `clear` command, not a wiped board
    line = prompt.prompt()
    assert line == "clear"
    s.handle(line)
    assert cleared == [True, True] and len(lines) > board_lines
    assert s.game.state.key() == start


class _Interrupted:
    """A bot whose thinking is cut short by Ctrl-C: `hurry` gives its best move so far."""

    def __init__(self, best: str | None) -> None:
        self.best = best

    def choose(self, game: Game) -> Move:
        raise KeyboardInterrupt

    def hurry(self, game: Game) -> Move | None:
        return next((m for m in game.legal_moves() if str(m) == self.best), None)


def test_ctrl_c_while_the_bot_thinks_plays_its_best_move_so_far() -> None:
    s, lines = session_at({"p1": {"hand": ["2C"]}, "p2": {"hand": ["7H", "3D"]}, "turn": "p2"})
    s.bot = _Interrupted("points 7H")  # type: ignore[assignment]
    s.advance()
    assert [str(m) for m in s.game.moves] == ["points 7H"]
    assert any("P2 is thinking… (Ctrl-C to hurry)" in x for x in lines)
    assert any("hurried: P2 plays its best move so far" in x for x in lines)


def test_ctrl_c_before_the_bot_has_a_move_plays_a_legal_one() -> None:
    s, lines = session_at({"p1": {"hand": ["2C"]}, "p2": {"hand": ["7H", "3D"]}, "turn": "p2"})
    s.bot = _Interrupted(None)  # type: ignore[assignment]
    s.advance()
    assert len(s.game.moves) == 1 and any("had no move in mind yet" in x for x in lines)


def test_ctrl_c_during_a_hint_drops_it_and_keeps_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    hint_module = importlib.import_module("interpreter.players.hint")  # (the package exports the function)

    def interrupted(*args: object, **kwargs: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(hint_module, "hint", interrupted)
    s, lines = session_at({"p1": {"hand": ["2C", "9D"]}, "p2": {"hand": ["7H"]}})
    before = s.game.state.key()
    s.cmd_hint()
    assert lines[-1] == "hint stopped" and s.game.state.key() == before and s.game.moves == []


def test_an_interrupted_ismcts_search_hurries_to_its_most_visited_move(monkeypatch: pytest.MonkeyPatch) -> None:
    from interpreter.players.ismcts import ISMCTS

    bot = ISMCTS(seed=3, iterations=10_000)
    calls = {"n": 0}
    real = bot._result

    def result(*args: object) -> float:
        calls["n"] += 1
        if calls["n"] > 200:  # Ctrl-C in the middle of the search
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(bot, "_result", result)
    game = Game.new(load_ruleset("default"), 4)
    with pytest.raises(KeyboardInterrupt):
        bot.choose(game)
    move = bot.hurry(game)
    assert move in game.legal_moves()
    visits = {m: e[0] for m, e in bot._root.items()}
    assert visits[move] == max(visits.values()) > 0


def test_the_game_over_screen_turns_both_hands_up_and_says_what_next() -> None:
    s, lines = session_at({"p1": {"hand": ["TH", "3C"], "points": ["9S", "2D"]}, "p2": {"hand": ["KD", "4S"]}})
    s.handle("points TH")  # 21 points: p1 wins
    text = "\n".join(lines)
    assert "Game over — You win" in text
    assert "Hands at the end: P1 (you) 3♣ · P2 4♠ K♦" in text  # the bot's hand, turned up, sorted
    assert "Score: P1 (you) 21/21 · P2 0/21 · after 1 turn (1 move)" in text
    assert "Next: new (another game), undo (take your move back), save FILE (keep it), quit" in text


def test_a_record_says_who_played_and_load_plays_on_against_the_same_opponent(tmp_path: Path) -> None:
    rules = load_ruleset("default")
    lines: list[str] = []
    s = Session(Game.new(rules, 3), "random", 0, out=lines.append)
    s.handle(str(s.game.legal_moves()[0]))
    s.handle(f"save {tmp_path / 'g.yaml'}")
    data = yaml.safe_load((tmp_path / "g.yaml").read_text(encoding="utf-8"))
    assert data["players"] == {"p1": "human", "p2": "random"} and len(data["saved"]) == 10
    other = Session(Game.new(rules, 9), "heuristic", 0, out=lines.append)
    other.handle(f"load {tmp_path / 'g.yaml'}")
    assert other.opponent == "random"
    assert any(x.startswith("loaded") and "against random as recorded" in x for x in lines)


def test_a_record_with_bad_players_is_refused(tmp_path: Path) -> None:
    from interpreter.core.errors import RecordError
    from interpreter.scripting import records

    game = Game.new(load_ruleset("default"), 1)
    records.save(game, tmp_path / "g.yaml", {"p1": "human", "p2": "random"})
    saved = (tmp_path / "g.yaml").read_text(encoding="utf-8")
    for bad in ("p3: [1, 2]", "p5: random", "opponent: random"):  # not a name; not a seat
        (tmp_path / "g.yaml").write_text(saved.replace("p2: random", bad), encoding="utf-8")
        with pytest.raises(RecordError, match=r"players must map seats \(p1, p2, ...\)"):
            records.read(tmp_path / "g.yaml")


def test_a_record_cannot_choose_an_opponent_with_options(tmp_path: Path) -> None:
    rules = load_ruleset("default")
    lines: list[str] = []
    s = Session(Game.new(rules, 3), "random", 0, out=lines.append)
    s.handle(f"save {tmp_path / 'g.yaml'}")
    path = tmp_path / "g.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("p2: random", "p2: ismcts?iterations=999999999"), "utf-8")
    other = Session(Game.new(rules, 9), "heuristic", 0, out=lines.append)
    other.handle(f"load {path}")
    assert other.opponent == "heuristic"  # a stranger's file does not pick a search that never ends
    assert any("is not a player here: heuristic plays on" in x for x in lines)


def test_a_move_whose_verb_is_also_a_command_can_be_typed() -> None:
    """The default game's 7 makes a player scrap one of two unplayable cards: `scrap JH` is that
    move, though `scrap` alone is the command that lists the scrap pile."""
    setup = {"p1": {"hand": ["7C", "9C"]}, "p2": {"hand": ["5C"]}, "deck": ["JH", "JD", "4H", "5H"]}
    s, lines = session_at(setup, vs="human")
    s.handle("oneoff 7C")
    s.handle("resolve")
    assert sorted(str(m) for m in s.game.legal_moves()) == ["scrap JD", "scrap JH"]
    assert problem("scrap JH", s.game.rules.verbs) is None
    s.handle("scrap")  # the command: the game does not move
    assert [str(m) for m in s.game.moves] == ["oneoff 7C", "resolve"]
    s.handle("scrap JH")
    assert [str(m) for m in s.game.moves] == ["oneoff 7C", "resolve", "scrap JH"]
    assert not any(line.startswith("error") for line in lines)


def test_tab_after_a_command_word_offers_the_moves_it_begins() -> None:
    setup = {"p1": {"hand": ["7C", "9C"]}, "p2": {"hand": ["5C"]}, "deck": ["JH", "JD", "4H", "5H"]}
    s, _ = session_at(setup, vs="human")
    s.handle("oneoff 7C")
    s.handle("resolve")
    assert sorted(x.text for x in complete("scrap ", CompletionContext.of(s))) == ["scrap JD", "scrap JH"]
    assert complete("undo ", CompletionContext.of(s)) == []


def test_scenario_here_writes_this_position_with_every_card_expected(tmp_path: Path) -> None:
    setup = {"p1": {"hand": ["6D", "9C"], "points": ["7H"]}, "p2": {"hand": ["5C"], "royals": ["QS"]}}
    s, lines = session_at(setup, vs="human")
    s.handle("oneoff 6D")  # p2 may answer: the 6 is on the stack, which a setup cannot hold
    path = tmp_path / "here.yaml"
    s.handle(f"scenario {path} --here")
    assert "`cuttle run" in lines[-1] and "passes" in lines[-1], lines[-1]
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert doc["setup"]["p1"]["hand"] == ["6D", "9C"] and doc["moves"] == ["oneoff 6D"]
    exp = doc["expect"]
    assert exp["p1"]["hand"] == ["9C"] and exp["p1"]["points"] == ["7H"] and exp["p2"]["royals"] == ["QS"]
    assert exp["stack"] == ["6D"] and exp["decider"] == "p2" and exp["decision"] == "respond"
    assert run_file(path).ok
    s.handle("resolve")  # nothing resolving now: the position itself is the setup
    s.handle(f"scenario {path} --here --force")  # (the file exists: written over only when forced)
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert "moves" not in doc and doc["setup"]["turn"] == "p2" and sorted(doc["setup"]["scrap"]) == ["6D", "QS"]
    assert doc["expect"]["p1"]["points"] == ["7H"] and run_file(path).ok
    s.handle(f"scenario {path} --hre")
    assert lines[-1].startswith("error") and "'--hre' is not --here nor --force" in lines[-1]


def test_moves_are_grouped_by_rule_sorted_and_say_what_they_do() -> None:
    setup = {
        "p1": {"hand": ["9C", "6D", "2H", "JD"], "points": ["3C"]},
        "p2": {"hand": ["5C"], "points": ["8H", "4D"], "royals": ["KS"]},
    }
    s, lines = session_at(setup, vs="human")
    s.handle("moves")
    out = lines[next(i for i, x in enumerate(lines) if "legal moves" in x) :]
    assert out[0] == "14 legal moves — your turn:"
    heads = [line.split(" — ")[0] for line in out[1:] if not line.startswith("    ")]
    assert heads == [
        "draw",
        "points",
        "scuttle",
        "jack",
        "oneoff (2)",
        "oneoff (6)",
        "oneoff (9)",
    ]  # the ruleset's order
    assert "    points 2H   points 6D   points 9C" in out  # each rule's moves in card order
    assert "    oneoff 9C 4D   oneoff 9C 8H   oneoff 9C KS" in out
    assert "oneoff (6) — Scrap every Jack in play, then scrap every Royal in play." in out
    assert sum(len(line.strip().split("   ")) for line in out if line.startswith("    ")) == len(s.game.legal_moves())


@pytest.mark.parametrize(("columns", "rule"), [(80, 80), (140, 100), (0, 60)])
def test_the_board_header_spans_the_terminal(columns: int, rule: int) -> None:
    s, lines = session_at({"p1": {"hand": ["6D"]}, "p2": {"hand": ["5C"]}}, vs="human", width=columns)
    s.handle("show")
    head = next(line for line in lines if line.startswith("── default")).splitlines()[0]
    assert len(head) == rule and head.endswith("─")


def test_a_counter_already_in_the_scrap_is_not_shown_as_on_the_stack() -> None:
    s, lines = session_at({"p1": {"hand": ["6D", "9C"]}, "p2": {"hand": ["2C", "5C"]}}, vs="human")
    s.handle("oneoff 6D")
    s.handle("counter 2C 5C")
    middle = next(line for line in "\n".join(lines[-4:]).splitlines() if "stack" in line)
    assert "stack oneoff 6♦  ←  counter 2♣ 5♣ (in the scrap)" in middle and "scrap 2" in middle


def test_the_welcome_comes_before_the_bots_first_move(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    import io

    from interpreter.cli import main as cli_main

    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert cli_main(["play", "--as", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    welcome = next(i for i, line in enumerate(out) if line.startswith("Cuttle Lab — ruleset default, seed 3"))
    first_move = next(i for i, line in enumerate(out) if line.startswith("P1 plays"))
    board = next(i for i, line in enumerate(out) if line.startswith("── default"))
    assert welcome < first_move < board


def test_a_result_has_one_wording_everywhere() -> None:
    from interpreter.engine.outcome import Outcome, Termination, goal_reached
    from repl.render import outcome_text

    won, drawn = goal_reached(0), Outcome(None, Termination.PASSES, "end.passes", points=(7, 7), count=3)
    assert str(won) == outcome_text(won) == "P1 wins: P1 reached the goal"
    assert outcome_text(won, you=0) == "You win: P1 reached the goal"
    assert outcome_text(won, you=1) == "You lose: P1 reached the goal"
    assert str(drawn) == outcome_text(drawn, you=0) == "Draw: 3 passes in a row: points 7-7"


def test_scenario_does_not_write_over_an_existing_file_unless_forced(tmp_path: Path) -> None:
    """`scenario FILE` once wrote over a saved game record without a word; it refuses as `save` does."""
    s, lines = session_at({"p1": {"hand": ["6D", "9C"]}, "p2": {"hand": ["5C", "7D"]}}, vs="human")
    record = tmp_path / "game.yaml"
    s.handle("points 9C")
    s.handle(f"save {record}")
    before = record.read_text()
    s.handle(f"scenario {record}")
    assert lines[-1] == f"error: {record} exists: 'scenario {record} --force' writes over it"
    assert record.read_text() == before
    s.handle(f"scenario {record} --here --force")
    assert lines[-1].startswith(f"wrote {record}: this position") and record.read_text() != before
    s.handle(f"scenario {record} --now")
    assert "is not --here nor --force" in lines[-1]


def test_new_and_load_ask_once_before_leaving_unsaved_moves(tmp_path: Path) -> None:
    s, lines = session_at({"p1": {"hand": ["6D", "9C"]}, "p2": {"hand": ["5C", "7D"]}}, vs="human")
    record = tmp_path / "other.yaml"
    from interpreter.scripting import records

    records.save(Game.new(load_ruleset("default"), 1), record)
    s.handle("points 9C")
    moves = list(s.game.moves)
    s.handle("new 5")
    assert "1 move of this game is not saved: save FILE to keep them, or new again to leave them" in lines[-1]
    assert list(s.game.moves) == moves
    s.handle(f"load {record}")  # another command: asked again
    assert "or load again to leave them" in lines[-1] and list(s.game.moves) == moves
    s.handle(f"load {record}")
    assert s.game.seed == 1 and not s.game.moves
    s.handle("new 5")  # nothing unsaved now: no question
    assert s.game.seed == 5


# -- details a player meets (issue 45 item 6) ------------------------------------------------------


def test_at_game_over_the_board_turns_the_opponents_hand_up_and_hands_are_sorted() -> None:
    s, lines = session_at(
        {"p1": {"hand": ["KS", "3D", "AH", "10C"], "points": ["10H", "9H"]}, "p2": {"hand": ["5C", "2H", "QD"]}},
        vs="human",
    )
    s.handle("points 3D")  # 22 points: P1 wins
    text = "\n".join(lines)
    assert "hidden" not in text.split("Game over")[0].split("── default")[-1]  # the last board
    assert "hand    2♥ 5♣ Q♦  (the game is over)" in text
    assert "Hands at the end: P1 A♥ 10♣ K♠ · P2 2♥ 5♣ Q♦" in text


def test_an_empty_hidden_hand_reads_empty() -> None:
    s, lines = session_at({"p1": {"hand": ["3D"]}, "p2": {"hand": []}})
    s.show()
    assert "hand    empty" in "\n".join(lines) and "0 cards, hidden" not in "\n".join(lines)


def test_tab_offers_the_moves_in_the_order_moves_lists_them() -> None:
    s, lines = session_at({"p1": {"hand": ["9C", "6D", "2H", "JC"]}, "p2": {"hand": ["5C"], "points": ["7S"]}})
    s.handle("moves")
    listed = [m for ln in lines[1:] if ln.startswith("    ") for m in ln.split("   ") if m.strip()]
    offered = [x.text for x in complete("", CompletionContext.of(s)) if x.text in {m.strip() for m in listed}]
    assert offered == [m.strip() for m in listed]


def test_a_draw_seen_by_the_opponent_is_told_in_the_order_it_happened() -> None:
    from interpreter.scripting.setup import build_position

    rules = load_ruleset("default")
    setup = {"p1": {"hand": ["9C"]}, "p2": {"hand": ["4H"], "royals": ["8S"]}, "deck": ["KH"]}
    game = Game(rules, build_position(rules, setup, 0))
    before = game.view(0)
    game.play("draw")
    line = Teller(0, Painter(False)).tell(before, game.view(0), game.moves[-1])
    assert line == "You draw K♥: P2 sees your K♥"  # was "You draw: P2 sees your K♥; you draw K♥"


def test_moves_says_what_glasses_and_kings_count_in() -> None:
    s, lines = session_at({"p1": {"hand": ["8C", "KD"]}, "p2": {"hand": ["5C"]}})
    s.handle("moves")
    text = "\n".join(lines)
    assert "An 8 played this way counts in what you can see: you see your opponent's hand when the deck is" in text
    assert "A King played this way counts in your goal: 21 with no King in front of you, 14 with 1" in text


def test_an_exported_position_is_named_after_the_position_exported(tmp_path: Path) -> None:
    s, _ = session_at({"p1": {"hand": ["6D", "9C"]}, "p2": {"hand": ["5C", "2D", "7S"]}}, vs="human")
    s.handle("oneoff 6D")  # p2 may answer: the setup is the start of p1's turn
    s.handle(f"scenario {tmp_path / 'here.yaml'} --here")
    doc = yaml.safe_load((tmp_path / "here.yaml").read_text(encoding="utf-8"))
    assert doc["name"] == "default: the position of turn 1, p2 to answer the play"


def test_the_intro_says_which_evaluation_a_learning_bot_plays_with() -> None:
    from repl.app import intro

    s, _ = session_at({"p1": {"hand": ["6D"]}, "p2": {"hand": ["5C"]}}, vs="sharp?weights=default")
    assert "The bot plays with the hand-set evaluation (weights=default)." in intro(s)
    s, _ = session_at({"p1": {"hand": ["6D"]}, "p2": {"hand": ["5C"]}}, vs="ismcts")
    assert "The bot plays with the " in intro(s) and "evaluation" in intro(s)
    s, _ = session_at({"p1": {"hand": ["6D"]}, "p2": {"hand": ["5C"]}})  # the heuristic bot learns nothing
    assert "The bot plays with" not in intro(s)


def test_tab_shows_each_move_as_the_board_writes_it_beside_it() -> None:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from repl.completion import SessionCompleter

    s, _ = session_at({"p1": {"hand": ["7H", "10S"]}, "p2": {"hand": ["3C"]}})
    found = list(SessionCompleter(s).get_completions(Document("po"), CompleteEvent()))
    assert [(c.text, c.display_meta_text) for c in found] == [("points 7H", "points 7♥"), ("points 10S", "points 10♠")]


def test_the_board_draws_an_empty_side_with_dashes_and_names_revealed_cards() -> None:
    s, lines = session_at({"p1": {"hand": ["7H", "10S"]}, "p2": {"hand": ["3C"]}, "deck": ["9D", "4C"]})
    s.show()
    rows = [line.strip() for line in "\n".join(lines).splitlines()]
    assert [row for row in rows if row.startswith("points")] == ["points  —", "points  —"]
    s.handle("oneoff 7H")  # (p2 cannot counter) the 7 reveals the deck's top card to play
    del lines[:]
    s.show()
    middle = next(line for line in "\n".join(lines).splitlines() if line.startswith(" ··· deck"))
    assert middle.endswith("scrap 0   revealed 9♦ 4♣   stack 7♥"), middle


def test_rules_lists_the_plays_from_the_ruleset_when_its_page_cannot_be_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import interpreter.rules.page as page

    monkeypatch.setattr(page, "rules_page", lambda rules: 1 / 0)
    s, lines = session_at({"p1": {"hand": ["7H"]}})
    s.handle("rules")
    text = "\n".join(lines)
    assert text.startswith("Ruleset default") and "\n  scuttle  A, 2, 3, 4, 5, 6, 7, 8, 9, 10" in text, text
    assert "\n  counter  2: answers oneoff, royal, jack, counter" in text, text


def test_explain_says_legal_or_not_even_when_the_engine_cannot_say_why(monkeypatch: pytest.MonkeyPatch) -> None:
    s, lines = session_at({"p1": {"hand": ["7H"]}, "p2": {"hand": ["3C"]}})
    monkeypatch.setattr(type(s.game), "explain", lambda game, move: 1 / 0)
    s.handle("explain points 7H")
    s.handle("explain points 3C")
    assert lines[-2:] == [
        "'points 7H' is legal",
        "'points 3C' is not legal now, but the engine could not say why ('moves' lists the legal moves)",
    ]


def test_a_house_rule_in_another_folder_plays_new_games_and_exports_from_a_record_or_a_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A house rule in `sub/`, the folder you work in above it: a game of it exported to `sub/` names it
    `house.yaml` (from the scenario's folder); and after `load` of a record there (which names it so,
    from its own folder), `new` deals a new game of that rule."""
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "house.yaml").write_text("name: house\nextends: default\nconstants: {hand_limit: 7}\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    lines: list[str] = []
    s = Session(Game.new(load_ruleset("sub/house.yaml"), 3), "random", 0, ruleset="sub/house.yaml", out=lines.append)
    s.handle("scenario sub/here.yaml --here")
    assert "\nruleset: house.yaml\n" in (sub / "here.yaml").read_text(encoding="utf-8"), lines
    assert run_file(sub / "here.yaml").ok
    s.handle("save sub/g.yaml")
    assert "\nruleset: house.yaml\n" in (sub / "g.yaml").read_text(encoding="utf-8")
    other = Session(Game.new(load_ruleset("default"), 1), "random", 0, out=lines.append)
    other.handle("load sub/g.yaml")
    other.handle("new 5")
    assert (other.game.rules.name, other.game.seed) == ("house", 5), lines
