"""Hot-seat in the REPL: each player sees only their own view, after a hand-over; the next player is
told every move they missed; Ctrl-C at a hand-over takes the move back and Ctrl-D quits, neither
showing the next hand; undo takes back the undoer's own last move."""

from __future__ import annotations

from interpreter import Game, load_ruleset
from interpreter.scripting.setup import build_position
from repl.render import Painter
from repl.session import CANCEL, QUIT, SHOW, Session


def hot_seat(setup: dict | None = None, seed: int = 3) -> tuple[Session, list[str]]:
    rules = load_ruleset("default")
    game = Game.new(rules, seed) if setup is None else Game(rules, build_position(rules, setup, 0), 0, setup)
    lines: list[str] = []
    return Session(game, "human", 0, ruleset="default", out=lines.append), lines


class Handovers:
    """A scripted hand-over prompt: records each call and the output so far, answers in turn."""

    def __init__(self, lines: list[str], *answers: str) -> None:
        self.lines, self.answers, self.calls = lines, list(answers), []

    def __call__(self, previous: int | None, nxt: int, can_cancel: bool) -> str:
        self.calls.append((previous, nxt, can_cancel, len(self.lines)))
        return self.answers.pop(0) if self.answers else SHOW


def hand_symbols(game: Game, player: int) -> list[str]:
    return [Painter(False).card(c) for c in game.view(player).hand]


def test_each_player_sees_their_own_view_in_turn() -> None:
    s, lines = hot_seat()
    s.handle("points 10C")
    assert s.viewer == 1
    assert any("P2's view (P1, look away)" in line for line in lines)
    assert "You (P2)" in lines[-2]


def test_a_hand_over_comes_before_the_first_hand_too() -> None:
    s, lines = hot_seat()
    h = Handovers(lines)
    s.handover = h
    s.start()
    assert h.calls == [(None, 0, False, 0)]  # before anything is printed
    assert "You (P1)" in "\n".join(lines)


