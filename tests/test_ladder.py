"""`cuttle ladder`: the round robin's plan, the Bradley–Terry ratings on the Elo scale, their
bootstrap intervals, and the command's output and refusals."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.lab.ladder import fit, intervals, plan
from interpreter.lab.matches import GameResult


def _games(a: str, b: str, a_wins: int, b_wins: int, draws: int = 0) -> list[GameResult]:
    out = []
    for i in range(a_wins + b_wins + draws):
        seats = (a, b) if i % 2 == 0 else (b, a)
        who = a if i < a_wins else b if i < a_wins + b_wins else None
        out.append(GameResult(i, seats, None if who is None else seats.index(who)))
    return out


def test_every_pair_plays_the_same_deals_with_seats_alternating() -> None:
    games = plan(["x", "y", "z"], 4, 10, "default")
    assert len(games) == 3 * 4
    for pair in (("x", "y"), ("x", "z"), ("y", "z")):
        mine = [g for g in games if set(g[2:]) == set(pair)]
        assert [g[1] for g in mine] == [10, 11, 12, 13]
        assert [g[2] for g in mine] == [pair[0], pair[1], pair[0], pair[1]]


def test_a_75_percent_score_is_about_191_elo_points() -> None:
    r = fit(_games("strong", "weak", 750, 250), ["weak", "strong"], anchor="weak")
    assert r["weak"] == 0
    assert abs(r["strong"] - 400 * math.log10(3)) < 3  # (the prior's one drawn game moves it a little)


def test_ratings_are_ordered_and_transitive_and_draws_count_half() -> None:
    results = _games("a", "b", 60, 40) + _games("b", "c", 60, 40) + _games("a", "c", 70, 30)
    r = fit(results, ["a", "b", "c"], anchor="c")
    assert r["a"] > r["b"] > r["c"] == 0
    even = fit(_games("p", "q", 0, 0, draws=50), ["p", "q"], anchor="p")
    assert abs(even["q"]) < 1e-6


def test_the_prior_is_one_drawn_game_a_pair() -> None:
    """Two players, 3 wins to 1: with the prior's half win each way, A's share is 3.5 of 5."""
    r = fit(_games("a", "b", 3, 1), ["a", "b"], anchor="b")
    assert r["a"] == pytest.approx(400 * math.log10(3.5 / 1.5))


def test_an_interval_holds_the_middle_95_percent_of_the_bootstrap_ratings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each bound is a percentile of the ratings fitted to the resampled games: at most 2.5% of them
    lie beyond it, and at least 2.5% at it or beyond."""
    from interpreter.lab import ladder

    drawn: list[float] = []

    def fitted(results: list[GameResult], players: list[str], anchor: str) -> dict[str, float]:
        out = fit(results, players, anchor)
        drawn.append(out["a"])
        return out

    monkeypatch.setattr(ladder, "fit", fitted)
    lo, hi = ladder.intervals(_games("a", "b", 120, 80), ["a", "b"], anchor="b")["a"]
    n = len(drawn)
    assert n >= 100
    assert sum(x < lo for x in drawn) <= 0.025 * n <= sum(x <= lo for x in drawn)
    assert sum(x > hi for x in drawn) <= 0.025 * n <= sum(x >= hi for x in drawn)


def test_a_clean_sweep_gives_a_finite_rating_inside_its_interval() -> None:
    results = _games("champ", "novice", 40, 0)
    r = fit(results, ["novice", "champ"], anchor="novice")
    lo, hi = intervals(results, ["novice", "champ"], anchor="novice")["champ"]
    assert math.isfinite(r["champ"]) and 300 < r["champ"] < 1500
    assert lo <= r["champ"] <= hi


def test_intervals_narrow_with_more_games() -> None:
    few = intervals(_games("a", "b", 12, 8), ["a", "b"], anchor="b")["a"]
    many = intervals(_games("a", "b", 600, 400), ["a", "b"], anchor="b")["a"]
    assert many[1] - many[0] < (few[1] - few[0]) / 3


