"""Hold Up 4D6 rules: the spec's worked examples and the rule details around them."""
import itertools
from collections import Counter
from fractions import Fraction

import pytest

from engine.core import CHANCE, TERMINAL, IllegalActionError
from assistant.i18n import translate
from engine.holdup import (Draw, Flip, Gem, HoldUpGame, Keep, Place, Reroll, Roll, Steal, advise, preview)
from engine.holdup.scoring import breakdown

A, B, C, D, E = "diamond 1", "diamond 2", "ruby 5", "emerald 3", "sapphire 7"


def position(game, rows, phase="decide", dice=(), piles=None, gv=None, seat=0, turn=1, rolls=1,
             removed=(), draw=None, **fields):
    """A consistent position: the cards not placed anywhere are in the draw pile (or, when
    ``draw`` is given, only those are and the rest is laid at the end of row 3)."""
    n = game.num_players
    piles = piles or [[] for _ in range(n)]
    deck = Counter({f"{s} {v}": c for s, v, c in game.options.deck})
    used = Counter(card for group in (*rows, *piles, removed) for card in group)
    if fields.get("held"):
        used[fields["held"]] += 1
    rest = deck - used
    rows = [list(r) for r in rows]
    if draw is not None:
        rest_list = list((rest - Counter(draw)).elements())
        rows[2] += rest_list
        rest = Counter(draw)
    in_turn = phase in ("decide", "flip", "draw", "place")
    data = {"phase": phase, "seat": seat, "turn": turn, "rolls": rolls if in_turn else 0, "dice": sorted(dice),
            "rows": rows,
            "draw_pile": [[card.split()[0], int(card.split()[1]), k] for card, k in sorted(rest.items())],
            "piles": piles, "gv": gv or ["VVV"] * n, "removed": list(removed), "short_row": 0, "to_place": 0,
            "held": None, "last_card_by": None, "steals": []}
    data.update(fields)
    return game.state_from_dict(data)


def cards(seq):
    return [str(g) for g in seq]


@pytest.fixture
def game():
    return HoldUpGame(3)


# --- worked examples ----------------------------------------------------------------------------

def test_example_1_captures_rightmost_cards_then_a_five_adds_a_card(game):
    state = position(game, [[A, B], [C], [D, E]], dice=(3, 3, 2, 5))
    after = state.apply(Keep())
    assert cards(after.rows[0]) == [A, B] and after.rows[1] == () and after.rows[2] == ()
    assert sorted(cards(after.piles[0])) == sorted([C, D, E])
    assert after.current_player() == CHANCE and after.phase == "draw" and after.to_place == 1
    outcomes = after.chance_outcomes()
    assert len(outcomes) == 36 - 5 and all(p == Fraction(1, 31) for _, p in outcomes)
    drawn = after.apply(Draw("ruby", 9))
    assert drawn.current_player() == 0 and drawn.legal_actions() == (Place(1), Place(2), Place(3))
    placed = drawn.apply(Place(2))
    assert cards(placed.rows[1]) == ["ruby 9"]
    assert placed.phase == "roll" and placed.seat == 1  # the turn passed


def test_example_2_short_row_captures_nothing_cancels_the_4_but_the_6_still_adds(game):
    state = position(game, [[A, B], [C], [D, E]], dice=(2, 2, 4, 6), gv=["VVV"] * 3)
    after = state.apply(Keep())
    assert cards(after.rows[0]) == [A, B] and cards(after.rows[1]) == [C] and cards(after.rows[2]) == [D, E]
    assert after.piles[0] == () and after.gv[0] == "VVV"
    assert after.phase == "draw" and after.to_place == 1
    reason = after.explain_illegal(Flip((1,)))
    assert "not resolved" in reason and "row 2" in reason


def test_example_3_four_fours_lose_the_top_card_without_flipping(game):
    state = position(game, [[A, B], [C], [D, E]], dice=(4, 4, 4, 4), piles=[["ruby 2", "ruby 8"], [], []])
    after = state.apply(Keep())
    assert cards(after.piles[0]) == ["ruby 2"] and cards(after.removed) == ["ruby 8"]
    assert after.gv[0] == "VVV" and after.seat == 1 and after.phase == "roll"


