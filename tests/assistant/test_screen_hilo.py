"""The Hilo screen driven by simulated touches: the discard, setup reveals, drawing and flipping,
"why not?", undo, the HILO prompt, the round summary, the final ranking; at 800x480 and 1280x720;
from four players, the grid in play large beside every grid small."""
import random

import pytest

from assistant.session import Session
from assistant.store import Store
from engine.hilo import Flip, Reveal
from engine.hilo import phases as ph
from engine.hilo.cards import card_id
from layout_check import findings


@pytest.fixture
def session(ui, tmp_path):
    ui.resize(800, 480)
    store = Store(tmp_path / "records.sqlite3")
    session = ui.use(Session(store))
    session.new_match("hilo", ["Ana", "Ben"])
    ui.frames()
    yield session
    store.close()


def card(ui, seat, row, col):
    return ui.one("CardView", seat=seat, row=row, col=col)


def enter_card(ui, initial, value):
    ui.tap_text(initial)
    ui.tap_text(str(value))


def red(value):
    return card_id(0, value)  # red is the palette's first colour


def test_a_round_by_touch(ui, session):
    ui.assert_touch_targets()  # the card picker
    enter_card(ui, "R", 7)
    state = session.position
    assert state.discard == (red(7),) and state.phase == ph.SETUP
    assert ui.screen.board.ids.discard.text == "7"
    for seat, row, col, colour, value in [(0, 0, 0, "B", 3), (0, 1, 1, "G", 5), (1, 0, 0, "Y", 4), (1, 1, 1, "O", 6)]:
        ui.tap(card(ui, seat, row, col))
        assert session.view.last == str(Reveal(seat, row, col))
        enter_card(ui, colour, value)
        assert card(ui, seat, row, col).text == str(value)
    view = session.view
    assert view.board.phase == ph.TURN and view.to_play == 1  # Ben turned up 10, Ana 8
    assert ui.one("PlayerGrid", seat=0).points.startswith("8 points face up, ")  # a sum, not a count of cards
    assert ui.screen.turn_text == "Ben takes the discard or draws from the pile"
    ui.assert_touch_targets()
    ui.shot("hilo-turn")

    ui.tap(ui.choice("Draw from the pile"))
    enter_card(ui, "P", 9)
    assert session.view.board.phase == ph.DRAWN and ui.screen.board.hand_shown
    assert min(min(w.size) for w in ui.widgets("CardView")) >= 48  # the discard and the card in hand too
    assert findings(ui) == []  # "Tap: place it" and "Tap: flip" whole, the grids' lines too
    session.advice_enabled = True
    ui.wait(lambda: not session.view.advice_pending)
    assert "expected round score" in ui.widgets("ChoiceItem")[0].advice
    assert "purple 9" in ui.screen.board.coach_text
    ui.app.set_language("fr")
    try:
        assert "violette 9" in ui.screen.board.coach_text and "purple" not in ui.screen.board.coach_text
        assert ui.app.message_text.endswith("a retourné la carte violette 9")
        assert ui.one("PlayerGrid", seat=0).points.startswith("8 points visibles, ")
    finally:
        ui.app.set_language("en")

    ui.tap_text("Tap: flip")
    ui.tap_text("Why not?")
    moves = session.view.moves
    ui.tap(card(ui, 1, 0, 0))  # face up: it cannot be flipped
    view = session.view
    assert view.moves == moves and view.message.kind == "explain"
    assert view.message.text.startswith(f"{Flip(0, 0)} is not allowed: ")
    ui.shot("hilo-why-not")

    ui.tap(card(ui, 1, 2, 2))
    assert session.view.last == str(Flip(2, 2)) and session.view.board.phase == ph.FLIP_REVEAL
    enter_card(ui, "K", 11)
    assert card(ui, 1, 2, 2).text == "11"
    ui.tap_text("Undo")
    assert session.view.board.phase == ph.FLIP_REVEAL and session.view.moves == moves + 1
    assert len(session.store.load_match(session.view.match_id).lines) == moves + 1


def new_game_until(ui, session, reached, seeds=range(1, 30)):
    """Fresh matches with seeded random moves until one reaches ``reached(view)`` (some seeds
    never show a HILO, or end the game with the first round)."""
    for seed in seeds:
        session.new_match("hilo", ["Ana", "Ben"])
        rng = random.Random(seed)
        view = ui.play_until(lambda v: reached(v) or len(v.board.rounds) > 0 or v.outcome, rng)
        if reached(view):
            return rng
    raise AssertionError("no seed reached the position")


