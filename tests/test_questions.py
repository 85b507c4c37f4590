"""Questions (issue 25 item 1): `if P agrees to VERB then ... end` asks player P, whose moves are VERB
(yes) and `decline` (no); a trigger's `for: each player` runs it once for each player in turn order,
the game-start mulligan's case. The house rules of examples/house/ that use them, their scenarios, and
how the question is offered, explained, told and refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.core.cards import parse_card
from interpreter.rules import check
from interpreter.rules.page import rules_page
from interpreter.scripting.scenario import run_file
from interpreter.scripting.setup import build_position

from .scenario_util import assert_passes, cases, house_file

ROOT = Path(__file__).resolve().parents[1]
HOUSE = ROOT / "examples" / "house"
QUESTION_CASES = cases("mulligan.test.yaml", "jack-reclaim.test.yaml", under=HOUSE, by=__name__)


@pytest.mark.parametrize("path", QUESTION_CASES)
def test_the_question_house_rules_pass_their_scenarios_and_fail_without_them(path: Path) -> None:
    assert_passes(path)
    assert not run_file(path, ruleset_override="default").ok


def _reclaim_asked() -> Game:
    """p1's 2 has scrapped p2's Jack: p2 is asked, on p1's turn."""
    rules = load_ruleset(str(HOUSE / "jack-reclaim.yaml"))
    setup = {"p1": {"hand": ["2D", "5S"]}, "p2": {"hand": ["4C"], "points": ["8H+JC"]}}
    game = Game(rules, build_position(rules, setup, 0), 0)
    game.play("oneoff 2D JC")
    game.play("resolve")
    return game


def test_a_question_goes_to_the_player_it_names_and_is_offered_explained_and_told() -> None:
    from repl.narrate import Teller
    from repl.render import decision_text

    game = _reclaim_asked()
    d = game.decision
    assert d is not None and (d.player, d.ask, game.state.turn) == (1, True, 0)
    assert [str(m) for m in game.legal_moves()] == ["reclaim", "decline"]
    view = game.view(1)
    assert view.decision.ask and view.decision.verb == "reclaim"
    # what agreeing does, in the rule's words, beside the question (issue 44: it said only the verb)
    assert view.decision.says == "put it into your hand"  # said to the player asked, its last owner
    assert decision_text(view, True) == "you may reclaim: put it into your hand ('reclaim' or 'decline')"
    assert decision_text(game.view(0), False) == "P2 may reclaim or decline"
    assert "answer 'reclaim' (yes) or 'decline' (no)" in game.explain("reclaim JC")
    before = game.view(0)
    game.play("decline")
    assert Teller(0).tell(before, game.view(0), game.moves[-1]).startswith("P2 declines to reclaim")
    assert parse_card("JC") in game.state.zones[1]  # the scrap
    page = rules_page(game.rules)
    assert "its last owner may reclaim (or decline); if they do, return it to its last owner's hand" in page


def test_each_player_is_asked_in_turn_order_the_first_player_first() -> None:
    """`for: each player` on `game starts`: the first player's question, then the second's, then the first
    turn; when p2 moves first (a scenario's setup), p2 is asked first."""
    rules = load_ruleset(str(HOUSE / "mulligan.yaml"))
    game = Game.new(rules, 11)
    asked = []
    while game.decision is not None and game.decision.ask:
        asked.append(game.decision.player)
        game.play("decline")
    assert asked == [0, 1] and game.decision is not None and (game.decision.player, game.decision.kind) == (0, "main")
    setup = {"turn": "p2", "game_starts": True, "p1": {"hand": ["9S"]}, "p2": {"hand": ["3D"]}}
    state = build_position(rules, setup, 0)
    assert state.pending is not None and (state.pending.player, state.pending.ask) == (1, True)
    page = rules_page(rules)
    assert "When the game starts, for each player in turn (first the player who moves first, then the other" in page
    assert (
        "you may mulligan (or decline): let n be the number of cards in your hand, then shuffle your hand into "
        "the deck, then draw n cards." in page
    )


@pytest.mark.parametrize(
    "body, code, says",
    [
        (
            "triggers:\n  t:\n    event: turn starts\n    effect: if me agrees to decline then draw 1 end\n",
            "E217",
            "decline",
        ),
        (
            "triggers:\n  t:\n    event: turn starts\n"
            "    effect: for each c in scrap do if me agrees to x then pass end end\n",
            "E208",
            "if ... agrees",
        ),
        ("triggers:\n  t:\n    event: game starts\n    for: every player\n    effect: draw 1\n", "E026", "each player"),
        ("triggers:\n  t:\n    event: game starts\n    effect: if scrap agrees to x then draw 1 end\n", "E2", "player"),
    ],
)
def test_a_wrong_question_is_a_clear_error(tmp_path: Path, body: str, code: str, says: str) -> None:
    (e,) = check(str(house_file(tmp_path, body)))
    assert e.code.startswith(code) and says in str(e) and e.where is not None


