"""The Excape screen driven by simulated touches: the roll-off, a roll with its exact risk
figures and advice, a placement on the ladder, what a placement would dislodge, "why not?",
a bust, and the end."""
import random

import pytest

from assistant.session import Session
from assistant.store import Store
from engine.excape import ExcapeBoard, Place


@pytest.fixture
def session(ui, tmp_path):
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
