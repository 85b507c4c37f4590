"""`cuttle play`: the prompt_toolkit application around a Session.

The prompt has completion of the legal moves and commands, a bottom toolbar, persistent history,
and the key bindings of keys.py. Every line is handed to the Session, which answers a bad one with
one error line. When the input is not a terminal (a script piped in), lines are read plainly and fed
to the same Session.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from typing import Any, TextIO

from prompt_toolkit import PromptSession
from prompt_toolkit.history import History
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from interpreter import CuttleError, Game, load_ruleset
from interpreter.core.terminal import page, say, terminal_width
from interpreter.players.registry import make_player

from .completion import SessionCompleter
from .history import SeatHistory
from .keys import make_key_bindings
from .render import player_label, use_color
from .session import CANCEL, QUIT, SHOW, Session
from .toolbar import toolbar_text
from .wrap import wrap


def build_prompt(
    session: Session, input: Input | None = None, output: Output | None = None, history: History | None = None
) -> PromptSession[str]:
    """The prompt. A line is always accepted: a malformed or illegal one is answered by one error
    line and the prompt comes back empty (Up recalls the line to fix it), so input never glues. In
    hot-seat each seat has a history of its own (`SeatHistory`), never the history file's."""
    if history is None:
        history = SeatHistory(lambda: session.viewer if session.vs == "human" and session.replay is None else None)
    return PromptSession(
        message=lambda: session.prompt_text(),
        completer=SessionCompleter(session),
        complete_while_typing=True,
        bottom_toolbar=lambda: toolbar_text(session),
        history=history,
        key_bindings=make_key_bindings(),
        input=input,
        output=output,
    )


def _clear_screen(prompt: PromptSession[str]) -> None:
    """Wipe the terminal the prompt draws on, the cursor home (the `clear` command, Ctrl-L)."""
    out = prompt.app.output
    out.erase_screen()
    out.cursor_goto(0, 0)
    out.flush()


def run(session: Session, prompt: PromptSession[str]) -> int:
    """Read and handle lines until quit or Ctrl-D (which asks once when moves are unsaved)."""
    session.clear_screen = lambda: _clear_screen(prompt)
    while session.running:
        try:
            line = prompt.prompt()
        except KeyboardInterrupt:  # Ctrl-C outside our binding (e.g. while a menu is open)
            continue
        except EOFError:
            session.request_quit()
            continue
        session.handle(line)
    session.say("bye")
    return 0


def run_plain(session: Session, stream: TextIO) -> int:
    """The same loop for input that is not a terminal: each line is echoed after its prompt. The
    end of the input ends the session (saying so when moves are unsaved)."""
    for line in stream:
        session.say(session.prompt_text() + line.rstrip("\n"))
        session.handle(line)
        if not session.running:
            break
    else:
        n = session.unsaved()
        if n:
            session.say(f"(the input ended: {n} move{'s' if n != 1 else ''} not saved)")
    session.say("bye")
    return 0


def new_session(args: Any, out: Any = None, color: bool | None = None) -> Session:
    vs = getattr(args, "vs", "bot") or "bot"
    human = int(getattr(args, "as_player", "1") or "1") - 1
    color = use_color() if color is None else color
    source = getattr(args, "from_file", None)
    if source is not None:  # a position to play on from: a scenario or a saved game
        from interpreter.scripting.scenario import load_position

        game, what = load_position(source)
        seats = seat_players(game.rules.seats, vs, human)
        session = Session(game, vs, human, ruleset=game.rules.spec, color=color, out=out, seats=seats)
        session.started_from = f"from {source}, {what}"
        return session
    seed = args.seed if getattr(args, "seed", None) is not None else random.randrange(1_000_000)
    spec = getattr(args, "ruleset", None) or "default"
    game = Game.new(load_ruleset(spec), seed)
    seats = seat_players(game.rules.seats, vs, human)
    return Session(game, vs, human, ruleset=spec, color=color, out=out, seats=seats)


def seat_players(n: int, vs: str, human: int) -> list[str] | None:
    """Who plays each seat of a table of `n`: you at `human`, and `vs` at the others — one name for
    all of them, or a comma-separated list naming each in seat order (`--vs sharp,human,random`), a
    `human` seat being played hot-seat. None for a two-seat game of one name (the session's own)."""
    if human >= n:
        raise CuttleError(f"--as {human + 1}: this ruleset seats {n} players (--as 1 to {n})")
    names = [x.strip() for x in vs.split(",")]
    if len(names) == 1:
        return None if n == 2 else ["human" if p == human or vs == "human" else vs for p in range(n)]
    if len(names) != n - 1:
        raise CuttleError(f"--vs: name one player for all the other seats, or one for each of the {n - 1} others")
    others = iter(names)
    return ["human" if p == human else next(others) for p in range(n)]


def intro(session: Session) -> str:
    g = session.game
    who = (
        f"you are {player_label(session.human)} against the bot ({session.opponent})"
        if session.vs == "bot" and len(session.seats) == 2
        else "hot-seat: each player sees their own view in turn"
    )
    if len(session.seats) > 2:  # a larger table: who plays each seat
        played = ", ".join(
            f"{player_label(p)} {'you' if s == 'human' and session.vs == 'bot' else s}"
            for p, s in enumerate(session.seats)
        )
        who = (f"you are {player_label(session.human)}; " if session.vs == "bot" else who + "; ") + played
    start = f"; {session.started_from}" if session.started_from else ""
    text = (
        f"Cuttle Lab — ruleset {session.ruleset}, seed {g.seed}{start}; {who}.{opponent_note(session)}\n"
        "Type a move (Tab offers the legal ones) or a command: help, moves, explain MOVE, undo, "
        "save FILE, quit."
    )
    return text + familiar_note(g.rules)


