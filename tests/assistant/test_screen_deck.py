"""Learning the card deck on the kiosk, driven by simulated touches: opened from the settings
(only with a camera), the game chosen (Hilo or Hold Up), each page laid and photographed (a fake
camera films the game's mat with the page's cards, the camera thread's reading run at once), a
place left empty named and shown, then the deck learnt and kept where the card reader finds it."""
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
    """Films the game's mat with the page the players laid (``laid``: the game and its table
    view); a screen's reading runs at once."""

    def __init__(self):
        self.films = {}
        self.laid = None
        self.reads = 0

    def read_frame(self, read, done):
        self.reads += 1
        frame = None
        if self.laid is not None:
            game, view = self.laid
            if game not in self.films:
                self.films[game] = MatFilm(smallest_mat(game, 2 if game == "hilo" else 5), 21)
            frame = SimpleNamespace(image=self.films[game].noisy(self.films[game].table_image(view)))
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
    page, game = ui.screen._plan[ui.screen.page], ui.screen.game
    camera.laid = game, table_view({place: label for place, label in page.items() if place not in leave_out}, game)
    return page


def zones(ui):
    """The page shown: each zone's title and cells, by zone."""
    return {zone["zone"]: zone for line in ui.screen.lines for zone in line}


def texts(ui, zone):
    return [cell["text"] for cell in zones(ui)[zone]["cells"]]


def test_the_deck_is_learnt_page_by_page_and_a_card_not_laid_is_named(ui, camera, tmp_path):
    ui.session.open_screen("settings")
    ui.frames()
    ui.tap_text("Card deck")
    assert ui.screen.name == "deck" and ui.screen.step == "choose"
    ui.tap_text("Hilo")
    assert ui.screen.step == "lay" and ui.screen.game == "hilo" and ui.screen.pages == 3
    assert [[zone["title"] for zone in line] for line in ui.screen.lines] == [["Player 1", "Player 2", "Discard"]]
    assert texts(ui, "grid.0")[:3] == ["red -1", "orange 0", "yellow 1"]
    assert findings(ui) == []
    ui.shot("deck-lay")
    ui.tap_text("Photograph")
    assert "No frame from the camera" in ui.screen.status_text and ui.screen.step == "lay"
    gone = Place("grid.1", 0, 2)
    page = lay(ui, camera, leave_out=(gone,))
    ui.tap_text("Photograph")
    assert ui.screen.step == "checked"
    assert [c["problem"] for c in zones(ui)["grid.1"]["cells"]] == [False, False, True] + [False] * 6
    assert ui.screen.status_text.startswith(f"no {page[gone]} found at player 2's row 1, column 3: the place shows "
                                            "the bare mat. Lay them and photograph again")
    assert findings(ui) == []
    ui.shot("deck-missing")
    lay(ui, camera)
    ui.tap_text("Photograph again")
    assert ui.screen.status_text == "Every card of this page was found." and not any(
        c["problem"] for zone in zones(ui).values() for c in zone["cells"])
    ui.tap_text("Next page")
    assert ui.screen.page == 1 and ui.screen.step == "lay"
    lay(ui, camera)
    ui.tap_text("Photograph")
    ui.tap_text("Next page")
    assert texts(ui, "grid.0") == ["face down"] * 9 and texts(ui, "discard") == [""]
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
    assert ui.screen.step == "choose"


def test_the_hold_up_deck_is_learnt_on_its_mat(ui, camera):
    ui.resize(800, 480)  # the kiosk's screen: Hold Up's page is the fullest
    ui.session.open_screen("settings")
    ui.app.set_language("fr")
    ui.tap_text("Jeu de cartes")
    ui.tap_text("Hold Up 4D6")
    assert ui.screen.game == "holdup" and findings(ui) == []
    ui.shot("deck-holdup-fr")
    ui.app.set_language("en")  # the screen built again: the game is chosen again
    assert ui.screen.step == "choose" and findings(ui) == []
    ui.shot("deck-choose")
    ui.tap_text("Hold Up 4D6")
    assert ui.screen.step == "lay" and ui.screen.pages == 3
    assert [[zone["title"] for zone in line] for line in ui.screen.lines] == [
        ["Row 3", "Draw"], ["Row 2"], ["Row 1"], ["Player 1: GV", "Pile 1", "Player 2: GV", "Pile 2", "Player 3: GV",
                                                  "Pile 3"]]
    assert [len(zones(ui)[f"row.{n}"]["cells"]) for n in (1, 2, 3)] == [8, 8, 8]
    assert texts(ui, "row.1")[0] == "diamond 1" and all(texts(ui, f"row.{n}")[7] for n in (1, 2, 3))
    assert texts(ui, "gv.0") == ["GV G", "GV V", "GV G"] and texts(ui, "pile.2")[0] and texts(ui, "draw") == [""]
    cells = ui.widgets("DeckCell")
    assert len(cells) == 3 * 8 + 1 + 3 * (3 + 1) and sum(cell.text == "GV G" for cell in cells) == 5
    assert findings(ui) == []
    ui.shot("deck-holdup-lay")
    gone = Place("row.3", 0, 7)
    page = lay(ui, camera, leave_out=(gone,))
    ui.tap_text("Photograph")
    assert ui.screen.step == "checked"
    assert [c["problem"] for c in zones(ui)["row.3"]["cells"]] == [False] * 7 + [True]
    assert ui.screen.status_text.startswith(f"no {page[gone]} found at row 3, place 8: the place shows the bare mat.")
    lay(ui, camera)
    ui.tap_text("Photograph again")
    assert ui.screen.status_text == "Every card of this page was found."
    ui.tap_text("Next page")
    assert texts(ui, "gv.0") == ["GV V", "GV G", "GV V"]  # the GV cards turned over
    lay(ui, camera)
    ui.tap_text("Photograph")
    assert ui.screen.status_text == "Every card of this page was found."
    ui.tap_text("Next page")
    assert texts(ui, "row.3") == ["face down"] * 8 and texts(ui, "draw") == ["face down"]
    assert texts(ui, "gv.0") == [""] * 3
    lay(ui, camera)
    ui.tap_text("Photograph")
    ui.tap_text("Learn the deck")
    assert ui.screen.step == "learnt"
    assert ui.screen.status_text == ("Deck learnt: 79 cards, 25 of them backs. The camera reads Hold Up 4D6 cards with "
                                     "it from now on.")
    path = enrolment_path(ui.app.settings, "holdup")
    assert path.name == "cards-holdup.npz" and CardModel.load(path).knows_backs()
    assert not enrolment_path(ui.app.settings).exists()  # Hilo's deck is another
    assert findings(ui) == []
    ui.tap_text("Done")
    ui.tap_text("Card deck")
    ui.tap_text("Hilo")  # another game's page: its zones built again
    assert len(ui.widgets("DeckCell")) == 2 * 9 + 1 and findings(ui) == []


def test_the_deck_cannot_be_learnt_without_a_camera(ui):
    session = ui.use(Session(Store(IN_MEMORY)))
    session.open_screen("settings")
    ui.frames()
    with pytest.raises(AssertionError, match="no button 'Card deck'"):
        ui.button("Card deck")
    session.close_screen()
