"""`cuttle play`: the prompt_toolkit application around a Session.

The prompt has completion of the legal moves and commands, a validator that stops a malformed line
before it is sent, a bottom toolbar, persistent history, and the key bindings of keys.py. When the
input is not a terminal (a script piped in), lines are read plainly and fed to the same Session.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any, TextIO

from prompt_toolkit import PromptSession
from prompt_toolkit.history import History
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from interpreter import Game, load_ruleset

from .completion import SessionCompleter
from .history import make_history
from .keys import make_key_bindings
from .render import player_label, use_color
from .session import Session
from .toolbar import toolbar_text
from .validation import LineValidator


def build_prompt(session: Session, input: Input | None = None, output: Output | None = None,
                 history: History | None = None) -> PromptSession[str]:
    return PromptSession(
        message=lambda: session.prompt_text(),
        completer=SessionCompleter(session),
        complete_while_typing=True,
        validator=LineValidator(lambda: session.game.rules.verbs),
        validate_while_typing=False,
        bottom_toolbar=lambda: toolbar_text(session),
        history=history if history is not None else make_history(),
        key_bindings=make_key_bindings(),
        input=input,
        output=output,
    )


def run(session: Session, prompt: PromptSession[str]) -> int:
    """Read and handle lines until quit or Ctrl-D."""
    while session.running:
        try:
            line = prompt.prompt()
        except KeyboardInterrupt:  # Ctrl-C outside our binding (e.g. while a menu is open)
            continue
        except EOFError:
            break
        session.handle(line)
    session.say("bye")
    return 0


def run_plain(session: Session, stream: TextIO) -> int:
    """The same loop for input that is not a terminal: each line is echoed after its prompt."""
    for line in stream:
        session.say(session.prompt_text() + line.rstrip("\n"))
        session.handle(line)
        if not session.running:
            break
    session.say("bye")
    return 0


def new_session(args: Any, out: Any = print, color: bool | None = None) -> Session:
    seed = args.seed if getattr(args, "seed", None) is not None else random.randrange(1_000_000)
    spec = getattr(args, "ruleset", None) or "default"
    game = Game.new(load_ruleset(spec), seed)
    vs = getattr(args, "vs", "bot") or "bot"
    human = int(getattr(args, "as_player", "1") or "1") - 1
    return Session(game, vs, human, ruleset=spec, color=use_color() if color is None else color, out=out)


def intro(session: Session) -> str:
    g = session.game
    who = (f"you are {player_label(session.human)} against the bot ({session.opponent})" if session.vs == "bot"
           else "hot-seat: each player sees their own view in turn")
    return (f"Cuttle Lab — ruleset {session.ruleset}, seed {g.seed}; {who}.\n"
            "Type a move (Tab completes the legal ones) or a command: help, moves, explain MOVE, undo, "
            "save FILE, quit.")


def main(args: argparse.Namespace) -> int:
    session = new_session(args)
    session.say(intro(session))
    session.advance()
    session.show()
    if not sys.stdin.isatty():
        return run_plain(session, sys.stdin)
    if session.vs == "human":
        session.handover = terminal_handover
    return run(session, build_prompt(session))


def terminal_handover(previous: int, nxt: int) -> None:
    """Hot-seat: wipe the screen and its scrollback, so that the next player sees nothing of the
    previous player's hand, and wait until they are at the keyboard."""
    from prompt_toolkit import prompt
    from prompt_toolkit.shortcuts import clear

    clear()
    sys.stdout.write("\033[3J")  # the scrollback too
    sys.stdout.flush()
    try:
        prompt(f"{player_label(nxt)} to play. {player_label(previous)}, look away; "
               f"{player_label(nxt)}, press Enter. ")
    except (EOFError, KeyboardInterrupt):
        pass