def test_the_command_prints_ratings_scores_and_times(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", "micro", "--players", "random,heuristic", "--games", "6", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "round robin of random, heuristic; 6 games a pair (1 pair)" in out
    assert "random = 0" in out and "ms median" in out
    rows = {line.split()[0]: line.split() for line in out.splitlines() if "/6" in line}
    random_won, heuristic_won = (float(rows[p][i].partition("/")[0]) for p, i in (("random", 2), ("heuristic", 1)))
    assert random_won + heuristic_won == 6  # every game scored once, a draw as half to each


@pytest.mark.parametrize(
    ("players", "says"),
    [
        ("random", "two players or more"),
        ("random,random", "named twice"),
        ("random,nosuch", "nosuch"),
        ("random,,sharp", "a name is empty"),
    ],
)
def test_bad_players_get_one_line(players: str, says: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", "--players", players, "--games", "2"]) == 1
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_the_ratings_can_be_written_as_json(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    out = tmp_path / "ratings.json"
    assert (
        main(["ladder", "micro", "--players", "random,heuristic", "--games", "4", "--jobs", "1", "--json", str(out)])
        == 0
    )
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["ruleset"] == "micro" and data["games_a_pair"] == 4 and data["anchor"] == "random"
    assert data["players"]["random"]["rating"] == 0
    assert set(data["players"]) == {"random", "heuristic"}
    printed = capsys.readouterr().out
    h = data["players"]["heuristic"]
    assert f"{h['rating']:+6.0f}" in printed and f"wrote {out}" in printed


def test_players_shows_the_ladders_ratings_under_each_player_it_played(capsys: pytest.CaptureFixture[str]) -> None:
    from interpreter.players.ratings import measured

    data = measured()
    assert data["ruleset"] == "default" and {"random", "heuristic", "sharp", "ismcts"} <= set(data["players"])
    assert main(["players"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for name in ("heuristic", "sharp", "ismcts", "ismcts:default"):  # a level `X:default` is X
        i = next(i for i, line in enumerate(lines) if line.split()[:1] == [name])
        rated = data["players"][name.removesuffix(":default")]
        assert lines[i + 1].strip().startswith(f"rating {rated['rating']:+.0f} ({rated['interval'][0]:+.0f} to")
        assert f"{rated['ms_per_move']:g} ms a move" in lines[i + 1]
    strong = next(i for i, line in enumerate(lines) if line.split()[:1] == ["ismcts:strong"])
    assert not lines[strong + 1].strip().startswith("rating")  # not played by the ladder: nothing claimed
    assert any(line.startswith("ratings: `cuttle ladder default --players ") for line in lines)


def test_the_ladder_says_and_records_which_evaluation_each_searching_player_played_with(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from interpreter.players.ratings import source

    out = tmp_path / "ratings.json"
    args = ["ladder", "micro", "--players", "random,sharp,sharp?weights=default", "--games", "2", "--jobs", "1"]
    assert main([*args, "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    data = json.loads(out.read_text(encoding="utf-8"))
    played = data["evaluations"]
    assert set(played) == {"sharp", "sharp?weights=default"}  # random plays with none
    assert played["sharp?weights=default"] == "the hand-set evaluation (weights=default)"
    for p, note in played.items():
        assert f"  {p} plays with {note}" in printed
    assert "sharp?weights=default played with the hand-set evaluation (weights=default)" in source(data)
    # a ratings file from before learnt evaluations does not say: nothing is claimed for it
    assert source({"players": {}}).endswith("which evaluation the searching players played with is not recorded")


def test_a_missing_or_malformed_ratings_file_shows_no_ratings() -> None:
    from interpreter.players.ratings import strength

    assert strength("sharp", {}, {}) is None
    assert strength("sharp", {"players": {"sharp": {"rating": "high"}}}, {}) is None
    assert strength("bot", {"players": {"heuristic": {"rating": 12}}}, {"bot": "heuristic"}) == "rating +12"


def test_a_json_file_that_cannot_be_written_is_refused_before_the_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no such folder" / "ratings.json"
    assert main(["ladder", "--players", "random,heuristic", "--games", "50", "--json", str(missing)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "there is no folder" in err and "no such folder" in err  # nothing played, nothing printed


def test_a_few_games_all_won_show_no_interval_rather_than_a_zero_wide_one(capsys: pytest.CaptureFixture[str]) -> None:
    """2 games won of 2: every bootstrap resample is the same score; '+280 (+280 to +280)' claimed a certainty."""
    assert main(["ladder", "--players", "random,sharp", "--games", "2", "--jobs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    sharp = next(line for line in lines if line.strip().startswith("sharp") and "plays with" not in line)
    assert "(too few games)" in sharp
