"""Hilo rules: the spec's worked examples and every step of a round, played through the engine."""
from fractions import Fraction

import pytest

from engine.core import CHANCE, SIMULTANEOUS, IllegalActionError
from engine.match import Match
from engine.hilo import HiloGame, Keep, Remove, Seen, Youngest
from engine.hilo import grid as g
from engine.hilo import phases as ph
from engine.hilo.positions import position
from engine.hilo.report import grid_text

GAME = HiloGame(2)
FULL = "?? ?? ?? / ?? ?? ?? / ?? ?? ??"


def play(state, *lines, game=GAME):
    for line in lines:
        state = state.apply(game.parse_action(line))
    return state


def top(state):
    return state.game.palette.code(state.discard[-1])


# --- worked example 1: a diagonal HILO and the two slides ----------------------------------------

def test_example_1_diagonal_hilo_then_vertical_or_horizontal_slide():
    # Ana holds the yellow 1 she drew and puts it in the centre, making the main diagonal yellow.
    state = position(GAME, ["Y4 B4 R2 / G7 ?? ?? / O3 P5 Y6", FULL], "B3 K7", phase="drawn", drawn="Y1")
    state = play(state, "place r2c2", "card red 11")  # the face-down centre card goes to the discard
    assert state.phase == ph.HILO and grid_text(state, 0) == "Y4 B4 R2 / G7 Y1 ?? / O3 P5 Y6"
    assert Remove("diag") in state.legal_actions()
    state = play(state, "remove diag")
    assert top(state) == "Y1"
    assert state.table_view()["players"][0]["cells"][1] == ["green 7", "empty", "face-down"]
    assert grid_text(play(state, "slide vertical"), 0) == "G7 B4 R2 / O3 P5 ??"
    assert grid_text(play(state, "slide horizontal"), 0) == "B4 R2 / G7 ?? / O3 P5"


# --- worked example 2: two lines at once ---------------------------------------------------------

EXAMPLE_2 = "R7 R2 R9 / B1 G0 R-1 / B3 G8 R5"


def test_example_2_two_lines_the_player_chooses_and_the_lowest_card_ends_on_top():
    state = position(GAME, [EXAMPLE_2, FULL], "B2", phase="hilo")
    assert [str(a) for a in state.legal_actions()] == ["keep", "remove col 3", "remove row 1"]
    column = play(state, "remove col 3")
    assert grid_text(column, 0) == "R7 R2 / B1 G0 / B3 G8" and top(column) == "R-1"
    row = play(state, "remove row 1")
    assert grid_text(row, 0) == "B1 G0 R-1 / B3 G8 R5" and top(row) == "R2"
    assert {state.game.palette.code(c) for c in column.discard[-3:]} == {"R9", "R-1", "R5"}


# --- worked example 5 and the tie-break: who starts ----------------------------------------------

SETUP = ["card blue 3", "reveal p1 r1c1", "card red 11", "reveal p1 r2c2", "card blue 10",
         "reveal p2 r1c1", "card green 11", "reveal p2 r3c3"]


@pytest.mark.parametrize("last_card, first", [("card yellow 9", 0), ("card yellow 11", 1)])
def test_example_5_highest_revealed_sum_starts(last_card, first):
    state = play(GAME.new_initial_state(), *SETUP, last_card)  # Ana 21; Ben 20 or 22
    assert state.phase == ph.TURN and state.current_player() == first


def test_a_tie_asks_the_table_for_the_youngest():
    state = play(GAME.new_initial_state(), *SETUP, "card yellow 10")  # 21 and 21
    assert state.current_player() == SIMULTANEOUS and state.legal_actions() == (Youngest(0), Youngest(1))
    assert state.acting_player(Youngest(1)) == 1
    assert play(state, "youngest p2").current_player() == 1


def test_first_seat_option_breaks_the_tie_without_asking():
    game = HiloGame(2, {"first_player_tie": "first_seat"})
    state = play(game.new_initial_state(), *SETUP, "card yellow 10", game=game)
    assert state.phase == ph.TURN and state.current_player() == 0


def test_setup_reveals_are_in_any_order_two_per_player():
    state = play(GAME.new_initial_state(), "card blue 3", "reveal p2 r1c1", "card red 1")
    assert state.current_player() == SIMULTANEOUS
    state = play(state, "reveal p2 r1c2", "card red 2")
    assert {a.seat for a in state.legal_actions()} == {0}
    assert "player 2 has already turned up two cards" in state.explain_illegal(
        GAME.parse_action("reveal p2 r3c3"))


# --- a turn: A, B1, B2 ---------------------------------------------------------------------------

