"""Excape rules: the spec's worked examples, the roll-off, turns, the ladder and the options."""
import pytest

from engine.core import CHANCE, TERMINAL, IllegalActionError
from engine.excape import Again, ExcapeGame, Place, Roll, combination_value
from engine.match import Match

NAMES = ["Ana", "Ben", "Cleo", "Dan", "Eve", "Fay"]


def position(game, *, seat=0, phase="decide", roll=("7", "2"), rolls=1, pawns=None, ladder=None):
    """A mid-game position built the way a table reading is: through state_from_dict."""
    n = game.num_players
    return game.state_from_dict({
        "phase": phase, "seat": seat, "pawns": pawns or [0] * n,
        "ladder": [None if entry is None else {"rung": entry[0], "dice": list(entry[1])}
                   for entry in (ladder or [None] * n)],
        "rolls": rolls, "roll": list(roll) if roll else None, "rolloff": None, "bust": None,
    })


def play(state, *lines):
    for line in lines:
        state = state.apply(state.game.parse_action(line))
    return state


def rung_owners(state):
    """Seat -> rung. After a placement the next player has already taken their dice back."""
    return {seat: p.rung for seat, p in enumerate(state.placed) if p is not None}


# --- worked example 1: values, the first-roll exemption, doubles -------------------------------------

@pytest.mark.parametrize("faces, value", [
    (("6", "7"), 76), (("7", "6"), 76), (("1", "4"), 41), (("X", "4"), 40), (("X", "1"), 10), (("X", "X"), 0),
    (("3", "3"), 33),
])
def test_combination_values(faces, value):
    assert combination_value(*faces) == value


def test_first_roll_with_x_counts_zero_and_can_be_placed():
    start = position(ExcapeGame(3), phase="roll", roll=None, rolls=0)
    state = play(start, "roll 4 X")
    assert state.current_player() == 0 and state.roll.value == 40
    assert Place(5) in state.legal_actions()
    double_x = play(start, "roll X X")
    assert double_x.roll.value == 0 and double_x.pawns[0] == 0  # X-X does not move the pawn
    assert Place(1) in double_x.legal_actions()


def test_double_three_moves_the_pawn_three_at_once_and_the_player_still_chooses():
    state = play(position(ExcapeGame(3), phase="roll", roll=None, rolls=0, pawns=[4, 0, 0]), "roll 3 3")
    assert state.pawns[0] == 7 and state.roll.value == 33
    assert state.current_player() == 0 and Again() in state.legal_actions()


@pytest.mark.parametrize("faces, spaces", [("1 1", 1), ("2 2", 2), ("3 3", 3)])
def test_doubles_after_the_first_roll_move_too(faces, spaces):
    state = play(position(ExcapeGame(3), pawns=[5, 0, 0]), "again", f"roll {faces}")
    assert state.pawns[0] == 5 + spaces and state.rolls == 2


# --- worked example 2: busts ----------------------------------------------------------------------

def test_second_roll_with_an_x_ends_the_turn_and_moves_back_one():
    state = play(position(ExcapeGame(3), pawns=[6, 2, 0]), "again", "roll X 5")
    assert state.pawns == (5, 2, 0)
    assert state.seat == 1 and state.current_player() == CHANCE and state.rolls == 0
    assert state.placed[0] is None  # the dice are not placed


def test_double_x_on_a_later_roll_moves_back_two_but_never_behind_start():
    state = play(position(ExcapeGame(3), pawns=[1, 0, 0]), "again", "roll X X")
    assert state.pawns[0] == 0 and state.seat == 1
    state = play(position(ExcapeGame(3), pawns=[9, 0, 0]), "again", "roll 2 2", "again", "roll X X")
    assert state.pawns[0] == 9 + 2 - 2


def test_placing_after_a_bust_is_explained():
    state = play(position(ExcapeGame(3), pawns=[6, 0, 0]), "again", "roll 4 X")
    reason = state.explain_illegal(Place(2))
    assert "a combination with X can only be kept from the first roll" in reason
    assert "player 1 rolled 4 and X on roll 2" in reason
    with pytest.raises(IllegalActionError, match="only be kept from the first roll"):
        state.apply(Place(2))


# --- worked example 3 and 4: dislodging -----------------------------------------------------------

def example_3(game=None):
    """Rung 5 = P2 54, rung 4 = P3 73, rung 2 = P4 64, rung 0 = P5 21; P1 holds 72."""
    game = game or ExcapeGame(5)
    return position(game, roll=("7", "2"), ladder=[
        None, (5, ("4", "5")), (4, ("7", "3")), (2, ("4", "6")), (0, ("2", "1"))])


