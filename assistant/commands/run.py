"""`table-assistant run`: the kiosk. The touchscreen always works; the camera, the GPIO buttons
and lights and the serial panel are used when present, and each one missing is said once (in
the log and on the screen) without stopping the app.
"""
from __future__ import annotations

import logging
import os
import signal
import subprocess
import threading
import time
from typing import Any, Callable

from assistant.camera_policy import AUTO, DiceJudge, judge_cards, seat_dice_colours
from assistant.display import draws_on_screen
from assistant.session import Session
from assistant.views import ERROR, ViewState
from assistant.store import Store, default_path
from engine.text import tr

log = logging.getLogger(__name__)
EMPTY_TABLE_FRAMES = 10  # camera frames the empty table is learnt from (their median)
FRAME_WAIT_S = 2.0  # how long a screen's reading (a sheet, a page of the deck) waits for a camera frame
CLOSE_WAIT_S = 10.0  # the longest wait at close for the camera's threads (a read, a model loading)


def add_parser(sub) -> None:
    parser = sub.add_parser("run", help="the kiosk: touchscreen, camera, buttons and serial panel")
    add_window_arguments(parser)
    parser.set_defaults(run=run)


def add_window_arguments(parser) -> None:
    parser.add_argument("--fullscreen", action="store_true", help="full screen (setting ui.fullscreen)")
    parser.add_argument("--size", metavar="WxH",
                        help="window size, e.g. 1280x720 (default: settings ui.width x ui.height)")


def run(args, settings) -> int:
    with open_store(settings) as store:
        session = new_session(store, settings)
        if settings["session.resume_on_start"] and store.unfinished():
            view = session.resume()
            if view.screen == "game":
                log.info("reopened game %s (%s) after %d moves", view.match_id, view.game_id, view.moves)
        devices = Devices(settings)
        camera_on = settings["camera.source"] != "none"
        app = make_app(args, settings, session, every=devices.every(), on_first_frame=devices.ready,
                       learn_empty_table=devices.learn_empty_table if camera_on else None,
                       read_sheet=devices.read_sheet if camera_on else None,
                       read_frame=devices.read_frame if camera_on else None,
                       camera_feed=devices.feed if camera_on else None,
                       power_off=power_off if draws_on_screen(os.environ) else None)  # a desktop has its own
        devices.start(session, app)
        stop_on_sigterm(app)
        try:
            app.run()
        finally:
            devices.close()
    return 0


def _modified(path) -> float | None:
    """When the file at ``path`` was last written (None: there is none)."""
    try:
        return path.stat().st_mtime
    except OSError:
        return None


