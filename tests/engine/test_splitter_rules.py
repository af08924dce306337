"""Splitter rules: the 22-turn worked example, simultaneous writing, notation, referee messages,
positions read back, reports and the `replay` command; the game on paper (the kiosk keeps the
22 rolls, then each sheet is entered as placements of those rolls, in any order)."""
import json
import random
import re
from fractions import Fraction

import pytest

from assistant import cli
from engine.core import CHANCE, SIMULTANEOUS, TERMINAL, IllegalActionError, InvalidStateError, OptionError, ParseError
from engine.match import Match
from engine.testing import check_game
from engine.splitter import Place, Roll, SplitterGame, advise
from engine.splitter.pads import position

# Rule example 4: dice "a b", then the number written in the left-hand cell and that cell "n x y".
EXAMPLE_GAME = """\
4 1|4 2 1   1 2|1 3 2   5 3|5 3 1   6 2|6 1 5   2 5|2 0 2   4 3|4 2 4
4 1|4 3 6   5 4|5 2 6   4 2|4 2 3   1 5|1 0 3   5 1|5 0 4   4 5|4 1 1
4 1|4 3 4   4 3|4 2 0   1 6|1 2 5   5 3|5 3 3   1 3|1 3 0   1 3|1 1 3
6 2|6 2 2   2 2|2 1 4   2 1|2 1 2   5 4|5 3 5
"""


def example_lines():
    lines = []
    for a, b, n, x, y in re.findall(r"(\d) (\d)\|(\d) (\d) (\d)", EXAMPLE_GAME):
        other = b if n == a else a
        lines += [f"roll {a} {b}", f"P1 writes {n} at ({x},{y}) and {other} at ({7 - int(x)},{y})"]
    return lines


def rolled(game, dice="roll 1 4"):
    return game.new_initial_state().apply(game.parse_action(dice))


def test_the_22_turn_example_game_replays_to_15():
    match = Match(SplitterGame(1), ["Ana"])
    for line in example_lines():
        match.push(line)
    assert len(match.history) == 44
    assert match.state.is_terminal()
    assert match.state.outcome().scores == (15.0,) and match.state.outcome().winners == (0,)
    assert match.state.breakdown(0).total == 15


def test_a_turn_is_a_roll_then_every_player_writing_in_any_order():
    game = SplitterGame(3)
    state = game.new_initial_state()
    assert state.current_player() == CHANCE and state.roller() == 0
    state = state.apply(Roll(6, 2))
    assert state.roll == Roll(2, 6) and state.current_player() == SIMULTANEOUS
    assert state.waiting_for() == (0, 1, 2)
    for seat in (2, 0):
        action = Place(seat, 0, 2, 6, 2)
        assert state.acting_player(action) == seat
        state = state.apply(action)
    assert state.waiting_for() == (1,) and state.current_player() == SIMULTANEOUS
    state = state.apply(Place(1, 3, 3, 2, 6))
    assert state.current_player() == CHANCE and state.turn == 1 and state.roll is None
    assert state.roller() == 1  # the roller moves on
    assert state.sheets[1][position(3, 3)] == 2 and state.sheets[1][position(4, 3)] == 6


def test_legal_placements_for_each_player():
    game = SplitterGame(2)
    state = rolled(game)
    assert len(state.legal_actions()) == 2 * 22 * 2  # two players, 22 pairs, two ways round
    mine = [a for a in state.legal_actions() if a.player == 1]
    assert {(a.left, a.right) for a in mine} == {(1, 4), (4, 1)}
    assert all(0 <= a.x <= 3 for a in mine)
    doubles = rolled(game, "roll 3 3")
    assert len([a for a in doubles.legal_actions() if a.player == 0]) == 22


def test_every_sheet_is_full_after_22_turns():
    game = SplitterGame(2, {"pad": "B"})
    state = game.new_initial_state()
    while not state.is_terminal():
        state = state.apply(state.legal_actions()[0] if not state.is_chance_node() else Roll(2, 5))
    assert state.turn == 22 and all(0 not in (sheet[p] for p in game.pad.cells) for sheet in state.sheets)
    assert state.current_player() == TERMINAL and state.legal_actions() == ()


def test_equal_scores_share_the_win():
    game = SplitterGame(3)
    state = game.new_initial_state()
    while not state.is_terminal():  # P1 and P3 write alike, P2 its own way
        if state.is_chance_node():
            state = state.apply(Roll(1 + state.turn % 6, 1 + state.turn % 5))
        else:
            seat = state.waiting_for()[0]
            mine = [a for a in state.legal_actions() if a.player == seat]
            state = state.apply(mine[min(1, len(mine) - 1)] if seat == 1 else mine[0])
    scores = state.outcome().scores
    assert scores[0] == scores[2] > scores[1]
    assert state.outcome().winners == (0, 2)
    assert state.summary()["winners"] == list(state.outcome().winners)