def test_example_3_variant_lost_card_back_into_the_draw_pile():
    game = HoldUpGame(3, {"lost_card": "draw_pile"})
    state = position(game, [[A, B], [C], [D, E]], dice=(4, 4, 4, 4), piles=[["ruby 2", "ruby 8"], [], []])
    before = state.draw_total()
    after = state.apply(Keep())
    assert cards(after.piles[0]) == ["ruby 2"] and after.removed == ()
    assert after.draw_total() == before + 1


def test_four_fours_with_an_empty_pile_do_nothing(game):
    state = position(game, [[A, B], [C], [D, E]], dice=(4, 4, 4, 4))
    after = state.apply(Keep())
    assert after.piles[0] == () and after.removed == () and after.gv[0] == "VVV"


def test_example_4_end_scoring_by_hand():
    rubies = [Gem("ruby", v) for v in (1, 2, 5, 8)]
    assert breakdown(rubies, "VVV", False, True)["total"] == 1 + 2 + 5 + 8 + 10 + 10
    assert breakdown(rubies, "VVV", True, True)["total"] == 36 - 10


def test_example_4_in_play_placing_the_last_card_ends_the_round_with_the_malus(game):
    # Seat 2 (last of the round) holds four rubies 1, 2, 5, 8 with V V V and places the last card.
    state = position(game, [[A], [], []], phase="draw", seat=2, dice=(1, 4, 5, 6), rolls=1, to_place=2,
                     piles=[[], [], ["ruby 1", "ruby 2", "ruby 5", "ruby 8"]], gv=["VVG", "VGV", "VVV"],
                     draw=["emerald 9"])
    placed = state.apply(Draw("emerald", 9)).apply(Place(1))
    assert placed.is_terminal() and placed.last_card_by == 2
    assert placed.returns()[2] == 26
    score = placed.summary()["scores"][2]
    assert (score["cards"], score["vvv"], score["sets"], score["last_card"], score["total"]) == (16, 10, 10, -10, 26)


# --- turn structure -----------------------------------------------------------------------------

def test_opening_deal_fills_three_rows_of_two_from_the_bottom(game):
    state = game.new_initial_state()
    for card in ("ruby 1", "ruby 2", "ruby 3", "ruby 4", "ruby 5", "ruby 6"):
        assert state.current_player() == CHANCE and state.phase == "deal"
        stone, value = card.split()
        state = state.apply(Draw(stone, int(value)))
    assert [cards(r) for r in state.rows] == [["ruby 1", "ruby 2"], ["ruby 3", "ruby 4"], ["ruby 5", "ruby 6"]]
    assert state.phase == "roll" and state.seat == 0 and state.turn == 1


def test_a_deal_draws_each_remaining_card_with_its_share_of_the_pile():
    game = HoldUpGame(3, {"deck": [["ruby", 1, 3], ["jade", 2, 1], ["onyx", 3, 4]]})
    outcomes = dict(game.new_initial_state().chance_outcomes())
    assert outcomes == {Draw("jade", 2): Fraction(1, 8), Draw("onyx", 3): Fraction(4, 8),
                        Draw("ruby", 1): Fraction(3, 8)}


def test_a_roll_of_four_dice_has_126_outcomes_weighted_over_1296(game):
    state = position(game, [[A, B], [C], [D, E]], phase="roll", turn=1)
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 126 and sum(outcomes.values()) == 1
    assert outcomes[Roll((1, 2, 3, 4))] == Fraction(24, 1296) and outcomes[Roll((6, 6, 6, 6))] == Fraction(1, 1296)
    assert outcomes[Roll((5, 5, 6, 6))] == Fraction(6, 1296)


def test_at_most_four_rolls_and_the_fourth_is_kept_at_once(game):
    state = position(game, [[A, B], [C], [D, E]], phase="roll", turn=1)
    for roll in range(1, 4):
        state = state.apply(Roll((4, 5, 6, 6)))
        assert state.phase == "decide" and state.rolls == roll
        state = state.apply(Reroll())
    state = state.apply(Roll((1, 1, 2, 3)))  # the fourth roll: captures at once
    assert sorted(cards(state.piles[0])) == sorted([A, B, C, E])
    assert state.seat == 1 and state.phase == "roll"
    assert "already kept" in position(game, [[A, B], [C], [D, E]], phase="flip", dice=(1, 4, 4, 5),
                                      to_place=1).explain_illegal(Reroll())


