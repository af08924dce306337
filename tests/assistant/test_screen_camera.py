"""The camera's view driven by simulated touches: the frame with the dice read, the stillness and
the rates; a tap on a misread die and on the face it shows plays the corrected roll (or offers
it); Back; and what it says without a camera."""
from dataclasses import replace

import numpy as np
import pytest

from assistant.camera_feed import SETTLED, CameraFeed
from assistant.commands.print_mat import mat_layout
from assistant.session import Session
from assistant.store import IN_MEMORY, Store
from dice_support import reader, table
from layout_check import findings
from engine.table import EXCAPE_FACES
from vision.live import TableWatcher
from vision.mat import MatPose
from vision.stillness import StableReader, StillnessGate
from vision.synth.dice import Look, render_scene


@pytest.fixture
def session(ui):
    session = ui.use(Session(Store(IN_MEMORY), advice=False))
    session.new_match("splitter", ["Ana", "Ben"])
    yield session
    ui.app.camera_feed = None
    session.close_screen()
    ui.frames()


def settled_feed(image, dice, mat=None):
    """A feed that has shown ``image`` and settled on ``dice`` (on a ``mat``: its pose and layout),
    as the kiosk's camera threads do."""
    feed = CameraFeed(auto_apply=0.98)
    watcher = TableWatcher(StableReader(feed.timed(lambda frame, *where: list(dice)), StillnessGate()))
    feed.show(image)
    for index in range(10):
        watcher.feed(index, image, mat=mat)
        feed.fed(watcher)
    assert feed.snapshot.stillness == SETTLED
    return feed


def misread(image, face, doubt):
    """The reader's dice of ``image``, the one showing ``face`` read as a 6 with ``doubt``."""
    dice = reader().read(image)
    assert face in [die.face for die in dice]
    return [replace(die, faces={**dict.fromkeys(die.faces, 0.0), "6": doubt, face: 1 - doubt}) if die.face == face
            else die for die in dice]


def open_camera(ui):
    ui.tap_text("Camera")  # the game screen's button
    assert ui.view.screen == "camera"
    ui.frames(2)


def test_a_tap_corrects_a_misread_die_and_the_roll_is_played(ui, session):
    image = table(("3", "5"), seed=1)
    ui.app.camera_feed = settled_feed(image, misread(image, "5", doubt=0.55))
    open_camera(ui)
    screen = ui.screen
    assert screen.status_text.startswith("table settled · camera 0 fps · reader ")
    wrong = ui.one("DieBox", text="6 55%")
    assert sorted(box.text for box in ui.widgets("DieBox")) == ["3 100%", "6 55%"]
    ui.assert_touch_targets()
    ui.shot("camera-view")

    ui.tap(wrong)
    assert screen.pick_text == "This die reads 6 (55%). What does it show?"
    ui.one("FaceChoice", face="1")  # the list is laid out
    assert sorted(b.face for b in ui.widgets("FaceChoice")) == ["1", "2", "3", "4", "5", "6"]
    ui.assert_touch_targets()
    ui.shot("camera-view-picking")
    ui.tap(ui.one("FaceChoice", face="5"))
    view = session.view
    assert view.last == "roll 3 5" and view.message.camera and view.screen == "camera"
    assert ui.app.message_text == "Camera: Table: rolled 3 and 5"
    assert sorted(box.text for box in ui.widgets("DieBox")) == ["3 100%", "5 100%"]

    ui.tap_text("Back")
    assert session.view.screen == "game" and session.view.last == "roll 3 5"
    ui.shot("camera-button-on-the-game-screen")


def test_on_the_excape_mat_a_corrected_die_on_a_rung_plays_the_placement(ui, session):
    session.new_match("excape", ["Ana", "Ben", "Chloé"])
    for line in ["roll 7 6", "roll 4 6", "roll 2 1", "roll 4 3"]:  # Ana rolled 43
        session.play(session.position.game.parse_action(line))
    image = table(("4", "3"), seed=1)  # pip dice, read as Excape's printed ones
    dice = [replace(die, faces={**dict.fromkeys(EXCAPE_FACES, 0.0), "X": 0.6, die.face: 0.4})
            if die.face == "3" else replace(die, faces={**dict.fromkeys(EXCAPE_FACES, 0.0), "4": 1.0})
            for die in reader().read(image)]
    # the mat seen from above at 3 px a mm, the dice's middle on rung 3's
    layout = mat_layout("excape", "A3", 3)
    rung = layout.zone("ladder.3")
    x, y = np.mean([[die.x, die.y] for die in dice], axis=0)
    pose = MatPose(np.array([[1 / 3, 0, rung.x - x / 3], [0, 1 / 3, rung.y - y / 3], [0, 0, 1]]), 0.0, (), ())
    ui.app.camera_feed = settled_feed(image, dice, (pose, layout))
    open_camera(ui)
    ui.tap(ui.one("DieBox", text="X 60%"))
    ui.tap(ui.one("FaceChoice", face="3"))
    assert session.view.last == "place 3"  # the dice laid on rung 3: seen on the mat only


