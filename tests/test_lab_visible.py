"""Every rule visible (issue 27 item 2) and balance per rank (item 4): small seeded sims of house rules
with triggers (one that fires, one that never can), a rule-made win, a knowledge rule and a counter,
each figure checked against a count made here, on a replay of the same games through the Game API."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.core.cards import CARD_COUNT, RANK_OF
from interpreter.core.zones import FIELD0, HAND0
from interpreter.engine.decision import CHOOSE_D
from interpreter.engine.game import Game
from interpreter.engine.outcome import Termination
from interpreter.engine.state import State
from interpreter.lab.columns import row_maker
from interpreter.lab.games import play_game
from interpreter.lab.job import game_seed, player_factory, player_seed
from interpreter.lab.sim import simulate
from interpreter.rules import load_ruleset

from .scenario_util import house_file

ROOT = Path(__file__).resolve().parent.parent
VISIBLE = str(ROOT / "examples" / "house" / "every-rule-visible.yaml")
PLAYERS = ("random", "random")

# a house rule whose every figure has a plain count: the draw shows the drawer's hand to the opponent
# first and counts the draws of each player; a card played for points counts 1 on the card (kept while
# it stays in play); a trigger fires at each turn start with 7 or more cards in hand; another can never
# fire
COUNTED = """
counters:
  draws:
    of: player
  laid:
    of: card
plays:
  draw:
    effect:
      before: show hand of me to opponent
      after: add 1 to me.draws
  points:
    effect:
      after: add 1 to card.laid
triggers:
  full hand:
    event: turn starts
    when: count(hand of me) >= 7
    effect: nothing
  king and queen:
    event: card enters field
    when: it.rank == K and it.rank == Q
    effect: draw 1 for me
"""


def replay(spec: str, seed: int):
    """The game of `seed` between the lab's random players, through the Game API: each decision as
    (state before, kind of decision, player, move, state after)."""
    rules = load_ruleset(spec)
    game = Game.new(rules, seed)
    seats = [player_factory("random")(player_seed(seed, s)) for s in (0, 1)]
    steps = []
    first = game.state
    while game.state.winner is None:
        before = game.state
        d = before.pending
        move = seats[d.player].choose(game)
        game.play(move) if isinstance(move, str) else game.push(move)
        steps.append((before, d.kind, d.player, move, game.state))
    return first, steps, game.state


def turn_starts(first: State, steps: list) -> list[State]:
    """The positions at each turn's start (the first, and after each move that began a turn)."""
    out = [first]
    out += [after for before, _, _, _, after in steps if after.turn_no != before.turn_no and after.winner is None]
    return out


def test_triggers_counters_and_knowledge_agree_with_a_replay(tmp_path: Path) -> None:
    path = house_file(tmp_path, COUNTED, "counted")
    games = 30
    s = simulate([str(path)], games, PLAYERS, seed=4, jobs=1).summaries["a"]
    fired = fired_games = shown = laid = 0
    draws = Counter()
    for i in range(games):
        first, steps, last = replay(str(path), game_seed(4, i))
        laid += sum(last.counter(c, "laid") for c in range(CARD_COUNT))  # on the cards still in play
        full = sum(1 for g in turn_starts(first, steps) if len(g.zones[HAND0 + g.turn]) >= 7)
        fired += full
        fired_games += full > 0
        for before, _, p, move, _ in steps:
            if move.verb == "draw":
                draws[p] += 1
                shown += len(before.zones[HAND0 + p])  # every card of the hand, shown before the draw
    assert s["triggers"]["full hand"] == {
        "fired": fired,
        "games": fired_games,
        "per_game": fired / games,
        "event": "when turn starts",
        "origin": "from counted",
    }
    assert fired > 0
    assert s["triggers"]["king and queen"]["fired"] == 0 and "king and queen" in s["dead"]
    assert "king and queen (trigger from counted) never fired in 30 games" in s["dead_why"]
    assert "full hand" not in s["dead"]
    c = s["counters"]["draws"]
    assert c["changes"]["total"] == draws[0] + draws[1]
    assert c["final_p1"]["mean"] == pytest.approx(draws[0] / games)
    assert c["final_p2"]["mean"] == pytest.approx(draws[1] / games)
    c = s["counters"]["laid"]  # a card's counter: the sum over the cards holding it at the end
    assert c["of"] == "card" and "final_p1" not in c
    assert c["final_cards"]["mean"] == pytest.approx(laid / games) and laid > 0
    assert s["knowledge"]["shown"]["plays.draw"]["cards"] == shown > 0