def test_example_3_seventy_two_on_rung_one_returns_p4_and_p2():
    after = example_3().apply(Place(1))
    assert rung_owners(after) == {0: 1, 2: 4, 4: 0}  # P3 (73) and P5 (rung 0) stay
    assert after.placed[1] is None and after.placed[3] is None


def test_example_3_seventy_two_on_rung_three_returns_only_p2():
    after = example_3().apply(Place(3))
    assert rung_owners(after) == {0: 3, 2: 4, 3: 2, 4: 0}


def test_example_4_a_tie_on_a_higher_rung_is_returned():
    state = position(ExcapeGame(3), roll=("4", "6"), ladder=[None, (3, ("4", "6")), None])
    assert rung_owners(state.apply(Place(1))) == {0: 1}


def test_lower_rungs_and_higher_values_stay():
    state = position(ExcapeGame(5), roll=("4", "3"),
                     ladder=[None, None, (1, ("2", "1")), (5, ("7", "5")), (0, ("1", "1"))])
    assert rung_owners(state.apply(Place(3))) == {0: 3, 2: 1, 3: 5, 4: 0}


def test_rung_zero_holds_any_number_and_dislodges_above_it():
    state = position(ExcapeGame(5), roll=("7", "6"),
                     ladder=[None, None, (0, ("2", "1")), (0, ("3", "1")), (4, ("4", "5"))])
    assert Place(0) in state.legal_actions()
    assert rung_owners(state.apply(Place(0))) == {0: 0, 2: 0, 3: 0}


def test_an_occupied_rung_is_refused_in_plain_words():
    state = position(ExcapeGame(3), roll=("7", "3"), ladder=[None, (3, ("4", "5")), None])
    assert Place(3) not in state.legal_actions()
    assert state.explain_illegal(Place(3)) == "rung 3 holds player 2's 54: choose an empty rung or rung 0"


# --- worked example 5 and the end of the game -------------------------------------------------------

def test_example_5_win_on_the_advance_before_rolling():
    # P2 on 19 with dice on rung 3; P1 places elsewhere and the turn passes to P2.
    state = position(ExcapeGame(3), roll=("2", "1"), pawns=[0, 19, 0], ladder=[None, (3, ("7", "5")), None])
    after = state.apply(Place(0))
    assert after.current_player() == TERMINAL
    assert after.pawns[1] == 21 and after.outcome().winners == (1,)
    assert after.explain_illegal(Roll("1", "2")) == "the game is over: player 2 reached the exit"


def test_dislodged_dice_mean_no_advance():
    state = position(ExcapeGame(3), roll=("7", "6"), pawns=[0, 19, 0], ladder=[None, (3, ("7", "5")), None])
    after = state.apply(Place(1))
    assert after.current_player() == CHANCE and after.seat == 1 and after.pawns[1] == 19


def test_advance_at_turn_start_takes_the_dice_back():
    state = position(ExcapeGame(3), roll=("2", "1"), pawns=[0, 4, 0], ladder=[None, (5, ("7", "5")), (0, ("3", "3"))])
    after = state.apply(Place(1))
    assert after.seat == 1 and after.pawns[1] == 9 and after.placed[1] is None
    after = play(after, "roll X 1", "place 2")
    assert after.seat == 2 and after.pawns[2] == 0 and after.placed[2] is None  # rung 0: back, no move


def test_a_double_wins_mid_turn():
    state = play(position(ExcapeGame(3), pawns=[19, 0, 0]), "again", "roll 2 2")
    assert state.is_terminal() and state.pawns[0] == 21 and state.outcome().winners == (0,)


def test_no_exact_count_is_needed_on_a_shorter_track():
    game = ExcapeGame(3, {"track_length": 10})
    state = play(position(game, pawns=[8, 0, 0]), "again", "roll 3 3")
    assert state.is_terminal() and state.pawns[0] == 10


# --- choosing the first player --------------------------------------------------------------------

def test_highest_roll_starts_and_x_counts_zero():
    state = play(ExcapeGame(3).new_initial_state(), "roll 7 X", "roll 4 6", "roll 2 1")
    assert state.phase == "roll" and state.seat == 0 and state.rolls == 0  # 70 beats 64 and 21