# -- the new way plays as the old trick did (issue 25 item 8) ---------------------------------------
#
# The tricks bent the timing: the mulligan's free play comes on each player's own first turn (the
# second player's after the first player's move), the Jack reclaim's on its owner's next turn. So what
# is compared is the position where both forms have settled the same decisions: every zone in order,
# who knows which hidden card, the cards' roles, owners and attachments, the turn, the generator, the
# winner (not the marks the tricks keep, nor the count of moves made, which the extra answers change).

TRICKS = ROOT / "tests" / "fixtures" / "tricks"


def _position(game: Game) -> tuple:
    g = game.state
    d = g.pending
    return (
        tuple(map(tuple, g.zones)),
        tuple(g.role),
        tuple(g.owner),
        tuple(g.host),
        g.known,
        g.turn,
        g.turn_no,
        g.rng.s,
        g.winner,
        g.passes,
        None if d is None else (d.player, d.kind),
    )


def _others(game: Game, verb: str) -> list:
    """The legal moves but the trick's own play."""
    return [m for m in game.legal_moves() if m.verb != verb]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("first, second", [(True, True), (True, False), (False, True), (False, False)])
def test_the_mulligan_asked_at_the_start_plays_as_the_trick_of_a_free_play(
    seed: int, first: bool, second: bool
) -> None:
    """Same answers, same game: the question form answered (first, second), then the first player's
    first points move, reaches the position the trick reaches with the first player's free mulligan (if
    first), that move, then the second player's free mulligan (if second); then the same moves to the
    end of the game give the same position after each."""
    new = Game.new(load_ruleset(str(HOUSE / "mulligan.yaml")), seed)
    old = Game.new(load_ruleset(str(TRICKS / "mulligan-trick.yaml")), seed)
    new.play("mulligan" if first else "decline")
    new.play("mulligan" if second else "decline")
    if first:
        old.play("mulligan")
    points = [m for m in _others(old, "mulligan") if m.verb == "points"]
    if not points:  # no point card to play without touching the deck: nothing to compare on this deal
        return
    assert points == [m for m in new.legal_moves() if m.verb == "points"]
    new.play(points[0])
    old.play(points[0])
    if second:
        old.play("mulligan")
    pick = __import__("random").Random(seed)
    while True:
        assert _position(new) == _position(old)
        moves = new.legal_moves()
        assert moves == _others(old, "mulligan")
        if new.outcome is not None or not moves:
            break
        move = pick.choice(moves)
        new.play(move)
        old.play(move)


def _reclaim_games(seed: int) -> tuple[int, int, str]:
    """The Jack reclaim both ways on one seeded game, the same random moves in both: the question's owner
    always agrees; the trick's owner plays its free reclaim whenever it is offered. Returns the positions
    compared, the Jacks reclaimed in them, and how the game ended for the comparison."""
    new = Game.new(load_ruleset(str(HOUSE / "jack-reclaim.yaml")), seed)
    old = Game.new(load_ruleset(str(TRICKS / "jack-reclaim-trick.yaml")), seed)
    pick = __import__("random").Random(seed)
    owed = compared = reclaimed = 0
    while True:
        while new.decision is not None and new.decision.ask:
            if new.decision.player == new.state.turn:  # scrapped on its owner's turn: the trick waits a turn
                return compared, reclaimed, "own turn"
            new.play("reclaim")
            owed += 1
        while any(m.verb == "reclaim" for m in old.legal_moves()):
            old.play("reclaim")
            reclaimed, owed = reclaimed + owed, 0
        if owed == 0:  # both forms have settled every reclaim: the same position
            assert _position(new) == _position(old), f"seed {seed}, after {len(new.moves)} moves"
            compared += 1
        moves = new.legal_moves()
        if new.outcome is not None or not moves:
            return compared, reclaimed, "end"
        if moves != _others(old, "reclaim"):  # a Jack waiting in the trick's scrap offers other moves
            assert owed > 0
            return compared, reclaimed, "window"
        move = pick.choice(moves)
        new.play(move)
        old.play(move)


def test_the_jack_reclaim_asked_at_once_plays_as_the_trick_of_a_free_play_next_turn() -> None:
    """Where the trick can follow (a Jack scrapped by the other player's move: its owner's next
    decision is its own turn's first), the question form, its owner agreeing, and the trick, its owner
    reclaiming on that turn, reach the same position at every point where both have settled their
    reclaims, for the same moves. A Jack scrapped on its owner's own turn is where they part (the trick
    waits a whole turn): the comparison of that game stops there."""
    runs = [_reclaim_games(seed) for seed in range(30)]
    assert sum(c for c, _, _ in runs) > 1000
    assert sum(r for _, r, _ in runs) >= 10  # Jacks reclaimed both ways, then the same positions
    assert sum(1 for _, _, how in runs if how == "end") >= 10  # games compared to their end


