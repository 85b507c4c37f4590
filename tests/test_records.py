"""Game records: exact replays, atomic saves, and refusing a record whose ruleset changed."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from interpreter import Game, load_ruleset
from interpreter.cli import main
from interpreter.core.errors import RecordError
from interpreter.scripting.records import load, read, record_of, replay, save


def _played(seed: int = 4, n: int = 30) -> Game:
    game = Game.new(load_ruleset("default"), seed)
    rnd = random.Random(seed)
    while game.outcome is None and len(game.moves) < n:
        moves = game.legal_moves()
        game.play(moves[rnd.randrange(len(moves))])
    return game


def test_save_and_load_reproduce_the_game(tmp_path: Path) -> None:
    game = _played()
    path = tmp_path / "game.yaml"
    save(game, path)
    data = read(path)
    assert data["ruleset"] == "default" and data["ruleset_hash"] == game.rules.hash
    assert data["moves"] == [str(m) for m in game.moves]
    again = load(path)
    assert again.state.key() == game.state.key()


def test_save_is_whole_or_nothing(tmp_path: Path) -> None:
    game = _played()
    path = tmp_path / "game.yaml"
    save(game, path)
    before = path.read_text()
    with pytest.raises(RecordError):
        save(game, tmp_path / "missing-dir" / "x.yaml")
    assert path.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.yaml"]


def test_a_changed_ruleset_is_refused(tmp_path: Path) -> None:
    data = record_of(_played())
    data["ruleset_hash"] = "0000000000000000"
    with pytest.raises(RecordError) as e:
        replay(data, "old.yaml")
    assert "has changed" in str(e.value) and "--force" in str(e.value)
    assert replay(data, "old.yaml", force=True).moves
    (tmp_path / "old.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")  # and so does cuttle replay
    assert main(["replay", str(tmp_path / "old.yaml"), "--print"]) == 1
    assert main(["replay", str(tmp_path / "old.yaml"), "--print", "--force"]) == 0


def test_a_corrupt_record_gets_a_clear_message(tmp_path: Path) -> None:
    p = tmp_path / "bad.yaml"
    p.write_text("format: cuttle-record/1\nruleset: default\nruleset_hash: x\nseed: 1\nmoves: [draw, fly]\n")
    with pytest.raises(RecordError) as e:
        load(p, force=True)
    assert str(e.value).startswith(f"'{p}': move 2 'fly' cannot be replayed: "), e.value  # counted from 1
    p.write_text("not: a record\n")
    with pytest.raises(RecordError) as e:
        read(p)
    assert "not a Cuttle Lab game record" in str(e.value)


def test_records_from_a_setup_replay_too(tmp_path: Path) -> None:
    from interpreter.scripting.setup import build_position

    rules = load_ruleset("default")
    setup = {"p1": {"hand": ["9S", "7H"]}, "p2": {"points": ["10C"], "hand": ["2D"]}}
    game = Game(rules, build_position(rules, setup, 3), 3, setup)
    game.play("oneoff 9S 10C")
    game.play("resolve")
    path = tmp_path / "r.yaml"
    save(game, path)
    assert yaml.safe_load(path.read_text())["setup"] == setup
    assert load(path).state.key() == game.state.key()


def test_cuttle_replay_print_shows_the_game_move_by_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _played(n=6)
    path = tmp_path / "g.yaml"
    save(game, path)
    assert main(["replay", str(path), "--print"]) == 0
    out = capsys.readouterr().out
    assert "   1. P1 " in out and "   6. " in out and "── default · turn" in out
    bad = tmp_path / "b.yaml"
    data = record_of(game)
    data["ruleset_hash"] = "ffff"
    bad.write_text(yaml.safe_dump(data))
    assert main(["replay", str(bad), "--print"]) == 1
    assert "has changed" in capsys.readouterr().err


def test_a_save_keeps_the_files_mode(tmp_path: Path) -> None:
    game = _played()
    path = tmp_path / "game.yaml"
    path.write_text("old", encoding="utf-8")
    path.chmod(0o640)
    save(game, path)
    assert (path.stat().st_mode & 0o777) == 0o640
    assert load(path).moves == game.moves


@pytest.mark.parametrize("dangling", [False, True])
def test_a_save_refuses_a_symlink_and_writes_nothing_through_it(tmp_path: Path, dangling: bool) -> None:
    """A link planted where the save goes (to a file, or to none yet) would carry the write out of the
    folder: refused in one line, the link and what it leads to left as they were."""
    target = tmp_path / "outside" / "victim.yaml"
    target.parent.mkdir()
    if not dangling:
        target.write_text("precious\n", encoding="utf-8")
    link = tmp_path / "game.yaml"
    link.symlink_to(target)
    with pytest.raises(RecordError, match="symbolic link"):
        save(_played(), link)
    assert link.is_symlink()
    assert (target.read_text(encoding="utf-8") == "precious\n") if not dangling else not target.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.yaml", "outside"]


def test_a_save_refuses_a_folder_or_a_fifo_at_its_place(tmp_path: Path) -> None:
    import os

    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "dir.yaml").mkdir()
    for name, why in (("pipe.yaml", "not a regular file"), ("dir.yaml", "a folder")):
        with pytest.raises(RecordError, match=why):
            save(_played(), tmp_path / name)


def test_a_save_syncs_the_file_and_its_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import stat

    synced: list[str] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        synced.append("folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    save(_played(), tmp_path / "game.yaml")
    assert synced == ["file", "folder"]


def test_ctrl_c_during_a_save_leaves_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    path = tmp_path / "game.yaml"
    save(_played(), path)
    before = path.read_text()

    def interrupted(src: object, dst: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save(_played(n=10), path)
    assert path.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.yaml"]


def _house(folder: Path, description: str, text: str, effect: str = "draw 1") -> Path:
    f = folder / "house.yaml"
    f.write_text(
        f'name: house\nkind: base\nextends: default\ndescription: "{description}"\n'
        f'plays:\n  draw:\n    text: "{text}"\n    effect: {effect}\n',
        encoding="utf-8",
    )
    return f


def test_rewording_a_rules_prose_keeps_its_saved_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    rules = load_ruleset(str(_house(tmp_path, "My house rules.", "Draw one card.")))
    game = Game.new(rules, 2)
    for _ in range(4):
        game.play(game.legal_moves()[0])
    save(game, tmp_path / "g.yaml")
    _house(tmp_path, "Our house rules, reworded.", "Take the top card.")  # only the prose changed
    assert load(tmp_path / "g.yaml").state.key() == game.state.key()
    _house(tmp_path, "Our house rules, reworded.", "Take the top card.", effect="draw 2")  # play changed
    with pytest.raises(RecordError, match="has changed"):
        load(tmp_path / "g.yaml")


def test_a_new_record_gets_the_usual_permissions_not_a_private_file(tmp_path: Path) -> None:
    import os

    umask = os.umask(0)
    os.umask(umask)
    path = tmp_path / "new.yaml"
    save(_played(), path)
    assert (path.stat().st_mode & 0o777) == 0o666 & ~umask  # (the temporary file it was written as is 0600)


def test_who_played_is_kept_with_the_day_and_changes_nothing(tmp_path: Path) -> None:
    import datetime

    game = _played()
    path = tmp_path / "game.yaml"
    save(game, path, {"p1": "human", "p2": "ismcts"})
    data = read(path)
    assert data["players"] == {"p1": "human", "p2": "ismcts"}
    assert data["saved"] == datetime.date.today().isoformat()
    assert load(path).moves == game.moves


_HEAD = "format: cuttle-record/1\nruleset: default\nruleset_hash: x\nseed: 1\n"


@pytest.mark.parametrize(
    "tail, message",
    [
        ("moves: [draw, true]\n", "moves must be a list of moves"),
        ("moves: []\nplayers: {p5: human}\n", "players must map seats (p1, p2, ...)"),
        (f"moves: []\nplayers: {{p1: {'x' * 201}}}\n", "players must map seats (p1, p2, ...)"),
    ],
    ids=["a yes-no move", "a fifth seat", "a player's name of 201 characters"],
)
def test_a_record_with_a_wrong_part_is_refused_naming_it(tmp_path: Path, tail: str, message: str) -> None:
    p = tmp_path / "bad.yaml"
    p.write_text(_HEAD + tail, encoding="utf-8")
    with pytest.raises(RecordError) as e:
        read(p)
    assert message in str(e.value)
    p.write_text(_HEAD + f"moves: [draw, 1]\nplayers: {{p4: {'x' * 200}}}\n", encoding="utf-8")
    assert read(p)["players"] == {"p4": "x" * 200}  # a move's number, a fourth seat, 200 characters: fine


def test_a_record_of_more_moves_than_a_scenario_may_hold_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from interpreter.scripting import records

    monkeypatch.setattr(records, "MAX_SCENARIO_STEPS", 3)
    p = tmp_path / "long.yaml"
    p.write_text(_HEAD + "moves: [draw, draw, draw]\n", encoding="utf-8")
    assert len(read(p)["moves"]) == 3
    p.write_text(_HEAD + "moves: [draw, draw, draw, draw]\n", encoding="utf-8")
    with pytest.raises(RecordError, match=r"more than 3 moves \(MAX_SCENARIO_STEPS\)"):
        read(p)
