"""Hilo notation, options, positions read from files, the table view and `replay hilo`."""
import copy
import dataclasses
import json
import re
import tomllib
from pathlib import Path

import pytest

from assistant import cli
from engine.core import InvalidStateError, OptionError, ParseError
from engine.match import Match
from engine.hilo import (Draw, Flip, HiloGame, HiloOptions, Keep, Place, Remove, Reveal, Seen, Slide, Take,
                         Youngest)
from engine.hilo.positions import position

ROOT = Path(__file__).resolve().parents[2]
GAME = HiloGame(2)
FULL = "?? ?? ?? / ?? ?? ?? / ?? ?? ??"


@pytest.mark.parametrize("action, text", [
    (Seen("red", 7), "card red 7"), (Seen("pink", -1), "card pink -1"), (Reveal(1, 0, 2), "reveal p2 r1c3"),
    (Youngest(0), "youngest p1"), (Take(1, 1), "take r2c2"), (Draw(), "draw"), (Place(2, 0), "place r3c1"),
    (Flip(0, 0), "flip r1c1"), (Remove("row", 0), "remove row 1"), (Remove("col", 2), "remove col 3"),
    (Remove("diag"), "remove diag"), (Remove("anti"), "remove anti"), (Keep(), "keep"),
    (Slide("vertical"), "slide vertical"), (Slide("horizontal"), "slide horizontal"),
])
def test_notation_round_trips(action, text):
    assert str(action) == text and GAME.parse_action(text) == action


def test_cards_may_be_written_with_initials_and_extra_spaces():
    assert GAME.parse_action("card R-1") == Seen("red", -1)
    assert GAME.parse_action("card  K11 ") == Seen("pink", 11)
    assert GAME.parse_action("card Red 3") == Seen("red", 3)


@pytest.mark.parametrize("text, message", [
    ("take r1", "hilo: cannot read 'take r1' \\(expected one of: card <colour> <value>"),
    ("card mauve 3", "'mauve 3' is not a card \\(expected a colour of red, orange"),
    ("card X3", "'X3' is not a card \\(expected a colour initial of R, O, Y, L, G, B, P, K"),
    ("card red 12", "card values run from -1 to 11"),
    ("reveal p0 r1c1", "players, rows and columns count from 1"),
    ("slide up", "cannot read 'slide up'"),
])
def test_bad_notation_is_named(text, message):
    with pytest.raises(ParseError, match=message):
        GAME.parse_action(text)


# --- options and configuration --------------------------------------------------------------------

def test_the_configuration_holds_every_option_with_its_default():
    table = tomllib.loads((ROOT / "config" / "default.toml").read_text("utf-8"))["games"]["hilo"]
    assert table == dataclasses.asdict(HiloOptions())


@pytest.mark.parametrize("options, message", [
    ({"first_player_tie": "oldest"}, "first_player_tie' is one of ask, first_seat"),
    ({"palette": "red:R, blue:R, a:A, b:B, c:C, d:D, e:E, f:F"}, "the initial 'R' is used twice"),
    ({"palette": "red:R, orange:O"}, "expected 8 colours"),
    ({"palette": "red:R1, orange:O, yellow:Y, lime:L, green:G, blue:B, purple:P, pink:K"},
     "'red:R1' is not name:initial"),
    ({"optional_removal": "yes"}, "expects bool"),
    ({"optinal_removal": True}, "did you mean 'optional_removal'"),
])
def test_bad_options_are_named(options, message):
    with pytest.raises(OptionError, match=message):
        HiloGame(2, options)


def test_a_palette_with_multi_letter_initials():
    game = HiloGame(2, {"palette": "red:R, orange:O, yellow:Y, lime:L, green:G, blue:B, purple:Pu, pink:Pi"})
    assert game.parse_action("card Pu5") == Seen("purple", 5) and game.parse_action("card pi-1") == Seen("pink", -1)
    with pytest.raises(OptionError):
        HiloGame(7)


# --- positions from files -------------------------------------------------------------------------

def _data(**changes):
    data = position(GAME, ["R7 ?? ?? / ?? ?? ?? / ?? ?? B9", FULL], "K1 R3").to_dict()
    data = copy.deepcopy(data)
    data.update(changes)
    return data


