"""The REPL's commands, each declared once: its name, arguments and help (from which `help`,
completion and validation are generated) and a handler that calls the session."""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.core.ceilings import whole
from interpreter.core.limits import MAX_SCENARIO_STEPS, MAX_SEED

from .errors import CommandError
from .registry import FILE, INT, MOVE, PLAY, REGISTRY, REPLAY, RULESET, WORD, Arg, command

if TYPE_CHECKING:
    from .session import Session

# -- the commands ---------------------------------------------------------------------------------
# Each handler raises CommandError (or a CuttleError) for a bad request; the session prints its
# first line and nothing changes.


@command("moves", help="list the legal moves of the moment", only=PLAY)
def _moves(s: Session, args: list[str]) -> None:
    s.cmd_moves()


@command("explain", Arg("MOVE", MOVE), help="say why a move is illegal now (the rule that forbids it)", rest=True)
def _explain(s: Session, args: list[str]) -> None:
    s.cmd_explain(" ".join(args))


@command(
    "hint", help="a suggested move: solved exactly when nothing is hidden, else ISMCTS's pick and win rate", only=PLAY
)
def _hint(s: Session, args: list[str]) -> None:
    s.cmd_hint()


@command(
    "undo",
    help="take back your last move and every move played after it (the bot's answers; in hot-seat, the other player's)",
    only=PLAY,
)
def _undo(s: Session, args: list[str]) -> None:
    s.cmd_undo()


@command("redo", help="play again the moves taken back by undo", only=PLAY)
def _redo(s: Session, args: list[str]) -> None:
    s.cmd_redo()


@command("resign", help="resign: the other player wins the game (asks once first)", only=PLAY)
def _resign(s: Session, args: list[str]) -> None:
    s.cmd_resign()


@command(
    "offer",
    Arg("draw", WORD, optional=True),
    help="offer a draw: the bot accepts or refuses at once; in hot-seat the other player answers",
    only=PLAY,
)
def _offer(s: Session, args: list[str]) -> None:
    if args and args[0] != "draw":
        raise CommandError(f"'offer {args[0]}': only a draw can be offered: usage: offer [draw]")
    s.cmd_offer()


@command("accept", help="hot-seat: accept the draw the other player offers (the game ends in a draw)", only=PLAY)
def _accept(s: Session, args: list[str]) -> None:
    s.cmd_answer(True)


@command("refuse", help="hot-seat: refuse the draw the other player offers (the game goes on)", only=PLAY)
def _refuse(s: Session, args: list[str]) -> None:
    s.cmd_answer(False)


@command(
    "show",
    Arg("WHAT", WORD, optional=True),
    help="show the board again; 'show scrap' lists the scrap pile",
    aliases=("board",),
)
def _show(s: Session, args: list[str]) -> None:
    s.cmd_show(args[0] if args else None)


@command("scrap", help="list the scrap pile, oldest first")
def _scrap(s: Session, args: list[str]) -> None:
    s.cmd_show("scrap")


@command("log", help="every move of the game so far, in words")
def _log(s: Session, args: list[str]) -> None:
    s.cmd_log()


@command(
    "save",
    Arg("FILE", FILE),
    Arg("--force", WORD, optional=True),
    help="save the game as a record (written whole or not at all; --force: even over another game's file)",
)
def _save(s: Session, args: list[str]) -> None:
    s.cmd_save(args[0], force=_force(args))


@command(
    "load",
    Arg("FILE", FILE),
    Arg("--force", WORD, optional=True),
    help="load a saved game and play on from where it stopped (--force: even if its ruleset changed)",
)
def _load(s: Session, args: list[str]) -> None:
    s.cmd_load(args[0], force=_force(args))


@command(
    "replay",
    Arg("FILE", FILE),
    Arg("--force", WORD, optional=True),
    help="step through a saved game with next, prev and goto N (--force: even if its ruleset changed)",
)
def _replay(s: Session, args: list[str]) -> None:
    s.cmd_replay(args[0], force=_force(args))


def _force(args: list[str]) -> bool:
    if len(args) > 1 and args[1] != "--force":
        raise CommandError(f"unknown option '{args[1]}' (the only option is --force)")
    return len(args) > 1


@command("next", help="replay: the next move", aliases=("n",), only=REPLAY)
def _next(s: Session, args: list[str]) -> None:
    s.cmd_step(+1)


@command("prev", help="replay: the previous move", aliases=("p",), only=REPLAY)
def _prev(s: Session, args: list[str]) -> None:
    s.cmd_step(-1)


@command("goto", Arg("N", INT), help="replay: the position after move N (0 = the start)", only=REPLAY)
def _goto(s: Session, args: list[str]) -> None:
    s.cmd_goto(whole(args[0], "goto N", 0, MAX_SCENARIO_STEPS, "MAX_SCENARIO_STEPS"))


@command("resume", help="replay: stop replaying and play on from this position", only=REPLAY)
def _resume(s: Session, args: list[str]) -> None:
    s.cmd_resume()


@command(
    "scenario",
    Arg("FILE", FILE),
    Arg("--here", WORD, optional=True),
    Arg("--force", WORD, optional=True),
    help="write the game as a scenario file for `cuttle run`; with --here, this position, every card "
    "spelled out in its expectations (a rule case, or a puzzle for `cuttle solve FILE`); --force: "
    "even over an existing file",
    only=PLAY,
)
def _scenario(s: Session, args: list[str]) -> None:
    flags = args[1:]
    bad = next((f for f in flags if f not in ("--here", "--force")), None)
    if bad is not None or len(set(flags)) != len(flags):
        raise CommandError(
            f"'scenario': '{bad or flags[-1]}' is not --here nor --force: usage: scenario FILE [--here] [--force]"
        )
    s.cmd_scenario(args[0], here="--here" in flags, force="--force" in flags)


@command("new", Arg("SEED", INT, optional=True), help="start a new game (same ruleset and opponent)")
def _new(s: Session, args: list[str]) -> None:
    s.cmd_new(whole(args[0], "new SEED", -MAX_SEED, MAX_SEED, "MAX_SEED") if args else None)


@command("rules", Arg("RULESET", RULESET, optional=True), help="print the rules of this game (or of RULESET)")
def _rules(s: Session, args: list[str]) -> None:
    s.cmd_rules(args[0] if args else None)


@command(
    "set",
    Arg("SETTING", WORD, optional=True),
    Arg("on|off", WORD, optional=True),
    help="change a setting ('set auto on': play your only legal move by itself); 'set' lists them",
)
def _set(s: Session, args: list[str]) -> None:
    s.cmd_set(args[0] if args else None, args[1] if len(args) > 1 else None)


@command("clear", help="clear the screen and show the board again (Ctrl-L on an empty line does too)")
def _clear(s: Session, args: list[str]) -> None:
    s.cmd_clear()


@command("help", help="this list", aliases=("?",))
def _help(s: Session, args: list[str]) -> None:
    s.say_long(REGISTRY.help_text())


@command("quit", help="leave (Ctrl-D does too); with unsaved moves it asks once first", aliases=("exit",))
def _quit(s: Session, args: list[str]) -> None:
    s.request_quit()