def test_take_a_face_up_card_swaps_with_the_discard_at_once():
    state = position(GAME, ["R7 ?? ?? / ?? ?? ?? / ?? ?? B9", FULL], "K1 R3")
    after = play(state, "take r3c3")
    assert grid_text(after, 0).endswith("?? ?? R3") and top(after) == "B9"
    assert after.current_player() == 1


def test_take_a_face_down_card_turns_it_up_as_a_chance_outcome_over_the_unseen_cards():
    state = position(GAME, ["R7 ?? ?? / ?? ?? ?? / ?? ?? B9", FULL], "K1 R3")
    pending = play(state, "take r1c2")
    outcomes = pending.chance_outcomes()
    assert pending.current_player() == CHANCE
    assert len(outcomes) == 104 - 4 and {p for _, p in outcomes} == {Fraction(1, 100)}
    assert Seen("red", 7) not in {a for a, _ in outcomes}  # on the table already
    after = play(pending, "card green 4")
    assert grid_text(after, 0).startswith("R7 R3 ??") and top(after) == "G4"


def test_draw_then_discard_and_flip():
    state = position(GAME, ["R7 ?? ?? / ?? ?? ?? / ?? ?? B9", FULL], "K1 R3")
    drawn = play(state, "draw", "card yellow 8")
    assert drawn.phase == ph.DRAWN and drawn.table_view()["drawn"] == "yellow 8"
    after = play(drawn, "flip r2c2", "card orange 2")
    assert top(after) == "Y8" and "O2" in grid_text(after, 0) and after.current_player() == 1


# --- HILO: optional or compulsory removal, cascades, grid shapes ---------------------------------

def test_optional_removal_can_be_declined_and_is_offered_again_after_the_next_placement():
    state = position(GAME, ["G1 G2 ?? / ?? ?? ?? / ?? ?? ??", FULL], "K1", phase="drawn", drawn="G3")
    state = play(state, "place r1c3", "card blue 5")
    kept = play(state, "keep")
    assert kept.declined == (1, 0) and kept.current_player() == 1
    kept = play(kept, "take r1c1", "card pink 9", "take r3c3", "card pink 10")
    assert kept.phase == ph.HILO and kept.legal_actions() == (Keep(), Remove("row", 0))


def test_compulsory_removal_offers_no_keep_and_says_why():
    game = HiloGame(2, {"optional_removal": False})
    state = position(game, [EXAMPLE_2, FULL], "B2", phase="hilo")
    assert Keep() not in state.legal_actions()
    assert state.explain_illegal(Keep()) == "removing a HILO is compulsory at this table: choose which line to remove"


def test_a_slide_can_make_a_new_hilo_which_is_offered_in_turn():
    # Removing the yellow diagonal and sliding vertically lines up G1 G2 G3.
    state = position(GAME, ["Y4 G2 G3 / G1 Y5 B1 / B2 K3 Y6", FULL], "O1", phase="hilo")
    state = play(state, "remove diag", "slide vertical")
    assert grid_text(state, 0) == "G1 G2 G3 / B2 K3 B1" and state.phase == ph.HILO
    state = play(state, "remove row 1")
    assert grid_text(state, 0) == "B2 K3 B1" and top(state) == "G1"


def grid_of(text):
    code = GAME.palette.read_code
    return tuple(tuple(-1 if c == "??" else code(c) for c in row.split()) for row in text.split("/"))


@pytest.mark.parametrize("text, lines", [
    ("R1 R2 R3 / ?? ?? ??", ["row 1"]),                  # 2x3: its rows only
    ("R1 ?? / R2 ?? / R3 ??", ["col 1"]),                # 3x2: its columns only
    ("R1 R2 R3", ["row 1"]),                             # 1x3
    ("R1 / R2 / R3", ["col 1"]),                         # 3x1
    ("R1 B1 R4 / B2 R2 R5 / G3 B3 R3", ["col 3", "diag"]),  # face-up lines of one colour only
    ("R1 B1 R4 / B2 ?? R5 / G3 B3 R3", ["col 3"]),       # a face-down card never counts
    ("G1 B1 R1 / B2 R2 G2 / R3 B3 G3", ["anti"]),
])
def test_hilo_lines_for_every_shape(text, lines):
    assert sorted(line.notation() for line in g.hilo_lines(grid_of(text))) == lines


def test_removing_the_last_line_leaves_an_empty_grid_which_ends_the_round():
    state = position(GAME, ["R1 R2 ??", FULL], "B9", phase="drawn", drawn="R3")
    state = play(state, "place r1c3", "card blue 10", "remove row 1")
    assert state.grids[0] == () and state.trigger == 0 and state.last_turns == 1
    assert state.table_view()["players"][0] == {"shape": [0, 0], "cells": []}