def test_one_or_two_fours_let_the_player_choose_different_gv_cards(game):
    one = position(game, [[A, B], [C], [D, E]], dice=(1, 4, 5, 6)).apply(Keep())
    assert one.phase == "flip" and one.current_player() == 0
    assert one.legal_actions() == (Flip((1,)), Flip((2,)), Flip((3,)))
    two = position(game, [[A, B], [C], [D, E]], dice=(1, 4, 4, 5), gv=["GVV", "VVV", "VVV"]).apply(Keep())
    assert two.legal_actions() == (Flip((1, 2)), Flip((1, 3)), Flip((2, 3)))
    flipped = two.apply(Flip((1, 3)))
    assert flipped.gv[0] == "VVG" and flipped.phase == "draw"  # then the 5 adds a card
    assert "different" in two.explain_illegal(Flip((2, 2)))
    assert "exactly 2" in two.explain_illegal(Flip((2,)))
    assert "1 to 3" in two.explain_illegal(Flip((2, 4)))


def test_three_fours_flip_all_three_gv_cards(game):
    after = position(game, [[A, B], [C], [D, E]], dice=(1, 4, 4, 4), gv=["VGV", "VVV", "VVV"]).apply(Keep())
    assert after.gv[0] == "GVG" and cards(after.piles[0]) == [B]


def test_a_row_without_enough_cards_cancels_captures_everywhere(game):
    state = position(game, [[A, B], [C], [D, E]], dice=(1, 3, 3, 3))  # row 3 holds only 2
    after = state.apply(Keep())
    assert after.piles[0] == () and [len(r) for r in after.rows] == [2, 1, 2]


def test_empty_rows_are_refilled_only_by_fives_and_sixes(game):
    state = position(game, [[], [], []], dice=(1, 5, 5, 6))
    after = state.apply(Keep())
    assert after.piles[0] == () and after.phase == "draw" and after.to_place == 3
    for row, card in ((1, ("ruby", 9)), (1, ("ruby", 8)), (3, ("ruby", 7))):
        after = after.apply(Draw(*card)).apply(Place(row))
    assert [cards(r) for r in after.rows] == [["ruby 9", "ruby 8"], [], ["ruby 7"]]
    assert after.seat == 1


def test_the_draw_pile_running_out_mid_turn_stops_the_other_fives(game):
    state = position(game, [[A], [], []], phase="draw", dice=(5, 5, 6, 6), to_place=4, draw=["ruby 9"],
                     gv=["VVG"] * 3)
    after = state.apply(Draw("ruby", 9)).apply(Place(3))
    assert after.last_card_by == 0 and after.draw_total() == 0
    assert after.phase == "roll" and after.seat == 1  # the other three dice do nothing
    assert after.returns()[0] == -10


def test_the_round_is_completed_after_the_last_card(game):
    state = position(game, [[A], [], []], phase="draw", dice=(1, 2, 3, 5), to_place=1, draw=["ruby 9"])
    state = state.apply(Draw("ruby", 9)).apply(Place(1))
    assert state.seat == 1 and not state.is_terminal()
    state = state.apply(Roll((4, 4, 4, 4)))  # seat 1: nothing to lose
    assert state.apply(Keep()).seat == 2
    state = state.apply(Keep()).apply(Roll((4, 4, 4, 4))).apply(Keep())
    assert state.is_terminal() and state.current_player() == TERMINAL and state.turn == 3


def test_without_complete_round_the_game_ends_with_the_last_card():
    game = HoldUpGame(3, {"complete_round": False})
    state = position(game, [[A], [], []], phase="draw", dice=(1, 2, 3, 5), to_place=1, draw=["ruby 9"])
    assert state.apply(Draw("ruby", 9)).apply(Place(1)).is_terminal()


# --- piles and scoring ----------------------------------------------------------------------------