@pytest.mark.parametrize("players", [["Ana", "Ben", "Chloé"], ["Ana", "Ben", "Chloé", "Dan", "Eve", "Fay"]])
def test_where_each_seat_s_dice_are_its_colour_a_die_s_colour_is_shown_and_can_be_corrected(ui, session, players):
    ui.resize(800, 480)  # the kiosk's screen, where the choices must fit
    session.new_match("excape", players)
    colours = tuple(seat.colour for seat in session.view.seats)
    ana, ben = colours[:2]
    image = table(("4", "3"), seed=1)
    # Ana's roll-off roll, one of her dice read as Ben's colour
    dice = [replace(die, faces={**dict.fromkeys(EXCAPE_FACES, 0.0), die.face: 1.0},
                    colour=ben if die.face == "3" else ana) for die in reader().read(image)]
    feed = settled_feed(image, dice)
    feed.seat_colours = colours  # as the kiosk sets them (camera_policy.seat_dice_colours)
    ui.app.camera_feed = feed
    open_camera(ui)
    assert sorted(box.text for box in ui.widgets("DieBox")) == [f"3 {ben} 100%", f"4 {ana} 100%"]
    ui.tap(ui.one("DieBox", text=f"3 {ben} 100%"))
    assert ui.screen.pick_text == f"This die reads 3 (100%), colour {ben}. What does it show?"
    ui.one("FaceChoice", colour=ana)  # the list is laid out
    assert sorted(b.colour for b in ui.widgets("FaceChoice") if b.colour) == sorted(feed.seat_colours)
    assert findings(ui) == []
    ui.shot(f"camera-view-picking-a-colour-{len(players)}-players")
    ui.tap(ui.one("FaceChoice", colour=ana))
    assert ui.screen.pick_text == f"This die reads 3 (100%), colour {ana}. What does it show?"
    assert session.view.moves == 0
    ui.tap(ui.one("FaceChoice", face="3"))
    assert session.view.last == "roll 4 3"


def test_a_doubtful_correction_is_offered_to_confirm(ui, session):
    image = table(("3", "5"), seed=1)
    dice = [replace(die, faces={**die.faces, "3": 0.9, "5": 0.1}) if die.face == "3" else die
            for die in misread(image, "5", doubt=0.7)]
    ui.app.camera_feed = settled_feed(image, dice)
    open_camera(ui)
    ui.tap(ui.one("DieBox", text="6 70%"))
    ui.tap(ui.one("FaceChoice", face="5"))
    assert session.view.moves == 0 and [str(a) for a in session.view.suggestions[0].actions] == ["roll 3 5"]
    ui.tap(ui.find("offer", lambda: [b for b in ui.widgets("SuggestionButton") if b.text == "rolled 3 and 5 (90%)"]))
    assert session.view.last == "roll 3 5"


def test_cancel_leaves_the_dice_as_read(ui, session):
    image = table(("3", "5"), seed=1)
    ui.app.camera_feed = settled_feed(image, misread(image, "5", doubt=0.55))
    open_camera(ui)
    ui.tap(ui.one("DieBox", text="3 100%"))
    ui.tap_text("Cancel")
    assert ui.screen.picking == -1 and not ui.screen.face_rows
    assert session.view.moves == 0


def test_six_dice_at_1280x720(ui, session):
    scene = render_scene(4, size=(1280, 720), count=6, die_px=40, look=Look(background="felt"))
    ui.app.camera_feed = settled_feed(scene.image, reader().read(scene.image))
    ui.resize(1280, 720)
    try:
        open_camera(ui)
        assert len(ui.widgets("DieBox")) == 6
        ui.assert_touch_targets()
        ui.shot("camera-view-1280x720")
    finally:
        ui.resize(800, 480)


