"""Excape risk figures and advice. Expected fractions are counted by hand from the dice faces
(die A: 1 2 3 4 7 X, die B: 1 2 3 5 6 X), not computed by the engine."""
from fractions import Fraction

import pytest

from engine.core import Advice, RulesError
from engine.excape import Again, Dislodged, ExcapeGame, Place, advise, risk
from engine.text import Text


def position(game, *, roll, rolls=1, pawns=None, ladder=None, seat=0):
    n = game.num_players
    return game.state_from_dict({
        "phase": "decide", "seat": seat, "pawns": pawns or [0] * n, "rolls": rolls, "roll": list(roll),
        "ladder": [None if e is None else {"rung": e[0], "dice": list(e[1])} for e in (ladder or [None] * n)],
        "rolloff": None, "bust": None,
    })


def example_3():
    """The spec's dislodge example: P1 holds 72; rung 5 = P2 54, rung 4 = P3 73, rung 2 = P4 64, rung 0 = P5 21."""
    return position(ExcapeGame(5), roll=("7", "2"), pawns=[5, 0, 0, 0, 0],
                    ladder=[None, (5, ("4", "5")), (4, ("7", "3")), (2, ("4", "6")), (0, ("2", "1"))])


def test_bust_and_double_x_chances_are_the_specs():
    figures = risk(example_3())
    assert figures.bust == Fraction(11, 36)  # 6 rolls with X on die A, 6 on die B, one counted twice
    assert figures.double_x == Fraction(1, 36)
    assert figures.value == 72 and figures.roll_number == 1 and figures.seat == 0


@pytest.mark.parametrize("roll, improve", [
    (("7", "2"), Fraction(3, 36)),    # 73, 75, 76
    (("4", "X"), Fraction(16, 36)),   # 51 52 53 54 61 62 63 64 41 42 43 71 72 73 75 76
    (("X", "X"), Fraction(25, 36)),   # every roll without an X
    (("7", "6"), Fraction(0)),        # nothing beats 76
])
def test_chance_that_one_more_roll_beats_the_value(roll, improve):
    assert risk(position(ExcapeGame(3), roll=roll)).improve == improve


@pytest.mark.parametrize("pawn, movement", [
    (0, Fraction(1 + 2 + 3, 36)),               # at START an X cannot move the pawn back
    (1, Fraction(1 + 2 + 3 - 10 - 1, 36)),      # X-X only goes back to START
    (5, Fraction(1 + 2 + 3 - 10 - 2, 36)),      # ten rolls with one X, one with two
    (19, Fraction(1 + 2 + 2 - 10 - 2, 36)),     # 3-3 stops at the exit (21)
])
def test_expected_pawn_movement_of_one_more_roll(pawn, movement):
    state = position(ExcapeGame(3), roll=("7", "2"), pawns=[pawn, 0, 0])
    assert risk(state).again_movement == movement


def test_each_legal_rung_with_its_movement_and_what_it_dislodges_now():
    placements = {p.rung: p for p in risk(example_3()).placements}
    assert sorted(placements) == [0, 1, 3]  # rungs 2, 4 and 5 are taken
    assert placements[1].movement == 1 and placements[3].movement == 3 and placements[0].movement == 0
    assert set(placements[1].dislodges) == {Dislodged(1, 5, 54), Dislodged(3, 2, 64)}
    assert placements[3].dislodges == (Dislodged(1, 5, 54),)
    assert set(placements[0].dislodges) == {Dislodged(1, 5, 54), Dislodged(3, 2, 64)}
    assert placements[1].tied_or_beaten == Fraction(4, 36)  # 72 73 75 76


def test_a_guarded_double_x_is_only_threatened_by_a_double_x():
    game = ExcapeGame(3, {"double_x_variant": True})
    figures = risk(position(game, roll=("X", "X")))
    assert {p.tied_or_beaten for p in figures.placements} == {Fraction(1, 36)}
    plain = risk(position(ExcapeGame(3), roll=("X", "X")))
    assert {p.tied_or_beaten for p in plain.placements} == {Fraction(1)}


def test_risk_needs_a_player_deciding():
    with pytest.raises(RulesError, match="for a player who has rolled and is deciding"):
        risk(ExcapeGame(3).new_initial_state())
    assert advise(ExcapeGame(3).new_initial_state()) == []


def test_advice_lists_every_legal_action_best_first_with_exact_values():
    state = example_3()
    advice = advise(state)
    assert all(isinstance(a, Advice) and isinstance(a.value, Fraction) for a in advice)
    assert sorted(str(a.action) for a in advice) == sorted(str(a) for a in state.legal_actions())
    assert [a.value for a in advice] == sorted((a.value for a in advice), reverse=True)
    by_action = {a.action: a for a in advice}
    # rung 3: 3 x (32/36)^4 if it stays, plus P2's lost rung 5 shared over the 4 opponents.
    assert by_action[Place(3)].value == 3 * Fraction(32, 36) ** 4 + Fraction(5, 4)
    assert by_action[Place(0)].value == Fraction(5 + 2, 4)


def test_advice_texts_give_exact_chances_and_what_is_dislodged():
    advice = {a.action: a.text for a in advise(example_3())}
    assert advice[Again()] == (
        "roll again: 11/36 (30.6%) chance of an X (turn over, back one space per X), 1/12 (8.3%) chance of "
        "beating 72; pawn movement from doubles and X: -1/6 (-0.17) on average")
    assert advice[Place(3)] == (
        "rung 3: moves you 3 at your next turn if your 72 is still there; one opponent roll ties or beats it "
        "with chance 1/9 (11.1%); dislodges player 2's 54 on rung 5")
    assert advice[Place(1)].endswith("dislodges player 2's 54 on rung 5 and player 4's 64 on rung 2")
    assert all(isinstance(text, Text) for text in advice.values())


def test_advice_keeps_a_top_roll_high_and_rolls_a_weak_one_again():
    best = advise(position(ExcapeGame(4), roll=("7", "6")))
    assert best[0].action == Place(5)
    weak = advise(position(ExcapeGame(4), roll=("X", "1")))
    assert weak[0].action == Again()


def test_risk_as_json_gives_fractions_and_percentages():
    data = risk(example_3()).to_dict()
    assert data["bust"] == {"fraction": "11/36", "percent": 30.6}
    assert data["improve"] == {"fraction": "1/12", "percent": 8.3}
    assert data["again_movement"] == "-1/6"
    assert data["placements"][2] == {"rung": 3, "movement": 3, "dislodges": [{"seat": 1, "rung": 5, "value": 54}],
                                     "tied_or_beaten": {"fraction": "1/9", "percent": 11.1}}