def test_a_rule_made_win_is_named_after_its_rule_and_the_replay_shows_it(tmp_path: Path) -> None:
    games = 30  # 3 of them won by the rule
    s = simulate([VISIBLE], games, PLAYERS, seed=2, jobs=1, out=tmp_path / "run").summaries["a"]
    label = "triggers.two jacks (a rule's win)"
    assert label in s["ends"] and not any(k.startswith("other") for k in s["ends"])
    with sqlite3.connect(tmp_path / "run" / "games.sqlite") as con:
        by_rule = {i for (i,) in con.execute("SELECT idx FROM games WHERE end_reason = 'rule'")}
        named = {i for (i,) in con.execute("SELECT idx FROM games WHERE ended_by = 'triggers.two jacks'")}
    assert by_rule == named and s["ends"][label]["count"] == len(named) > 0
    for i in range(games):
        _, _, last = replay(VISIBLE, game_seed(2, i))
        jacks = [sum(RANK_OF[c] == "J" for c in last.zones[FIELD0 + p]) for p in (0, 1)]
        if i in named:  # the winner holds two Jacks in play: the rule's condition
            assert last.winner in (0, 1) and jacks[last.winner] >= 2
            assert last.outcome.termination is Termination.RULE and last.outcome.rule == "triggers.two jacks"
            assert "two jacks" in last.outcome.reason
        else:
            assert last.outcome is None or last.outcome.termination is not Termination.RULE


def test_a_comparison_counts_the_endings_a_rule_made_under_each_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    """The rule's endings in a compare are its games under B (none under A), paired game by game, in
    the JSON, the verdict's table and the terminal, as the summary of B counts them."""
    games = 30
    report = simulate(["default", VISIBLE], games, PLAYERS, seed=2, jobs=1)
    label = "triggers.two jacks (a rule's win)"
    count = report.summaries["b"]["ends"][label]["count"]
    d = report.differences["ends"][label]
    assert count > 0 and d["a"] == 0.0 and d["b"] == d["difference"] == pytest.approx(count / games)
    assert d["ci95"][0] < d["difference"] < d["ci95"][1]
    out = run_text(["compare", "default", VISIBLE, "--games", str(games), "--seed", "2", "--jobs", "1"], capsys)
    rows = [line for line in out.splitlines() if label in line]
    (said,) = [line for line in rows if f"{label} ended" in line]  # the verdict's, with who won them
    (row,) = [line for line in rows if line is not said]  # the endings table's
    assert f"{100 * count / games:.1f}%" in row
    assert f"{label} ended {count} games under " in said and said.endswith(", none under default")


def test_usage_and_win_association_per_rank_and_play_agree_with_a_replay() -> None:
    games = 40
    s = simulate(["default"], games, PLAYERS, seed=6, jobs=1).summaries["a"]
    used: Counter[str] = Counter()
    by_verb: Counter[tuple[str, str]] = Counter()
    seat_games: Counter[str] = Counter()
    seat_wins: Counter[str] = Counter()
    games_with: Counter[str] = Counter()  # the games in which either seat played a card of the rank
    for i in range(games):
        _, steps, last = replay("default", game_seed(6, i))
        games_with.update({RANK_OF[m.cards[0]] for _, kind, _, m, _ in steps if kind != CHOOSE_D and m.cards})
        for p in (0, 1):
            ranks = set()
            for _, kind, who, move, _ in steps:
                if who == p and kind != CHOOSE_D and move.cards:
                    rank = RANK_OF[move.cards[0]]
                    used[rank] += 1
                    by_verb[(rank, move.verb)] += 1
                    ranks.add(rank)
            for rank in ranks:
                seat_games[rank] += 1
                seat_wins[rank] += last.winner == p
    assert set(s["ranks"]) == set(used)
    for rank, e in s["ranks"].items():
        assert e["used"] == used[rank], rank
        assert e["seat_games_used"] == seat_games[rank]
        assert e["games_used"] == games_with[rank], rank
        assert e["win_rate_used"] == pytest.approx(seat_wins[rank] / seat_games[rank])
    nine = s["ranks"]["9"]["plays"]
    assert nine["nine"]["used"] == by_verb[("9", "oneoff")]  # the 9 as a one-off
    assert nine["points"]["used"] == by_verb[("9", "points")]  # the 9 for points


