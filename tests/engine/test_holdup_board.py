"""The Hold Up 4D6 board (what the screen shows) of real positions: the deal, the captures a
kept roll would make, a short row, the piles and the scores."""
import random

from engine.holdup import Draw, Flip, Gem, HoldUpGame, Keep, Roll

GAME = HoldUpGame(3)
DEALT = [("ruby", 7), ("emerald", 3), ("diamond", 5), ("sapphire", 2), ("ruby", 1), ("emerald", 9)]


def play(state, *actions):
    for action in actions:
        state = state.apply(action)
    return state


def dealt(count=len(DEALT)):
    return play(GAME.new_initial_state(), *(Draw(*card) for card in DEALT[:count]))


def test_the_deal_fills_the_rows_from_the_bottom():
    board = dealt(3).board()
    assert board.phase == "deal" and board.dealt == 3 and board.draw_pile == 36 - 3
    assert [row.cards for row in board.rows] == [(Gem("ruby", 7), Gem("emerald", 3)), (Gem("diamond", 5),), ()]
    board = dealt().board()
    assert board.phase == "roll" and board.to_roll == 4 and board.rolls == 0 and board.consequence == ""
    assert [row.number for row in board.rows] == [1, 2, 3]
    assert board.gems == GAME.gems and len(board.gems) == 36


def test_keeping_a_roll_marks_the_cards_it_captures_and_says_what_it_does():
    board = play(dealt(), Roll((1, 2, 4, 5))).board()
    assert board.phase == "decide" and board.dice == (1, 2, 4, 5) and board.rolls == 1
    assert [row.marks for row in board.rows] == [("", "capture"), ("", "capture"), ("", "")]
    assert not any(row.short for row in board.rows)
    assert str(board.consequence).startswith("keep: you capture emerald 3, sapphire 2; the 4 flips one GV card")


def test_a_short_row_captures_nothing():
    board = play(dealt(), Roll((1, 1, 1, 6))).board()  # three 1s, two cards in row 1
    assert [row.short for row in board.rows] == [True, False, False]
    assert [row.marks for row in board.rows] == [("short", "short"), ("", ""), ("", "")]
    assert "row 1 has only 2 cards but 3 dice show 1" in board.consequence


def test_the_players_piles_gv_faces_and_scores():
    state = play(dealt(), Roll((1, 2, 4, 5)), Keep())
    board = state.board()
    assert board.phase == "flip" and board.consequence == ""
    ana, ben, _ = board.players
    assert ana.pile == (Gem("sapphire", 2), Gem("emerald", 3)) and ana.active and not ben.active
    assert (ana.score.cards, ana.score.vvv, ana.score.total) == (5, 10, 15)
    ana = play(state, Flip((2,))).board().players[0]
    assert ana.gv == "VGV" and (ana.score.vvv, ana.score.total) == (0, 5)


def test_at_the_end_nobody_is_to_move_and_the_scores_are_the_final_ones():
    state, rng = dealt(), random.Random(3)
    while not state.is_terminal():
        state = state.apply(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    board = state.board()
    assert board.phase == "over" and not any(player.active for player in board.players)
    assert [player.score.total for player in board.players] == [score["total"] for score in state.scores()]
    assert [player.score.sets for player in board.players] == [score["sets"] for score in state.scores()]
