"""Dice read by the camera -> ranked candidate outcomes and chains (the players confirm one)."""
import pytest

from assistant.reconcile import (COLOUR_MISS, ZONE_MISS, dice_in, explain, greedy_pairs, likelihood, nothing_new,
                                 table_dice, unmatched, zoned_dice)
from engine import registry
from engine.match import Match
from engine.table import EXCAPE_FACES


def sure(face, others=("1", "2", "3", "4", "5", "6"), p=0.9):
    """A die read with ``p`` on ``face``, the rest spread over the other faces."""
    rest = [f for f in others if f != face]
    return {face: p, **{f: (1 - p) / len(rest) for f in rest}}


def lettered(face):
    return sure(face, EXCAPE_FACES, p=0.97)


def match(game, players, lines=()):
    played = Match(registry.make_game(game, players), [f"P{n}" for n in range(1, players + 1)])
    for line in lines:
        played.push(line)
    return played


def lines(explanation):
    return [[str(a) for a in chain] for chain in explanation.chains]


def test_dice_are_found_at_any_depth_of_a_table_view():
    view = {"dice": ["3", "5"], "players": [{"showing": [{"owner": 1, "dice": ["X", "7"]}]}], "rows": [["ruby 7"]]}
    assert sorted(dice_in(view)) == ["3", "5", "7", "X"]


def test_likelihood_pairs_dice_in_any_order_and_needs_the_same_count():
    seen = [sure("5"), sure("3")]
    assert likelihood(seen, ["3", "5"]) == pytest.approx((0.9 * 0.9 + 0.02 * 0.02) / 2)  # the mean of both pairings
    assert likelihood(seen, ["5", "5"]) == pytest.approx(0.9 * 0.02)
    assert likelihood(seen, ["3", "5", "6"]) == 0.0
    many = [sure("2")] * 10  # beyond exact pairing: greedy, still the right product here
    assert likelihood(many, ["2"] * 10) == pytest.approx(0.9 ** 10)


def test_greedy_pairs_take_the_likeliest_pair_first():
    seen = [{"3": 0.6, "5": 0.4}, {"3": 0.1, "5": 0.9}, {"X": 1.0}]
    assert [("X", "3", "5")[f] for _, f in greedy_pairs(seen, ["X", "3", "5"])] == ["X", "5", "3"]
    assert [d for d, _ in greedy_pairs(seen, ["X", "3", "5"])] == [2, 1, 0]


def test_splitter_roll_ranked_by_reading_and_chance():
    state = Match(registry.make_game("splitter", 2), ["Ana", "Ben"]).state
    [first, *rest] = explain(state, [sure("5"), sure("3")])
    assert str(first) == "roll 3 5" and first.share > 0.5
    assert all(c.share * 10 < first.share for c in rest)  # 0.9 x 0.9 against 0.9 x 0.02 at best
    # a double is half as likely as a pair of different faces, but with one die surely a 3, a 3-4
    # can only be that die's 3 and the other's 4: as likely as a 3-3
    torn = explain(state, [{"3": 1.0}, {"3": 0.5, "4": 0.5}])[:2]
    assert [str(c) for c in torn] == ["roll 3 3", "roll 3 4"]  # the two best
    assert [c.share for c in torn] == pytest.approx([1 / 2, 1 / 2])
    # and when neither die is known, a pair of different faces is the likelier
    unsure = explain(state, [{"3": 0.5, "4": 0.5}, {"3": 0.5, "4": 0.5}])[:2]
    assert [str(c) for c in unsure] == ["roll 3 4", "roll 3 3"]
    assert unsure[0].share == pytest.approx(1 / 2)


def test_hold_up_four_dice_and_excape_lettered_faces():
    holdup = Match(registry.make_game("holdup", 3), ["A", "B", "C"])
    for line in ["draw ruby 1", "draw ruby 2", "draw ruby 3", "draw ruby 4", "draw ruby 5", "draw ruby 6"]:
        holdup.push(line)
    assert str(explain(holdup.state, [sure("6"), sure("1"), sure("4"), sure("1")])[0]) == "roll 1 1 4 6"
    excape = Match(registry.make_game("excape", 3), ["A", "B", "C"]).state
    faces = ("1", "2", "3", "4", "5", "6", "7", "X")
    assert str(explain(excape, [sure("X", faces), sure("7", faces)])[0]) == "roll 7 X"