def test_chance_outcomes_are_the_21_rolls_of_two_dice():
    outcomes = dict(SplitterGame(1).new_initial_state().chance_outcomes())
    assert len(outcomes) == 21 and sum(outcomes.values()) == 1
    assert outcomes[Roll(5, 5)] == Fraction(1, 36) and outcomes[Roll(2, 5)] == Fraction(1, 18)


# --- notation -----------------------------------------------------------------------------------

def test_notation_reads_back():
    game = SplitterGame(12)
    for action in (Roll(4, 1), Place(11, 2, 1, 4, 1), Place(0, 3, 6, 5, 5)):
        assert game.parse_action(str(action)) == action
    assert str(Place(1, 2, 1, 4, 1)) == "P2 writes 4 at (2,1) and 1 at (5,1)"
    assert str(Roll(4, 1)) == "roll 1 4"


def test_naming_the_right_hand_cell_first_is_the_same_placement():
    game = SplitterGame(1)
    assert game.parse_action("P1 writes 1 at (5,1) and 4 at (2,1)") == Place(0, 2, 1, 4, 1)
    assert Place(0, 5, 1, 1, 4) == Place(0, 2, 1, 4, 1)


@pytest.mark.parametrize("line, message", [
    ("P1 writes 4 at (2,1) and 1 at (5,2)", "(5,2) is not the mirror of (2,1)"),
    ("P1 writes 4 at (2,1) and 1 at (4,1)", "(4,1) is not the mirror of (2,1)"),
    ("P0 writes 4 at (2,1) and 1 at (5,1)", "players are numbered from P1"),
    ("roll 4", "cannot read 'roll 4'"),
    ("P1 4 1 2 1", "cannot read"),
])
def test_unreadable_lines_say_what_is_wrong(line, message):
    with pytest.raises(ParseError, match=re.escape(message)):
        SplitterGame(1).parse_action(line)


# --- the referee --------------------------------------------------------------------------------

def explain(state, action):
    reason = state.explain_illegal(action)
    with pytest.raises(IllegalActionError) as error:
        state.apply(action)
    assert error.value.reason == reason
    return reason


def test_typical_mistakes_are_explained():
    game = SplitterGame(2)
    start = game.new_initial_state()
    assert explain(start, Place(0, 2, 1, 4, 1)) == "roll the dice first: turn 1 has no roll yet"
    state = start.apply(Roll(1, 4))
    assert explain(state, Place(0, 2, 1, 4, 4)) == \
        "the dice show 1 and 4: write those two numbers, not 4 and 4"
    assert explain(state, Roll(2, 3)) == \
        "the dice already show 1 and 4: every player writes them before the next roll"
    assert explain(state, Place(0, 0, 0, 1, 4)) == "pad A has no cell at (0,0)"
    assert explain(state, Place(0, 2, 7, 1, 4)) == "(2,7) is off the sheet: columns are 0 to 7 and rows 0 to 6"
    assert explain(state, Place(2, 2, 1, 1, 4)) == "there is no P3 in this game of 2 players"
    state = state.apply(Place(0, 2, 1, 4, 1))
    assert explain(state, Place(0, 3, 1, 4, 1)) == "P1 has already written this turn's 1 and 4"
    state = state.apply(Place(1, 2, 1, 1, 4)).apply(Roll(2, 2))
    assert explain(state, Place(0, 2, 1, 2, 2)) == "(2,1) and (5,1) are already filled on P1's sheet"
    assert explain(state, Roll(9, 2)) == \
        "the dice already show 2 and 2: every player writes them before the next roll"


def test_impossible_dice_and_foreign_actions_are_explained():
    from toy_game import Roll as ToyRoll
    start = SplitterGame(1).new_initial_state()
    assert explain(start, Roll(0, 7)) == "a die shows 1 to 6, not 0"
    assert explain(start, ToyRoll(3)) == "that is not a Splitter action"


def test_nothing_is_allowed_once_the_game_is_over():
    match = Match(SplitterGame(1), ["Ana"])
    for line in example_lines():
        match.push(line)
    assert explain(match.state, Roll(1, 1)) == "the game is over: all 22 turns have been played"


# --- options ------------------------------------------------------------------------------------

def test_pad_option():
    assert SplitterGame(1, {"pad": "B"}).pad.hearts
    with pytest.raises(OptionError, match="'pad' is 'A' or 'B', not 'C'"):
        SplitterGame(1, {"pad": "C"})
    with pytest.raises(OptionError, match="1 to 12 players, not 13"):
        SplitterGame(13)


# --- positions from files and the table ----------------------------------------------------------