def test_the_pile_is_ordered_by_value_with_the_strongest_on_top(game):
    state = position(game, [["ruby 9", "ruby 1"], ["ruby 6"], [D, E]], dice=(1, 2, 4, 4),
                     piles=[["emerald 2", "emerald 8"], [], []])
    after = state.apply(Keep())
    assert cards(after.piles[0]) == ["ruby 1", "emerald 2", "ruby 6", "emerald 8"]


def test_unsorted_piles_put_each_capture_on_top_strongest_uppermost():
    game = HoldUpGame(3, {"pile_sorted": False})
    state = position(game, [["ruby 9", "ruby 1"], ["ruby 6"], [D, E]], dice=(1, 2, 4, 4),
                     piles=[["emerald 8", "emerald 2"], [], []])
    after = state.apply(Keep())
    assert cards(after.piles[0]) == ["emerald 8", "emerald 2", "ruby 1", "ruby 6"]


def test_set_bonus_per_type_or_at_most_once():
    pile = [Gem(s, v) for s in ("ruby", "jade") for v in (1, 2, 3, 4)]
    assert breakdown(pile, "VVG", False, True)["sets"] == 20
    assert breakdown(pile, "VVG", False, False)["sets"] == 10
    assert breakdown(pile[:7], "VVG", False, True)["sets"] == 10


def _end_position(game, gv, piles):
    """Seat 2 just placed the last card; the G G G steals come next."""
    state = position(game, [[A], [], []], phase="draw", seat=2, dice=(1, 2, 3, 5), to_place=1,
                     draw=["ruby 9"], gv=gv, piles=piles)
    return state.apply(Draw("ruby", 9)).apply(Place(1))


def test_ggg_takes_the_top_card_of_the_pile_of_its_choice(game):
    state = _end_position(game, ["GGG", "VVG", "GVV"],
                          [["emerald 1"], ["sapphire 2", "sapphire 8"], ["diamond 5"]])
    assert state.phase == "steal" and state.current_player() == 0
    assert state.legal_actions() == (Steal(1), Steal(2))
    assert "own pile" in state.explain_illegal(Steal(0))
    over = state.apply(Steal(1))
    assert over.is_terminal() and cards(over.piles[0]) == ["emerald 1", "sapphire 8"]
    assert over.returns() == (9.0, 2.0, 5.0 - 10)


def test_ggg_steals_resolve_in_turn_order_and_one_victim_needs_no_choice(game):
    # Seat 0 can only take from seat 1; then seat 1 (G G G) takes from seat 0's new top.
    state = _end_position(game, ["GGG", "GGG", "VVV"], [[], ["sapphire 2", "sapphire 8"], []])
    assert state.is_terminal()
    assert state.steals == ((0, 1, Gem("sapphire", 8)), (1, 0, Gem("sapphire", 8)))
    assert cards(state.piles[1]) == ["sapphire 2", "sapphire 8"]


def test_steal_timing_decides_whether_the_stolen_card_completes_a_set():
    rubies = ["ruby 1", "ruby 2", "ruby 3"]
    for before, bonus in ((True, 10), (False, 0)):
        game = HoldUpGame(3, {"steal_before_set_bonus": before})
        state = _end_position(game, ["GGG", "VVG", "GVV"], [rubies, ["ruby 4"], []])
        assert state.is_terminal()
        assert state.scores()[0]["sets"] == bonus and state.scores()[0]["cards"] == 10


def test_winners_share_ties(game):
    state = _end_position(game, ["VVG", "VVG", "VVG"], [["ruby 5"], ["emerald 5"], []])
    assert state.outcome().winners == (0, 1)


# --- option keep_dice_between_rolls ------------------------------------------------------------------