def run_text(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(argv + ["--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_one_process_or_two_give_the_same_rules_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["compare", "default", VISIBLE, "--games", "24", "--seed", "3"]
    one = run_json(argv + ["--jobs", "1"], capsys)
    two = run_json(argv + ["--jobs", "2"], capsys)
    assert one == two
    for key in ("triggers", "counters", "knowledge", "ranks", "ends"):
        assert one["b"][key] and one["b"][key] == two["b"][key]
    assert one["differences"]["triggers"]["scuttled draw"]["in_a"] is False
    # per rank and per play of it, compare's per-game means are the summaries' (two separate counts)
    for side in ("a", "b"):
        for rank, e in one[side]["ranks"].items():
            assert one["differences"]["ranks"][rank][side] == pytest.approx(e["per_game"])
            for play, x in e["plays"].items():
                assert one["differences"]["rank_plays"][f"{rank} by {play}"][side] == pytest.approx(x["per_game"])
    assert "9 by nine" in one["differences"]["rank_plays"]


@pytest.mark.slow
def test_a_local_cluster_gives_the_same_rules_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    argv = ["sim", VISIBLE, "--games", "30", "--seed", "8"]
    one = run_json(argv + ["--jobs", "1", "--out", str(tmp_path / "one")], capsys)
    cluster = run_json(argv + ["--cluster", "local", "--jobs", "2", "--out", str(tmp_path / "cluster")], capsys)
    assert one == cluster

    def rows(db: Path) -> list:
        with sqlite3.connect(db) as con:
            return con.execute("SELECT * FROM games ORDER BY idx").fetchall()

    assert rows(tmp_path / "one" / "games.sqlite") == rows(tmp_path / "cluster" / "games.sqlite")


def test_the_terminal_and_the_reports_show_the_rules_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert main(["sim", VISIBLE, "--games", "30", "--seed", "1", "--jobs", "1", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    md = (out / "report.md").read_text(encoding="utf-8")
    html = (out / "report.html").read_text(encoding="utf-8")
    for shown in (text, md, html):
        for title in ("Triggers", "Counters", "Knowledge", "Ranks"):
            assert title in shown
        assert "impossible royal" in shown and "9 by nine" in shown and "seen by visibility.hand" in shown


def test_compare_shows_the_balance_of_each_rank_under_both(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "default", VISIBLE, "--games", "20", "--seed", "2", "--jobs", "1"]) == 0
    text = capsys.readouterr().out
    assert "Rank balance" in text and "Ranks per game" in text and "    9 by nine" in text


def test_until_different_stops_where_a_player_knows_other_cards(capsys: pytest.CaptureFixture[str]) -> None:
    peek = str(ROOT / "examples" / "house" / "peek-three.yaml")
    assert main(["compare", "default", peek, "--until-different", "--seed", "5", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["found"] and found["kind"] == "knowledge"
    what = {d["what"]: (d["a"], d["b"]) for d in found["differences"]}
    assert what and all(a != b for a, b in what.values())
    assert any("knows" in w for w in what)


TALLY = """
counters:
  tally: {of: player}
triggers:
  tally scrap:
    event: card enters scrap
    effect: add STEP to me.tally
"""


def test_until_different_stops_where_only_a_counter_differs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two rule texts that count the scrap by 1 and by 2: the same moves, but not the same position."""
    one = house_file(tmp_path, TALLY.replace("STEP", "1"), "tally-one")
    two = house_file(tmp_path, TALLY.replace("STEP", "2"), "tally-two")
    assert main(["compare", str(one), str(two), "--until-different", "--seed", "1", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["found"] and found["kind"] == "position"
    (d,) = [d for d in found["differences"] if d["what"] == "counters"]
    a, b = (int(x.rsplit(" ", 1)[1]) for x in (d["a"], d["b"]))  # 'p2 tally 2' (a counter with 2 cards)
    assert b == 2 * a > 0 and d["a"].rsplit(" ", 1)[0] == d["b"].rsplit(" ", 1)[0]


def test_the_rule_of_a_win_is_read_from_the_outcome_inside_a_match_too() -> None:
    """The lab counts a game by its Outcome (never by parsing its English): a match by its last hand."""
    from interpreter.engine.outcome import Outcome, goal_reached, no_legal_move
    from interpreter.lab.games import ending_of

    def rule_win(rule: str, seat: int = 0) -> Outcome:
        return Outcome(seat, Termination.RULE, rule)

    assert ending_of(rule_win("triggers.two jacks"), (21, 21)) == ("p1", "rule", None, "triggers.two jacks")
    match = Outcome(1, Termination.MATCH, "match.wins", count=4, wins=(1, 3), hand=rule_win("plays.nine (old)", 1))
    assert match.reason == "p2 wins the match 1-3 (hand 4: a rule declared the winner (plays.nine (old)))"
    assert ending_of(match, (21, 14)) == ("p2", "rule", None, "plays.nine (old)")
    assert ending_of(rule_win(""), (21, 21)) == ("p1", "rule", None, "a rule's win")  # compiled without a name
    assert ending_of(goal_reached(1), (21, 14)) == ("p2", "goal", 14, "end.goal")
    won_on_goal = Outcome(0, Termination.MATCH, "match.wins", count=3, wins=(3, 0), hand=goal_reached(0))
    assert ending_of(won_on_goal, (10, 21)) == ("p1", "goal", 10, "end.goal")
    assert ending_of(no_legal_move(1), (21, 21)) == ("draw", "no-move", None, "no legal move")
    assert ending_of(None, (21, 21)) == (None, "cutoff", None, "")


VEIL = """
visibility:
  hand: count(deck) == 0 or (count(glasses(me)) > 0 and count(field of opponent where it.rank == Q) == 0)
"""


def test_a_rule_that_veils_a_hand_is_seen_as_fewer_cards_seen(tmp_path: Path) -> None:
    """A Queen veils your hand from the opponent's glasses: random players play the same games under it
    (they ignore what they see), so game by game the cards seen can only fall, and do in some games;
    each count is the one a replay makes at every turn's start."""
    veil = house_file(tmp_path, VEIL, "veil")
    games = 40
    report = simulate(["default", str(veil)], games, PLAYERS, seed=3, jobs=1, out=tmp_path / "run")
    with sqlite3.connect(tmp_path / "run" / "games.sqlite") as con:
        rows = con.execute("SELECT side, idx, knowledge FROM games ORDER BY idx, side").fetchall()
    seen = {(side, i): json.loads(k).get("seen", {}).get("visibility.hand", 0) for side, i, k in rows}
    for i in range(games):
        assert seen[("b", i)] <= seen[("a", i)]
    assert sum(seen[("b", i)] < seen[("a", i)] for i in range(games)) > 0
    rules = load_ruleset(str(veil))
    for i in range(0, games, 4):
        first, steps, _ = replay(str(veil), game_seed(3, i))
        count = sum(
            len(g.zones[HAND0 + 1 - g.turn])
            for g in turn_starts(first, steps)
            if g.zones[HAND0 + 1 - g.turn] and rules.hand_visible(g, g.turn)
        )
        assert seen[("b", i)] == count
    d = report.differences["knowledge"]["seen"]["visibility.hand"]
    assert d["b"] < d["a"]


WINS = """
plays:
  nine:
    effect: win me
  six:
    effect:
      after: show deck_top(2) to me
turn:
  end:
    after: if count(hand of me) == 0 then win me end
"""


def test_a_win_or_a_show_written_into_a_direct_play_names_its_rule(tmp_path: Path) -> None:
    """Without triggers a play runs as the engine's own generated function, with its effect written in
    place: its `win` and `show` still name their rule, on the fast path and through the Game API."""
    path = house_file(tmp_path, WINS, "wins")
    s = simulate([str(path)], 60, PLAYERS, seed=1, jobs=1).summaries["a"]
    assert "plays.nine (a rule's win)" in s["ends"] and "turn.end (a rule's win)" in s["ends"]
    assert not any(k.startswith("a rule's win") or k.startswith("other") for k in s["ends"])
    assert set(s["knowledge"]["shown"]) == {"plays.six"}
    rules = load_ruleset(str(path))
    for i in range(6):
        fast = play_game(rules, i, game_seed(1, i), PLAYERS)
        slow = play_game(rules, i, game_seed(1, i), PLAYERS, through_game=True)
        assert fast == slow and row_maker()(fast) == row_maker()(slow)  # every column, computed ones too


def test_the_verdict_names_every_detectable_change_of_game_quality() -> None:
    """The table flagged lead changes (and others) as detectable while the verdict said nothing of them."""
    report = simulate(["default", VISIBLE], 300, PLAYERS, seed=0, jobs=1)
    assert report.differences is not None
    flagged = [
        name.replace("_", " ")
        for name, d in report.differences["quality"].items()
        if isinstance(d, dict) and d.get("detectable") and name not in ("turns", "real_choices")
    ]
    lines = [line for line in report.verdict if line.startswith("game quality: ")]
    assert flagged and len(lines) == 1  # this run moves at least the lead changes
    assert [part.rsplit(" ", 3)[0] for part in lines[0].removeprefix("game quality: ").split(", ")] == flagged
