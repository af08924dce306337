"""The kiosk's devices are optional: each one missing is said once and the touch entry stays."""
import threading
import time

import pytest

from assistant import settings as settings_mod
from assistant.commands.run import Devices
from assistant.session import Session
from assistant.store import IN_MEMORY, Store
from vision.capture import FrameSource


class FakeApp:
    """Stands in for TableApp's thread hand-over (there is no UI loop here)."""

    def __init__(self):
        self.notices = []
        self.arrived = threading.Event()

    def post_intent(self, intent):
        raise AssertionError("no device should send intents here")

    def post_notice(self, text, about=""):
        self.notices.append(text)
        self.arrived.set()

    def post(self, function):
        function()


def devices_with(tmp_path, monkeypatch, **overrides):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    settings = settings_mod.load(overrides={"gpio.enabled": "false", "watchdog.enabled": "false", **overrides})
    return Devices(settings)


def test_camera_off_is_said_once_on_the_screen(tmp_path, monkeypatch):
    session = Session(Store(IN_MEMORY))
    devices = devices_with(tmp_path, monkeypatch, **{"camera.source": "none"})
    app = FakeApp()
    devices.start(session, app)
    devices.close()
    assert session.view.notices == ('Camera off (camera.source = "none"): enter dice and cards by touch.',)
    assert app.notices == []


def test_a_missing_camera_is_said_once_and_nothing_else_stops(tmp_path, monkeypatch):
    session = Session(Store(IN_MEMORY))
    devices = devices_with(tmp_path, monkeypatch, **{"camera.source": "v4l2",
                                                     "camera.device": str(tmp_path / "no-such-camera")})
    app = FakeApp()
    devices.start(session, app)
    answers = []
    try:
        assert app.arrived.wait(30), "the missing camera was never reported"
        devices.read_sheet("A", answers.append)  # the Splitter screen's button: no frame to read a sheet in
        deadline = time.monotonic() + 30
        while not answers and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        devices.close()
    assert str(app.notices[0]) == (
        "No camera found: enter dice and cards by touch. `table-assistant doctor` says what is missing.")
    assert [str(a) for a in answers] == ["No frame from the camera: enter the sheet by touch."]
    devices.learn_empty_table()  # the screen's button: nothing to learn from
    assert str(session.view.notices[-1]) == "The camera is not reading dice: the empty table cannot be learnt now."
    # then, at most, that the dice reader cannot be loaded either (its networks are optional)
    assert all(str(n).startswith("The dice reader is not available") for n in app.notices[1:])


def test_the_screen_asks_the_camera_to_learn_the_empty_table(tmp_path, monkeypatch):
    import cv2
    import numpy as np

    from vision.dice_background import TableBackground

    recording = tmp_path / "recording"
    recording.mkdir()
    table = np.full((120, 160, 3), (60, 120, 80), np.uint8)
    cv2.rectangle(table, (20, 20), (60, 60), (250, 250, 250), -1)  # something printed on it
    cv2.imwrite(str(recording / "table.png"), table)
    session = Session(Store(IN_MEMORY))
    devices = devices_with(tmp_path, monkeypatch, **{"camera.source": "images", "camera.path": str(recording),
                                                     "camera.fps": "200", "app.state_dir": str(tmp_path / "state")})
    app = FakeApp()
    devices.start(session, app)
    try:
        assert devices._reading_dice.wait(30), "the dice reader never started"
        devices.learn_empty_table()
        assert str(session.view.notices[-1]) == "Learning the empty table: keep it clear for a moment."
        assert app.arrived.wait(30), "the empty table was never learnt"
    finally:
        devices.close()
    assert [str(n) for n in app.notices] == ["Empty table learnt: its markers and print are not read as dice."]
    learnt = TableBackground.load(tmp_path / "state" / "dice-background.png").grey
    assert np.array_equal(learnt, cv2.cvtColor(table, cv2.COLOR_BGR2GRAY))


