"""The Excape board (what the screen shows of a position) and the risk figures worked out beside
it, through a real opening: the roll-off, a placement, a dislodged combination, a bust, an advance."""
from engine.excape import Bust, ExcapeBoard, ExcapeGame, LadderChip, Roll, RollOff, risk


def play(state, *lines):
    for line in lines:
        state = state.apply(state.game.parse_action(line))
    return state


def test_the_roll_off_shows_who_rolled_what_and_who_starts():
    game = ExcapeGame(3, {"track_length": 12})
    board = game.new_initial_state().board()
    assert board == ExcapeBoard(ExcapeBoard.ROLLOFF, 0, 12, (0, 0, 0), (), 0, None, RollOff((0, 1, 2), ()), None)
    board = play(game.new_initial_state(), "roll 4 6", "roll 1 2").board()
    assert board.seat == 2 and board.rolloff.rolls == (Roll("4", "6"), Roll("1", "2"))
    board = play(game.new_initial_state(), "roll 4 6", "roll 1 2", "roll 2 3").board()
    assert board.phase == ExcapeBoard.ROLL and board.seat == 0 and board.rolloff is None


def test_the_ladder_the_roll_a_bust_and_an_advance():
    game = ExcapeGame(3, {"track_length": 12})
    state = play(game.new_initial_state(), "roll 4 6", "roll 1 2", "roll 2 3", "roll 2 1")
    board = state.board()
    assert board.phase == ExcapeBoard.DECIDE and board.roll.value == 21 and board.rolls == 1

    state = play(state, "place 3", "roll 4 5", "place 2")  # Ben's 54 returns Ana's 21 from rung 3
    assert state.board().chips == (LadderChip(1, 2, 54),)

    state = play(state, "roll 1 1", "again", "roll X 5")  # Chloé: the double moved her 1, the X back 1
    board = state.board()
    assert board.seat == 0 and board.phase == ExcapeBoard.ROLL and board.rolls == 0 and board.roll is None
    assert board.pawns == (0, 0, 0) and board.bust == Bust(2, Roll("X", "5"), 2)

    state = play(state, "roll 3 2", "place 0")  # Ben takes his dice back from rung 2 and moves 2
    board = state.board()
    assert board.seat == 1 and board.pawns == (0, 2, 0) and board.bust is None
    assert board.chips == (LadderChip(0, 0, 32),)


def test_the_risk_figures_are_the_analysis_of_a_player_deciding_only():
    game = ExcapeGame(3)
    rolling = play(game.new_initial_state(), "roll 4 6", "roll 1 2", "roll 2 3")
    deciding = play(rolling, "roll 2 1")
    assert game.offers_analysis()
    assert game.analyse(rolling) is None
    assert game.analyse(deciding) == risk(deciding)
