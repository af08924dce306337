"""A Hold Up game filmed over its mat, dice and cards, through the live loop: `table-assistant watch holdup`."""
import json

import cv2
import pytest

from assistant import cli
from assistant.commands.watch import camera_steps
from engine.match import Match
from vision.synth import holdup_recording
from vision.synth.holdup_recording import record, swapped_row

TURNS = 2


@pytest.fixture(scope="module")
def filmed(tmp_path_factory, holdup_deck):
    folder = tmp_path_factory.mktemp("holdup")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(holdup_recording, "SWAP_EVERY", 3)  # a few swaps planted in a short game
        log = record(3, 4, folder, turns=TURNS, events=("swap",))
    return folder, log, holdup_deck[0]


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    for name in list(__import__("os").environ):
        if name.startswith("TABLE_ASSISTANT__"):
            monkeypatch.delenv(name)


def watch(capsys, state, folder, *args):
    code = cli.main(["--set", f"app.state_dir={state}", "watch", "holdup", str(folder / "frames"), "--json", *args])
    captured = capsys.readouterr()
    return code, json.loads(captured.out), captured.err


def test_the_recording_films_the_deal_each_roll_and_each_move_of_the_cards(filmed):
    folder, log, _ = filmed
    truth = Match.load(folder / "truth.json")
    steps = camera_steps(truth)
    lines = [" ".join(map(str, truth.history[first:end])) for first, end in steps]
    assert len(lines) >= 6 + 2 * TURNS and all(line.startswith("draw ") for line in lines[:6])  # the deal
    assert sum(line.startswith("roll ") for line in lines) >= TURNS and any(line.startswith("keep") for line in lines)
    assert len(log["stills"]) >= len(steps) and log["stills"][-1]["actions"] == len(truth.history)
    assert cv2.imread(str(folder / "frames" / "frame_00000.jpg")).shape == (720, 1280, 3)


def test_every_roll_and_card_move_is_read_from_the_mat_and_a_swap_is_said(filmed, capsys):
    folder, log, state = filmed
    code, report, _ = watch(capsys, state, folder, "--truth", str(folder / "truth.json"))
    assert code == 0
    truth = Match.load(folder / "truth.json")
    # each step, in order, by an event of its own: the deal's cards, the rolls, the captures, the cards drawn
    # (and a contradiction for each swap planted: below)
    assert [event["action"] for event in report["events"] if event["kind"] != "contradiction"] == \
        ["; ".join(map(str, truth.history[first:end])) for first, end in camera_steps(truth)]
    assert report["auto_wrong"] == 0 and report["missed"] == 0
    assert report["auto_right"] == report["camera_actions"]
    assert report["latency_s_median"] <= 0.5
    # two cards of a row swapped, which no move allows, said within a second
    swaps = [planted for planted in log["planted"] if planted["kind"] == "swap"]
    assert swaps
    said = [event for event in report["events"] if event["kind"] == "contradiction"]
    assert len(said) == len(swaps) == report["contradictions"]
    for swap, event in zip(swaps, said):
        assert swap["still"] <= event["frame"] < min(swap["until"], swap["still"] + 15)
        assert "changed places" in event["reason"] and "right end" in event["reason"]


def test_a_swapped_row_is_the_first_with_two_different_cards_side_by_side():
    view = {"rows": [["ruby 1"], ["ruby 2", "ruby 2", "gv G"], ["ruby 3", "ruby 4"]], "draw_pile": "face-down"}
    assert swapped_row(view)["rows"] == [["ruby 1"], ["ruby 2", "gv G", "ruby 2"], ["ruby 3", "ruby 4"]]
    assert swapped_row({"rows": [["ruby 1"], [], ["ruby 2", "ruby 2"]]}) is None


def test_without_the_deck_only_the_dice_are_read_and_that_is_said(filmed, capsys, tmp_path):
    folder, _, _ = filmed
    code, report, err = watch(capsys, tmp_path / "no-deck", folder, "--truth", str(folder / "truth.json"))
    assert code == 0 and "the cards are not read" in err and "calibrate cards --game holdup" in err
    truth = Match.load(folder / "truth.json")
    assert report["camera_actions"] == len(camera_steps(truth, ("dice",)))
    assert all((event["action"] or "").startswith("roll") for event in report["events"])
    assert report["auto_wrong"] == 0 and report["auto_right"] == report["camera_actions"]
