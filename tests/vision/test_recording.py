"""Seeded recordings of whole dice games, filmed and read back through `table-assistant watch --truth`."""
import json

import pytest

from assistant import cli
from engine.match import Match
from vision.synth import recording

# (game, players, seed, rolls filmed): the first rolls of a game, a stray die planted among them
SHORT_GAMES = [("splitter", 2, 3, 4), ("holdup", 3, 3, 4), ("excape", 3, 3, 5)]


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    for name in list(__import__("os").environ):
        if name.startswith("TABLE_ASSISTANT__"):
            monkeypatch.delenv(name)


def watched(folder, log, capsys):
    """watch's report on a recording, its printed faces enrolled first from its photos."""
    settings = []
    if "faces" in log:
        photos = [f"{face}={folder / path}" for face, path in log["faces"].items()]
        assert cli.main(["calibrate", "dice-faces", *photos]) == 0
        settings = ["--set", "vision.dice.faces=enrolled"]
    capsys.readouterr()
    assert cli.main([*settings, "watch", log["game"], str(folder / "frames"), "--truth", str(folder / "truth.json"),
                     "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("game, players, seed, rolls", SHORT_GAMES)
def test_a_filmed_game_reads_back_right_and_the_stray_die_is_said(game, players, seed, rolls, tmp_path, capsys):
    log = recording.record(game, players, seed, tmp_path / "rec", events=("stray",), max_rolls=rolls)
    truth = Match.load(tmp_path / "rec" / "truth.json")
    assert [truth.lines()[r["action"]] for r in log["rolls"]] == [r["line"] for r in log["rolls"]]
    assert len(log["rolls"]) == rolls and [p["kind"] for p in log["planted"]] == ["stray"]
    report = watched(tmp_path / "rec", log, capsys)
    assert report["frames"] == log["frames"] and report["camera_actions"] == rolls
    assert report["auto_wrong"] == 0
    assert report["auto_right"] + report["confirm_right"] == rolls - 1  # all but the roll with the stray die
    [stray] = log["planted"]
    said = [e for e in report["events"] if e["kind"] == "contradiction"]
    assert len(said) == 1 and stray["still"] <= said[0]["frame"] <= stray["still"] + recording.FPS  # within 1 s


def test_excape_dice_thrown_out_of_turn_are_said_within_a_second_and_the_right_roll_played_after(tmp_path, capsys):
    log = recording.record("excape", 3, 3, tmp_path / "rec", events=("out_of_turn",), max_rolls=5)
    [wrong] = log["planted"]
    report = watched(tmp_path / "rec", log, capsys)
    assert report["auto_wrong"] == 0 and report["auto_right"] + report["confirm_right"] == 5
    said = [e for e in report["events"] if e["kind"] == "contradiction"]
    assert len(said) == 1 and wrong["still"] <= said[0]["frame"] <= wrong["still"] + recording.FPS  # within 1 s
    assert f"player {wrong['seat'] + 1}'s dice" in said[0]["reason"]


def test_the_same_seed_films_the_same_frames(tmp_path):
    logs = [recording.record("holdup", 3, 5, tmp_path / name, events=recording.EVENT_KINDS, max_rolls=2)
            for name in ("a", "b")]
    # Hold Up's dice are nobody's: no roll is out of turn
    assert logs[0] == logs[1] and {p["kind"] for p in logs[0]["planted"]} == {"stray", "misplaced"}
    frames = [sorted((tmp_path / name / "frames").iterdir()) for name in ("a", "b")]
    assert len(frames[0]) == logs[0]["frames"]
    assert all(a.read_bytes() == b.read_bytes() for a, b in zip(*frames))
    assert (tmp_path / "a" / "truth.json").read_text() == (tmp_path / "b" / "truth.json").read_text()
    other = recording.record("holdup", 3, 6, tmp_path / "c", max_rolls=2)
    assert other["rolls"] != logs[0]["rolls"]


def test_the_view_names_each_die_with_its_place_and_owner():
    view = {"ladder": {"0": [{"owner": 1, "dice": ["3", "X"]}], "2": {"owner": 0, "dice": ["7", "1"]}, "3": "empty"},
            "showing": [{"owner": 2, "dice": ["4", "4"]}], "pawns": [0, 3, 1]}
    assert recording.dice_in(view) == [("/ladder/0", 1, "3"), ("/ladder/0", 1, "X"), ("/ladder/2", 0, "7"),
                                       ("/ladder/2", 0, "1"), ("/showing", 2, "4"), ("/showing", 2, "4")]
    assert recording.dice_in({"dice": [2, 5], "rows": [["ruby 3"]]}) == [("", None, "2"), ("", None, "5")]


def test_the_command_writes_a_recording_and_refuses_a_game_without_dice(tmp_path, capsys):
    assert recording.main(["splitter", str(tmp_path / "out"), "--seed", "2", "--rolls", "1"]) == 0
    assert "splitter, 2 players, seed 2: 1 rolls" in capsys.readouterr().out
    assert {p.name for p in (tmp_path / "out").iterdir()} == {"frames", "truth.json", "recording.json"}
    with pytest.raises(ValueError, match="no dice to film in 'hilo'"):
        recording.record("hilo", 2, 0, tmp_path / "hilo")


def test_excape_on_its_printed_mat_the_placements_are_seen_too(tmp_path, capsys):
    # on the mat each die lies in its zone: a placement shows as the roll moved onto its rung,
    # alone or with the next player's roll when no still table came between them
    log = recording.record("excape", 3, 5, tmp_path / "rec", max_rolls=8, mat=True)
    truth = Match.load(tmp_path / "rec" / "truth.json")
    placements = [line for line in truth.lines() if line.startswith("place")]
    assert [m["line"] for m in log["moves"]] == [truth.lines()[m["action"]] for m in log["moves"]]
    assert 0 < len(log["moves"]) < len(placements)  # some filmed alone, the others with the next roll
    report = watched(tmp_path / "rec", log, capsys)
    assert report["camera_actions"] == 8 + len(placements) and report["auto_wrong"] == 0
    assert report["auto_right"] + report["confirm_right"] >= report["camera_actions"] - 1
    applied = [e["action"] for e in report["events"] if e["kind"] == "auto"]
    assert any(a.startswith("place") and ";" not in a for a in applied)  # seen alone
    assert any(a.startswith("place") and "; roll" in a for a in applied)  # seen with the next roll
