"""Every surface at a table of more seats: the REPL with any mix of humans and bots, the players, the
lab's summary, the PettingZoo environment, records, and the commands that play two sides only."""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset, make_player
from interpreter.cli import main
from interpreter.core.errors import CuttleError
from interpreter.lab.table import play_table_game, simulate_table
from interpreter.scripting import records
from interpreter.scripting.setup import build_position
from repl.app import seat_players
from repl.session import Session

THREE, FOUR = "default+cutthroat", "default+teams"


def _session(spec: str, seats: list[str], seed: int = 3, setup: dict | None = None) -> tuple[Session, list[str]]:
    rules = load_ruleset(spec)
    game = Game.new(rules, seed) if setup is None else Game(rules, build_position(rules, setup, 0), 0, setup)
    lines: list[str] = []
    return Session(game, "bot", 0, ruleset=spec, out=lines.append, seats=seats), lines


# -- the REPL ----------------------------------------------------------------------------------------


def test_one_human_against_two_bots_sees_every_other_player() -> None:
    s, lines = _session(THREE, ["human", "random", "random"])
    s.start()
    board = "\n".join(lines)
    assert "P2 (bot)" in board and "P3 (bot)" in board and "You (P1)" in board
    s.handle("draw")
    assert any(line.startswith("You draw") for line in lines)
    assert any(line.startswith("P2 ") for line in lines) and any(line.startswith("P3 ") for line in lines)  # told
    assert s.game.decision.player == 0 or s.game.outcome is not None  # back to the human


def test_hot_seat_with_bots_hands_over_between_humans_only() -> None:
    s, lines = _session(FOUR, ["human", "human", "random", "random"])
    s.show()  # the board calls the bots' seats bots, and the other human's not
    titles = [line.split("  ")[0].strip() for line in "\n".join(lines).splitlines() if line.startswith(" P")]
    assert titles == ["P2", "P3 (partner, bot)", "P4 (bot)"], titles
    del lines[:]
    s.handle("draw")  # p1 draws: p2 (a human) is next
    assert s.viewer == 1 and any("P2's view (P1, look away)" in line for line in lines)
    n = len(lines)
    s.handle("draw")  # p2 draws; p3 and p4 (bots) move, told to p2; the keyboard goes back to p1
    assert s.viewer == 0 or s.game.decision.player in (0, 1)
    later = lines[n:]
    handover = next(i for i, line in enumerate(later) if "P1's view (P2, look away)" in line)
    assert any(line.startswith("P3 ") for line in later[:handover])  # p2 saw p3's move before the hand-over
    assert s.players() == {"p1": "human", "p2": "human", "p3": "random", "p4": "random"}


def test_the_seats_of_a_play_command() -> None:
    assert seat_players(3, "sharp", 0) == ["human", "sharp", "sharp"]
    assert seat_players(4, "human", 2) == ["human"] * 4
    assert seat_players(4, "sharp,human,random", 1) == ["sharp", "human", "human", "random"]
    assert seat_players(2, "sharp", 0) is None  # (a two-seat session as it always was)
    with pytest.raises(CuttleError, match="this ruleset seats 2 players"):
        seat_players(2, "sharp", 2)
    with pytest.raises(CuttleError, match="one for each of the 3 others"):
        seat_players(4, "sharp,random", 0)


def test_a_record_of_a_table_of_three_replays(tmp_path: Path) -> None:
    s, _ = _session(THREE, ["human", "random", "random"], seed=5)
    for _ in range(4):
        if s.game.outcome is None and s.game.decision.player == 0:
            s.handle("draw")
    path = tmp_path / "g.yaml"
    records.save(s.game, path, s.players())
    again = records.load(str(path))
    assert again.state.key() == s.game.state.key()
    assert records.read(str(path))["players"] == {"p1": "human", "p2": "random", "p3": "random"}


# -- players, the lab, the environment -----------------------------------------------------------


