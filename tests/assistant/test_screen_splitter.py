"""The Splitter screen driven by simulated touches: the roll, writing on each sheet (which die
goes where), a refused cell, the live breakdown, and the final table of every sheet (twelve too)."""
import random

import pytest

from assistant.camera_policy import judge
from assistant.session import Session
from assistant.store import Store
from engine.splitter import Place, Roll
from layout_check import findings


@pytest.fixture
def session(ui, tmp_path):
    ui.resize(800, 480)
    store = Store(tmp_path / "records.sqlite3")
    session = ui.use(Session(store, advice=False))
    session.new_match("splitter", ["Ana", "Ben"])
    yield session
    store.close()


def roll(ui, first, second):
    ui.tap(ui.one("FaceButton", die=0, face=str(first)))
    ui.tap(ui.one("FaceButton", die=1, face=str(second)))


def test_a_turn_by_touch_then_the_final_table(ui, session):
    ui.assert_touch_targets()  # the dice picker
    roll(ui, 5, 3)
    assert session.view.board.roll == Roll(3, 5)
    board = ui.screen.board
    assert board.seat == 0 and board.dice == ["3", "5"]
    assert len([c for c in ui.widgets("SheetCell") if c.legal]) == 44  # every pair of pad A is empty
    ui.assert_touch_targets()
    assert min(min(cell.size) for cell in ui.widgets("SheetCell")) >= 48  # what the players tap
    assert findings(ui) == []
    assert ui.choice("Row 1: 3 in column 3, 5 in column 6")  # which number goes where, in words

    ui.tap(ui.one("DieView", index=1))  # the 5 goes in the touched cell
    ui.tap(ui.one("SheetCell", cx=2, cy=0))
    view = session.view
    assert view.last == str(Place(0, 2, 0, 5, 3))
    assert view.board.sheets[0].rows[0][2] == 5 and view.board.sheets[0].rows[0][5] == 3
    assert board.seat == 1  # the sheet shown follows the player still writing

    ui.tap(ui.one("SheetCell", cx=0, cy=0))  # pad A has no cell in its corners
    view = session.view
    assert view.moves == 2 and view.message.kind == "error" and "no cell at (0,0)" in view.message.text
    ui.shot("splitter-refused-cell")
    ui.tap(ui.one("SheetCell", cx=6, cy=1))  # the first die (3) here, the 5 in the mirror cell
    sheet = session.view.board.sheets[1]
    assert sheet.rows[1][6] == 3 and sheet.rows[1][1] == 5
    assert session.view.board.roll is None and session.view.to_play < 0  # next roll

    rng = random.Random(7)
    ui.play_until(lambda v: v.board.turn == 12, rng)
    ui.tap(ui.one("SeatTab", seat=0))
    result = session.position.breakdown(0)
    assert board.total_text == f"Ana's sheet scores {result.total}"
    assert len(board.breakdown_rows) >= sum(1 for g in result.groups if g.points)
    ui.shot("splitter-mid-game")

    view = ui.play_until(lambda v: v.outcome is not None, rng)
    rows = ui.screen.final_breakdown.ids.table.rows_data
    assert [row[0] for row in rows[1:]] == ["Ana", "Ben"]
    assert [int(row[-1]) for row in rows[1:]] == [session.position.breakdown(s).total for s in (0, 1)]
    assert [int(s) for s in view.outcome.scores] == [int(row[-1]) for row in rows[1:]]
    ui.shot("splitter-game-over")


def test_a_camera_reading_is_offered_and_played_only_when_confirmed(ui, session):
    state = session.position
    seen = [{"6": 0.9, "5": 0.1}, {"2": 0.8, "3": 0.2}]  # two dice read by the camera
    session.camera(state, judge(state, seen, auto_apply=0.98))
    assert session.view.moves == 0  # offered, not played
    first = ui.one("SuggestionButton", index=0)
    assert first.text.startswith("rolled 2 and 6 (")
    ui.assert_touch_targets()
    ui.shot("splitter-camera-suggestion")
    ui.tap(first)
    view = session.view
    assert view.last == str(Roll(2, 6)) and view.suggestions == ()
    session.camera(state, judge(state, seen, auto_apply=0.98))  # a reading of a position already left
    assert session.view.suggestions == ()


def test_twelve_sheets_keep_their_cells_and_tabs_at_800x480(ui, session):
    session.new_match("splitter", [f"Player {n}" for n in range(1, 13)])
    roll(ui, 2, 4)
    assert min(min(cell.size) for cell in ui.widgets("SheetCell")) >= 48
    tabs = ui.screen.board.ids.tabs
    hint = next(h for h in ui.widgets("MoreHint") if h.list is tabs)
    assert tabs.below == 8 and hint.text.endswith("8 more below")  # the other sheets' tabs
    assert findings(ui) == []
    ui.shot("splitter-twelve-players")


def test_twelve_sheets_at_the_end_in_one_table_that_reads(ui, session):
    session.new_match("splitter", [f"Player {n}" for n in range(1, 13)])
    ui.play_until(lambda v: v.outcome is not None, random.Random(3), limit=5000)
    scroll = ui.screen.final_breakdown
    table = scroll.ids.table
    assert len(table.rows_data) == 13
    assert findings(ui) == []
    figures = [label.font_size for label in table.children if label.text.lstrip("-").isdigit()]
    assert table.height == scroll.height and len(set(figures)) == 1  # all in sight, in one size
    assert table.least <= figures[0] < 17  # smaller than wanted, not under the floor
    ui.shot("splitter-twelve-players-over")
    session.notify("the camera is not connected", about="camera")  # a notice takes room: rows shorter
    try:
        assert findings(ui, scroll) == []
        assert table.height > scroll.height  # it scrolls rather than set its text under the floor
        assert min(label.font_size for label in table.children if label.text.isdigit()) >= table.least
    finally:
        session.dismiss_notices()