def test_keeping_dice_between_rolls_rolls_only_the_others():
    game = HoldUpGame(3, {"keep_dice_between_rolls": True})
    state = position(game, [[A, B], [C], [D, E]], dice=(1, 1, 3, 6))
    assert Reroll((1, 6)) in state.legal_actions() and Reroll() in state.legal_actions()
    assert Reroll((1, 1, 3, 6)) not in state.legal_actions()
    rolling = state.apply(Reroll((1, 6)))
    assert rolling.phase == "roll" and rolling.dice == (1, 3)
    assert len(rolling.chance_outcomes()) == 21  # two dice
    assert "2 dice" in rolling.explain_illegal(Roll((1, 2, 3, 4)))
    rolled = rolling.apply(Roll((2, 5)))
    assert rolled.dice == (1, 2, 3, 5) and rolled.rolls == 2
    assert "no dice show 4" in rolled.explain_illegal(Reroll((4,)))


def test_without_the_option_naming_dice_to_reroll_is_explained(game):
    state = position(game, [[A, B], [C], [D, E]], dice=(1, 1, 3, 6))
    assert "not kept between rolls" in state.explain_illegal(Reroll((6,)))


# --- the referee's words ---------------------------------------------------------------------------

def test_typical_mistakes_are_explained(game):
    state = position(game, [[A, B], [C], [D, E]], phase="draw", dice=(1, 5, 5, 6), to_place=3)
    assert state.explain_illegal(Draw("topaz", 3)) == "topaz 3 is not a card of this deck"
    assert state.explain_illegal(Draw("sapphire", 7)) == "no sapphire 7 is left in the draw pile"
    assert "player 1 places" in state.apply(Draw("ruby", 9)).explain_illegal(Draw("ruby", 8))
    assert state.apply(Draw("ruby", 9)).explain_illegal(Place(4)) == "rows are numbered 1 (bottom) to 3 (top)"
    assert "only at the end" in state.explain_illegal(Steal(1))
    assert "a card is drawn" in state.explain_illegal(Keep())
    rolling = position(game, [[A, B], [C], [D, E]], phase="roll")
    assert rolling.explain_illegal(Roll((1, 2, 3))) == "4 dice are rolled now, not 3"
    assert rolling.explain_illegal(Roll((1, 2, 3, 7))) == "a die shows 1 to 6, not 7"


def test_an_illegal_action_is_refused_and_changes_nothing(game):
    state = position(game, [[A, B], [C], [D, E]], dice=(2, 2, 4, 6))
    before = state.to_dict()
    with pytest.raises(IllegalActionError) as refused:
        state.apply(Flip((1,)))
    assert refused.value.reason and state.to_dict() == before


# --- preview before committing ----------------------------------------------------------------------

def test_preview_of_keeping_names_captures_flips_and_cards_to_add(game):
    state = position(game, [["ruby 7"], ["emerald 3"], [A, E]], dice=(1, 2, 4, 4))
    assert preview(state, Keep()) == ("keep: you capture ruby 7, emerald 3; "
                                      "the two 4s flip two different GV cards of your choice")
    state = position(game, [["ruby 7"], ["emerald 3"], [A, E]], dice=(1, 2, 4, 6))
    assert preview(state, Keep()) == ("keep: you capture ruby 7, emerald 3; the 4 flips one GV card of your choice; "
                                      "one card will be added to a row of your choice")


def test_preview_of_a_short_row_says_nothing_is_captured_and_the_4s_wait(game):
    state = position(game, [[A, B], [C], [D, E]], dice=(2, 2, 4, 6))
    assert preview(state, Keep()) == ("keep: row 2 has only 1 card but 2 dice show 2: you capture nothing anywhere; "
                                      "the 4 is not resolved; one card will be added to a row of your choice")


def test_preview_warns_about_the_last_card_and_four_fours(game):
    state = position(game, [[A], [], []], dice=(1, 5, 5, 6), draw=["ruby 9", "ruby 8"])
    assert preview(state, Keep()) == ("keep: you capture diamond 1; 2 cards will be added to rows of your choice; "
                                      "only 2 of them are left in the draw pile; "
                                      "you will place the last card of the draw pile: -10 points")
    fours = position(game, [[A], [], []], dice=(4, 4, 4, 4), piles=[["ruby 2", "ruby 8"], [], []])
    assert preview(fours, Keep()) == "keep: four 4s: you lose ruby 8, the top of your pile"