@pytest.mark.parametrize("spec", [THREE, FOUR])
def test_every_player_plays_every_seat(spec: str) -> None:
    rules = load_ruleset(spec)
    game = Game.new(rules, 2)
    players = [make_player(n, seed=s) for s, n in enumerate(["sharp", "heuristic", "random", "sharp"][: rules.seats])]
    for _ in range(400):
        if game.outcome is not None:
            break
        game.play(players[game.decision.player].choose(game))
    assert game.outcome is not None


def _redealt(game: Game, me: int, rng: random.Random) -> Game:
    """The same position with the cards of the deck and of every other player's hidden hand dealt again
    among their places (a position where no one knows a hidden card: nothing else to keep)."""
    from interpreter.core.zones import DECK, HANDS

    state = game.state.copy()
    shown = {o.player for o in game.view(me).others if o.hand is not None}
    zones = [DECK, *(HANDS[o] for o in range(game.rules.seats) if o != me and f"p{o + 1}" not in shown)]
    places = [(z, i) for z in zones for i in range(len(state.zones[z]))]
    cards = [state.zones[z][i] for z, i in places]
    rng.shuffle(cards)
    for (z, i), c in zip(places, cards, strict=True):
        state.zones[z][i] = c
        state.zone_of[c] = z
    state.rng.s ^= rng.getrandbits(64)  # the game's own generator is hidden too
    return Game(game.rules, state, game.seed)


@pytest.mark.parametrize("spec", ["sharp", "ismcts?iterations=60", "heuristic"])
def test_at_a_table_of_three_no_player_peeks_at_another_players_hand(spec: str) -> None:
    """Positions of random play at a table of three where every seat has decided: the hands the deciding
    seat does not see (and the deck) dealt again give it the same view and the same move."""
    rules = load_ruleset(THREE)
    rng = random.Random(5)
    checked, seats = 0, set()
    for seed in range(3):
        game = Game.new(rules, seed)
        moves = random.Random(seed)
        for n in range(24):
            if game.outcome is not None:
                break
            me = game.decision.player
            if n % 3 == 2 and game.state.known == 0 and len(game.legal_moves()) > 1:
                choice = make_player(spec, seed=1).choose(game)
                other = _redealt(game, me, rng)
                assert other.view(me) == game.view(me)
                assert other.state.zones != game.state.zones
                assert make_player(spec, seed=1).choose(other) == choice, (seed, n, me)
                checked += 1
                seats.add(me)
            legal = game.legal_moves()
            game.play(legal[moves.randrange(len(legal))])
    assert checked >= 12 and seats == {0, 1, 2}


def test_sharp_wins_more_than_its_share_against_random_players() -> None:
    """Three seats, sharp at one of them (rotating): a fair share would be a third."""
    report = simulate_table(THREE, 24, ["sharp", "random", "random"], seed=100)
    sharp_wins = sum(1 for g in report.games for s in g.winners if g.seats[s] == "sharp")
    assert sharp_wins > 12  # (in 24 games, a third is 8; sharp wins most)


def test_the_lab_summary_has_seats_teams_and_quality() -> None:
    report = simulate_table(FOUR, 6, ["random"], seed=1)
    j = report.json()
    assert [r["seat"] for r in j["seat_wins"]] == ["p1", "p2", "p3", "p4"]
    assert [t["team"] for t in j["team_wins"]] == [["p1", "p3"], ["p2", "p4"]]
    assert sum(t["wins"] for t in j["team_wins"]) + j["draws"] + j["cutoff"] == 6
    for g in report.games:  # a team wins together
        assert len(g.winners) in (0, 2)
    assert {"lead_changes", "comebacks", "margin", "turns"} <= set(j)
    game = play_table_game(THREE, 7, ["random", "sharp"] * 2, 5000)
    assert game.seats == ("sharp", "random", "sharp")  # seats rotate with the game's seed


