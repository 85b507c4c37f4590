"""Opening files from strangers: only the named files (and .yaml files beside them or below) are
read, only regular UTF-8 files, refusals never echo a file the user did not name, every command
ends with the project's own error and never a traceback, and control characters from a file are
shown escaped."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from interpreter import Game, load_ruleset
from interpreter.cli import main
from interpreter.core.errors import RecordError, RulesetError, safe_text
from interpreter.rules import check
from interpreter.scripting import records
from interpreter.scripting.scenario import collect, run_file

SECRET = "root:x:0:0:SECRET-LINE"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A private file outside the folder of the files under test (like /etc/passwd)."""
    secret = tmp_path / "secret.yaml"
    secret.write_text(SECRET + "\n", encoding="utf-8")
    (tmp_path / "work").mkdir()
    return tmp_path / "work"


def _errors_text(spec: str) -> str:
    return "\n".join(e.render() for e in check(spec))


@pytest.mark.parametrize(
    "ref", ["../secret.yaml", "{abs}", "sub/../../secret.yaml", "/dev/zero", "/etc/passwd", "link.yaml"]
)
def test_extends_and_options_stay_in_the_files_folder(outside: Path, ref: str) -> None:
    (outside / "link.yaml").symlink_to(outside.parent / "secret.yaml")
    ref = ref.replace("{abs}", str(outside.parent / "secret.yaml"))
    for body in (f"name: h\nextends: {ref}\n", f"name: h\nextends: default\noptions: [{ref}]\n"):
        house = outside / "house.yaml"
        house.write_text(body, encoding="utf-8")
        text = _errors_text(str(house))
        assert "[E004]" in text and "house.yaml:" in text  # pointed at the line that names it
        assert "SECRET" not in text and "root:" not in text


def test_a_file_beside_or_below_may_be_extended(outside: Path) -> None:
    (outside / "sub").mkdir()
    (outside / "sub" / "base.yaml").write_text(
        "name: base\nextends: default\nconstants:\n  hand_limit: 7\n", encoding="utf-8"
    )
    (outside / "house.yaml").write_text("name: house\nextends: sub/base.yaml\n", encoding="utf-8")
    assert load_ruleset(str(outside / "house.yaml")).ctx.constants["hand_limit"] == 7


