"""Excape reports: `table-assistant replay excape FILE`, the summary, the description and the
table view the camera is compared with."""
import json


from assistant import cli
from engine.excape import ExcapeGame
from engine.match import Match

NAMES = ["Ana", "Ben", "Cleo"]
# Ana starts (76); she keeps 52 on rung 5, Ben's 61 on rung 3 dislodges it, Cleo busts on roll 2.
OPENING = ["roll 7 6", "roll 4 6", "roll 2 1", "roll 2 5", "place 5", "roll 1 6", "place 3",
           "roll 4 X", "again", "roll X 5"]


def saved_match(tmp_path, lines, options=None):
    match = Match(ExcapeGame(3, options), NAMES)
    for line in lines:
        match.push(line)
    path = tmp_path / "excape.json"
    match.save(path)
    return path


def test_replay_json_reports_pawns_ladder_and_whose_turn(tmp_path, capsys):
    path = saved_match(tmp_path, OPENING)
    assert cli.main(["replay", "excape", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "excape" and report["players"] == NAMES and report["actions"] == len(OPENING)
    assert report["turn"] == 0 and report["phase"] == "roll" and report["winner"] is None
    assert report["pawns"] == [0, 0, 0]
    assert report["ladder"]["3"] == {"owner": 1, "dice": ["1", "6"]} and report["ladder"]["5"] == "empty"
    assert report["last_bust"] == {"seat": 2, "dice": ["X", "5"], "roll_number": 2}


def test_replay_names_the_winner(tmp_path, capsys):
    # Track of 3: Ana keeps 76 on rung 3, Ben and Cleo place on rung 0 below it without beating it.
    lines = ["roll 7 6", "roll 4 6", "roll 2 1", "roll 7 6", "place 3", "roll 2 1", "place 0", "roll 3 1", "place 0"]
    path = saved_match(tmp_path, lines, {"track_length": 3})
    assert cli.main(["replay", "excape", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["winner"] == 0 and report["phase"] == "over" and report["pawns"][0] == 3
    assert cli.main(["replay", "excape", str(path)]) == 0
    assert "Ana reached the exit and wins" in capsys.readouterr().out


def test_replay_refuses_a_line_that_breaks_the_rules(tmp_path, capsys):
    path = saved_match(tmp_path, OPENING)
    data = json.loads(path.read_text("utf-8"))
    data["actions"].append("place 2")
    path.write_text(json.dumps(data), "utf-8")
    assert cli.main(["replay", "excape", str(path)]) == 1
    assert "action 11 'place 2' does not replay" in capsys.readouterr().err


def test_describe_is_readable():
    match = Match(ExcapeGame(3), NAMES)
    for line in OPENING:
        match.push(line)
    assert match.state.describe(NAMES).splitlines() == [
        "Ana's turn: first roll (an X counts 0)",
        "Cleo rolled X and 5 on roll 2: turn over, back one space per X",
        "Pawns (the exit is 21): Ana at START, Ben at START and Cleo at START",
        "Ladder: rung 3: Ben's 61",
    ]
    match.push("roll 3 3")
    assert match.state.describe(NAMES).splitlines()[0] == (
        "Ana rolled 3 and 3 (value 33) on roll 1, and the double moved the pawn 3 at once: roll again or place it")


def test_describe_during_a_roll_off_tie():
    state = ExcapeGame(3).new_initial_state()
    for line in ("roll 7 6", "roll 2 1", "roll 6 7"):
        state = state.apply(state.game.parse_action(line))
    assert state.describe(NAMES).splitlines()[0] == "Tie for the highest roll: Ana and Cleo roll again, Ana first"


def test_table_view_shows_pawns_rungs_and_dice_in_hand():
    match = Match(ExcapeGame(3), NAMES)
    for line in OPENING[:6]:
        match.push(line)
    view = match.state.table_view()
    assert view["pawns"] == [0, 0, 0] and view["track_length"] == 21
    assert view["ladder"] == {"0": [], "1": "empty", "2": "empty", "3": "empty", "4": "empty",
                              "5": {"owner": 0, "dice": ["2", "5"]}}
    assert view["in_hand"] == [1, 2]
    assert view["showing"] == [{"owner": 1, "dice": ["1", "6"]}]
    rolloff = ExcapeGame(3).new_initial_state().apply(ExcapeGame(3).parse_action("roll 7 X"))
    assert rolloff.table_view()["showing"] == [{"owner": 0, "dice": ["7", "X"]}]


def test_a_roll_that_ends_the_turn_or_the_roll_off_still_lies_where_it_fell():
    game = ExcapeGame(3)
    match = Match(game, NAMES)
    for line in ("roll 7 6", "roll 4 6"):
        match.push(line)
    last = game.parse_action("roll 2 1")  # the roll-off's last roll: Ana starts at once
    assert match.state.apply(last).table_view()["showing"] == []
    assert match.state.table_after(last)["showing"] == [
        {"owner": 0, "dice": ["7", "6"]}, {"owner": 1, "dice": ["4", "6"]}, {"owner": 2, "dice": ["2", "1"]}]
    for line in ("roll 2 1", "roll 4 3", "again"):
        match.push(line)
    bust = game.parse_action("roll X 2")  # an X on a re-roll: Ben's turn at once
    assert match.state.apply(bust).table_view()["showing"] == []
    assert match.state.table_after(bust)["showing"] == [{"owner": 0, "dice": ["X", "2"]}]
    kept = game.parse_action("roll 2 3")  # shown by the position after it
    assert match.state.table_after(kept) == match.state.apply(kept).table_view()