@pytest.mark.parametrize("changes, field", [
    ({"phase": "lunch"}, "phase: unknown phase 'lunch'"),
    ({"player": 2}, "player: no seat 2 among 2 players"),
    ({"discard": "K1 R7"}, "discard: R7 is also in grids\\[0\\] row 1 column 1: every card exists once"),
    ({"discard": "K1 M3"}, "discard: 'M3' is not a card"),
    ({"discard": ["K1"]}, "discard: expected str"),
    ({"draw_pile": {"unseen": 3, "reshuffled": ""}}, "draw_pile.unseen: 16 face-down"),
    ({"draw_pile": {"unseen": 84, "reshuffled": []}}, "draw_pile.reshuffled: expected str"),
    ({"pending": {"seat": 0}, "phase": "flip-reveal"}, "pending.row: missing"),
    ({"draw_pile": {"unseen": 83, "reshuffled": "R1"}}, "draw_pile: the discards are reshuffled only"),
    ({"drawn": "R1", "draw_pile": {"unseen": 83, "reshuffled": ""}},
     "drawn: a drawn card exists exactly in phase drawn"),
    ({"drawn": "R1 R2", "phase": "drawn"}, "drawn: expected one card"),
    ({"totals": [5, 0]}, "totals: must be the sums of the scores of the finished rounds"),
    ({"rounds": [{"scores": [1, 2], "trigger": 0}], "totals": [1, 2]}, "rounds: expected 0 finished rounds in round 1"),
    ({"phase": "swap-reveal", "draw_pile": {"unseen": 83, "reshuffled": ""}},
     "pending: phase swap-reveal needs the seat, row and col"),
    ({"pending": {"seat": 0, "row": 0, "col": 1}}, "pending: a card is turned up only at a reveal"),
    ({"grids": ["R7 ??", FULL]}, "grids\\[0\\]: a grid is 3x3"),
    ({"grids": ["R7 ?? ?? / ?? ?? ?? / ?? ?? R7", FULL]}, "grids\\[0\\] row 3 column 3: R7 is also in grids"),
    ({"phase": "hilo"}, "phase: player 0 has no HILO to decide about"),
    ({"trigger": 1, "last_turns": None}, "last_turns: is set exactly when a player ended the round"),
    ({"final": True}, "final: only the HILO decisions of the final reveal are final"),
    ({"declined": [0]}, "declined: expected 2 whole numbers"),
    ({"round": 0}, "round: rounds count from 1"),
])
def test_inconsistent_positions_are_refused_naming_the_field(changes, field):
    with pytest.raises(InvalidStateError, match="^" + field):
        GAME.state_from_dict(_data(**changes))


def test_a_hole_is_allowed_only_on_the_diagonal_just_removed():
    state = position(GAME, ["Y4 B4 R2 / G7 Y1 ?? / O3 P5 Y6", FULL], "B3", phase="hilo").apply(Remove("diag"))
    assert GAME.state_from_dict(json.loads(json.dumps(state.to_dict()))) == state
    data = state.to_dict()
    data["phase"] = "turn"
    with pytest.raises(InvalidStateError, match="^grids\\[0\\]: only the diagonal just removed"):
        GAME.state_from_dict(data)


# --- the documented example, the table view and `replay hilo` ------------------------------------

def _documented_example():
    section = (ROOT / "docs" / "notation.md").read_text("utf-8").split("## Hilo", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```(?:json)?\n(.*?)```", section, re.S)
    return json.loads(blocks[0]), blocks[1]


def test_the_documented_example_replays_as_documented():
    data, printed = _documented_example()
    match = Match.from_dict(data)
    assert match.state.describe(["Ana", "Ben"]) + "\n" == printed
    assert match.state.summary()["grids"] == ["L5 ?? ?? / ?? ?? ??", "B3 ?? Y0 / ?? G9 ?? / ?? ?? K-1"]


def test_replay_prints_the_documented_example(tmp_path, capsys):
    data, printed = _documented_example()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), "utf-8")
    assert cli.main(["replay", "hilo", str(path)]) == 0
    assert capsys.readouterr().out == printed
    assert cli.main(["replay", "hilo", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["players"] == ["Ana", "Ben"] and report["to_move"] == 1 and report["phase"] == "turn"
    assert report["grids"] == ["L5 ?? ?? / ?? ?? ??", "B3 ?? Y0 / ?? G9 ?? / ?? ?? K-1"]
    face_down = sum(row.count("face-down") for grid in report["table"]["players"] for row in grid["cells"])
    assert report["table"]["discard"] == "blue 10" and report["card_count"]["unseen"] == face_down + 83


def test_the_table_view_follows_each_action():
    data, _ = _documented_example()
    match = Match.from_dict(data)
    views = [state.table_view() for state in match.states()]
    assert views[0] == {"players": [{"shape": [3, 3], "cells": [["face-down"] * 3] * 3}] * 2,
                        "discard": "empty", "draw_pile": 86, "drawn": None}
    assert views[1]["discard"] == "blue 3" and views[1]["draw_pile"] == 85
    after_draw = views[data["actions"].index("card red 4") + 1]
    assert after_draw["drawn"] == "red 4" and after_draw["draw_pile"] == 84
    after_removal = views[data["actions"].index("remove row 1") + 1]
    assert after_removal["players"][0]["shape"] == [2, 3] and after_removal["discard"] == "red 2"
    json.dumps(views)


def test_replay_refuses_a_file_that_does_not_replay(tmp_path, capsys):
    data, _ = _documented_example()
    data["actions"][2] = "card blue 3"  # already the discard
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), "utf-8")
    assert cli.main(["replay", "hilo", str(path)]) == 1
    err = capsys.readouterr().err
    assert "action 3 'card blue 3' does not replay" in err and "the blue 3 is already on the discard pile" in err


def test_a_finished_game_reports_the_winners(tmp_path, capsys):
    from engine.testing import random_playthrough
    import random

    match = random_playthrough(GAME, random.Random(4), ["Ana", "Ben"])
    path = tmp_path / "done.json"
    match.save(path)
    assert cli.main(["replay", "hilo", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert max(report["totals"]) >= 100 and report["winners"] == [
        seat for seat, total in enumerate(report["totals"]) if total == min(report["totals"])]
    assert cli.main(["replay", "hilo", str(path)]) == 0
    assert capsys.readouterr().out.startswith("Game over after")