def test_the_table_summary_counts_as_its_doc_says() -> None:
    """Teams of two, four games (p1 and p3 win two, p2 and p4 one, one drawn): a seat's advantage is its
    share of the games less a fair one (its team's share of the seats, of the games won: 2/4 of 3/4);
    comebacks are a share of the games won; a side fewest points from its goal leads, a tie leads nobody."""
    from interpreter.lab.table import TableGame, TableReport, _leader

    def game(winners: tuple[int, ...], comeback: bool) -> TableGame:
        ending = "goal" if winners else "passes"
        return TableGame(0, ("random",) * 4, winners, ending, 10, 20, 1, comeback, 3 if winners else None)

    games = [game((0, 2), True), game((0, 2), False), game((1, 3), False), game((), False)]
    j = TableReport(FOUR, 4, ((0, 2), (1, 3)), ("random",), games).json()
    assert [r["wins"] for r in j["seat_wins"]] == [2, 1, 2, 1] and j["draws"] == 1
    assert j["seat_wins"][0]["advantage"] == pytest.approx(2 / 4 - 2 / 4 * 3 / 4)
    assert j["seat_wins"][1]["advantage"] == pytest.approx(1 / 4 - 2 / 4 * 3 / 4)
    assert (j["comebacks"]["wins"], j["comebacks"]["share"]) == (1, pytest.approx(1 / 3))
    three, four = load_ruleset(THREE), load_ruleset(FOUR)
    assert _leader(three, [2, 3, 5]) == 0 and _leader(three, [3, 3, 5]) is None
    assert _leader(four, [5, 3, 2, 9]) == 0 and _leader(four, [4, 3, 3, 9]) is None  # (the nearer partner)


def test_cuttle_sim_prints_the_summary_and_refuses_what_holds_two_seats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", THREE, "--games", "4", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "at a table of 3" in out and "Wins by seat" in out and "P3" in out
    assert main(["sim", THREE, "--games", "4", "--out", "x"]) == 1
    assert "--out: the games database and the cluster hold two-seat games" in capsys.readouterr().err
    assert main(["match", "--ruleset", FOUR, "--games", "2"]) == 1
    assert "cuttle match plays two players against each other" in capsys.readouterr().err
    assert main(["compare", "default", THREE, "--games", "2"]) == 1
    assert "cuttle compare and sweep are for two-seat rulesets" in capsys.readouterr().err
    assert main(["train", THREE, "--budget", "1"]) == 1  # (it failed with an IndexError in self-play)
    assert "cuttle train learns two-player evaluations" in capsys.readouterr().err