def test_without_a_camera_the_view_says_so(ui, session):
    open_camera(ui)
    assert ui.screen.note_text == 'Camera off (camera.source = "none"): enter dice and cards by touch.'
    ui.shot("camera-view-no-camera")
    feed = ui.app.camera_feed = CameraFeed(auto_apply=0.98)
    ui.settle(0.3)
    assert ui.screen.note_text == "Waiting for the camera..."
    feed.status(lost=True)
    ui.settle(0.3)
    assert ui.screen.note_text.startswith("No camera found: enter dice and cards by touch.")
    image = table(("3", "5"), seed=1)
    feed.show(image)
    ui.settle(0.3)
    assert ui.screen.note_text == "Camera lost: enter dice and cards by touch." and ui.screen.ids.picture.dim
    feed.status(lost=False)
    ui.settle(0.3)
    assert ui.screen.note_text == "" and ui.screen.status_text.startswith("dice not read")
    ui.tap_text("Back")
    assert session.view.screen == "game"


def test_the_kiosks_camera_threads_feed_the_view_while_it_plays_the_roll(ui, session, tmp_path, monkeypatch):
    import cv2

    from assistant import settings
    from assistant.commands.run import Devices

    recording = tmp_path / "recording"
    recording.mkdir()
    cv2.imwrite(str(recording / "table.png"), table(("3", "5"), seed=1))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    devices = Devices(settings.load(overrides={
        "gpio.enabled": "false", "watchdog.enabled": "false", "camera.source": "images",
        "camera.path": str(recording), "camera.fps": "20", "app.state_dir": str(tmp_path / "state")}))
    ui.app.camera_feed = devices.feed
    open_camera(ui)
    devices.start(session, ui.app)
    try:
        ui.wait(lambda: session.view.moves == 1)  # the camera played it, the view still open
        ui.wait(lambda: sorted(box.text for box in ui.widgets("DieBox")) == ["3 100%", "5 100%"])
        # the view polls the feed a few times a second: the settled state may come a poll later
        ui.wait(lambda: ui.screen.status_text.startswith("table settled · camera "))
    finally:
        devices.close()
    assert session.view.last == "roll 3 5" and ui.view.screen == "camera"
    assert ui.app.message_text == "Camera: Table: rolled 3 and 5"
    ui.shot("camera-view-live")


def test_the_cards_read_on_a_hilo_mat_are_outlined_with_their_names_and_sureness(ui, tmp_path, monkeypatch):
    from assistant import settings
    from assistant.commands.calibrate_cards import enrol_synthetic_deck
    from assistant.commands.print_mat import smallest_mat
    from assistant.commands.watch import card_watcher
    from engine.table import FACE_DOWN
    from vision.synth.cards import hilo_table

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    config = settings.load(overrides={"app.state_dir": str(tmp_path / "state")})
    enrol_synthetic_deck(config)
    watcher = card_watcher(config, "hilo")
    session = ui.use(Session(Store(IN_MEMORY), advice=False))
    session.new_match("hilo", ["Ana", "Ben"])
    scene = hilo_table(smallest_mat("hilo", 2), seed=5)
    feed = ui.app.camera_feed = CameraFeed(auto_apply=0.98)
    try:
        feed.show(scene.frame)
        for index in range(6):
            watcher.feed(index, scene.frame)
            feed.cards_fed(watcher, alone=True)
        assert feed.snapshot.stillness == SETTLED
        open_camera(ui)
        assert ui.screen.status_text.startswith("table settled · camera 0 fps · reader ")
        outlines = ui.widgets("CardOutline")
        values = sorted(outline.text.split("\n")[0] for outline in outlines)
        assert values == sorted("back" if card.label == FACE_DOWN else card.label.split()[1] for card in scene.cards)
        assert all(int(outline.text.split("\n")[1].rstrip("%")) >= 50 for outline in outlines)
        assert ui.screen.cards_only
        ui.shot("camera-view-cards")

        moved = scene.frame[::-1].copy()  # the table moves: nothing is shown as read until it is still again
        watcher.feed(6, moved)
        feed.cards_fed(watcher, alone=True)
        ui.settle(0.3)
        assert ui.widgets("CardOutline") == [] and ui.screen.status_text.startswith("table moving")
    finally:
        ui.app.camera_feed = None
        session.close_screen()
        ui.frames()