def test_nothing_is_suggested_away_from_a_roll_or_for_an_impossible_reading():
    state = Match(registry.make_game("splitter", 2), ["Ana", "Ben"]).state
    assert explain(state, [sure("5")]) == []  # one die seen, two rolled
    rolled = state.apply(explain(state, [sure("5"), sure("3")])[0].actions[0])
    assert explain(rolled, [sure("5"), sure("3")]) == []  # players are writing: no roll now


def test_an_excape_x_on_a_re_roll_is_explained_by_rolling_again_and_the_bust():
    deciding = match("excape", 3, ["roll 7 6", "roll 4 6", "roll 2 1", "roll 4 3"]).state  # P1 rolled 43
    [best, *rest] = explain(deciding, [lettered("X"), lettered("2")])
    # the engine ends the turn on the X (its view no longer shows the dice), yet they explain the
    # reading; die A's X with die B's 2, or the other way round, is one table and one explanation
    assert lines(best) == [["again", "roll 2 X"], ["again", "roll X 2"]]
    assert best.share > 0.9 and all(e.actions[0] == best.actions[0] for e in rest)
    assert deciding.apply(best.actions[0]).apply(best.actions[1]).to_dict()["bust"]["dice"] == ["2", "X"]


def test_every_roll_of_the_roll_off_is_explained_even_the_last_of_a_round():
    rolloff = match("excape", 3)
    for line, faces in [("roll 7 6", ["7", "6"]), ("roll 4 6", ["4", "6"]), ("roll 7 6", ["7", "6"])]:
        seen = [lettered(f) for f in table_dice(rolloff.state) + faces]
        assert str(explain(rolloff.state, seen)[0]) == line
        rolloff.push(line)
    # P1 and P3 tied on 76: the round's dice are gone from the engine's view, the tie-break is rolled afresh
    assert rolloff.state.phase == "rolloff" and table_dice(rolloff.state) == []
    assert str(explain(rolloff.state, [lettered("3"), lettered("5")])[0]) == "roll 3 5"


def test_a_hold_up_re_roll_is_the_decision_then_its_outcome():
    deals = [f"draw ruby {n}" for n in range(1, 7)]
    deciding = match("holdup", 3, [*deals, "roll 1 2 3 4"]).state
    [best, *rest] = explain(deciding, [sure("6"), sure("6"), sure("1"), sure("2")])
    assert lines(best) == [["reroll", "roll 1 2 6 6"]]
    # keeping is no re-roll: the next player's roll is not offered in its place
    assert all(str(e.actions[0]) == "reroll" for e in rest)


def test_a_reading_of_the_table_as_it_is_or_of_some_of_its_dice_is_nothing_new():
    writing = match("splitter", 2, ["roll 3 5"]).state  # the dice lie there while players write
    for seen in ([sure("5"), sure("3")], [sure("3")], []):
        assert nothing_new(writing, seen) and explain(writing, seen) == []
    assert not nothing_new(writing, [sure("5"), sure("4")])
    assert explain(writing, [sure("5"), sure("4")]) == []  # a new roll before the sheets are written: nothing legal


def test_only_re_rolls_come_before_a_roll():
    # the last sheet written then the next roll would explain the dice, but the camera cannot
    # know where it was written: no chain through a write
    last_to_write = match("splitter", 2, ["roll 3 5", "P1 writes 3 at (2,0) and 5 at (5,0)"]).state
    assert explain(last_to_write, [sure("2"), sure("4")]) == []
    # placing on the ladder passes the turn: the next player's roll is not taken for a re-roll
    deciding = match("excape", 3, ["roll 7 6", "roll 4 6", "roll 2 1", "roll 4 3"]).state
    assert explain(deciding, [lettered("4"), lettered("3"), lettered("5"), lettered("1")]) == []


# --- on a mat whose zones say where dice lie (Excape's rungs and roll area) ---------------------