def midgame():
    game = SplitterGame(2)
    state = rolled(game).apply(Place(0, 2, 1, 4, 1)).apply(Place(1, 0, 2, 1, 4)).apply(Roll(3, 5))
    return game, state.apply(Place(1, 3, 3, 5, 3))


def test_positions_read_back():
    game, state = midgame()
    data = json.loads(json.dumps(state.to_dict()))
    assert data["sheets"][0][1] == "00400100" and data["roll"] == [3, 5]
    assert game.state_from_dict(data) == state


def test_positions_may_give_sheets_as_grids_of_numbers():
    game, state = midgame()
    data = state.to_dict()
    data["sheets"] = [[[int(c) for c in row] for row in rows] for rows in data["sheets"]]
    assert game.state_from_dict(data) == state


def corrupt(change):
    game, state = midgame()
    data = json.loads(json.dumps(state.to_dict()))
    change(data)
    with pytest.raises(InvalidStateError) as error:
        game.state_from_dict(data)
    return str(error.value)


def test_inconsistent_positions_are_refused_naming_the_field():
    assert corrupt(lambda d: d.update(pad="B")).startswith("pad: this game is played on pad A")
    assert corrupt(lambda d: d.update(turn=23)).startswith("turn: turns played are 0 to 22")
    assert corrupt(lambda d: d.update(roll=[3, 7])).startswith("roll: expected null or two dice 1 to 6")
    assert corrupt(lambda d: d.pop("roll")) == "roll: missing"
    assert corrupt(lambda d: d["sheets"].pop()).startswith("sheets: 2 players need 2 sheets, not 1")
    assert corrupt(lambda d: d.update(roll=None)).startswith(
        "sheets[1]: holds 2 pairs, but after 1 turns it should hold 1")
    assert corrupt(lambda d: d.update(roll=[2, 6])).startswith(
        "sheets[1]: has written this turn but no pair holds the roll 2 6")
    assert corrupt(lambda d: d["sheets"][0].__setitem__(1, "00400000")).startswith(
        "sheets[0]: row 1, columns 2 and 5: a mirrored pair is filled together")
    assert corrupt(lambda d: d["sheets"][0].__setitem__(0, "50000000")).startswith(
        "sheets[0]: row 0, column 0: pad A has no cell there")
    assert corrupt(lambda d: d["sheets"][0].__setitem__(1, "004x0100")).startswith(
        "sheets[0]: row 1, column 3: 'x' is not a whole number")


def test_a_roll_everyone_has_written_is_refused():
    game, state = midgame()
    data = state.apply(Place(0, 1, 1, 3, 5)).to_dict()
    assert data["turn"] == 2 and data["roll"] is None
    data.update(turn=1, roll=[3, 5])
    with pytest.raises(InvalidStateError, match="^roll: every sheet already holds this roll"):
        game.state_from_dict(data)


def test_returns_are_the_running_totals():
    game, state = midgame()
    # P1: 4 at (2,1), 1 at (5,1): one lone 1. P2: 1 at (0,2) and 4 at (7,2), 5 at (3,3) and 3 at (4,3)
    assert state.returns() == (1.0, 1.0)
    assert state.outcome() is None


# --- reports ------------------------------------------------------------------------------------

def test_table_view_summary_and_description():
    game, state = midgame()
    assert state.table_view()["dice"] == ["3", "5"]
    summary = json.loads(json.dumps(state.summary()))
    assert summary["phase"] == "write" and summary["turn"] == 2 and summary["roller"] == 1
    assert summary["waiting_for"] == [0] and summary["scores"] == [1, 1] and summary["winners"] == []
    text = state.describe(["Ana", "Ben"])
    assert text.splitlines() == ["Splitter, pad A: turn 2 of 22.",
                                 "Ben rolled 3 and 5; still to write them: Ana.",
                                 "Scores so far: Ana 1, Ben 1."]
    assert game.new_initial_state().describe(["Ana", "Ben"]).splitlines()[1] == "Ana rolls the dice."


# --- the `replay` command ----------------------------------------------------------------------


