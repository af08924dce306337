"""How the side list shows the advice: one star, on the one best move when it leads the list;
none when several tie (the list's title says how many are equally good); changes never read
"-0.0"."""
from assistant.screens.game import best_moves
from assistant.screens.text import signed
from assistant.views import Choice


def moves(*best):
    return [Choice(f"move {i}", f"move {i}", 0, "advice", 1.0, flag) for i, flag in enumerate(best)]


def test_the_one_best_move_is_starred():
    assert best_moves(moves(True, False, False)) == {0}


def test_tied_moves_get_no_star():
    assert best_moves(moves(True, True, True, True, False)) == set()
    assert best_moves(moves(True, True)) == set()


def test_a_best_move_not_first_gets_no_star():
    """Another player's list (Splitter shows one sheet's moves): the best is not at its head."""
    assert best_moves(moves(False, True, False)) == set()


def test_a_single_move_needs_no_star():
    assert best_moves(moves(True)) == set()


def test_changes_have_their_sign_and_no_minus_zero():
    assert [signed(v) for v in (2.5, -1.04, -0.0, -0.04, 0.04, 0)] == ["+2.5", "-1.0", "0.0", "0.0", "0.0", "0.0"]
    assert signed(0.456, 2) == "+0.46"
