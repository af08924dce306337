"""The Excape screen driven by simulated touches: the roll-off, a roll with its exact risk
figures and advice, a placement on the ladder, what a placement would dislodge, "why not?",
a bust, and the end."""
import random

import pytest

from assistant.session import Session
from assistant.store import Store
from engine.excape import ExcapeBoard, Place
from layout_check import findings


@pytest.fixture
def session(ui, tmp_path):
    ui.resize(800, 480)
    store = Store(tmp_path / "records.sqlite3")
    session = ui.use(Session(store))
    session.new_match("excape", ["Ana", "Ben", "Chloé"], {"track_length": 12})  # a short race
    yield session
    store.close()


def roll(ui, die_a, die_b):
    ui.tap(ui.one("FaceButton", die=0, face=die_a))
    ui.tap(ui.one("FaceButton", die=1, face=die_b))


def rung(ui, number):
    return ui.one("RungRow", rung=number)


def wait_for_figures(ui, session):
    """The risk figures are worked out off the UI thread: a view with them follows the roll."""
    ui.wait(lambda: session.view.analysis is not None)
    ui.frames()


def test_a_few_turns_by_touch(ui, session):
    ui.assert_touch_targets()  # die A and die B
    for die_a, die_b in [("4", "6"), ("1", "2"), ("2", "3")]:  # roll-off: 64, 21, 32
        roll(ui, die_a, die_b)
    board = session.view.board
    assert board.phase == ExcapeBoard.ROLL and board.seat == 0

    roll(ui, "2", "1")  # Ana: 21 on the first roll
    assert session.view.board.phase == ExcapeBoard.DECIDE
    wait_for_figures(ui, session)
    risk = [row["text"] for row in ui.screen.board.risk_rows]
    assert "next roll shows an X: 11/36 (30.6%)" in risk and "X and X: 1/36 (2.8%)" in risk
    ui.wait(lambda: not session.view.advice_pending)
    assert all(item.advice.startswith("worth ") for item in ui.widgets("ChoiceItem"))
    ui.tap(rung(ui, 3))
    assert session.view.last == str(Place(3)) and session.position.placed[0].rung == 3
    assert [chip.text for chip in rung(ui, 3).ids.chips.children] == ["21"]

    roll(ui, "4", "5")  # Ben: 54 on the first roll
    wait_for_figures(ui, session)
    assert rung(ui, 2).note == "returns Ana 21" and rung(ui, 1).note == "returns Ana 21"
    assert rung(ui, 4).note == "" and rung(ui, 4).legal and not rung(ui, 3).legal
    ui.assert_touch_targets()  # the ladder's rungs too
    ui.shot("excape-decide")

    ui.tap_text("Why not?")
    moves = session.view.moves
    ui.tap(rung(ui, 3))
    view = session.view
    assert view.moves == moves and view.message.kind == "explain"
    assert "rung 3 holds Ana's 21" in ui.app.message_text

    ui.tap(ui.choice("Roll again"))
    roll(ui, "X", "5")  # an X on the second roll: Ben's turn is over
    board = session.view.board
    assert board.seat == 2 and board.bust is not None and board.pawns[1] == 0
    assert any("on roll 2: back one space per X" in row["text"] for row in ui.screen.board.risk_rows)
    ui.shot("excape-bust")

    session.advice_enabled = False
    view = ui.play_until(lambda v: v.outcome is not None, random.Random(3))
    winner = view.seats[view.outcome.winners[0]].name
    assert ui.screen.ranking_rows[0]["text"].startswith(f"1. {winner}: ")
    assert [w.pawns for w in ui.screen.board.ids.track.children[:1]][0]  # a pawn at the exit
    ui.shot("excape-game-over")


def pawn_spots(space):
    """(x, y, size) of each pawn drawn on a track space (its coloured spot, not its dark rim)."""
    from kivy.graphics import Ellipse
    spots = [e for e in space.canvas.after.children if isinstance(e, Ellipse)][1::2]
    return [(e.pos[0], e.pos[1], e.size[0]) for e in spots]


def test_six_pawns_on_one_space_stand_apart(ui, session):
    session.new_match("excape", ["Ana", "Ben", "Chloé", "Dev", "Emma", "Farid"])
    ui.frames(2)
    assert ui.screen.turn_text == "Ana rolls the two dice to see who starts"  # not "dice or cards"
    start = list(reversed(ui.screen.board.ids.track.children))[0]
    spots = pawn_spots(start)
    assert len(spots) == 6 and min(size for _, _, size in spots) >= 10
    for x, y, size in spots:
        assert start.x <= x and x + size <= start.right and start.y <= y and y + size <= start.top
    for i, (x, y, size) in enumerate(spots):
        for other_x, other_y, _ in spots[i + 1:]:
            assert abs(x - other_x) >= size or abs(y - other_y) >= size  # side by side, not stacked
    assert findings(ui) == []  # "start" and "exit" whole, the dice faces inside the panel


def test_a_long_list_of_moves_says_it_scrolls(ui, session):
    for die_a, die_b in [("4", "6"), ("1", "2"), ("2", "3"), ("2", "1")]:  # the roll-off, Ana's 21
        roll(ui, die_a, die_b)
    wait_for_figures(ui, session)
    ui.wait(lambda: not session.view.advice_pending)
    ui.frames(2)
    moves = ui.screen.ids.choices
    hint = next(h for h in ui.widgets("MoreHint") if h.list is moves)
    assert len(moves.data) == 7 and moves.below >= 2  # rungs 0-5 and Roll again, 4 in sight
    assert hint.showing and hint.text.endswith(f"{moves.below} more below")
    assert moves.bar_inactive_color[3] == 1 and moves.bar_width >= 6  # the bar shows before a touch
    moves.scroll_y = 0
    ui.frames(2)
    assert moves.below == 0 and hint.text.endswith(f"{moves.above} more above")


def test_the_risk_figures_read_whole_in_french(ui, session):
    ui.app.set_language("fr")
    try:
        for die_a, die_b in [("4", "6"), ("1", "2"), ("2", "3"), ("2", "1")]:
            roll(ui, die_a, die_b)
        wait_for_figures(ui, session)
        ui.wait(lambda: not session.view.advice_pending)
        risk = [row["text"] for row in ui.screen.board.risk_rows]
        assert "le prochain lancer montre un X : 11/36 (30.6%)" in risk
        assert findings(ui) == []
        ui.shot("excape-decide-fr")
    finally:
        ui.app.set_language("en")