def test_the_screen_asks_the_camera_to_read_a_sheet_and_gets_it_or_why_not(tmp_path, monkeypatch):
    import cv2

    from assistant.splitter_sheets import SheetReview, splitter_sheet
    from vision.synth.sheets import sheet_photo

    photo = sheet_photo(splitter_sheet("B"), 41, 2_000_041, seat=3, blur=0.5)
    recording = tmp_path / "recording"
    recording.mkdir()
    cv2.imwrite(str(recording / "sheet.png"), photo.image)
    devices = devices_with(tmp_path, monkeypatch, **{"camera.source": "images", "camera.path": str(recording),
                                                     "camera.fps": "50", "app.state_dir": str(tmp_path / "state")})
    answers, answered = [], threading.Event()

    def done(outcome):
        answers.append(outcome)
        answered.set()

    devices.start(Session(Store(IN_MEMORY)), FakeApp())
    try:
        devices.read_sheet("B", done)
        assert answered.wait(30), "the sheet was never read"
        answered.clear()
        devices.read_sheet("A", done)  # the players chose pad A: this sheet is not one
        assert answered.wait(30), "the other pad's sheet was never answered"
    finally:
        devices.close()
    read, wrong = answers
    assert isinstance(read, SheetReview) and read.seat == 3
    right = sum(read.values[cell] == digit for cell, digit in photo.values.items())
    assert right >= 43 and all(read.values[cell] == digit for cell, digit in photo.values.items()
                               if cell not in read.unsure)
    assert str(wrong) == "No sheet read: this is a pad B sheet, not pad A"


def test_the_kiosk_says_once_when_the_camera_no_longer_sees_the_learnt_table(tmp_path, monkeypatch):

    import cv2
    import numpy as np

    from vision.dice_background import TableBackground

    rng = np.random.default_rng(3)
    table = cv2.resize(rng.integers(0, 255, (45, 80, 3), np.uint8), (640, 360), interpolation=cv2.INTER_NEAREST)
    moved = np.roll(table, (24, 40), axis=(0, 1))
    state = tmp_path / "state"
    TableBackground.from_frames([table]).save(state / "dice-background.png")
    checks = []
    check = Devices._check_table

    def spied_check(self, *args):
        check(self, *args)
        checks.append(self._table_moved)

    monkeypatch.setattr(Devices, "_check_table", spied_check)
    # two still scenes each time (a hand passes between them)
    smaller = cv2.resize(table, (320, 180))
    recordings = {"in place": [table] * 10 + [moved] + [table] * 10,
                  "moved": [moved] * 10 + [table[::-1]] + [moved] * 10,
                  "another size": [smaller] * 10 + [smaller[::-1]] + [smaller] * 10}
    notices = {}
    for what, frames in recordings.items():
        recording = tmp_path / what
        recording.mkdir()
        for number, frame in enumerate(frames):
            cv2.imwrite(str(recording / f"{number:02d}.png"), frame)
        checks.clear()
        session = Session(Store(IN_MEMORY))
        devices = devices_with(tmp_path, monkeypatch, **{
            "camera.source": "images", "camera.path": str(recording), "camera.fps": "50",
            "app.state_dir": str(state)})
        app = FakeApp()
        devices.start(session, app)
        try:
            deadline = time.monotonic() + 60
            while len(checks) < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
        finally:
            devices.close()
        assert checks == [what != "in place"] * 2, (what, checks)
        notices[what] = [str(n) for n in app.notices]
    assert notices == {"in place": [], "moved": [
        "The camera or the mat has moved since the empty table was learnt: clear the table and touch Empty table."],
        "another size": ["The camera now gives 320x180 frames, but the empty table was learnt at 640x360: "
                         "clear the table and touch Empty table."]}


@pytest.mark.parametrize("lowered", ["in the settings", "on the settings screen"])
def test_the_camera_plays_a_sure_roll_by_itself_and_announces_it(tmp_path, monkeypatch, lowered):
    import queue

    import cv2

    from dice_support import frames, table

    recording = tmp_path / "recording"
    recording.mkdir()
    for index, frame in enumerate(frames([table(("3", "5"), seed=1)])):
        cv2.imwrite(str(recording / f"{index:02d}.png"), frame)
    session = Session(Store(IN_MEMORY))
    session.new_match("splitter", ["Ana", "Ben"])
    # a low threshold: this test is about the kiosk's path, not the reader's sureness; frames
    # slow enough for the reader to take them all (it drops those that come faster)
    devices = devices_with(tmp_path, monkeypatch, **{
        "camera.source": "images", "camera.path": str(recording), "camera.fps": "20",
        "camera.auto_apply": "0.5" if lowered == "in the settings" else "1.01", "app.state_dir": str(tmp_path / "state")})
    devices.feed.auto_apply = 0.5  # as the settings screen sets it
    posted = queue.Queue()
    app = FakeApp()
    app.post = posted.put  # as TableApp does, the camera's verdicts are run on the session's thread
    devices.start(session, app)
    try:
        deadline = time.monotonic() + 60
        while session.view.moves == 0 and time.monotonic() < deadline:
            try:
                posted.get(timeout=0.05)()
            except queue.Empty:
                pass
    finally:
        devices.close()
    view = session.view
    assert view.last == "roll 3 5" and view.message.camera
    assert str(view.message.text) == "Camera: table: roll 3 5"


