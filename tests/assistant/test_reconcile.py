"""Dice read by the camera -> ranked candidate outcomes (the players confirm one)."""
import pytest

from assistant.reconcile import dice_in, likelihood, rank_dice
from engine import registry
from engine.match import Match


def sure(face, others=("1", "2", "3", "4", "5", "6")):
    """A die read with 90% on ``face``, the rest spread over the other faces."""
    rest = [f for f in others if f != face]
    return {face: 0.9, **{f: 0.1 / len(rest) for f in rest}}


def test_dice_are_found_at_any_depth_of_a_table_view():
    view = {"dice": ["3", "5"], "players": [{"showing": [{"owner": 1, "dice": ["X", "7"]}]}], "rows": [["ruby 7"]]}
    assert sorted(dice_in(view)) == ["3", "5", "7", "X"]


def test_likelihood_pairs_dice_in_any_order_and_needs_the_same_count():
    seen = [sure("5"), sure("3")]
    assert likelihood(seen, ["3", "5"]) == pytest.approx(0.81)
    assert likelihood(seen, ["5", "5"]) == pytest.approx(0.9 * 0.02)
    assert likelihood(seen, ["3", "5", "6"]) == 0.0
    many = [sure("2")] * 10  # beyond exact pairing: greedy, still the right product here
    assert likelihood(many, ["2"] * 10) == pytest.approx(0.9 ** 10)


def test_splitter_roll_ranked_by_reading_and_chance():
    state = Match(registry.make_game("splitter", 2), ["Ana", "Ben"]).state
    [first, *rest] = rank_dice(state, [sure("5"), sure("3")])
    assert str(first.action) == "roll 3 5" and first.probability > 0.5
    assert all(c.probability * 10 < first.probability for c in rest)  # 0.9 x 0.9 against 0.9 x 0.02 at best
    # a double is half as likely as a pair of different faces: a reading torn between 3-3 and 3-4
    torn = rank_dice(state, [{"3": 1.0}, {"3": 0.5, "4": 0.5}])
    assert [str(c.action) for c in torn] == ["roll 3 4", "roll 3 3"]  # the two best
    assert torn[0].probability == pytest.approx(2 / 3)


def test_hold_up_four_dice_and_excape_lettered_faces():
    holdup = Match(registry.make_game("holdup", 3), ["A", "B", "C"])
    for line in ["draw ruby 1", "draw ruby 2", "draw ruby 3", "draw ruby 4", "draw ruby 5", "draw ruby 6"]:
        holdup.push(line)
    assert str(rank_dice(holdup.state, [sure("6"), sure("1"), sure("4"), sure("1")])[0].action) == "roll 1 1 4 6"
    excape = Match(registry.make_game("excape", 3), ["A", "B", "C"]).state
    faces = ("1", "2", "3", "4", "5", "6", "7", "X")
    assert str(rank_dice(excape, [sure("X", faces), sure("7", faces)])[0].action) == "roll 7 X"


def test_nothing_is_suggested_away_from_a_roll_or_for_an_impossible_reading():
    state = Match(registry.make_game("splitter", 2), ["Ana", "Ben"]).state
    assert rank_dice(state, [sure("5")]) == []  # one die seen, two rolled
    rolled = state.apply(rank_dice(state, [sure("5"), sure("3")])[0].action)
    assert rank_dice(rolled, [sure("5"), sure("3")]) == []  # players are writing: no chance node
