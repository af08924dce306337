"""The Splitter board (what the screen shows of a position) through a real turn on pad B: the
layout, the roll, who still writes it, each sheet as written and what it scores."""
from engine.splitter import Place, Roll, SplitterGame


def test_the_layout_is_the_pad_as_drawn():
    layout = SplitterGame(1, {"pad": "B"}).new_initial_state().board().layout
    assert layout[0] == ("cell", "cell", "cell", "none", "none", "cell", "heart", "cell")
    assert layout[6][1] == layout[6][6] == "star" and layout[4][4] == layout[2][1] == "heart"
    assert sum(row.count("none") for row in layout) == 12


def test_a_turn_written_by_two_players():
    game = SplitterGame(2, {"pad": "B"})
    state = game.new_initial_state().apply(Roll(3, 5))
    board = state.board()
    assert (board.pad, board.turn, board.roller, board.roll, board.waiting) == ("B", 0, 0, Roll(3, 5), (0, 1))

    state = state.apply(Place(0, 2, 0, 5, 3))
    board = state.board()
    assert board.waiting == (1,) and board.roll == Roll(3, 5)
    assert board.sheets[0].rows[0] == (0, 0, 5, 0, 0, 3, 0, 0) and not any(map(any, board.sheets[1].rows))

    state = state.apply(Place(1, 1, 6, 3, 5))
    board = state.board()
    assert (board.turn, board.roller, board.roll, board.waiting) == (1, 1, None, ())
    assert board.sheets[1].rows[6] == (0, 3, 0, 0, 0, 0, 5, 0)


def test_each_sheet_shows_the_groups_it_scores():
    game = SplitterGame(2, {"pad": "B"})
    state = game.new_initial_state()
    for line in ["roll 1 4", "P1 writes 1 at (1,6) and 4 at (6,6)", "P2 writes 4 at (0,1) and 1 at (7,1)",
                 "roll 2 2", "P1 writes 2 at (0,0) and 2 at (7,0)", "P2 writes 2 at (0,0) and 2 at (7,0)"]:
        state = state.apply(game.parse_action(line))
    first, second = state.board().sheets
    assert first.scoring == {(1, 6)} and first.breakdown.total == 2  # a lone 1 on a star
    assert second.scoring == {(7, 1)} and second.breakdown.total == 1
    assert [s.breakdown for s in (first, second)] == [state.breakdown(0), state.breakdown(1)]