def test_the_camera_says_whose_dice_were_rolled_out_of_turn_and_plays_nothing(tmp_path, monkeypatch):
    import queue

    from assistant.i18n import translate, with_names
    from vision.dice import DieReading

    def read(image):  # Ben's dice (the session gives the second player blue) showing 4 and 5
        return [DieReading(40.0 + 60 * k, 60.0, ((40.0 + 60 * k, 60.0), (30.0, 30.0), 0.0), {face: 1.0}, 1.0, "blue")
                for k, face in enumerate("45")]

    camera_with(monkeypatch, StillSource(), read)
    session = Session(Store(IN_MEMORY))
    session.new_match("excape", ["Ana", "Ben", "Chloé"])  # Ana (red) rolls first
    devices = devices_with(tmp_path, monkeypatch, **{"camera.source": "v4l2", "camera.fps": "30"})
    posted = queue.Queue()
    app = FakeApp()
    app.post = posted.put
    devices.start(session, app)
    try:
        run_posted(posted, lambda: session.view.message is not None and "Camera" in str(session.view.message.text))
    finally:
        devices.close()
    said = translate(with_names(session.view.message.text, ["Ana", "Ben", "Chloé"]), "en")
    assert said == "Camera: Ben's dice (blue) were rolled, and it is Ana's turn"
    assert session.view.moves == 0


def test_a_malformed_dice_palette_leaves_the_camera_reading_without_colours(tmp_path, monkeypatch):
    import queue

    from vision.dice import DieReading

    def read(image):  # Ben's blue dice out of turn: told apart only by their colour
        return [DieReading(40.0 + 60 * k, 60.0, ((40.0 + 60 * k, 60.0), (30.0, 30.0), 0.0), {face: 1.0}, 1.0, "blue")
                for k, face in enumerate("45")]

    camera_with(monkeypatch, StillSource(), read)
    session = Session(Store(IN_MEMORY))
    session.new_match("excape", ["Ana", "Ben", "Chloé"])
    devices = devices_with(tmp_path, monkeypatch, **{"camera.source": "v4l2", "camera.fps": "30",
                                                     "vision.dice.palette": '["red"]'})
    posted = queue.Queue()
    app = FakeApp()
    app.post = posted.put
    devices.start(session, app)
    try:
        run_posted(posted, lambda: session.view.moves > 0)
    finally:
        devices.close()
    assert session.view.last == "roll 4 5"  # read by faces alone: the camera went on


class StillSource(FrameSource):
    """A camera looking at a table where nothing moves (each frame a new copy, so a read can
    tell which frame it got); ``broken`` makes it fail as an unplugged camera does."""

    name = "still table"
    live = False  # paced by the Camera at camera.fps

    def __init__(self):
        import numpy as np

        self.table = np.full((120, 160, 3), 90, np.uint8)
        self.made = []  # every frame given, in order
        self.broken = threading.Event()

    def open(self):
        if self.broken.is_set():
            raise self.fail("unplugged")

    def grab(self):
        if self.broken.is_set():
            raise self.fail("stopped giving frames (unplugged?)")
        self.made.append(self.table.copy())
        return self.made[-1]

    def index_of(self, image):
        return next(k for k in range(len(self.made) - 1, -1, -1) if self.made[k] is image)


class FakeReader:
    background = None

    def __init__(self, read):
        self.read = read


def camera_with(monkeypatch, source, read=lambda image: []):
    """The kiosk's camera path with ``source`` as its only camera and ``read`` as its dice reader."""
    from vision import capture, dice

    monkeypatch.setattr(capture, "sources_from_config", lambda config, render=None: [source])
    monkeypatch.setattr(dice.DiceReader, "from_settings", classmethod(lambda cls, *args, **kwargs: FakeReader(read)))


def run_posted(posted, until, timeout=30):
    """Run what the devices post to the UI thread (this one) until ``until()``."""
    import queue

    deadline = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < deadline, "not in time"
        try:
            posted.get(timeout=0.02)()
        except queue.Empty:
            pass