def opponent_note(session: Session) -> str:
    """Which evaluation the bot plays with, for a player that learns (sharp, ismcts)."""
    if session.opponent is None:
        return ""
    note = getattr(make_player(session.opponent), "evaluation_note", None)
    return f"\nThe bot plays with {note(session.game.rules)}." if note is not None else ""


def familiar_note(rules: Any) -> str:
    """A line for the start of a game whose rules differ from those most online players know."""
    from interpreter.rules.page import FAMILIAR, familiar_differences

    if rules.seats > 2:  # (cuttle.cards hosts two players only)
        return ""
    found = familiar_differences(rules)
    if not found:
        return ""
    house = f"A house rule on {found.base}" if found.base is not None else ""
    if house and not (found.there or found.here or found.lines):
        return f"\n{house}, the rules most online players know (cuttle.cards)."

    def low(text: str) -> str:
        return (text[:1].lower() + text[1:] if not text[1:2].isupper() else text).rstrip(".")

    parts = [f"there, {low(desc)} (--ruleset {spec})" for _, desc, spec in found.there]
    parts += [f"here, {low(desc)} ({opt})" for opt, desc in found.here]
    topics = found.topics()
    if topics:
        parts.append(("other rules that differ: " if parts else "the rules differ on: ") + "; ".join(topics))
    return (
        f"\n{house + ', not' if house else 'Not'} the rules most online players know (cuttle.cards; "
        f"--ruleset {FAMILIAR} plays them) — " + "; ".join(parts) + ". 'rules' says how they differ."
    )


def begin(session: Session) -> None:
    """The start of a game: the welcome first, then the bot's opening moves if it moves first (told
    as they are played), then the board; in hot-seat, the welcome follows the first hand-over."""
    if session.vs == "bot":
        session.say(intro(session))
        session.advance()
        session.start()
    else:
        session.advance()
        session.start(intro(session))


def main(args: argparse.Namespace) -> int:
    session = new_session(args)
    session.width = terminal_width
    session.pager = page
    plain = not sys.stdin.isatty()
    if session.vs == "human" and not plain:
        session.handover = seat_handover(session)
    begin(session)
    if plain:
        return run_plain(session, sys.stdin)
    if not session.running:
        session.say("bye")
        return 0
    return run(session, build_prompt(session))


def replay_main(args: argparse.Namespace) -> int:
    """`cuttle replay FILE`: step through a record in the REPL (next, prev, goto N, resume)."""
    from interpreter.scripting import records

    data = records.read(args.file)
    game = records.start(data, args.file, args.force)
    view = getattr(args, "view", None)
    human = int(view) - 1 if view is not None and view.isdigit() and int(view) <= game.rules.seats else 0
    session = Session(game, "bot", human, ruleset=str(data["ruleset"]), color=use_color(), width=terminal_width)
    session.pager = page
    session.cmd_replay(args.file, force=args.force, view=view)
    if not sys.stdin.isatty():
        return run_plain(session, sys.stdin)
    return run(session, build_prompt(session))


def print_replay(args: argparse.Namespace) -> int:
    """`cuttle replay FILE --print`: every move told from the chosen side, then the final board."""
    from interpreter.scripting import records

    game = records.start(records.read(args.file), args.file, args.force)  # (at the record's own table)
    session = Session(game, "bot", 0, color=use_color(), width=terminal_width)
    session.cmd_replay(args.file, force=args.force, view=getattr(args, "view", None), quiet=True)
    replay = session.replay
    assert replay is not None
    try:
        session.cmd_goto(len(replay.moves), quiet=True)
    except CuttleError as e:
        say(f"cuttle replay: {e}", err=True)
        return 1
    session.cmd_log(outcome=False)
    session.show()
    return 0


def seat_handover(
    session: Session, input: Input | None = None, output: Output | None = None
) -> Callable[[int | None, int, bool], str]:
    """The hand-over of a hot-seat session at a terminal: it says what the next seat is asked."""
    return lambda previous, nxt, can_cancel: terminal_handover(
        previous, nxt, can_cancel, input, output, asked=session.asked(nxt)
    )


def terminal_handover(
    previous: int | None,
    nxt: int,
    can_cancel: bool,
    input: Input | None = None,
    output: Output | None = None,
    asked: str = "to play",
) -> str:
    """Hot-seat: wipe the screen and its scrollback, so that the next player sees nothing of the
    previous player's hand, and wait until they are at the keyboard. Enter shows their view (SHOW);
    Ctrl-C takes the previous player's move back (CANCEL); Ctrl-D quits (QUIT). Neither Ctrl-C nor
    Ctrl-D shows the next hand."""
    from prompt_toolkit import PromptSession as Prompt
    from prompt_toolkit.output import create_output

    out = output or create_output()
    out.erase_screen()
    out.cursor_goto(0, 0)
    out.write_raw("\033[3J")  # the scrollback too
    out.flush()
    me = player_label(nxt)
    other = "everyone else" if previous is None else player_label(previous)
    can_cancel = can_cancel and previous is not None
    keys = f"Ctrl-C takes back {player_label(previous or 0)}'s move; Ctrl-D quits" if can_cancel else "Ctrl-D quits"
    text = wrap(f"{me} {asked}. {other}, look away; {me}, press Enter.\n({keys}) ", out.get_size().columns)
    prompt: Prompt[str] = Prompt(input=input, output=out)
    try:
        prompt.prompt(text)
    except KeyboardInterrupt:
        return CANCEL
    except EOFError:
        return QUIT
    return SHOW