def test_a_table_view_names_the_mat_zone_of_each_die():
    deciding = match("excape", 3, ["roll 7 6", "roll 4 6", "roll 2 1", "roll 4 3"]).state  # P1 rolled 43
    assert sorted(zoned_dice(deciding.table_view())) == [("3", "roll"), ("4", "roll")]
    placed = deciding.apply(deciding.game.parse_action("place 3"))
    assert sorted(zoned_dice(placed.table_view())) == [("3", "ladder.3"), ("4", "ladder.3")]


def test_dice_moved_onto_a_rung_are_that_placement_and_off_a_mat_nothing_new():
    deciding = match("excape", 3, ["roll 7 6", "roll 4 6", "roll 2 1", "roll 4 3"]).state
    seen = [lettered("4"), lettered("3")]
    [best, *rest] = explain(deciding, seen, zones=["ladder.3", "ladder.3"])
    assert str(best) == "place 3" and best.share > 0.99
    # read in the roll area they still lie as rolled; without zones the camera cannot tell
    assert explain(deciding, seen, zones=["roll", "roll"]) == [] and explain(deciding, seen) == []
    # one die on rung 3, the other on rung 2: no placement fits both, rung 3 and 2 share the doubt
    split = explain(deciding, seen, zones=["ladder.3", "ladder.2"])
    assert {str(e) for e in split[:2]} == {"place 3", "place 2"} and split[0].share < 0.6


def test_a_placement_and_the_next_roll_seen_at_once_are_one_chain():
    deciding = match("excape", 3, ["roll 7 6", "roll 4 6", "roll 2 1", "roll 4 3"]).state
    seen = [lettered("4"), lettered("3"), lettered("5"), lettered("1")]
    [best, *_] = explain(deciding, seen, zones=["ladder.5", "ladder.5", "roll", "roll"])
    assert lines(best)[0] == ["place 5", "roll 1 5"] and best.share > 0.9


def test_a_bust_thrown_into_the_roll_area_is_no_placement():
    deciding = match("excape", 3, ["roll 7 6", "roll 4 6", "roll 2 1", "roll 4 3"]).state
    # the re-roll's X ends the turn at once; its dice still lie in the roll area
    [best, *_] = explain(deciding, [lettered("X"), lettered("2")], zones=["roll", "roll"])
    assert lines(best)[0] == ["again", "roll 2 X"] and best.share > 0.9
    # read on rung 4 they are the roll kept there, not a bust thrown onto the ladder
    assert str(explain(deciding, [lettered("4"), lettered("3")], zones=["ladder.4", "ladder.4"])[0]) == "place 4"


def test_a_die_read_in_another_zone_than_the_table_lays_it_weighs_less():
    seen = [{"4": 1.0}, {"3": 1.0}]
    assert likelihood(seen, ["4", "3"], ["roll", "roll"], ["roll", "roll"]) == pytest.approx(0.5)
    assert likelihood(seen, ["4", "3"], ["roll", "ladder.2"], ["roll", "roll"]) == pytest.approx(0.5 * ZONE_MISS)
    assert likelihood(seen, ["4", "3"], ["roll", "ladder.2"], [None, None]) == pytest.approx(0.5)  # anywhere


def test_a_die_of_another_colour_than_its_owners_weighs_less_and_whose_dice_rolled_is_seen():
    seen = [{"4": 1.0}, {"3": 1.0}]
    assert likelihood(seen, ["4", "3"], colours=["red", "red"], whose=["red", "red"]) == pytest.approx(0.5)
    assert likelihood(seen, ["4", "3"], colours=["red", "blue"], whose=["red", "red"]) == \
        pytest.approx(0.5 * COLOUR_MISS)
    assert likelihood(seen, ["4", "3"], colours=["red", "blue"], whose=[None, None]) == pytest.approx(0.5)  # nobody's
    assert likelihood(seen, ["4", "3"], colours=["red", ""], whose=["red", "red"]) == pytest.approx(0.5)  # unnamed
    colours = ("red", "blue", "yellow")
    # P1 (red) deciding with 4 3 in the roll area; on the mat the roll may be kept on a rung and P2 (blue) roll
    deciding = match("excape", 3, ["roll 7 6", "roll 4 6", "roll 2 1", "roll 4 3"]).state
    dice, zones = [lettered("4"), lettered("3"), lettered("X"), lettered("5")], ["ladder.3", "ladder.3", "roll", "roll"]
    [red, *_] = explain(deciding, dice, zones=zones, colours=["red", "red", "red", "red"], seat_colours=colours)
    [blue, *_] = explain(deciding, dice, zones=zones, colours=["red", "red", "blue", "blue"], seat_colours=colours)
    assert lines(blue)[0] == ["place 3", "roll X 5"] and blue.fit > 0.99
    assert red.fit <= COLOUR_MISS  # P1's own dice thrown again after placing them: nothing fits