def test_tied_highest_players_roll_again_until_one_is_ahead():
    state = play(ExcapeGame(4).new_initial_state(), "roll 1 1", "roll 7 6", "roll 3 2", "roll 6 7")
    assert state.phase == "rolloff" and state.rolloff.group == (1, 3) and state.seat == 1
    state = play(state, "roll 4 5", "roll 5 4")  # tied again at 54
    assert state.rolloff.group == (1, 3) and state.rolloff.rolls == ()
    state = play(state, "roll 1 2", "roll 2 3")
    assert state.phase == "roll" and state.seat == 3


def test_play_goes_clockwise_from_the_first_player():
    state = play(ExcapeGame(3).new_initial_state(), "roll 1 1", "roll 7 6", "roll 3 2", "roll 2 1", "place 1")
    assert state.seat == 2
    state = play(state, "roll 2 1", "place 2")
    assert state.seat == 0


def test_the_roll_off_refuses_decisions_in_plain_words():
    state = play(ExcapeGame(3).new_initial_state(), "roll 7 6")
    assert state.explain_illegal(Place(0)) == "the players are still rolling to choose who starts: player 2 rolls next"


# --- options --------------------------------------------------------------------------------------

def test_must_beat_lower_rungs_house_rule():
    ladder = [None, (2, ("4", "6")), None]
    off = position(ExcapeGame(3), roll=("4", "5"), ladder=ladder)
    assert Place(3) in off.legal_actions()
    on = position(ExcapeGame(3, {"must_beat_lower_rungs": True}), roll=("4", "5"), ladder=ladder)
    assert [a.rung for a in on.legal_actions() if isinstance(a, Place)] == [0, 1]
    assert on.explain_illegal(Place(4)) == (
        "rung 2 holds player 2's 64, higher than your 54: with the house rule 'must beat lower rungs' "
        "your dice cannot go above it")
    equal = position(ExcapeGame(3, {"must_beat_lower_rungs": True}), roll=("4", "6"), ladder=ladder)
    assert Place(5) in equal.legal_actions()


def test_double_x_variant_clears_the_whole_ladder_and_only_a_double_x_moves_it():
    game = ExcapeGame(4, {"double_x_variant": True})
    ladder = [None, (0, ("7", "6")), (1, ("7", "5")), (5, ("2", "1"))]
    state = position(game, roll=("X", "X"), ladder=ladder)
    after = state.apply(Place(3))
    assert rung_owners(after) == {0: 3}
    after = play(after, "roll 7 6", "place 0")  # a 76 below does not dislodge the double X
    assert rung_owners(after) == {0: 3, 1: 0}
    after = play(after, "roll X X", "place 1")  # another double X does
    assert rung_owners(after) == {2: 1}


def test_without_the_variant_a_double_x_is_an_ordinary_zero():
    state = position(ExcapeGame(4), roll=("X", "X"), ladder=[None, None, (0, ("7", "6")), (4, ("2", "1"))])
    after = state.apply(Place(3))
    assert rung_owners(after) == {0: 3, 2: 0, 3: 4}
    beaten = position(ExcapeGame(3), seat=1, roll=("1", "2"), ladder=[(4, ("X", "X")), None, None])
    assert rung_owners(beaten.apply(Place(2))) == {1: 2}


# --- plain-words refusals -------------------------------------------------------------------------

def test_typical_mistakes_are_explained():
    deciding = position(ExcapeGame(3), roll=("7", "3"))
    assert deciding.explain_illegal(Roll("1", "2")) == (
        "player 1 has rolled 73 and must first choose: roll again or place it on the ladder")
    assert deciding.explain_illegal(Roll("7", "4")) == (
        "7 and 4 cannot come from one die A and one die B: both are faces of die A only (1, 2, 3, 4, 7, X)")
    assert deciding.explain_illegal(Roll("5", "7")) == "die A has no 5: its faces are 1, 2, 3, 4, 7, X"
    assert deciding.explain_illegal(Place(6)) == "the ladder has rungs 0 to 5, not 6"
    rolling = position(ExcapeGame(3), phase="roll", roll=None, rolls=0)
    assert rolling.explain_illegal(Again()) == "player 1 must roll the dice first"
    assert rolling.explain_illegal(Roll("6", "5")) == (
        "6 and 5 cannot come from one die A and one die B: both are faces of die B only (1, 2, 3, 5, 6, X)")


def test_a_refused_action_leaves_the_match_as_it_was():
    match = Match(ExcapeGame(3), NAMES[:3])
    for line in ("roll 7 6", "roll 4 6", "roll 2 1", "roll 4 5", "place 3"):
        match.push(line)
    before = match.state.to_dict()
    with pytest.raises(IllegalActionError):
        match.push("place 0")
    assert match.state.to_dict() == before and len(match.history) == 5
