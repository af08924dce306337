"""The Splitter screen driven by simulated touches: the roll, writing on each sheet (which die
goes where), a refused cell, the live breakdown, and the final table of every sheet (twelve too);
on paper, a sheet read by the camera checked, corrected and counted, or entered by touch."""
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


# --- on paper ---------------------------------------------------------------------------------------

def rolled_on_paper(session, seed=4):
    """A paper game of Ana and Ben after its 22 rolls (seeded)."""
    session.new_match("splitter", ["Ana", "Ben"], {"paper": True})
    rng = random.Random(seed)
    while session.position.is_chance_node():
        session.play(session.position.sample_chance(rng))
    return session.position


def written(state, seed):
    """A sheet that writes the game's rolls in seeded random pairs: {(x, y): digit}."""
    rng = random.Random(seed)
    pairs = list(state.pad.pairs)
    rng.shuffle(pairs)
    values = {}
    for (left, right), roll in zip(pairs, state.rolls):
        first, second = (roll.low, roll.high) if rng.random() < 0.5 else (roll.high, roll.low)
        values[(left % 8, left // 8)], values[(right % 8, right // 8)] = first, second
    return values


@pytest.fixture
def camera(ui):
    """The kiosk's camera, reading synthetic photos of sheets: ``camera.photo`` is what it sees next."""
    from assistant.splitter_sheets import SheetReview

    class Camera:
        photo = None
        asked = 0

        def read_sheet(self, pad, done):
            self.asked += 1
            try:
                done(SheetReview.of_image(self.photo, pad))
            except ValueError as exc:
                done(f"No sheet read: {exc}")

    fake = Camera()
    ui.app.read_sheet, ui.app.can_read_sheet = fake.read_sheet, True
    yield fake
    ui.app.read_sheet, ui.app.can_read_sheet = None, False


def test_on_paper_the_screen_shows_the_roll_and_turn_then_a_sheet_read_is_checked_and_counted(ui, session, camera):
    from assistant.splitter_sheets import splitter_sheet
    from vision.synth.sheets import sheet_photo

    session.new_match("splitter", ["Ana", "Ben"], {"paper": True})
    roll(ui, 4, 1)
    board = ui.screen.board
    assert board.dice == ["1", "4"] and board.mode == "play"  # the roll, large, while they write
    assert ui.screen.turn_text == "Turn 2 of 22: Ben rolls; everyone writes on paper"
    state = rolled_on_paper(session)
    ui.frames(2)
    assert board.mode == "enter" and ui.screen.turn_text == "The 22 rolls are made: enter each sheet"
    assert findings(ui) == []
    ui.shot("splitter-paper-enter")

    truth = written(state, seed=1)
    camera.photo = sheet_photo(splitter_sheet("A"), 31, 2_000_031, values=truth, seat=2, blur=0.5).image
    ui.tap(ui.one("TouchButton", text="Read the sheet under the camera"))
    assert camera.asked == 1 and board.mode == "review" and board.seat == 1  # seat box 2: Ben's sheet
    flagged = {(c.cx, c.cy) for c in ui.widgets("SheetCell") if c.flagged}
    for (x, y), digit in board.review.values.items():  # the players put right what was misread
        assert digit == truth[(x, y)] or (x, y) in flagged, f"({x},{y}) misread and not marked"
        for _ in range((truth[(x, y)] - digit) % 6):
            ui.tap(ui.one("SheetCell", cx=x, cy=y))
    assert board.review.values == truth
    found = findings(ui)
    assert found == [], "\n".join(found)
    ui.shot("splitter-paper-sheet-read")
    ui.tap(ui.one("TouchButton", text="Count it"))
    view = session.view
    assert view.board.waiting == (0,) and str(view.message.text) == "Ben's sheet is entered."
    assert {(x, y): view.board.sheets[1].rows[y][x] for (x, y) in truth} == truth
    assert board.mode == "enter" and board.seat == 0


def test_a_sheet_no_roll_explains_is_marked_and_refused_whole(ui, session, camera):
    from assistant.splitter_sheets import SheetReview

    state = rolled_on_paper(session, seed=5)
    truth = written(state, seed=2)
    never = next((a, b) for a in range(1, 7) for b in range(a, 7) if Roll(a, b) not in state.rolls)
    (left, right), _ = next((pair, roll) for pair in state.pad.pairs for roll in [None])
    cells = [(left % 8, left // 8), (right % 8, right // 8)]
    truth[cells[0]], truth[cells[1]] = never
    board = ui.screen.board
    board.sheet_read(SheetReview("A", truth, frozenset(), 1))  # as the camera would hand it over
    ui.frames(1)
    assert board.mode == "review" and "no roll of the game explains the marked cells" in board.review_text
    assert {(c.cx, c.cy) for c in ui.widgets("SheetCell") if c.flagged} == set(cells)
    assert findings(ui) == []
    ui.shot("splitter-paper-sheet-unexplained")
    ui.tap(ui.one("TouchButton", text="Count it"))
    view = session.view
    assert view.message.kind == "error" and f"no roll of this game was {never[0]} and {never[1]}" in view.message.text
    assert view.moves == 22 and board.mode == "review"  # nothing entered, the reading kept
    ui.tap(ui.one("TouchButton", text="Cancel"))
    assert board.mode == "enter"


def test_no_sheet_under_the_camera_is_said_and_the_sheet_can_be_entered_by_touch(ui, session, camera):
    import numpy as np

    state = rolled_on_paper(session, seed=6)
    camera.photo = np.full((480, 640, 3), 128, np.uint8)
    ui.tap(ui.one("TouchButton", text="Read the sheet under the camera"))
    view = session.view
    assert view.message.kind == "error" and view.message.text.startswith("No sheet read: ")
    board = ui.screen.board
    assert board.mode == "enter" and len(board.roll_rows) == len(set(state.rolls))
    ui.tap(ui.one("SheetCell", cx=2, cy=0))  # no roll chosen yet
    assert session.view.message.text == "choose which roll goes there first"
    chip = ui.one("RollChip", index=0)
    ui.tap(chip)
    first = board.rolls_left[0]
    assert board.dice == [str(first.low), str(first.high)]
    assert all(c.legal for c in ui.widgets("SheetCell") if c.kind != "none")
    ui.tap(ui.one("SheetCell", cx=2, cy=0))
    assert session.view.last == str(Place(0, 2, 0, first.low, first.high))


def test_a_sheet_partly_entered_by_touch_is_completed_by_its_reading_and_a_difference_is_refused(ui, session):
    from assistant.splitter_sheets import SheetReview

    state = rolled_on_paper(session, seed=7)
    truth = written(state, seed=3)
    here, there = next(((left % 8, left // 8), (right % 8, right // 8)) for left, right in state.pad.pairs
                       if truth[(left % 8, left // 8)] != truth[(right % 8, right // 8)])
    session.play(Place(0, here[0], here[1], truth[here], truth[there]))  # one pair by touch
    board = ui.screen.board
    wrong = dict(truth)
    wrong[here], wrong[there] = truth[there], truth[here]  # the paper disagrees with what was tapped
    board.sheet_read(SheetReview("A", wrong, frozenset(), None))
    ui.frames(1)
    assert {here, there} <= {(c.cx, c.cy) for c in ui.widgets("SheetCell") if c.flagged}
    ui.tap(ui.one("TouchButton", text="Count it"))
    assert session.view.message.text == (f"cell ({here[0]},{here[1]}) is entered on the kiosk with another "
                                         "number than on the paper")
    assert session.view.moves == 23
    board.sheet_read(SheetReview("A", truth, frozenset(), None))  # no seat box crossed: the sheet shown
    ui.frames(1)
    ui.tap(ui.one("TouchButton", text="Count it"))
    view = session.view
    assert view.moves == 22 + 22 and view.board.waiting == (1,)
    assert {(x, y): view.board.sheets[0].rows[y][x] for (x, y) in truth} == truth