def test_dice_alike_of_several_owners_fit_when_each_is_read_in_its_owners_colour():
    four = ("red", "blue", "yellow", "green")
    rolloff = match("excape", 4, ["roll 3 3"] * 3).state  # three seats' 3 and 3 lie; the fourth rolls
    colours = [colour for colour in four for _ in range(2)]
    [best, *_] = explain(rolloff, [lettered("3")] * 8, colours=colours, seat_colours=four)
    assert str(best) == "roll 3 3" and best.fit == pytest.approx(1.0)  # not 16 of the 8! pairings
    [swapped, *_] = explain(rolloff, [lettered("3")] * 8, colours=colours[2:] + colours[:2], seat_colours=four)
    assert swapped.fit == pytest.approx(1.0)  # dice alike lie in any order
    [odd, *_] = explain(rolloff, [lettered("3")] * 8, colours=colours[:-1] + ["red"], seat_colours=four)
    assert odd.fit <= COLOUR_MISS  # three red dice: one is not where its owner's are


def test_the_dice_read_of_a_named_colour_are_matched_with_the_table_first():
    rolloff = match("excape", 3, ["roll 3 4", "roll 3 5"]).state  # red's 3 4 and blue's 3 5 lie
    seen = [lettered(face) for face in "3345"]
    assert unmatched(rolloff, seen, (), ("", "red", "red", "blue"), ("red", "blue", "yellow")) == []
    assert unmatched(rolloff, seen, (), ("yellow", "red", "red", "blue"), ("red", "blue", "yellow")) == [0]


def test_a_crowded_ladder_read_on_the_mat_is_paired_greedily_and_its_placement_found():
    import random

    played, rng = match("excape", 6), random.Random(4)
    while not (not played.state.is_chance_node() and len(table_dice(played.state)) > 8):  # beyond EXACT_UP_TO
        state = played.state
        played.push(state.sample_chance(rng) if state.is_chance_node() else
                    max(state.legal_actions(), key=lambda a: str(a).startswith("place")))
    state = played.state
    place = next(a for a in state.legal_actions() if str(a).startswith("place"))
    table = zoned_dice(state.apply(place).table_view())
    [best, *_] = explain(state, [lettered(face) for face, _ in table], zones=[zone for _, zone in table])
    assert best.actions == (place,) and best.fit == 1.0


def test_on_the_mat_a_die_unseen_on_the_ladder_leaves_the_roll_read_but_an_unseen_rolled_die_does_not():
    placed = match("excape", 3, ["roll 7 6", "roll 4 6", "roll 2 1", "roll 4 3", "place 3"]).state  # P2 to roll
    # P1's 3 on rung 3 goes unseen (the reader misses it there): the roll in the roll area is read whole
    [best, *_] = explain(placed, [lettered("4"), lettered("5"), lettered("1")], zones=["ladder.3", "roll", "roll"])
    assert str(best) == "roll 1 5" and best.share > 0.9
    # a die of the roll itself unseen: only a roll with a ladder die read in the roll area explains
    # one die thrown, which fits too poorly to be applied (see ZONE_MISS)
    explained = explain(placed, [lettered("4"), lettered("3"), lettered("5")], zones=["ladder.3", "ladder.3", "roll"])
    assert explained and all(e.fit <= ZONE_MISS for e in explained)