def test_hilo_prompt_round_summary_and_final_ranking(ui, session):
    session.advice_enabled = False  # seeded random moves; the advice has its own test
    new_game_until(ui, session, lambda v: v.board.phase == ph.HILO)
    view = session.view
    marked = [w for w in ui.widgets("CardView", seat=view.to_play) if w.mark == "hilo"]
    assert len(marked) >= 3
    assert any(w.label.startswith("Remove the HILO") for w in ui.widgets("ChoiceItem"))
    ui.shot("hilo-hilo-prompt")
    ui.tap(ui.choice("Remove the HILO"))
    assert session.view.last.startswith("remove ")

    rng = new_game_until(ui, session, lambda v: len(v.board.rounds) == 1 and v.outcome is None)
    panel = ui.screen.scores
    assert panel.open and panel.title.startswith("Round 1 is over")
    state = session.position
    assert panel.rows_data[0] == ["Round", "Ana", "Ben"]
    assert panel.rows_data[-1] == ["Total"] + [str(t) for t in state.totals]
    assert [points[-1] for _, points in panel.series] == list(state.totals)
    ui.shot("hilo-round-summary")
    side = ui.smallest_target()[0]
    ui.resize(1280, 720)
    try:
        assert ui.app.scale == pytest.approx(1.5)
        assert ui.smallest_target()[0] >= 1.5 * side - 1  # everything grows with the screen
        ui.shot("hilo-round-summary-1280x720")
    finally:
        ui.resize(800, 480)
    ui.tap_text("Continue")
    assert not panel.open

    view = ui.play_until(lambda v: v.outcome is not None, rng)
    ranking = [row["text"] for row in ui.screen.ranking_rows]
    winner = view.seats[view.outcome.winners[0]].name
    assert ranking[0].startswith(f"1. {winner}: ")
    assert ui.screen.final_table.rows_data[-1] == ["Total"] + [str(t) for t in session.position.totals]
    ui.shot("hilo-game-over")


def test_the_round_summary_covers_the_board_and_reads(ui, session):
    session.advice_enabled = False
    new_game_until(ui, session, lambda v: len(v.board.rounds) == 1 and v.outcome is None)
    screen, moves = ui.screen, session.view.moves
    panel = screen.scores
    assert panel.open and screen.ids.board_area.children[0] is panel  # drawn over the board
    assert panel.collide_widget(screen.board.ids.grids) and panel.size == screen.board.size
    ui.tap(card(ui, 0, 1, 1))  # a card under the open panel: out of reach
    assert session.view.moves == moves and panel.open
    assert findings(ui, panel) == []  # the round table, its title and Continue read whole
    assert min(label.font_size for label in ui.widgets("FitLabel", root=panel)) >= 12
    ui.tap_text("Continue")
    assert not panel.open


def pick(ui, initial, value):
    """A card entered with the picker's buttons (a card on a grid may show the same value)."""
    ui.tap(ui.one("KindButton", text=initial))
    ui.tap(ui.one("ValueButton", value=value))


def test_four_players_the_grid_in_play_large_beside_every_grid_small(ui, session):
    session.new_match("hilo", ["Ana", "Ben", "Chloé", "Dev"])
    ui.frames()
    board = ui.screen.board
    large = board.ids.large
    assert len(ui.widgets("SmallGrid")) == 4 and len(ui.widgets("PlayerGrid")) == 1
    pick(ui, "R", 7)
    assert large.seat == 0 and ui.one("SmallGrid", seat=0).large  # Ana turns up first
    ui.tap(card(ui, 0, 0, 0))
    pick(ui, "B", 5)
    assert large.seat == 0  # her second card
    ui.tap(ui.one("SmallGrid", seat=2))  # Chloé turns hers up now
    assert large.seat == 2 and not ui.one("SmallGrid", seat=0).large
    for row, colour, value in [(0, "G", 4), (1, "Y", 6)]:
        ui.tap(card(ui, 2, row, 0))
        assert session.view.last == str(Reveal(2, row, 0))
        pick(ui, colour, value)
        assert ui.one("SmallGrid", seat=2).ids.cells.children[-1 - 3 * row].text == str(value)
    assert large.seat == 0  # Chloé is done: the first with a card to turn up
    ui.tap(card(ui, 0, 1, 1))
    pick(ui, "O", 5)  # Ana 10, as Chloé
    for seat, colour in [(1, "P"), (3, "K")]:
        assert large.seat == seat
        for row in range(2):
            ui.tap(card(ui, seat, row, 2))
            pick(ui, colour, row + 1)
    assert session.view.board.phase == ph.TIE
    assert findings(ui) == []  # the cards shown large read and take a finger
    assert min(min(w.size) for w in large.ids.cells.children) >= 48
    ui.shot("hilo-four-players-tie")
    session.advice_enabled = True
    ui.wait(lambda: not session.view.advice_pending)
    assert board.coach_text.startswith("Best: Ana is the youngest and starts")  # a name, not "player 1"
    session.advice_enabled = False
    ui.tap(ui.one("SmallGrid", seat=2))  # Chloé is the youngest
    view = session.view
    assert view.board.phase == ph.TURN and view.to_play == 2 and large.seat == 2

    ui.tap(ui.one("SmallGrid", seat=1))  # a look at Ben's grid, large
    assert large.seat == 1
    ui.tap(card(ui, 1, 0, 0))
    assert session.view.moves == view.moves and "Now:" in ui.app.message_text  # Chloé's turn
    ui.tap(ui.choice("Draw from the pile"))
    assert large.seat == 2  # the next move: the mover's grid again


def test_six_players_ranked_all_in_sight(ui, session):
    session.advice_enabled = False
    session.new_match("hilo", ["Ana", "Ben", "Chloé", "Dev", "Emma", "Farid"])
    ui.play_until(lambda v: v.outcome is not None, random.Random(1), limit=5000)
    ui.frames(2)
    ranking = ui.screen.ids.ranking
    assert len(ranking.data) == 6 and ranking.below == 0  # the rows shrink to fit before they scroll
    assert findings(ui) == []
    ui.shot("hilo-six-players-over")