def test_replay_cli_reports_the_example_game(tmp_path, capsys):
    match = Match(SplitterGame(1), ["Ana"])
    for line in example_lines():
        match.push(line)
    path = tmp_path / "game.json"
    match.save(path)
    assert cli.main(["replay", "splitter", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["scores"] == [15] and report["winners"] == [0] and report["phase"] == "over"
    assert report["actions"] == 44
    assert cli.main(["replay", "splitter", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == ["Splitter, pad A: the game is over after 22 turns.",
                                                    "Final scores: Ana 15.", "Winner: Ana."]


def test_replay_cli_names_a_line_that_does_not_replay(tmp_path, capsys):
    match = Match(SplitterGame(1), ["Ana"])
    data = match.to_dict()
    data["actions"] = ["roll 1 4", "P1 writes 4 at (2,1) and 4 at (5,1)"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), "utf-8")
    assert cli.main(["replay", "splitter", str(path)]) == 1
    err = capsys.readouterr().err
    assert "action 2" in err and "the dice show 1 and 4: write those two numbers, not 4 and 4" in err


# --- on paper ----------------------------------------------------------------------------------


def rolled_all(players=2, seed=0, pad="A"):
    """A paper game of ``players`` after 22 seeded rolls."""
    game = SplitterGame(players, {"pad": pad, "paper": True})
    state, rng = game.new_initial_state(), random.Random(seed)
    while state.is_chance_node():
        state = state.apply(state.sample_chance(rng))
    return game, state


def test_the_rolls_come_first_and_no_sheet_is_entered_before_them():
    game = SplitterGame(2, {"paper": True})
    state = game.new_initial_state().apply(Roll(4, 1))
    assert state.current_player() == CHANCE and state.turn == 1 and state.rolls == (Roll(1, 4),)
    assert state.roller() == 1  # the roller still rotates
    reason = state.explain_illegal(Place(0, 2, 1, 4, 1))
    assert "after the 22 rolls" in str(reason)


def test_the_example_game_entered_after_its_rolls_scores_15_in_any_order():
    lines = example_lines()
    rolls, places = lines[0::2], lines[1::2]
    match = Match(SplitterGame(1, {"paper": True}), ["Ana"])
    for line in rolls:
        match.push(line)
    assert match.state.current_player() == SIMULTANEOUS and match.state.waiting_for() == (0,)
    for line in reversed(places):  # the sheet's pairs in any order
        match.push(line)
    assert match.state.current_player() == TERMINAL
    assert match.state.returns() == (15.0,)


def test_a_pair_no_roll_explains_is_refused_and_says_why():
    game, state = rolled_all()
    never = next(Roll(a, b) for a in range(1, 7) for b in range(a, 7) if Roll(a, b) not in state.rolls)
    action = Place(0, 2, 0, never.low, never.high)
    assert not state.is_legal(action)
    assert f"no roll of this game was {never.low} and {never.high}" in str(state.explain_illegal(action))
    with pytest.raises(IllegalActionError):
        state.apply(action)


def test_each_roll_is_written_as_many_times_as_it_was_rolled():
    game, state = rolled_all(players=1, seed=3)
    roll = max(set(state.rolls), key=state.rolls.count)
    count = state.rolls.count(roll)
    cells = [pair for pair in state.empty_pairs(0)]
    for left, right in cells[:count]:
        state = state.apply(Place(0, left % 8, left // 8, roll.low, roll.high))
    left = cells[count][0]
    extra = Place(0, left % 8, left // 8, roll.low, roll.high)
    assert f"were rolled {count} times" in str(state.explain_illegal(extra))
    assert roll not in state.unwritten(0) and len(state.unwritten(0)) == 22 - count


def test_no_more_rolls_once_the_22_are_made_and_no_advice_on_paper():
    game, state = rolled_all()
    assert "all 22 rolls are made" in str(state.explain_illegal(Roll(1, 2)))
    assert advise(state) == []
    assert state.summary()["phase"] == "write" and len(state.summary()["rolls"]) == 22


def test_a_position_on_paper_reads_back_and_bad_ones_are_named():
    game, state = rolled_all(players=2, seed=5)
    state = state.apply(state.legal_actions()[0])
    data = state.to_dict()
    assert game.state_from_dict(data).to_dict() == data
    short = dict(data, rolls=data["rolls"][:-1])
    with pytest.raises(InvalidStateError, match="22 rolls, not 21"):
        game.state_from_dict(short)
    wrong = dict(data, rolls=[[6, 6]] * 22)
    with pytest.raises(InvalidStateError, match="no roll of the game explains"):
        game.state_from_dict(wrong)
    screen = SplitterGame(2)
    with pytest.raises(InvalidStateError, match="only a game on paper lists its rolls"):
        screen.state_from_dict(dict(screen.new_initial_state().to_dict(), rolls=[]))


def test_paper_games_pass_the_invariant_suite():
    # From the start (rolls, then whole sheets entered), and from sheets mostly entered.
    summary = check_game(SplitterGame(1, {"paper": True, "pad": "B"}), games=2, seed=11, apply_limit=3)
    assert summary.games == 2 and summary.illegal_probes > 0

    game, late = rolled_all(players=4, seed=12)
    rng = random.Random(13)
    while min(len(late.unwritten(s)) for s in range(4)) > 3:
        late = late.apply(rng.choice(late.legal_actions()))

    class LateEntry(SplitterGame):
        def new_initial_state(self):
            return type(late)(self, late.sheets, late.turn, None, late.rolls)

    summary = check_game(LateEntry(4, {"paper": True, "pad": "A"}), games=30, seed=14, apply_limit=3)
    assert summary.games == 30