def power_off() -> None:
    """Shut the machine down (the settings screen's Power off); OSError saying why not."""
    try:
        done = subprocess.run(["systemctl", "poweroff"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise OSError(str(exc)) from exc
    if done.returncode:
        raise OSError(done.stderr.strip() or f"systemctl poweroff exited with {done.returncode}")


def stop_on_sigterm(app) -> None:
    """systemd stops the kiosk with SIGTERM: leave the UI loop so devices and records close."""
    signal.signal(signal.SIGTERM, lambda signum, frame: app.stop())


# --- shared with `demo` ----------------------------------------------------------------------------

def open_store(settings, path: str | None = None) -> Store:
    """The records database: ``path``, else session.database, else the one in app.state_dir."""
    path = path or settings["session.database"] or default_path(settings["app.state_dir"])
    store = Store(path)
    if store.notice:
        log.error("%s", store.notice)
    return store


def new_session(store: Store, settings) -> Session:
    return Session(store, advice=settings["ui.show_advice"], history_size=settings["session.results_shown"])


def make_app(args, settings, session: Session, **kwargs):
    from assistant.cli import UsageError
    from assistant.app import TableApp, configure_window

    size = (settings["ui.width"], settings["ui.height"])
    if args.size:
        width, sep, height = args.size.lower().partition("x")
        if not (sep and width.isdigit() and height.isdigit()):
            raise UsageError(f"--size expects WIDTHxHEIGHT, e.g. 800x480, got {args.size!r}")
        size = (int(width), int(height))
    configure_window(fullscreen=args.fullscreen or settings["ui.fullscreen"], size=size,
                     keyboard=settings["ui.keyboard"], rotation=settings["ui.rotation"], cursor=settings["ui.cursor"],
                     blank_after_s=settings["ui.blank_after_s"])
    return TableApp(session, language=settings["app.language"],
                    game_defaults=settings.values.get("games", {}), settings=settings, **kwargs)


# --- the devices around the screen -----------------------------------------------------------------

class Devices:
    """Buttons, lights, serial panel, camera and the systemd watchdog, each optional."""

    def __init__(self, settings):
        from assistant.camera_feed import CameraFeed
        from hardware.watchdog import SystemdNotifier

        self.settings = settings
        self.notifier = SystemdNotifier() if settings["watchdog.enabled"] else None
        self._closers: list[Callable[[], Any]] = []
        self._threads: list[threading.Thread] = []  # the camera's, ended at close
        self._indicators = None
        self._panel = None
        self._last_turn: tuple | None = None
        self._last_message = None
        self._session: Session | None = None
        self._reading_dice = threading.Event()  # the camera thread has read a frame for dice
        self._learn_table = threading.Event()   # asked from the screen, done by the camera thread
        self._wanted: list[tuple[Callable[[Any], Any], Callable[[Any], Any], float]] = []  # (read, done, until)
        self._wanted_lock = threading.Lock()
        self._table_moved = False  # the camera's view no longer fits the learnt empty table (said once)
        self._camera_missing = False  # "no camera" or "camera lost" was said, "camera back" not yet
        self._camera_done = threading.Event()  # closed, or its recording ended: the dice reader stops
        self.feed = CameraFeed(settings["camera.auto_apply"])  # what the camera screen shows

    def every(self) -> list[tuple[float, Callable[[], Any]]]:
        """Pings from the UI loop, so a frozen screen is what makes systemd restart the app."""
        if self.notifier is None:
            return []
        interval = self.notifier.ping_interval(self.settings["watchdog.interval_s"])
        return [(interval, self.notifier.ping)] if interval else []

    def ready(self) -> None:
        if self.notifier is not None:
            self.notifier.ready("showing the first screen")

    def start(self, session: Session, app) -> None:
        """Open what is there; ``app`` hands what devices send over to the UI thread."""
        from hardware.buttons import NoButtons, open_buttons
        from hardware.gpio import GpioConfig
        from hardware.indicators import NoIndicators, open_indicators

        self._session = session
        gpio = GpioConfig.from_mapping(self.settings.section("gpio"))
        buttons = open_buttons(gpio, app.post_intent)
        self._closers.append(buttons.close)
        if gpio.enabled and gpio.buttons and isinstance(buttons, NoButtons):
            session.notify(tr("No GPIO buttons here: use the touchscreen."))
        indicators = open_indicators(gpio)
        self._closers.append(indicators.close)
        self._indicators = None if isinstance(indicators, NoIndicators) else indicators
        if self._indicators is not None and self._indicators.has_buzzer:
            app.buzzer = self._indicators  # the settings screen's sound switch
        self._start_panel(app.post_intent, app.post_notice)
        self.start_camera(session, app)
        session.subscribe(self._feedback)
        self._feedback(session.view)

    def _start_panel(self, post_intent, post_notice) -> None:
        if not self.settings["serial.port"]:
            return
        from hardware.serial_panel import open_panel

        lost = threading.Event()

        def status(connected: bool, detail: str) -> None:  # on the panel's thread: each change said once
            if not connected and not lost.is_set():
                lost.set()
                post_notice(tr("The serial panel is not connected ({detail}); touch entry works.",
                               detail=detail), "panel")
            elif connected and lost.is_set():
                lost.clear()
                post_notice(tr("The serial panel is back."), "panel")

        self._panel = open_panel(self.settings.section("serial"), post_intent, on_status=status)
        self._closers.append(self._panel.close)

    def start_camera(self, session: Session, app, render: Callable[[int], Any] | None = None) -> None:
        """Read the dice the camera films for ``session`` (on threads of their own, until closed);
        ``render`` draws the frames of camera.source = "synthetic" (`demo`'s simulated table)."""
        from vision.capture import camera_from_config

        self._session = session
        camera = camera_from_config(self.settings.section("camera"), render,
                                    on_status=lambda status, detail: self._camera_status(status, app))
        if camera is None:
            session.notify(tr("Camera off (camera.source = \"none\"): enter dice and cards by touch."))
            return
        self._closers.append(camera.close)
        # opening a camera and loading the readers take seconds: not on the UI thread
        reading = threading.Thread(target=self._read_table, args=(camera, session, app), name="camera", daemon=True)
        self._threads.append(reading)
        reading.start()

    def _camera_status(self, status, app) -> None:
        """On the capture thread: say once that frames stopped coming, and once that they are back."""
        from vision.capture import CameraStatus

        self.feed.status(lost=status is CameraStatus.LOST)
        if status is CameraStatus.ENDED:
            self._camera_done.set()
        elif status is CameraStatus.LOST and not self._camera_missing:
            self._camera_missing = True
            app.post_notice(tr("Camera lost: enter dice and cards by touch."), "camera")
        elif status is CameraStatus.LIVE and self._camera_missing:
            self._camera_missing = False
            app.post_notice(tr("Camera back."), "camera")

    def _read_table(self, camera, session: Session, app) -> None:
        """Read what the game's camera reads on still frames (``vision.live.GameWatcher``): the
        dice, the cards on a mat, or both (Hold Up: the dice in the mat's dice zone once the mat is
        found), and hand each settled reading's verdict to the session: applied when sure, offered
        when not, said when the rules cannot explain it. Cards seen with a roll are judged once the
        roll is played. Frames come on the capture thread; a slow read drops frames (the newest
        one is read next) instead of lagging."""
        from assistant.commands.watch import game_mats
        from assistant.dice_readers import DiceReaders
        from vision.capture import CaptureError, CaptureThread, LatestFrame
        from vision.dice import DiceReaderError
        from vision.dice_colours import Palette
        from vision.live import GameWatcher, Observation, TableWatcher
        from vision.live_cards import CardObservation
        from vision.stillness import StableReader

        try:
            log.info("camera ready: %s", camera.open().name)
        except CaptureError as exc:  # said once; the capture thread keeps trying, with growing waits
            log.warning("%s", exc)
            self._camera_missing = True
            app.post_notice(tr("No camera found: enter dice and cards by touch. "
                               "`table-assistant doctor` says what is missing."))
        latest = LatestFrame()

        def arrived(frame) -> None:  # on the capture thread
            self.feed.show(frame.image)
            latest.put(frame)

        self._threads.append(CaptureThread(camera, arrived).start().thread)
        readers = DiceReaders(self.settings.section("vision.dice"), self.settings["app.state_dir"])
        reading: list = []  # the reader of the game on the table
        timed_read = self.feed.timed(lambda image, *area: reading[0].read(image, *area))
        watcher = TableWatcher(StableReader.from_settings(timed_read, self.settings.section("vision.stillness")))
        live = GameWatcher(watcher)
        said: set[bool] = set()  # the kinds of dice whose missing reader was said
        card_reading: list = []  # the card watcher (None: why not said) and when the deck was learnt
        empty: list = []
        waiting: list = []  # card observations not yet judged
        try:
            palette = Palette.parse(self.settings["vision.dice.palette"]).names
        except ValueError:  # said by the dice reader, which cannot be built with it: no colours then
            palette = ()
        judge_dice, judged_match = DiceJudge(), None
        mats: dict[str, list] = {}  # each game's mats
        applying = None  # the position a roll seen was posted in, to be played (on the UI thread)
        while True:
            frame = latest.get(timeout=0.2)
            if self._wanted and (frame is not None or self._wanted[0][2] < time.monotonic()):
                with self._wanted_lock:
                    wanted, self._wanted = self._wanted, []
                for read, done, _ in wanted:
                    try:
                        outcome = read(frame)
                    except Exception as exc:  # a screen's reading failed: said, and the camera goes on
                        log.exception("reading asked from a screen")
                        outcome = tr("The camera's reading failed: {reason}", reason=str(exc))
                    app.post(lambda outcome=outcome, done=done: done(outcome))
                continue
            if frame is None:
                if self._camera_done.is_set():
                    return
                continue
            reads = self._camera_reads(session)
            live.cards = self._card_watcher(session, app, card_reading) if "cards" in reads else None
            # on the game's mat the dice are read in its dice zones (Excape's rungs and roll area)
            game = session.view.game_id
            live.mats = mats.setdefault(game, game_mats(game))
            live.dice = None
            if "dice" in reads:
                printed = self._printed_dice(session)
                try:
                    reading[:] = [readers.reader(printed)]
                    live.dice = watcher
                except DiceReaderError as exc:  # said once; this game's dice are entered by touch
                    if printed not in said:
                        said.add(printed)
                        log.warning("dice reader: %s", exc)
                        app.post_notice(tr("The dice reader is not available ({reason}): enter dice by touch.",
                                           reason=str(exc)))
            if live.dice is not None:
                self._reading_dice.set()
                if self._learn_table.is_set():
                    empty.append(frame.image)
                    if len(empty) == EMPTY_TABLE_FRAMES:
                        self._learn_table.clear()
                        app.post_notice(self._learnt(readers, empty))
                        empty = []
                    continue
            seen = live.feed(frame.index, frame.image)
            self.feed.cards_fed(live.cards, alone=live.dice is None)
            if live.dice is not None:
                self.feed.fed(watcher)
                if watcher.settled and live.area is None and readers.background is not None:  # the learnt table?
                    self._check_table(readers.background, frame.image, app)
            waiting += [o for o in seen if isinstance(o, CardObservation)]
            state = session.position  # an immutable snapshot: safe to read from this thread
            if state is None or state.is_terminal():
                waiting = []
                continue
            # a match started or resumed: its seats' dice colours, and no die lying still from another
            match = (id(state.game), session.view.match_id, tuple(seat.colour for seat in session.view.seats))
            if match != judged_match:
                judged_match = match
                judge_dice = DiceJudge(seat_dice_colours(state.game, match[2], palette))
                self.feed.seat_colours = judge_dice.seat_colours
            # the auto-apply level is read each time: the settings screen changes it
            for observation in (o for o in seen if isinstance(o, Observation)):
                event = judge_dice(state, observation, self.feed.auto_apply)
                if event is not None:
                    app.post(lambda read_in=state, seen=event: session.camera(read_in, seen))
                    applying = state if event.kind == AUTO else applying
            if waiting and state is not applying:  # the cards once a roll seen with them is played
                applying = None
                for observation in waiting:
                    event = judge_cards(state, observation.view, self.feed.auto_apply)
                    if event is not None:
                        app.post(lambda read_in=state, seen=event: session.camera(read_in, seen))
                waiting = []

    def _card_watcher(self, session: Session, app, card_reading: list):
        """The card watcher of the game on the table, (re)built for another game or a deck learnt
        again; None without the game's deck enrolled (the cards are entered by touch: said once
        for a game of cards alone, Hilo; only logged for one whose dice the camera still reads)."""
        from assistant.commands.calibrate_cards import enrolment_path
        from assistant.commands.watch import card_watcher
        from vision.card_model import EnrolmentError

        game = session.view.game_id
        enrolled = (game, _modified(enrolment_path(self.settings, game)))
        if not card_reading or card_reading[1] != enrolled:  # first, another game, or the deck learnt again
            try:
                card_reading[:] = [card_watcher(self.settings, game), enrolled]
            except EnrolmentError as exc:
                log.warning("card reader: %s", exc)
                card_reading[:] = [None, enrolled]
                if "dice" not in self._camera_reads(session):
                    app.post_notice(tr("The card reader is not available ({reason}): enter cards by touch.",
                                       reason=str(exc)))
        return card_reading[0]

    def read_frame(self, read: Callable[[Any], Any], done: Callable[[Any], Any]) -> None:
        """Asked from a screen (UI thread): ``read(frame)`` on the camera thread with its next
        frame (None when none came within FRAME_WAIT_S); ``done`` gets what it returns on the
        UI thread. The camera reads nothing else meanwhile."""
        with self._wanted_lock:
            self._wanted.append((read, done, time.monotonic() + FRAME_WAIT_S))

    def read_sheet(self, pad: str, done: Callable[[Any], Any]) -> None:
        """Asked from the screen (UI thread): read the Splitter sheet held under the camera in its
        next frame; ``done`` gets an assistant.splitter_sheets.SheetReview, or the text saying
        why none was read, on the UI thread."""
        from assistant.splitter_sheets import SheetReview

        def read(frame) -> Any:
            if frame is None:
                return tr("No frame from the camera: enter the sheet by touch.")
            try:
                return SheetReview.of_image(frame.image, pad)
            except ValueError as exc:
                return tr("No sheet read: {reason}", reason=str(exc))

        self.read_frame(read, done)

    @staticmethod
    def _camera_reads(session: Session) -> tuple[str, ...]:
        """What the camera reads of the game on the table: dice, cards or both."""
        from engine import registry

        game = session.view.game_id
        return registry.game_class(game).camera_reads if game else ("dice",)

    @staticmethod
    def _printed_dice(session: Session) -> bool:
        """Whether the game on the table has printed dice (none on the table: pips)."""
        from engine import registry

        game = session.view.game_id
        return bool(game) and registry.game_class(game).printed_dice

    def learn_empty_table(self) -> None:
        """Asked from the screen (UI thread): the camera learns the empty table from its next
        frames, so the mat's markers and print are not read as dice (as `calibrate
        dice-background` does with the kiosk stopped)."""
        if not self._reading_dice.is_set():
            self._session.notify(tr("The camera is not reading dice: the empty table cannot be learnt now."))
            return
        self._learn_table.set()
        self._session.notify(tr("Learning the empty table: keep it clear for a moment."))

    def _learnt(self, readers, frames: list) -> Any:
        """On the camera thread: the empty table from ``frames``, saved and used; what to say."""
        from assistant.commands.calibrate_dice import empty_table_path
        from vision.dice_background import BackgroundError, TableBackground

        path = empty_table_path(self.settings)
        if path is None:
            return tr("vision.dice.background_file is empty: the empty table is not kept.")
        try:
            background = TableBackground.from_frames(frames)
            background.save(path)
        except (BackgroundError, OSError) as exc:
            log.warning("empty table: %s", exc)
            return tr("The empty table could not be learnt ({reason}).", reason=str(exc))
        readers.background = background
        self._table_moved = False
        return tr("Empty table learnt: its markers and print are not read as dice.")

    def _check_table(self, background, image, app) -> None:
        """On the camera thread: say once that the camera's view no longer fits the learnt empty
        table (its print would be read as dice again): the camera or the mat has moved, or the
        camera gives frames of another size. Said again only after the view has fitted."""
        from vision.dice_background import frame_size

        fit = background.fit(image)
        if fit.stale and not self._table_moved:
            if fit.other_size:
                now, learnt = frame_size(image.shape), frame_size(background.grey.shape)
                log.warning("the camera gives %s frames, the empty table was learnt at %s", now, learnt)
                app.post_notice(tr("The camera now gives {now} frames, but the empty table was learnt at "
                                   "{learnt}: clear the table and touch Empty table.", now=now, learnt=learnt))
            else:
                log.warning("the camera's view no longer fits the learnt empty table")
                app.post_notice(tr("The camera or the mat has moved since the empty table was learnt: "
                                   "clear the table and touch Empty table."))
        self._table_moved = fit.stale

    def _feedback(self, view: ViewState) -> None:
        """Lights, buzzer and panel follow the game: turn changes, refused moves, scores."""
        from hardware.indicators import Feedback

        if view.message is not None and view.message is not self._last_message and view.message.kind == ERROR:
            self._signal(Feedback.ILLEGAL_MOVE)
        self._last_message = view.message
        if view.screen != "game":
            self._last_turn = None
            return
        turn = (view.match_id, view.to_play)
        if turn != self._last_turn and 0 <= view.to_play < len(view.seats):
            self._signal(Feedback.TURN_CHANGE)
            if self._panel is not None:
                self._panel.show_turn(view.to_play, view.seats[view.to_play].name)
        self._last_turn = turn
        if self._panel is not None:
            self._panel.show_scores([int(seat.score) for seat in view.seats])

    def _signal(self, feedback) -> None:
        if self._indicators is not None:
            self._indicators.signal(feedback)

    def close(self) -> None:
        self._camera_done.set()
        for close in reversed(self._closers):
            try:
                close()
            except Exception:  # closing one device must not stop the others from closing
                log.exception("while closing a device")
        self._closers.clear()
        for thread in self._threads:  # a thread left inside OpenCV as Python exits aborts the process
            thread.join(CLOSE_WAIT_S)
        if self.notifier is not None:
            self.notifier.stopping()