def test_ctrl_c_during_a_table_sim_says_nothing_was_kept(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from interpreter.lab import cli as lab_cli

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(lab_cli, "simulate_table", interrupted)
    assert main(["sim", THREE, "--games", "4", "--jobs", "1"]) == 130
    out = capsys.readouterr()
    assert out.err.strip() == "cuttle sim: interrupted; nothing kept" and out.out == ""


def test_the_solver_says_it_plays_two_sides(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", THREE, "--seed", "1"]) == 1
    assert "the exact solver plays two sides" in capsys.readouterr().err


@pytest.mark.parametrize("spec, agents", [(THREE, 3), (FOUR, 4)])
def test_the_environment_has_an_agent_per_seat(spec: str, agents: int) -> None:
    pytest.importorskip("pettingzoo")
    warnings.filterwarnings("ignore")
    from pettingzoo.test import api_test

    from interpreter.env import PlayerAgent, env

    api_test(env(ruleset=spec, seed=1), num_cycles=60)
    e = env(ruleset=spec, seed=2)
    e.reset()
    assert e.unwrapped.possible_agents == [f"p{i + 1}" for i in range(agents)]
    players = {a: PlayerAgent(make_player("random", seed=i)) for i, a in enumerate(e.possible_agents)}
    rewards: dict[str, float] = {}
    for agent in e.agent_iter(max_iter=20000):
        _, reward, term, trunc, _ = e.last()
        rewards[agent] = reward
        e.step(None if term or trunc else players[agent].act(e))
    out = e.unwrapped.game.outcome
    assert out is not None
    for i, a in enumerate(e.unwrapped.possible_agents):  # the winners (a team together) +1, the others -1
        assert rewards[a] == (0.0 if out.winner is None else 1.0 if i in out.winners else -1.0)


def test_a_record_of_a_table_of_three_replays_from_any_seat_and_at_its_own_table_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    s, _ = _session(THREE, ["random", "random", "random"], seed=5)
    s.advance()  # three bots play the game out
    assert s.game.outcome is not None
    path = tmp_path / "g.yaml"
    records.save(s.game, path, s.players())
    assert main(["replay", str(path), "--print", "--view", "3"]) == 0
    out = capsys.readouterr().out
    assert "shown from P3's side" in out  # told from the third seat, at the record's own table
    assert main(["replay", str(path), "--print", "--view", "4"]) != 0
    assert capsys.readouterr().err.strip().endswith("is a game of 3 players (1 to 3, or all)")
    two, lines = _session("default", ["human", "random"])
    two.handle(f"load {path}")
    assert lines[-1].endswith(f"`cuttle play --from {path}` plays it on at its own table")
    assert two.game.rules.seats == 2  # (nothing changed)


def test_resigning_at_a_table_of_three_is_refused_in_one_line() -> None:
    s, lines = _session(THREE, ["human", "random", "random"])
    s.handle("resign")
    assert lines[-1] == "error: resign: resigning and draws by agreement are for two players; this game seats 3"
    assert s.game.outcome is None


def test_moves_are_told_to_each_seat_of_a_table_of_three() -> None:
    """Glasses turn up every opponent's hand, each named; a known card drawn by another player is
    said drawn by that player (not by 'the other' of a two-seat game)."""
    from repl.narrate import Teller

    rules = load_ruleset(THREE)
    setup = {"turn": "p1", "p1": {"hand": ["8S", "3C"]}, "p2": {"hand": ["5D"]}, "p3": {"hand": ["6D", "7D"]}}
    game = Game(rules, build_position(rules, setup, 0), 0, setup)
    before = game.view(0)
    move = game.play("glasses 8S")
    while game.decision.kind == "respond":
        game.play("resolve")
    line = Teller(0).tell(before, game.view(0), move)
    assert "P2's hand is now face up: 5♦" in line and "P3's hand is now face up: 6♦ and 7♦" in line
    assert "P1's" not in line
    seen_by_p3 = Teller(2).tell(game.view_after(0, 2), game.view_after(1, 2), move)
    assert "hand is now face up" not in seen_by_p3  # (p1's glasses show p1 the others' hands, not p3)


@pytest.mark.parametrize("spec", [THREE, FOUR])
def test_bench_plays_a_larger_table_through_the_public_api(spec: str) -> None:
    import random

    from interpreter.lab.bench import api_playout

    assert api_playout(load_ruleset(spec), 1, random.Random(1)) > 0  # (an IndexError: two seats given)


@pytest.mark.parametrize("spec", [THREE, FOUR])
def test_every_position_of_a_larger_table_is_written_as_a_scenario_that_passes(spec: str, tmp_path: Path) -> None:
    """`scenario FILE --here` and `scenario FILE` at a table of more seats: every player's hand, their
    knowledge, Jacks and Jokers for another player (`CARD@pN`), whose turn; `cuttle run` passes each."""
    from interpreter.scripting.scenario import run_file
    from repl.export import write_scenario

    s, _ = _session(spec, ["random"] * load_ruleset(spec).seats, seed=9)
    s.advance()
    moves = list(s.game.moves)
    game = Game.new(load_ruleset(spec), 9)
    for i, m in enumerate(moves):
        if i % 6 == 5:
            for here in (True, False):
                path = tmp_path / f"{i}{here}.yaml"
                write_scenario(game, str(path), spec, here=here)
                res = run_file(path)
                assert res.ok, res.failures
        game.play(m)


def test_a_play_that_names_a_player_is_told_with_the_player() -> None:
    from repl.narrate import Teller

    rules = load_ruleset(FOUR)
    setup = {"turn": "p1", "p1": {"hand": ["JC"]}, "p2": {"hand": ["5D"], "points": ["7H"]}, "p3": {}, "p4": {}}
    game = Game(rules, build_position(rules, setup, 0), 0, setup)
    before = [game.view(p) for p in range(4)]
    move = game.play("jack JC 7H p3")
    told = [Teller(p).tell(before[p], game.view(p), move) for p in range(4)]
    assert told[0] == "You put J♣ on P2's 7♥, naming P3"
    assert told[2] == "P1 puts J♣ on P2's 7♥, naming you"