def test_preview_of_other_choices(game):
    state = position(game, [[A, B], [C], [D, E]], dice=(1, 4, 4, 5), gv=["VGV", "VVV", "VVV"]).apply(Keep())
    assert preview(state, Flip((1, 3))) == ("flip GV 1 3: your GV cards show G G G: "
                                            "at the end you take the top card of another player's pile")
    assert preview(state, Flip((2, 3))) == "flip GV 2 3: your GV cards show V V G: no bonus"
    with pytest.raises(IllegalActionError):
        preview(state, Keep())


def test_preview_is_translatable(game):
    state = position(game, [["ruby 7"], ["emerald 3"], [A, E]], dice=(1, 2, 4, 6))
    french = translate(preview(state, Keep()), "fr")
    assert french.startswith("garder : vous capturez ruby 7, emerald 3") and "4" in french


# --- advice ----------------------------------------------------------------------------------------

def _capture_points(rows, dice):
    """Independent oracle: the points captured by keeping ``dice`` (0 if any row is short)."""
    if any(dice.count(r) > len(rows[r - 1]) for r in (1, 2, 3)):
        return 0
    return sum(int(card.split()[1]) for r in (1, 2, 3) for card in rows[r - 1][len(rows[r - 1]) - dice.count(r):])


def test_keep_versus_reroll_is_exact_over_the_1296_outcomes(game):
    # Only row 1 holds a card (ruby 9); the player shows V V V with an empty pile. Keeping a roll:
    # +9 if it captures the ruby; any 1-3 4s (when nothing is short) flip away V V V: -10.
    rows = [["ruby 9"], [], []]
    state = position(game, rows, dice=(1, 5, 5, 6), gv=["VVV", "VVG", "VVG"])

    def gain(dice):
        short = any(dice.count(r) > len(rows[r - 1]) for r in (1, 2, 3))
        flips_lose_vvv = not short and 1 <= dice.count(4) <= 3
        return _capture_points(rows, dice) - (10 if flips_lose_vvv else 0)

    expected = Fraction(sum(gain(d) for d in itertools.product(range(1, 7), repeat=4)), 1296)
    advice = advise(state)
    values = {a.action: a.value for a in advice}
    assert values[Keep()] == 9 and values[Reroll()] == expected
    assert advice[0].action == Keep() and "+9" in advice[0].text and "1,296" in advice[1].text


def test_reroll_beats_keeping_a_losing_roll(game):
    state = position(game, [["ruby 9"], [], []], dice=(1, 4, 5, 6), gv=["VVV", "VVG", "VVG"])
    advice = advise(state)
    assert advice[0].action == Reroll() and dict((a.action, a.value) for a in advice)[Keep()] == 9 - 10


def test_placement_advice_leaves_the_next_player_the_least(game):
    rows = [[A, B], [], ["emerald 3"]]
    state = position(game, rows, phase="draw", dice=(1, 1, 2, 5), to_place=1).apply(Draw("ruby", 9))
    advice = advise(state)

    def exposure(row):
        after = [list(r) for r in rows]
        after[row - 1].append("ruby 9")
        return Fraction(sum(_capture_points(after, d) for d in itertools.product(range(1, 7), repeat=4)), 1296)

    assert {a.action: a.value for a in advice} == {Place(r): -exposure(r) for r in (1, 2, 3)}
    assert advice[0].value == max(-exposure(r) for r in (1, 2, 3))
    assert "on average" in advice[0].text


def test_flip_advice_prefers_keeping_vvv(game):
    state = position(game, [[A, B], [C], [D, E]], dice=(1, 4, 4, 5), gv=["VGG", "VVV", "VVV"]).apply(Keep())
    best = advise(state)[0]
    assert best.action == Flip((2, 3)) and best.value == 10  # G G -> V V: V V V is worth +10


def test_steal_advice_takes_the_best_card(game):
    state = _end_position(game, ["GGG", "VVG", "GVV"], [["emerald 1"], ["sapphire 2", "sapphire 8"], ["diamond 5"]])
    advice = advise(state)
    assert [a.action for a in advice] == [Steal(1), Steal(2)] and [a.value for a in advice] == [8, 5]


def test_no_advice_at_chance_nodes_or_the_end(game):
    assert advise(game.new_initial_state()) == []