def test_the_next_player_is_told_every_move_since_they_last_saw_the_board() -> None:
    s, lines = hot_seat(
        {"p1": {"hand": ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C"]}, "p2": {"hand": ["9D"]}, "deck": ["KH", "QH"]}
    )
    h = Handovers(lines)
    s.handover = h
    s.handle("draw")  # 9 cards: P1 must discard one, still P1's decision
    assert h.calls == []
    s.handle("discard 3C")
    assert [c[:3] for c in h.calls] == [(0, 1, True)]
    told = lines[h.calls[0][3] :]
    assert told[0] == "P1 draws 1 card" and told[1] == "P1 discards 3♣"


def test_ctrl_c_at_the_hand_over_takes_the_move_back_without_showing_the_next_hand() -> None:
    s, lines = hot_seat()
    s.start()
    secret = hand_symbols(s.game, 1)
    h = Handovers(lines, CANCEL, SHOW)
    s.handover = h
    n = len(lines)
    s.handle("points 10C")
    assert [c[:3] for c in h.calls] == [(0, 1, True), (None, 0, False)]  # handed back to P1
    assert s.game.moves == [] and s.viewer == 0
    shown = "\n".join(lines[n:])
    assert "taken back: points 10♣" in shown and "You (P1)" in shown
    assert not any(card in shown for card in secret)


def test_ctrl_d_at_the_hand_over_quits_without_showing_the_next_hand() -> None:
    s, lines = hot_seat()
    s.start()
    secret = hand_symbols(s.game, 1)
    h = Handovers(lines, QUIT, QUIT)
    s.handover = h
    n = len(lines)
    s.handle("points 10C")
    assert not s.running
    shown = "\n".join(lines[n:])
    assert "not saved" in shown  # asked once (a move is unsaved), then quit at the second Ctrl-D
    assert not any(card in shown for card in secret) and "You (P2)" not in shown


def test_the_terminal_hand_over_reads_enter_ctrl_c_and_ctrl_d() -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from repl.app import terminal_handover

    for keys, answer in (("\r", SHOW), ("\x03", CANCEL), ("\x04", QUIT)):
        with create_pipe_input() as pipe:
            pipe.send_text(keys)
            assert terminal_handover(0, 1, True, input=pipe, output=DummyOutput()) == answer


def test_undo_takes_back_the_undoers_own_last_move() -> None:
    s, lines = hot_seat()
    h = Handovers(lines)
    s.handover = h
    s.handle("points 10C")  # P1
    assert s.viewer == 1
    s.handle("undo")  # P2 has not moved: nothing of theirs to take back
    assert lines[-1] == "error: nothing of yours to undo (P2 has not moved yet)" and len(s.game.moves) == 1
    s.handle("points 9S")  # P2
    s.handle("undo")  # P1: their 10♣ and P2's answer since
    assert s.game.moves == [] and s.viewer == 0
    assert len(h.calls) == 2  # no hand-over: it is the undoer's decision again
    s.handle("points 10C")
    told = lines[h.calls[-1][3] :]
    assert told[:2] == ["P1 took back 2 moves, yours among them", "P1 plays 10♣ for points"]  # the move since


def test_each_seat_has_its_own_input_history_and_none_reaches_the_other(tmp_path, monkeypatch) -> None:
    """Up and Ctrl-R at P2's prompt never bring back what P1 typed (`explain scuttle 9S 10C` would tell
    P2 that P1 holds the 9♠), and nothing typed in hot-seat goes to the history file."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from repl.app import build_prompt

    monkeypatch.setenv("CUTTLE_HISTORY", str(tmp_path / "history"))
    s, lines = hot_seat()
    s.start()

    def typed(pipe, prompt, keys: str) -> str:
        pipe.send_text(keys)
        line = prompt.prompt()
        s.handle(line)
        return line

    up, search = "\x1b[A", "\x12"  # the Up arrow; Ctrl-R (search backwards)
    with create_pipe_input() as pipe:
        prompt = build_prompt(s, input=pipe, output=DummyOutput())  # the history the REPL makes itself
        assert typed(pipe, prompt, "explain scuttle 9S 10C\r") == "explain scuttle 9S 10C"
        assert typed(pipe, prompt, "points 10C\r") == "points 10C" and s.viewer == 1
        # P2 at the keyboard: Up finds nothing, Ctrl-R (Enter ends the search, Enter again sends) neither
        assert typed(pipe, prompt, up + "\r") == ""
        assert typed(pipe, prompt, search + "explain\r\r") == ""
        assert typed(pipe, prompt, "moves\r") == "moves"
        assert typed(pipe, prompt, "points 9S\r") == "points 9S" and s.viewer == 0
        # back to P1: their own lines, none of P2's
        assert typed(pipe, prompt, search + "explain\r\r") == "explain scuttle 9S 10C"
        assert typed(pipe, prompt, search + "moves\r\r") == ""
        assert typed(pipe, prompt, up + up + "\r") == "points 10C"
    history = tmp_path / "history"
    assert not history.exists() or history.read_text() == ""


def test_the_hand_over_says_what_the_next_seat_is_asked() -> None:
    """'P2 to play' only when P2 is to play: else what P2 must answer or choose (issue 45, left over)."""
    import io
    import re

    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output.vt100 import Vt100_Output

    from repl.app import seat_handover

    def asked(p2: dict, *lines: str) -> list[str]:
        s, _ = hot_seat({"p1": {"hand": ["4C", "9H"], "points": ["10H"]}, "p2": p2})
        shown: list[str] = []

        def screen(previous: int | None, nxt: int, can_cancel: bool) -> str:
            text = io.StringIO()
            with create_pipe_input() as pipe:
                pipe.send_text("\r")
                out = Vt100_Output(text, lambda: Size(rows=24, columns=200))
                answer = seat_handover(s, pipe, out)(previous, nxt, can_cancel)
            plain = re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", text.getvalue())
            shown.extend(dict.fromkeys(re.findall(r"P\d [^.]*\.", plain)))  # (the prompt is drawn more than once)
            return answer

        s.handover = screen
        s.start()
        for line in lines:
            s.handle(line)
        return shown

    assert asked({"hand": ["2C", "5S", "7S"]}, "oneoff 4C", "resolve", "discard 5S 7S", "points 2C", "offer") == [
        "P1 to play.",
        "P2 to answer the oneoff: counter it or let it resolve.",  # (P2 resolves, discards and plays: no hand-over)
        "P1 to play.",
        "P2 to answer P1's draw offer.",
    ]
    assert asked({"hand": ["2C", "5S", "7S"]}, "oneoff 4C", "counter 2C 5S")[2:] == [
        "P1 to answer the counter: counter it or let it resolve."
    ]
    s, _ = hot_seat({"p1": {"hand": ["4C", "9H"]}, "p2": {"hand": ["2C", "5S", "7S"]}})
    s.handle("oneoff 4C")
    s.handle("resolve")
    assert s.asked(1) == "to discard 2 cards" and s.asked(0) == "to discard 2 cards"  # (what both may see)


def test_the_welcome_says_hot_seat_or_names_the_bot() -> None:
    from repl.app import intro

    s, _ = hot_seat()
    assert "; hot-seat: each player sees their own view in turn." in intro(s) and "bot" not in intro(s)
    bot = Session(Game.new(load_ruleset("default"), 3), "bot", 1, ruleset="default", out=lambda line: None)
    assert "; you are P2 against the bot (heuristic)." in intro(bot) and "hot-seat" not in intro(bot)