def test_a_camera_lost_mid_game_is_said_and_so_is_its_return(tmp_path, monkeypatch):
    import queue

    source = StillSource()
    camera_with(monkeypatch, source)
    session = Session(Store(IN_MEMORY))
    session.new_match("splitter", ["Ana", "Ben"])
    devices = devices_with(tmp_path, monkeypatch, **{"camera.source": "v4l2", "camera.fps": "100",
                                                     "camera.retry_initial_s": "0.01", "camera.retry_max_s": "0.05"})
    posted = queue.Queue()
    app = FakeApp()
    app.post = posted.put
    app.post_notice = lambda text, about="": posted.put(lambda: session.notify(text, about))  # as TableApp does
    devices.start(session, app)
    try:
        run_posted(posted, lambda: len(source.made) > 5)
        source.broken.set()
        run_posted(posted, lambda: session.view.notices)
        assert session.view.notices == ("Camera lost: enter dice and cards by touch.",)
        assert devices.feed.snapshot.lost
        assert session.play("roll 3 5").last == "roll 3 5"  # the game goes on by touch
        made = len(source.made)
        source.broken.clear()
        run_posted(posted, lambda: "Camera back." in session.view.notices and len(source.made) > made + 5)
    finally:
        devices.close()
    assert session.view.notices == ("Camera back.",)  # it retires "Camera lost"
    assert not devices.feed.snapshot.lost


def test_a_slow_reader_drops_frames_and_never_holds_up_the_screen(tmp_path, monkeypatch):

    from vision.dice import DieReading

    source = StillSource()
    reads = []  # (frame read, newest frame then)

    def slow_read(image):
        reads.append((source.index_of(image), len(source.made) - 1))
        time.sleep(0.1)  # ten camera frames
        # 0 to 4 dice, so that no vote ever agrees and every still frame is read
        return [DieReading(20.0 * k, 20.0, ((20.0 * k, 20.0), (10.0, 10.0), 0.0), {"1": 1.0}, 1.0, "white")
                for k in range(len(reads) % 5)]

    camera_with(monkeypatch, source, slow_read)
    session = Session(Store(IN_MEMORY))
    devices = devices_with(tmp_path, monkeypatch, **{"camera.source": "v4l2", "camera.fps": "100"})
    app = FakeApp()
    devices.start(session, app)
    polls = []
    try:
        deadline = time.monotonic() + 30
        while len(reads) < 10 and time.monotonic() < deadline:  # the screen polls what the camera sees
            start = time.perf_counter()
            snapshot = devices.feed.snapshot
            polls.append(time.perf_counter() - start)
            time.sleep(0.01)
    finally:
        devices.close()
    assert len(reads) >= 10, "the reader was not given frames"
    lags = [newest - read for read, newest in reads[1:]]
    # a reader given frames in turn would fall ten more frames behind at each read; one given the
    # newest is behind by what came while it took it (a few frames on a busy machine)
    assert max(lags) < 10, f"each read takes ten frames' time, yet it reads the newest frame: lags {lags}"
    assert len(source.made) >= 5 * len(reads), "the frames read in between were dropped"
    assert snapshot.fps >= 3 * snapshot.loop_fps > 0 and snapshot.read_ms >= 100
    assert max(polls) < 0.05, "the screen never waits on the reader"


def test_the_window_settings_reach_the_window(tmp_path, monkeypatch):
    import argparse

    import assistant.app

    seen = {}
    monkeypatch.setattr(assistant.app, "configure_window", lambda **kwargs: seen.update(kwargs))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    settings = settings_mod.load(overrides={"ui.rotation": "180", "ui.cursor": "hide", "ui.blank_after_s": "60"})
    from assistant.commands.run import make_app

    make_app(argparse.Namespace(size=None, fullscreen=False), settings, Session(Store(IN_MEMORY)))
    assert (seen["rotation"], seen["cursor"], seen["blank_after_s"]) == (180, "hide", 60)


@pytest.mark.parametrize("buzzer", [13, 0])
def test_a_wired_buzzer_is_the_settings_screens_sound_switch(tmp_path, monkeypatch, buzzer):
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    monkeypatch.setattr(Device, "pin_factory", MockFactory())
    devices = devices_with(tmp_path, monkeypatch, **{
        "gpio.enabled": "true", "gpio.buzzer": str(buzzer), "gpio.beep": "false", "camera.source": "none"})
    app = FakeApp()
    devices.start(Session(Store(IN_MEMORY)), app)
    try:
        if buzzer:
            assert app.buzzer.has_buzzer and not app.buzzer.beep  # silent, and can be turned on
        else:
            assert not hasattr(app, "buzzer")
    finally:
        devices.close()