def test_the_repl_offers_a_question_and_takes_its_answers() -> None:
    """At the start of a mulligan game played at one keyboard: P1 is asked, answers 'mulligan', P2
    answers 'decline' ('no' is no move: the REPL says so), and P1's first turn begins."""
    from repl.session import Session
    from repl.toolbar import toolbar_text

    lines: list[str] = []
    game = Game.new(load_ruleset(str(HOUSE / "mulligan.yaml")), 4)
    s = Session(game, "human", 0, ruleset=str(HOUSE / "mulligan.yaml"), out=lines.append)
    assert s.status() == (
        "you may mulligan: let n be the number of cards in your hand, then shuffle your hand into the deck, then "
        "draw n cards ('mulligan' or 'decline')"
    )
    assert toolbar_text(s, 40) == " mulligan or decline? │ 0/21 · 0/21"  # (the toolbar, short)
    s.handle("mulligan")
    assert s.game.decision is not None and (s.game.decision.player, s.game.decision.ask) == (1, True)
    s.handle("no")
    assert s.game.decision.player == 1 and lines[-1].startswith("error: 'no' is neither a command nor a move")
    n = len(lines)
    s.handle("decline")
    assert "P2 declines to mulligan" in lines[n:]
    assert [str(m) for m in s.game.moves] == ["mulligan", "decline"]
    assert (s.game.decision.player, s.game.decision.kind) == (0, "main")


def test_an_optional_choice_at_the_start_is_made_by_each_player_in_turn(tmp_path: Path) -> None:
    """`choose up to` in a `game starts` rule run `for: each player`: the first player chooses, then the
    second, each from their own hand, before the first turn."""
    f = house_file(
        tmp_path,
        "triggers:\n  bury:\n    event: game starts\n    for: each player\n"
        "    effect: choose up to 1 from hand of me by me as bury; move bury to deck bottom\n",
    )
    game = Game.new(load_ruleset(str(f)), 2)
    first = game.decision
    assert first is not None and (first.player, first.upto) == (0, True)
    assert set(first.options) == set(game.state.zones[2])  # p1's hand
    game.play(str(game.legal_moves()[1]))  # one card
    second = game.decision
    assert second is not None and (second.player, second.upto) == (1, True)
    assert set(second.options) == set(game.state.zones[3])
    game.play("bury")  # none
    assert (game.decision.player, game.decision.kind) == (0, "main") and len(game.state.zones[2]) == 4


def test_the_lab_numbers_a_choice_or_question_in_a_rule_as_its_own() -> None:
    """`cuttle sim` records each choice made: one in a trigger's effect (the mulligan's question) is the
    rule's own choice (it crashed the lab before: no choice of that verb was numbered)."""
    from interpreter.lab.catalog import catalog_of

    rules = load_ruleset(str(HOUSE / "mulligan.yaml"))
    cat = catalog_of(rules)
    (trigger,) = rules.triggers
    n = cat.choice(trigger.program, "mulligan")
    assert cat.infos[n].name == "the rule mulligan: mulligan" and cat.infos[n].kind == "choice"
    assert cat.infos[n].origin == f"from {rules.composed.label(rules.composed.parts[-1])}"


@pytest.mark.parametrize(
    "text, says",
    [
        ("may choose 1 from scrap by me as take", "choose up to N from CARDS by P as VERB"),
        ("if me may mulligan then draw 1 end", "if P agrees to VERB then"),
        ("if me agree to mulligan then draw 1 end", "if P agrees to VERB then"),
        ("if me agrees then draw 1 end", "names its answer yes"),
    ],
)
def test_a_designers_way_of_saying_you_may_is_answered_with_the_languages(text: str, says: str) -> None:
    from interpreter.core.errors import RulesetError
    from interpreter.language.parser import parse_program

    with pytest.raises(RulesetError) as e:
        parse_program(text)
    assert e.value.code == "E101" and says in (e.value.hint or "")


@pytest.mark.parametrize(
    "asker, then, says",
    [
        ("opponent", "move it to hand of opponent", "put it into your hand"),
        ("it.last_owner", "move it to hand of it.last_owner", "put it into your hand"),
        ("it.owner", "draw 1 for it.owner", "you draw 1 card"),
        ("it.last_owner", "move it to field of it.last_owner as point", "put it in front of you as a point card"),
        # what is said to the rule's own player ("you") cannot be said to another player asked: as written
        ("it.last_owner", "move it to hand of me", "put it into your hand"),
        (
            "it.last_owner",
            "move it to hand of it.last_owner\ndraw 1 for opponent",
            "return it to its last owner's hand, then your opponent draws 1 card",
        ),
        (
            "it.last_owner",
            "move it to hand of it.last_owner\ndraw 1",
            "return it to its last owner's hand, then draw 1 card",
        ),
        ("me", "move it to hand of it.last_owner", "return it to its last owner's hand"),
    ],
)
def test_what_agreeing_does_is_said_to_whoever_is_asked(tmp_path: Path, asker: str, then: str, says: str) -> None:
    """The rewriting of "you" done for `if opponent agrees` (issue 44), for every asker the English can
    name (issue 44, left over): the asked player reads what agreeing does as "you"."""
    body = "\n".join("        " + line for line in then.splitlines())
    house = tmp_path / "house.yaml"
    house.write_text(
        "name: house\nextends: default\ntriggers:\n  back:\n    event: card enters scrap\n"
        f"    when: it.rank == J\n    effect: |\n      if {asker} agrees to keep then\n{body}\n      end\n",
        encoding="utf-8",
    )
    assert load_ruleset(str(house)).questions == {"keep": says}