def test_a_scenarios_ruleset_resolves_beside_it_and_no_further(
    outside: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (outside / "house.yaml").write_text("name: house\nextends: default\n", encoding="utf-8")
    (outside / "s.yaml").write_text("ruleset: house.yaml\nexpect:\n  turn: p1\n", encoding="utf-8")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")  # a working folder that holds neither the scenario nor the secret
    assert run_file(outside / "s.yaml").ok
    for ref in ("../secret.yaml", "default+../secret.yaml", str(outside.parent / "secret.yaml")):
        (outside / "s.yaml").write_text(f"ruleset: {ref}\n", encoding="utf-8")
        res = run_file(outside / "s.yaml")
        assert not res.ok and "[E004]" in res.failures[0] and "SECRET" not in res.failures[0]


def test_a_records_ruleset_resolves_beside_it_and_no_further(
    outside: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (outside / "house.yaml").write_text("name: house\nextends: default\n", encoding="utf-8")
    game = Game.new(load_ruleset(str(outside / "house.yaml")), 4)
    game.play(game.legal_moves()[0])
    records.save(game, outside / "game.yaml")
    assert "ruleset: house.yaml" in (outside / "game.yaml").read_text(encoding="utf-8")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert records.load(outside / "game.yaml").moves == game.moves
    for ref in ("../secret.yaml", "/etc/passwd", "default+../secret.yaml"):
        (outside / "r.yaml").write_text(
            f"format: cuttle-record/1\nruleset: {ref}\nruleset_hash: x\nseed: 1\nmoves: []\n", encoding="utf-8"
        )
        with pytest.raises(RecordError) as e:
            records.load(outside / "r.yaml", force=True)
        assert "E004" in str(e.value) and "SECRET" not in str(e.value)


def test_only_regular_utf8_files_are_read(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"name: \xff\xfe\nextends: default\n")
    big = tmp_path / "big.yaml"
    big.write_text("a: 1\n" + "#" * 300_000 + "\n", encoding="utf-8")
    for path, why in (
        (fifo, "not a regular file"),
        ("/dev/zero", "not a regular file"),
        (binary, "not UTF-8"),
        (big, "MAX_FILE_BYTES"),
        (tmp_path, "a folder"),
    ):
        assert why in _errors_text(str(path))
        with pytest.raises(RecordError, match=why):
            records.read(path)
        res = run_file(path)
        assert not res.ok and why in res.failures[0]


def test_a_fifo_in_a_folder_that_run_scans_does_not_hang(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "ok.yaml").write_text("ruleset: default\nexpect:\n  turn: p1\n", encoding="utf-8")
    assert len(collect([str(tmp_path)])) == 2
    assert main(["run", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "not a regular file" in out and "1 passed, 1 failed" in out


HOSTILE = {
    "tag-on-key.yaml": "name: k\nextends: default\n!!python/name:os.system : 1\n",
    "requires.yaml": "name: r\nkind: option\nrequires: -1\n",
    "self-alias.yaml": "name: s\nextends: default\nplays: &p\n  x: *p\n",
    "deep.yaml": "name: d\nextends: default\nend:\n  goal: " + "(" * 300 + "1" + ")" * 300 + " + " + "-" * 900 + "1\n",
    "bigint.yaml": "name: b\nextends: default\nend:\n  goal: 1 + " + "9" * 5000 + "\n",
    "win-cards.yaml": "name: w\nextends: default\nplays:\n  points:\n    effect: win cards\n",
    "win-none.yaml": "name: w\nextends: default\nplays:\n  points:\n    effect: win none\n",
    "record-turn.yaml": "format: cuttle-record/1\nruleset: default\nruleset_hash: x\nseed: 1\nsetup:\n  turn: [p1]\n"
    "moves: []\n",
    "record-moves.yaml": "format: cuttle-record/1\nruleset: default\nruleset_hash: x\nseed: 1\nmoves: {a: 1}\n",
    "record-seed.yaml": "format: cuttle-record/1\nruleset: default\nruleset_hash: x\nseed: [1]\nmoves: []\n",
    "scenario-moves.yaml": "ruleset: default\nmoves: [[draw]]\n",
    "escapes.yaml": 'name: "\\e[2J\\e]0;t\\a"\nextends: default\ndescription: "\\e[31m\\u202e"\n',
}
COMMANDS = [
    ["check", "{f}"],
    ["rules", "{f}"],
    ["diff", "default", "{f}"],
    ["run", "{f}"],
    ["bench", "-r", "{f}", "--games", "2", "--repeat", "1"],
    ["replay", "{f}", "--force"],
]


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_every_command_answers_hostile_files_with_one_clear_message(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / name
    path.write_text(HOSTILE[name], encoding="utf-8")
    for cmd in COMMANDS:
        code = main([x.replace("{f}", str(path)) for x in cmd])
        out = capsys.readouterr()
        text = out.out + out.err
        assert code in (0, 1), (cmd, text)
        assert "Traceback" not in text and "internal error" not in text, (cmd, text)
        assert "\x1b" not in text and "\u202e" not in text and "\x07" not in text, (cmd, text)


def test_cuttle_debug_shows_the_traceback_of_a_bug(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import interpreter.rules.page as page

    monkeypatch.setattr(page, "rules_page", lambda rules: 1 / 0)
    assert main(["rules", "default"]) == 1
    assert "internal error: ZeroDivisionError" in capsys.readouterr().err
    monkeypatch.setenv("CUTTLE_DEBUG", "1")
    with pytest.raises(ZeroDivisionError):
        main(["rules", "default"])


def test_control_characters_are_shown_escaped() -> None:
    assert safe_text("a\x1b[2Jb\u202ec\x07\td\ne") == "a\\x1b[2Jb\\u202ec\\x07\td\ne"
    err = RulesetError("bad \x1b[31m", None)
    assert "\x1b" not in err.render()


def test_invisible_format_characters_are_shown_escaped() -> None:
    """Unicode tag characters and interlinear annotations hide text on a terminal: escaped too."""
    assert safe_text("K\U000e0041\U000e007fQ\ufff9x\ufffb") == "K\\U000e0041\\U000e007fQ\\ufff9x\\ufffb"
    assert safe_text("9♥ 10♣ café\tok\n") == "9♥ 10♣ café\tok\n"  # printable text, tab and newline kept


def test_records_with_wrong_types_are_refused_clearly(tmp_path: Path) -> None:
    for body, why in (
        ("moves: {a: 1}", "moves must be a list"),
        ("moves: [[draw]]", "moves must be a list"),
        ("seed: [1]\nmoves: []", "seed must be a whole number"),
        ("seed: true\nmoves: []", "seed must be a whole number"),  # (a yes/no is no seed, though Python counts it 1)
    ):
        p = tmp_path / "r.yaml"
        text = f"format: cuttle-record/1\nruleset: default\nruleset_hash: x\n{body}\n"
        if "seed" not in body:
            text += "seed: 1\n"
        p.write_text(text, encoding="utf-8")
        with pytest.raises(RecordError, match=why):
            records.read(p)


# -- the folder the user works in ------------------------------------------------------------------


def _house_with_scenarios(top: Path) -> Path:
    """A house rule at the top of a folder, its scenario in scenarios/ naming ../rule.yaml."""
    (top / "scenarios").mkdir(parents=True)
    (top / "rule.yaml").write_text("name: rule\nextends: default\nconstants:\n  hand_limit: 7\n", encoding="utf-8")
    scenario = top / "scenarios" / "limit.yaml"
    scenario.write_text("ruleset: ../rule.yaml\nexpect:\n  turn: p1\n", encoding="utf-8")
    return scenario


def test_a_scenario_may_name_a_ruleset_in_its_parent_folder_inside_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = _house_with_scenarios(tmp_path / "myhouse")
    monkeypatch.chdir(tmp_path / "myhouse")
    assert main(["run", "scenarios/"]) == 0
    assert "1 passed, 0 failed" in capsys.readouterr().out
    assert run_file(scenario).ok


def test_outside_the_working_folder_a_file_stays_in_its_own_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario = _house_with_scenarios(tmp_path / "downloaded")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    res = run_file(scenario)
    assert not res.ok and "[E004]" in res.failures[0] and "working folder" in res.failures[0]


def test_the_home_folder_is_not_a_working_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # from the home folder, a downloaded folder must not reach the user's other files
    scenario = _house_with_scenarios(tmp_path / "Downloads" / "house")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    res = run_file(scenario)
    assert not res.ok and "[E004]" in res.failures[0]


def test_a_symlink_in_a_scanned_folder_may_not_lead_outside_it(
    outside: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (outside / "scenarios").mkdir()
    (outside / "scenarios" / "ok.yaml").write_text("ruleset: default\nexpect:\n  turn: p1\n", encoding="utf-8")
    (outside / "scenarios" / "leak.yaml").symlink_to(outside.parent / "secret.yaml")
    (outside / "scenarios" / "beside.yaml").symlink_to(outside / "scenarios" / "ok.yaml")  # inside: fine
    (outside.parent / "elsewhere").mkdir()
    monkeypatch.chdir(outside.parent / "elsewhere")  # the scanned folder is not inside the working folder
    assert main(["run", str(outside / "scenarios")]) == 1
    out = capsys.readouterr().out
    assert "symlink leading outside" in out and "SECRET" not in out and "root:" not in out
    assert "2 passed, 1 failed" in out


def test_solve_reads_its_file_through_the_bounded_reader(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"ruleset: default\nsetup: \xff\n")
    big = tmp_path / "big.yaml"
    big.write_text("moves: []\n" + "#" * 300_000 + "\n", encoding="utf-8")
    for path, why in ((binary, "not UTF-8"), (big, "MAX_FILE_BYTES")):
        assert main(["solve", str(path)]) != 0
        err = capsys.readouterr().err
        assert why in err and "Traceback" not in err and "internal error" not in err


# -- links: a scan stays in the folder named, and only .yaml files are read (issue 42.1) ---------------


def _project_with_env(tmp_path: Path) -> Path:
    """A project folder holding a `.env` of secrets, and a downloaded folder inside it."""
    project = tmp_path / "project"
    (project / "downloads" / "scan").mkdir(parents=True)
    (project / ".env").write_text(f"aws_secret_access_key = {SECRET}\n", encoding="utf-8")
    return project


def test_a_scanned_link_to_the_projects_env_is_neither_opened_nor_echoed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project_with_env(tmp_path)
    scan = project / "downloads" / "scan"
    (scan / "leak.yaml").symlink_to(Path("..") / ".." / ".env")
    (scan / "ok.yaml").write_text("ruleset: default\nexpect:\n  turn: p1\n", encoding="utf-8")
    monkeypatch.chdir(project)  # the link leads into the working folder, but out of the folder named
    assert main(["run", "downloads/scan"]) == 1
    out = capsys.readouterr().out
    assert "SECRET" not in out and "aws" not in out
    assert "leak.yaml" in out and "symlink leading outside the folder" in out and "1 passed, 1 failed" in out


def test_a_link_to_a_file_that_is_not_yaml_is_not_read_even_inside_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project_with_env(tmp_path)
    monkeypatch.chdir(project)
    (project / "leak.yaml").symlink_to(".env")
    (project / "house.yaml").write_text("name: h\nextends: leak.yaml\n", encoding="utf-8")
    (project / "s.yaml").write_text("ruleset: leak.yaml\n", encoding="utf-8")
    for text in (
        _errors_text("house.yaml"),
        _errors_text("leak.yaml"),
        run_file("s.yaml").failures[0],
        run_file("leak.yaml").failures[0],
    ):
        assert "SECRET" not in text and "aws" not in text
        assert "which is not a .yaml file" in text, text
    with pytest.raises(RecordError, match="not a .yaml file"):
        records.read(project / ".env")


def test_a_named_file_may_not_be_reached_through_a_link_out_of_the_naming_files_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    (project / "downloads").mkdir(parents=True)
    (project / "mine.yaml").write_text(f"name: {SECRET}\nextends: default\nconstants: {{x: [}}\n", encoding="utf-8")
    (project / "downloads" / "link.yaml").symlink_to(project / "mine.yaml")
    (project / "downloads" / "house.yaml").write_text("name: h\nextends: link.yaml\n", encoding="utf-8")
    monkeypatch.chdir(project)
    text = _errors_text("downloads/house.yaml")
    assert "[E004]" in text and "SECRET" not in text
    # written as ../mine.yaml (no link), the same file may be named from inside the working folder
    (project / "downloads" / "house.yaml").write_text("name: h\nextends: ../mine.yaml\n", encoding="utf-8")
    assert "[E004]" not in _errors_text("downloads/house.yaml")


def test_a_character_yaml_refuses_is_pointed_at_where_it_is(tmp_path: Path) -> None:
    """A NUL in a record was reported at 1:1 (issue 42.12): the line and column of the character."""
    rec = tmp_path / "nul.yaml"
    rec.write_text('format: cuttle-record/1\nruleset: default\nruleset_hash: x\nseed: 1\nmoves: [draw, "dr\0aw"]\n')
    with pytest.raises(RecordError) as e:
        records.read(rec)
    assert "nul.yaml:5:18: [R001]" in str(e.value) and "U+0000" in str(e.value) and "\0" not in str(e.value)
    house = tmp_path / "house.yaml"
    house.write_text('name: x\nextends: default\ndescription: "a\x07b"\n', encoding="utf-8")
    text = _errors_text(str(house))
    assert "house.yaml:3:16: [E001]" in text and "U+0007" in text and "\x07" not in text


def test_a_file_that_is_not_utf8_names_the_byte_and_the_line_it_is_on(tmp_path: Path) -> None:
    f = tmp_path / "house.yaml"
    f.write_bytes(b"name: house\nextends: default\n# caf\xe9\n")
    assert "not UTF-8 text (byte 0xe9 on line 3)" in _errors_text(str(f))
