"""Learning the card deck on the kiosk, driven by simulated touches: opened from the settings
(only with a camera), each page laid and photographed (a fake camera films the mat with the
page's cards, the camera thread's reading run at once), a place left empty named and shown,
then the deck learnt and kept where the card reader finds it."""
from types import SimpleNamespace

import pytest

from assistant import settings as settings_mod
from assistant.commands.calibrate_cards import enrolment_path
from assistant.commands.print_mat import smallest_mat
from assistant.deck_enrolment import Place, table_view
from assistant.session import Session
from assistant.store import IN_MEMORY, Store
from engine.table import EMPTY
from layout_check import findings
from vision.card_model import CardModel
from vision.synth.card_recording import MatFilm


class FakeCamera:
    """Films the mat with the page the players laid (``laid``); a screen's reading runs at once."""

    def __init__(self):
        self.film = MatFilm(smallest_mat("hilo", 2), 21)
        self.laid = None
        self.reads = 0

    def read_frame(self, read, done):
        self.reads += 1
        frame = None if self.laid is None else SimpleNamespace(image=self.film.noisy(self.film.table_image(self.laid)))
        done(read(frame))


@pytest.fixture
def camera(ui, tmp_path):
    session = ui.use(Session(Store(IN_MEMORY)))
    fake = FakeCamera()
    ui.app.settings = settings_mod.load(env={}, system_file=tmp_path / "none.toml", user_path=tmp_path / "config.toml",
                                        overrides={"app.state_dir": str(tmp_path / "state")})
    ui.app.read_frame, ui.app.can_read_frame = fake.read_frame, True
    yield fake
    ui.app.read_frame, ui.app.can_read_frame = None, False
    ui.app.settings = None
    ui.app.set_language("en")
    session.close_screen()
    ui.frames()


def lay(ui, camera, leave_out=()):
    page = ui.screen._plan[ui.screen.page]
    camera.laid = table_view({place: label for place, label in page.items() if place not in leave_out})
    return page


def test_the_deck_is_learnt_page_by_page_and_a_card_not_laid_is_named(ui, camera, tmp_path):
    ui.session.open_screen("settings")
    ui.frames()
    ui.tap_text("Card deck")
    assert ui.screen.name == "deck" and ui.screen.step == "lay" and ui.screen.pages == 3
    assert [c["text"] for c in ui.screen.grids[0][:3]] == ["red -1", "orange 0", "yellow 1"]
    assert findings(ui) == []
    ui.shot("deck-lay")
    ui.tap_text("Photograph")
    assert "No frame from the camera" in ui.screen.status_text and ui.screen.step == "lay"
    gone = Place("grid.1", 0, 2)
    page = lay(ui, camera, leave_out=(gone,))
    ui.tap_text("Photograph")
    assert ui.screen.step == "checked"
    assert [c["problem"] for c in ui.screen.grids[1]] == [False, False, True] + [False] * 6
    assert ui.screen.status_text.startswith(f"no {page[gone]} found at player 2's row 1, column 3: the place shows "
                                            "the bare mat. Lay them and photograph again")
    assert findings(ui) == []
    ui.shot("deck-missing")
    lay(ui, camera)
    ui.tap_text("Photograph again")
    assert ui.screen.status_text == "Every card of this page was found." and not any(
        c["problem"] for grid in ui.screen.grids for c in grid)
    ui.tap_text("Next page")
    assert ui.screen.page == 1 and ui.screen.step == "lay"
    lay(ui, camera)
    ui.tap_text("Photograph")
    ui.tap_text("Next page")
    assert [c["text"] for c in ui.screen.grids[0]] == ["face down"] * 9 and ui.screen.discard["text"] == ""
    lay(ui, camera)
    ui.tap_text("Photograph")
    ui.tap_text("Learn the deck")
    assert ui.screen.step == "learnt"
    assert ui.screen.status_text == ("Deck learnt: 56 cards, 18 of them backs. The camera reads Hilo cards with it "
                                     "from now on.")
    model = CardModel.load(enrolment_path(ui.app.settings))
    assert model.knows_backs()
    assert findings(ui) == []
    ui.shot("deck-learnt")
    ui.tap_text("Done")
    assert ui.screen.name == "settings"
    ui.tap_text("Card deck")  # a new enrolment begins
    assert ui.screen.page == 0 and ui.screen.step == "lay"


def test_the_deck_cannot_be_learnt_without_a_camera(ui):
    session = ui.use(Session(Store(IN_MEMORY)))
    session.open_screen("settings")
    ui.frames()
    with pytest.raises(AssertionError, match="no button 'Card deck'"):
        ui.button("Card deck")
    session.close_screen()
