"""Excape dice: reading two faces from the table, the notation, the chance outcomes, options."""
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from engine.core import OptionError, ParseError
from engine.excape import ALL_ROLLS, DIE_A, DIE_B, Again, ExcapeGame, Place, Roll, roll_from_faces
from engine.text import Text


def test_the_dice_have_the_published_faces():
    assert DIE_A == ("1", "2", "3", "4", "7", "X")
    assert DIE_B == ("1", "2", "3", "5", "6", "X")


@pytest.mark.parametrize("first, second, roll", [
    ("7", "5", Roll("7", "5")),
    ("5", "7", Roll("7", "5")),   # either order on the table
    ("6", "4", Roll("4", "6")),
    ("x", "3", Roll("X", "3")),   # lower-case x as typed
    (" 2", 1, Roll("2", "1")),    # both dice show 1, 2, 3 and X: the first is taken as die A
    ("1", "2", Roll("1", "2")),
])
def test_roll_from_faces_maps_faces_to_the_dice(first, second, roll):
    assert roll_from_faces(first, second) == roll


@pytest.mark.parametrize("first, second, message", [
    ("4", "7", "4 and 7 cannot come from one die A and one die B: both are faces of die A only (1, 2, 3, 4, 7, X)"),
    ("7", "7", "7 and 7 cannot come from one die A and one die B: both are faces of die A only"),
    ("5", "6", "5 and 6 cannot come from one die A and one die B: both are faces of die B only (1, 2, 3, 5, 6, X)"),
    ("9", "1", "9 is not a face of the Excape dice: they show 1 to 7 and X"),
    ("2", "0", "0 is not a face of the Excape dice"),
])
def test_impossible_faces_are_refused_with_the_reason(first, second, message):
    with pytest.raises(ParseError) as caught:
        roll_from_faces(first, second)
    reason = caught.value.args[0]
    assert reason.startswith(message)
    assert isinstance(reason, Text) and "{" in reason.template  # translatable for the touch screen


def test_thirty_six_equally_likely_rolls():
    assert len(ALL_ROLLS) == 36 == len(set(ALL_ROLLS))
    state = ExcapeGame(3).new_initial_state()
    outcomes = state.chance_outcomes()
    assert {p for _, p in outcomes} == {Fraction(1, 36)}
    with_x = sum(p for roll, p in outcomes if "X" in (roll.a, roll.b))
    assert with_x == Fraction(11, 36)  # the spec's P(at least one X)
    assert sum(p for roll, p in outcomes if roll.a == roll.b == "X") == Fraction(1, 36)


def test_notation_round_trips():
    game = ExcapeGame(3)
    for action in (*ALL_ROLLS, Again(), *(Place(r) for r in range(6))):
        assert game.parse_action(str(action)) == action
    assert game.parse_action("roll 5 7") == Roll("7", "5")
    assert game.parse_action("  PLACE 0 ") == Place(0)


@pytest.mark.parametrize("text, message", [
    ("roll 4 7", "'roll 4 7': 4 and 7 cannot come from one die A and one die B"),
    ("place 6", "'place 6': the rung must be a number from 0 to 5"),
    ("place two", "'place two': the rung must be a number from 0 to 5"),
    ("keep", "cannot read 'keep' (expected 'roll A B', 'again' or 'place RUNG')"),
    ("roll 4", "cannot read 'roll 4'"),
    ("", "cannot read ''"),
])
def test_bad_notation_is_named(text, message):
    with pytest.raises(ParseError, match="^excape: " + message.replace("(", r"\(").replace(")", r"\)")):
        ExcapeGame(3).parse_action(text)


def test_options_are_checked():
    assert ExcapeGame(6).options_dict() == {
        "track_length": 21, "double_x_variant": False, "must_beat_lower_rungs": False}
    with pytest.raises(OptionError, match="track_length must be 1 to 100, got 0"):
        ExcapeGame(3, {"track_length": 0})
    with pytest.raises(OptionError, match="did you mean 'double_x_variant'"):
        ExcapeGame(3, {"double_x": True})
    with pytest.raises(OptionError, match="Excape is for 3 to 6 players, not 2"):
        ExcapeGame(2)


def test_the_club_defaults_in_the_configuration_are_the_game_options():
    defaults = tomllib.loads((Path(__file__).resolve().parents[2] / "config" / "default.toml").read_text("utf-8"))
    assert defaults["games"]["excape"] == ExcapeGame(3).options_dict()