def test_the_camera_plays_a_hilo_table_from_the_mat(tmp_path, monkeypatch):
    import queue

    from assistant import cli
    from engine.match import Match
    from vision.synth.card_recording import record

    record(2, 3, tmp_path / "round", max_tables=3)  # dealt, the discard turned up, a first reveal
    state = tmp_path / "state"
    assert cli.main(["--set", f"app.state_dir={state}", "calibrate", "cards", "--synthetic"]) == 0
    truth = Match.load(tmp_path / "round" / "truth.json")
    session = Session(Store(IN_MEMORY))
    session.new_match("hilo", ["Ana", "Ben"])
    devices = devices_with(tmp_path, monkeypatch, **{
        "camera.source": "images", "camera.path": str(tmp_path / "round" / "frames"), "camera.fps": "10",
        "camera.auto_apply": "0.5", "app.state_dir": str(state)})
    posted = queue.Queue()
    app = FakeApp()
    app.post = posted.put
    devices.start(session, app)
    try:
        run_posted(posted, lambda: session.view.moves >= len(truth.history), timeout=300)  # slow beside other jobs
    finally:
        devices.close()
    assert session.position.table_view() == truth.state.table_view()
    assert session.view.message.camera and not app.notices


def test_the_camera_plays_a_hold_up_table_dice_and_cards_from_the_mat(tmp_path, monkeypatch, holdup_deck):
    import queue

    from engine.match import Match
    from vision.synth.holdup_recording import record

    record(3, 2, tmp_path / "game", turns=1)  # the deal, then a turn: rolls, captures, flips, cards drawn
    truth = Match.load(tmp_path / "game" / "truth.json")
    session = Session(Store(IN_MEMORY))
    session.new_match("holdup", ["Ana", "Ben", "Chloé"])
    devices = devices_with(tmp_path, monkeypatch, **{
        "camera.source": "images", "camera.path": str(tmp_path / "game" / "frames"), "camera.fps": "4",
        "camera.auto_apply": "0.5", "app.state_dir": str(holdup_deck[0])})
    posted = queue.Queue()
    app = FakeApp()
    app.post = posted.put
    devices.start(session, app)
    try:
        # 225 frames played as a camera (4 fps: the newest frame wins, so a reader slowed by other jobs
        # skips frames; at 10 fps under a loaded suite it read too few of a roll's 15 still frames to
        # see it settle); each read (dice zone, cards) as it comes
        run_posted(posted, lambda: session.view.moves >= len(truth.history), timeout=300)
    finally:
        devices.close()
    assert [str(a) for a in session.match.history] == [str(a) for a in truth.history]
    assert session.view.message.camera and not app.notices


def test_without_an_enrolled_deck_the_kiosk_says_once_that_cards_are_entered_by_touch(tmp_path, monkeypatch):
    import queue

    from assistant.commands import calibrate_cards, watch

    source = StillSource()
    camera_with(monkeypatch, source)
    built, real = [], watch.card_watcher
    monkeypatch.setattr(watch, "card_watcher", lambda *args: built.append(1) or real(*args))
    session = Session(Store(IN_MEMORY))
    session.new_match("hilo", ["Ana", "Ben"])
    devices = devices_with(tmp_path, monkeypatch, **{"camera.source": "usb", "app.state_dir": str(tmp_path / "state")})
    posted = queue.Queue()
    app = FakeApp()
    app.post = posted.put
    devices.start(session, app)
    try:
        run_posted(posted, lambda: app.notices and len(source.made) > 20)
        assert len(app.notices) == 1 and "enter cards by touch" in str(app.notices[0])
        assert "calibrate cards" in str(app.notices[0])
        assert len(built) == 1
        calibrate_cards.enrol_synthetic_deck(devices.settings)  # the deck learnt meanwhile (the settings screen)
        run_posted(posted, lambda: len(built) == 2)
        made = len(source.made)
        run_posted(posted, lambda: len(source.made) > made + 20)
    finally:
        devices.close()
    assert len(built) == 2 and len(app.notices) == 1  # read with the new deck from then on, and built once


def test_a_screens_reading_gets_the_next_frame_and_a_failed_one_is_said(tmp_path, monkeypatch):
    import queue

    source = StillSource()
    camera_with(monkeypatch, source)
    devices = devices_with(tmp_path, monkeypatch, **{"camera.source": "usb", "app.state_dir": str(tmp_path / "state")})
    posted, answers = queue.Queue(), []
    app = FakeApp()
    app.post = posted.put
    devices.start(Session(Store(IN_MEMORY)), app)
    try:
        devices.read_frame(lambda frame: frame.image.shape, answers.append)
        devices.read_frame(lambda frame: 1 / 0, answers.append)  # a reading that fails: the camera goes on
        run_posted(posted, lambda: len(answers) == 2)
        made = len(source.made)
        run_posted(posted, lambda: len(source.made) > made + 5)
    finally:
        devices.close()
    assert answers[0] == (120, 160, 3)
    assert str(answers[1]) == "The camera's reading failed: division by zero"
