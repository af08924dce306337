"""The Hilo board (what the screen shows) of real positions: cards and marks, counts, scores."""
from fractions import Fraction

from engine.hilo import BoardCard, HiloBoard, HiloGame
from engine.hilo.positions import position

GAME = HiloGame(2)
FULL = "?? ?? ?? / ?? ?? ?? / ?? ?? ??"
DECK_TOTAL = 8 * sum(range(-1, 12))  # every value -1..11 in each of the eight colours


def play(state, *lines):
    for line in lines:
        state = state.apply(GAME.parse_action(line))
    return state


def faces(grid):
    return [[card.face for card in row] for row in grid.cells]


def test_a_hilo_to_decide_marks_its_lines_and_the_grids_are_counted():
    board = position(GAME, ["R7 R2 R9 / B1 G0 R-1 / B3 G8 R5", FULL], "B2", phase="hilo").board()
    assert board.phase == HiloBoard.HILO and board.mover == 0
    ana, ben = board.grids
    assert sorted((line.notation(), cells) for line, cells in ana.hilos) == [
        ("col 3", ((0, 2), (1, 2), (2, 2))), ("row 1", ((0, 0), (0, 1), (0, 2)))]
    assert [[card.mark for card in row] for row in ana.cells] == [["hilo"] * 3, ["", "", "hilo"], ["", "", "hilo"]]
    assert ana.cells[1][2] == BoardCard("up", "red", -1, "hilo") and ana.cells[2][0] == BoardCard("up", "blue", 3)
    assert ana.known == ana.expected == 34 and ana.shape == (3, 3)
    # Ben's nine face-down cards: the mean of the 94 cards nobody has seen (not Ana's nine, not B2)
    assert faces(ben) == [["down"] * 3] * 3 and ben.hilos == () and ben.known == 0
    assert ben.expected == 9 * Fraction(DECK_TOTAL - 34 - 2, 94)
    assert board.discard == BoardCard("up", "blue", 2) and board.drawn is None
    assert board.pile == 104 - 9 - 1 - 9


def test_a_drawn_card_a_card_being_turned_up_and_the_hole_a_diagonal_leaves():
    state = position(GAME, ["Y4 B4 R2 / G7 ?? ?? / O3 P5 Y6", FULL], "B3 K7", phase="drawn", drawn="Y1")
    board = state.board()
    assert board.drawn == BoardCard("up", "yellow", 1) and board.discard == BoardCard("up", "pink", 7)
    assert board.awaited == "player 1 places the yellow 1 or discards it and flips a face-down card"
    assert board.grids[0].hilos == ()  # not a HILO yet: the centre is face down

    swapped = play(state, "place r2c2").board()  # the face-down centre goes face up onto the discard
    assert swapped.mover is None and swapped.drawn is None
    assert swapped.grids[0].revealing and not swapped.grids[1].revealing
    assert swapped.grids[0].cells[1][1] == BoardCard("up", "yellow", 1, "pending")

    opened = play(state, "place r2c2", "card red 11", "remove diag").board()
    assert opened.phase == "slide" and opened.mover == 0 and opened.discard == BoardCard("up", "yellow", 1)
    assert faces(opened.grids[0]) == [["gap", "up", "up"], ["up", "gap", "down"], ["up", "up", "gap"]]
    assert opened.grids[0].known == 4 + 2 + 7 + 3 + 5


def test_the_rounds_so_far_and_the_last_turns_of_this_one():
    state = position(GAME, ["R7 R2 / B1 G0 / B3 G8", "?? O2 O9 / K1 L0 P-1 / K3 L8 O5"],
                     "Y9", phase="turn", player=1, round=3, totals=[30, 41],
                     rounds=[{"scores": [10, 40], "trigger": 0}, {"scores": [20, 1], "trigger": 1}],
                     trigger=0, last_turns=1)
    board = state.board()
    assert board.round_no == 3 and board.totals == (30, 41) and board.rounds == (((10, 40), 0), ((20, 1), 1))
    assert board.trigger == 0 and board.last_turns == 1 and board.mover == 1
    assert [grid.total for grid in board.grids] == [30, 41] and board.grids[0].shape == (3, 2)
    assert board.awaited == "player 2 takes the discard or draws from the pile"