# --- end of the round, final reveal, scoring, next round, end of game ----------------------------

def test_round_end_last_turns_final_reveal_and_scores_with_doubling():
    state = position(GAME, ["R7 B4 ?? / O3 P5 Y6 / G1 K2 L0", "?? ?? K5 / Y1 ?? ?? / ?? ?? ??"],
                     "B3", phase="drawn", drawn="B9")
    state = play(state, "flip r1c3", "card red 8")           # no face-down card left: Ana ends it
    assert state.trigger == 0 and state.current_player() == 1
    state = play(state, "take r1c1", "card blue 11")          # Ben's last turn
    assert state.phase == ph.FINAL_REVEAL and state.pending == (1, 0, 1)
    cards = ["card green 0", "card green 2", "card green 3", "card lime 1", "card lime 2", "card pink 0"]
    state = play(state, *cards)
    # Ana 7+4+8+3+5+6+1+2+0 = 36; Ben B9 G0 K5 / Y1 G2 G3 / L1 L2 K0 = 9+0+5+1+2+3+1+2+0 = 23
    assert state.rounds == (((72, 23), 0),) and state.totals == (72, 23)
    assert state.phase == ph.START and state.round_no == 2 and state.grids[0] == g.full_grid()


BEN_BEFORE_THE_REVEAL = "?? K5 K3 / Y1 K7 B2 / L1 ?? P4"


def _final_reveal(game):
    state = position(game, ["R7 B4 ?? / O3 P5 Y6 / G1 K2 L0", BEN_BEFORE_THE_REVEAL], "B3", phase="drawn",
                     drawn="B9")
    # Ana ends the round; Ben swaps his Y1 for the B9; his two face-down cards are the pink 1 and 8
    return play(state, "flip r1c3", "card red 8", "take r2c1", "card pink 1", "card pink 8", game=game)


def test_hilos_at_the_final_reveal_are_removed_for_the_lowest_score():
    state = _final_reveal(GAME)
    # Ben: K1 K5 K3 / B9 K7 B2 / L1 K8 P4: row 1 (9 points) or column 2 (20 points), not both
    assert state.rounds[0][0] == (72, 1 + 3 + 9 + 2 + 1 + 4) and state.phase == ph.START


def test_hilos_at_the_final_reveal_are_the_players_choice_when_not_automatic():
    game = HiloGame(2, {"auto_remove_at_reveal": False})
    state = _final_reveal(game)
    assert state.phase == ph.HILO and state.final and state.current_player() == 1
    assert [str(a) for a in state.legal_actions()] == ["keep", "remove col 2", "remove row 1"]
    assert play(state, "remove row 1", game=game).rounds[0][0] == (72, 9 + 7 + 2 + 1 + 8 + 4)
    kept = play(state, "keep", game=game)
    assert kept.rounds[0][0] == (36, 40) and kept.declined == (0, 1)  # Ana is now strictly lowest


def _last_turn_of_the_round(totals):
    """Three players, every card face up; Ana ended the round and Cy plays the last turn."""
    game = HiloGame(3)
    rounds = [{"scores": totals, "trigger": 1}]
    state = position(game, ["R1 B2 G3", "R4 B5 G6", "Y1 O2 P0"], "K0", phase="turn", player=2,
                     totals=totals, rounds=rounds, round=2, trigger=0, last_turns=1)
    # Cy swaps his P0 for the K0: round sums Ana 6 (not the lowest: doubled), Ben 15, Cy 3
    return play(state, "take r1c3", game=game)


def test_example_4_game_over_at_102_90_90_with_two_winners():
    state = _last_turn_of_the_round([90, 75, 87])
    assert state.rounds[-1] == ((12, 15, 3), 0)
    assert state.totals == (102, 90, 90) and state.is_terminal()
    assert state.outcome().winners == (1, 2) and state.returns() == (102.0, 90.0, 90.0)


@pytest.mark.parametrize("before, over", [(87, False), (88, True)])
def test_example_4_a_total_of_99_continues_and_100_ends(before, over):
    state = _last_turn_of_the_round([before, 75, 87])
    assert state.totals[0] == before + 12 and state.is_terminal() == over
    if not over:
        assert state.phase == ph.START and state.round_no == 3


