"""The Hold Up 4D6 screen driven by simulated touches: dealing the rows card by card, a roll and
the preview of keeping it (captures marked on the rows), the choices it leads to, the end."""
import random

import pytest

from assistant.session import Session
from assistant.store import Store
from engine.holdup import Gem, Keep, Place, Roll
from layout_check import findings


# 16 cards, for a short game: four of each stone (a set is possible)
SMALL_DECK = tuple((stone, value, 1) for stone, values in
                   [("ruby", (1, 4, 7, 8)), ("emerald", (3, 6, 9, 2)), ("diamond", (2, 5, 8, 1)),
                    ("sapphire", (2, 5, 8, 3))] for value in values)


@pytest.fixture
def session(ui, tmp_path):
    ui.resize(800, 480)
    store = Store(tmp_path / "records.sqlite3")
    session = ui.use(Session(store))
    session.new_match("holdup", ["Ana", "Ben", "Chloé"], {"deck": SMALL_DECK})
    yield session
    store.close()


def test_deal_roll_keep_by_touch_then_the_final_scores(ui, session):
    ui.assert_touch_targets()  # stones and values
    dealt = [("ruby", 7), ("emerald", 3), ("diamond", 5), ("sapphire", 2), ("ruby", 1), ("emerald", 9)]
    for stone, value in dealt:
        ui.tap(ui.one("KindButton", kind=stone))
        ui.tap(ui.one("ValueButton", value=value))
    state = session.position
    assert sorted(gem for row in state.rows for gem in row) == sorted(Gem(*card) for card in dealt)
    assert session.view.board.phase == "roll"

    for die, face in enumerate(["1", "2", "5", "4"]):
        ui.tap(ui.one("FaceButton", die=die, face=face))
    shown = session.view.board
    assert shown.phase == "decide" and shown.dice == (1, 2, 4, 5)
    assert session.view.last == str(Roll((1, 2, 4, 5)))
    board = ui.screen.board
    captured = [card for row in board.ids.rows.children for card in row.ids.cards.children if card.mark == "capture"]
    assert len(captured) == 2  # the rightmost card of rows 1 and 2
    assert board.consequence.startswith("keep: you capture ")
    ui.assert_touch_targets()
    ui.shot("holdup-decide")

    ui.tap(ui.choice("Keep the dice"))
    assert session.view.last == str(Keep()) and session.view.board.phase == "flip"
    ui.tap(ui.choice("Flip GV card 2"))
    assert session.view.board.players[0].gv == "VGV"
    ui.wait(lambda: not session.view.advice_pending)
    ui.shot("holdup-draw")

    session.advice_enabled = False
    view = ui.play_until(lambda v: v.outcome is not None, random.Random(5))
    rows = ui.screen.final_table.rows_data
    scores = session.position.scores()
    assert [row[0] for row in rows[1:]] == ["Ana", "Ben", "Chloé"]
    assert [int(row[-1]) for row in rows[1:]] == [score["total"] for score in scores]
    assert [int(row[1]) for row in rows[1:]] == [score["cards"] for score in scores]
    ui.shot("holdup-game-over")


def test_a_long_row_overlaps_its_cards_with_every_value_in_sight(ui, session):
    from kivy.core.text import Label as CoreLabel

    session.new_match("holdup", ["Ana", "Ben", "Chloé"])  # the example deck: 36 cards
    session.advice_enabled = False
    rng = random.Random(2)
    while max(len(row) for row in session.position.rows) < 17:
        state = session.position
        legal = state.legal_actions() if not state.is_chance_node() else []
        to_row_2 = [a for a in legal if isinstance(a, Place) and a.row == 2]
        session.play(state.sample_chance(rng) if state.is_chance_node() else
                     to_row_2[0] if to_row_2 else rng.choice(legal))
    ui.frames(3)
    row = next(r for r in ui.screen.board.ids.rows.children if len(r.ids.cards.children) >= 17)
    fan = row.ids.cards
    cards = list(reversed(fan.children))
    assert fan.x >= row.x and fan.right <= row.right
    assert all(fan.x - 1 <= card.x and card.right <= fan.right + 1 for card in cards)
    for card, following in zip(cards, cards[1:]):
        value = CoreLabel(text=card.text, font_size=card.font_size, bold=True).get_extents(card.text)[0]
        assert following.x - card.x >= card.padding[0] + value  # its value shows beside the next card
    assert cards[-1].width >= 40  # the last card whole
    assert findings(ui) == []
    ui.shot("holdup-long-row")