def test_totals_48_59_32_start_a_new_round():
    game = HiloGame(3)
    state = position(game, ["R1 B2 G3", "R4 B5 G6", "Y1 O2 P0"], "K0", phase="turn", player=2,
                     totals=[36, 44, 29], rounds=[{"scores": [36, 44, 29], "trigger": 1}], round=2,
                     trigger=0, last_turns=1)
    state = play(state, "take r1c3", game=game)
    assert state.totals == (48, 59, 32) and state.phase == ph.START and not state.is_terminal()


# --- the referee's answers to the typical mistakes -----------------------------------------------

ANA = "R7 ?? ?? / ?? ?? ?? / ?? ?? B9"


@pytest.mark.parametrize("phase, extra, line, reason", [
    ("drawn", {"drawn": "Y8"}, "take r1c1", "you drew from the pile, so you must place that card or discard it "
     "and flip a face-down card; you cannot take the discard now"),
    ("drawn", {"drawn": "Y8"}, "draw",
     "you have already drawn the yellow 8: place it or discard it and flip a face-down card"),
    ("turn", {}, "place r2c2", "draw a card first: you can place or discard only a card you drew (to use the "
     "discard, take it)"),
    ("turn", {}, "flip r2c2", "draw a card first"),
    ("drawn", {"drawn": "Y8"}, "flip r1c1",
     "the card at row 1, column 1 is already face up: choose a face-down card"),
    ("turn", {}, "take r4c1", "there is no card at row 4, column 1: the grid has 3 rows and 3 columns"),
    ("turn", {}, "card red 5", "no card is being turned up now: player 1 takes the discard or draws from the pile"),
    ("turn", {}, "youngest p2", "nobody needs to be named youngest now: player 1 takes the discard"),
    ("turn", {}, "slide vertical", "a slide is chosen only after removing a diagonal"),
    ("turn", {}, "remove row 1", "there is no HILO to remove now"),
    ("turn", {}, "keep", "there is no HILO to keep now"),
    ("turn", {}, "reveal p1 r2c2", "cards are turned up to choose the first player only at the start of a round"),
])
def test_explain_illegal_for_the_typical_mistakes(phase, extra, line, reason):
    state = position(GAME, [ANA, FULL], "K1 R3", phase=phase, **extra)
    action = GAME.parse_action(line)
    assert state.explain_illegal(action).startswith(reason)
    with pytest.raises(IllegalActionError, match="^" + line):
        state.apply(action)


def test_explain_illegal_at_a_hilo_and_during_a_reveal():
    hilo = position(GAME, ["R1 R2 R3 / ?? ?? ??", FULL], "K1", phase="hilo")
    assert hilo.explain_illegal(GAME.parse_action("take r1c1")) == (
        "first decide about the HILO: remove a line or keep it")
    assert hilo.explain_illegal(GAME.parse_action("remove row 2")).startswith("row 2 is not a HILO")
    assert hilo.explain_illegal(GAME.parse_action("remove diag")) == (
        "a grid of 2 by 3 has no such line; the HILO lines are: row 1")
    reveal = play(position(GAME, [ANA, FULL], "K1 R3"), "take r1c2")
    assert reveal.explain_illegal(GAME.parse_action("draw")) == (
        "first say which card player 1 turned up at row 1, column 2")
    assert reveal.explain_illegal(GAME.parse_action("card red 7")) == (
        "the red 7 is already face up in the grid of player 1")
    assert reveal.explain_illegal(GAME.parse_action("card pink 1")) == "the pink 1 is already on the discard pile"
    assert reveal.explain_illegal(Seen("mauve", 3)) == (
        "this deck has no colour mauve (its colours: red, orange, yellow, lime, green, blue, purple, pink)")
    assert reveal.explain_illegal(Seen("red", 12)) == "there is no red 12: values run from -1 to 11"


def test_explain_illegal_accepts_any_action_of_any_kind():
    from toy_game import Roll

    state = position(GAME, [ANA, FULL], "K1 R3")
    assert state.explain_illegal(Roll(3)) == "that is not a Hilo action"
    assert state.explain_illegal(GAME.parse_action("take r9c9")).startswith("there is no card at row 9")
    over = position(GAME, ["R1 R2 R4", "B1 B2 B4"], "K1", phase="over", round=1, totals=[101, 1],
                    rounds=[{"scores": [101, 1], "trigger": 0}])
    assert over.explain_illegal(GAME.parse_action("draw")) == "the game is over"


def test_a_refused_action_in_a_match_changes_nothing():
    match = Match(GAME, ["Ana", "Ben"])
    match.push("card blue 3")
    before = match.state.to_dict()
    with pytest.raises(IllegalActionError, match="every player first turns up two cards"):
        match.push("draw")
    assert match.state.to_dict() == before and match.lines() == ["card blue 3"]
