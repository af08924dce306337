"""The Kivy application: a thin view over the session's view-state.

Screens are built for the official 800x480 touchscreen and scale with the window (``scale`` is
1.0 at 800x480, 1.5 at 1280x720); every size in the kv files is multiplied by it. Widgets bind
to screen properties set from the view-state; touches call one-line intent methods that go to
the session. Devices running in background threads reach the session only through ``post``.
"""
from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any, Callable, Mapping, MutableMapping, Sequence

os.environ.setdefault("KIVY_NO_ARGS", "1")  # the command line is ours, not Kivy's
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")  # Kivy's records go through our logging (journal)
os.environ.setdefault("KIVY_NO_FILELOG", "1")  # ... and not to files of its own on the SD card
os.environ.setdefault("KIVY_CLIPBOARD", "sdl2,dummy")  # SDL's, not xclip or xsel, which a kiosk lacks
if logging.getLogger().level > logging.DEBUG:
    os.environ.setdefault("KCFG_KIVY_LOG_LEVEL", "warning")  # Kivy's start-up chatter only with -v

from kivy.app import App  # noqa: E402  (Kivy reads KIVY_* variables when first imported)
from kivy.logger import Logger  # noqa: E402
from kivy.base import EventLoop  # noqa: E402
from kivy.clock import Clock, mainthread  # noqa: E402
from kivy.config import Config  # noqa: E402
from kivy.lang import Builder  # noqa: E402
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty  # noqa: E402
from kivy.uix.screenmanager import NoTransition, ScreenManager  # noqa: E402

from assistant import i18n  # noqa: E402
from assistant.advice_worker import AdviceWorker  # noqa: E402
from assistant.blanking import Backlights, IdleBlanker  # noqa: E402
from assistant.display import Screen  # noqa: E402
from assistant.memory import TRIM_EVERY_S, give_back_freed_memory  # noqa: E402
from assistant.session import Session  # noqa: E402
from assistant.settings import Settings  # noqa: E402
from assistant.views import GAME, ViewState  # noqa: E402
from engine.text import tr as make_text  # noqa: E402

log = logging.getLogger(__name__)


def _no_cut_buffer_alarm(record: logging.LogRecord) -> bool:
    """Drop Kivy's CRITICAL record (two tracebacks) when it finds neither xclip nor xsel for X's
    middle-click paste buffer, which its text fields look for whatever the clipboard: a kiosk
    has no such buffer, and copy and paste still work (SDL's clipboard)."""
    return not record.getMessage().startswith("Cutbuffer: Unable to find any valuable Cutbuffer provider")


Logger.addFilter(_no_cut_buffer_alarm)

KV_DIR = Path(__file__).resolve().parent / "kv"
BASE_SIZE = (800, 480)


ROTATIONS = (0, 90, 180, 270)
CURSORS = ("auto", "show", "hide")


def configure_window(*, fullscreen: bool, size: tuple[int, int], keyboard: str, rotation: int = 0,
                     cursor: str = "auto", blank_after_s: float = 0.0,
                     env: MutableMapping[str, str] = os.environ, root: str = "/") -> Screen:
    """Window and input settings, applied before the window opens (Kivy opens it on the first run).

    Drawing straight on the screen (KMSDRM, no desktop) is always full screen, on the card of the
    connected screen; ``cursor`` "auto" hides the pointer there when a touchscreen is found. Each
    tap reaches Kivy once (see ``assistant.display``). ``blank_after_s`` > 0 darkens the screen
    after that long without a touch. SDL's settings go to ``env``; returns what was found."""
    if keyboard not in ("dock", "system"):
        raise ValueError(f"ui.keyboard: {keyboard!r} is not \"dock\" or \"system\"")
    if size[0] < 320 or size[1] < 240:
        raise ValueError(f"the window must be at least 320x240, not {size[0]}x{size[1]}")
    if rotation not in ROTATIONS:
        raise ValueError(f"ui.rotation: {rotation} is not one of {', '.join(map(str, ROTATIONS))} (degrees)")
    if cursor not in CURSORS:
        raise ValueError(f"ui.cursor: {cursor!r} is not one of {', '.join(map(repr, CURSORS))}")
    if blank_after_s < 0:
        raise ValueError(f"ui.blank_after_s: {blank_after_s} s is negative (0 = never)")
    screen = Screen.survey(env, root)
    screen.set_sdl_environment(env)
    hide_cursor = cursor == "hide" or (cursor == "auto" and screen.on_screen and bool(screen.touch))
    Config.set("graphics", "fullscreen", "auto" if fullscreen or screen.on_screen else "0")
    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    Config.set("graphics", "resizable", "1")
    Config.set("graphics", "rotation", str(rotation))
    Config.set("graphics", "show_cursor", "0" if hide_cursor else "1")
    Config.set("kivy", "keyboard_mode", "systemanddock" if keyboard == "dock" else "system")
    Config.set("kivy", "exit_on_escape", "0")  # a kiosk is not closed by a stray key
    for option in Config.options("input"):  # Kivy's defaults and a config.ini's would read taps twice
        Config.remove_option("input", option)
    for name, provider in screen.input_providers().items():
        Config.set("input", name, provider)
    if blank_after_s:
        EventLoop.bind(on_start=lambda loop: _blank_when_idle(loop.window, blank_after_s, root))
    log.info("%s", screen.describe())
    return screen


def _blank_when_idle(window, after_s: float, root: str) -> None:
    """Start the blanking; the running TableApp keeps it, so a button press can wake the screen."""
    blanker = blank_when_idle(window, after_s, root)
    app = App.get_running_app()
    if app is not None:
        app.blanker = blanker


def blank_when_idle(window, after_s: float, root: str = "/") -> IdleBlanker:
    """Darken ``window`` after ``after_s`` seconds without a touch; the touch that wakes it and
    its moves and release reach no widget."""
    from kivy.graphics import Color, Rectangle

    cover: list = []

    def dark(blank: bool) -> None:
        if blank:
            with window.canvas.after:
                cover[:] = [Color(0, 0, 0, 1), Rectangle(pos=(0, 0), size=window.size)]
        else:
            for instruction in cover:
                window.canvas.after.remove(instruction)
            cover.clear()

    blanker = IdleBlanker(after_s, dark, Backlights(root))
    waking: set[int] = set()

    def down(win, touch) -> bool:
        if blanker.touched():
            waking.add(touch.uid)
            return True
        return False

    def up(win, touch) -> bool:
        if touch.uid in waking:
            waking.discard(touch.uid)
            return True
        return False

    window.bind(on_touch_down=down, on_touch_move=lambda win, touch: touch.uid in waking, on_touch_up=up)
    Clock.schedule_interval(lambda dt: blanker.tick(), min(1.0, after_s / 4))  # dark within a quarter late
    return blanker


class TableApp(App):
    scale = NumericProperty(1.0)
    language = StringProperty("en")
    view = ObjectProperty(None, allownone=True)
    message_text = StringProperty("")
    can_learn_table = BooleanProperty(False)
    can_read_sheet = BooleanProperty(False)
    can_read_frame = BooleanProperty(False)
    can_power_off = BooleanProperty(False)

    blanker: IdleBlanker | None = None  # set when the screen darkens when idle (ui.blank_after_s)
    buzzer: Any = None  # the GPIO lights' buzzer, when one is wired: hardware.indicators.Indicators

    def __init__(self, session: Session, *, language: str = "en",
                 game_defaults: Mapping[str, Mapping[str, Any]] | None = None,
                 every: Sequence[tuple[float, Callable[[], Any]]] = (),
                 on_first_frame: Callable[[], Any] | None = None,
                 learn_empty_table: Callable[[], Any] | None = None,
                 read_sheet: Callable[[str, Callable[[Any], Any]], Any] | None = None,
                 read_frame: Callable[[Callable[[Any], Any], Callable[[Any], Any]], Any] | None = None,
                 camera_feed: Any = None,
                 power_off: Callable[[], Any] | None = None, settings: Settings | None = None, **kwargs):
        """``every``: (seconds, function) pairs run on the UI loop (the demo's steps, the
        watchdog's pings); ``on_first_frame`` runs once the first frame is on screen;
        ``learn_empty_table`` asks the camera to learn the empty table (None: no such button);
        ``read_sheet(pad, done)`` asks it to read the Splitter sheet under it (None: no camera);
        ``read_frame(read, done)`` has ``read`` the camera's next frame on its thread, ``done``
        getting the result (None: no camera; the card deck's pages are photographed so);
        ``camera_feed`` is what the camera screen shows (an assistant.camera_feed.CameraFeed; None:
        no camera); ``power_off`` shuts the machine down, raising OSError if it cannot (None: the
        demo, a desktop, no such button); ``settings`` keeps the settings screen's changes for
        the next starts (None: they last until the app restarts)."""
        super().__init__(**kwargs)
        if language not in i18n.LANGUAGES:
            raise ValueError(f"app.language: {language!r} is not one of {', '.join(i18n.LANGUAGES)}")
        self.title = "Table Assistant"
        self.session = session
        self.language = language
        self.game_defaults = dict(game_defaults or {})
        self._every = tuple(every)
        self._on_first_frame = on_first_frame
        self.learn_empty_table = learn_empty_table
        self.can_learn_table = learn_empty_table is not None
        self.read_sheet = read_sheet
        self.can_read_sheet = read_sheet is not None
        self.read_frame = read_frame
        self.can_read_frame = read_frame is not None
        self.camera_feed = camera_feed
        self.power_off = power_off
        self.can_power_off = power_off is not None
        self.settings = settings
        self._unsubscribe: Callable[[], None] | None = None

    # --- building ------------------------------------------------------------------------------

    def build(self):
        from kivy.core.window import Window  # opens the window: after configure_window

        for path in sorted(KV_DIR.glob("*.kv")):
            Builder.load_file(str(path))
        manager = ScreenManager(transition=NoTransition())
        Window.bind(size=lambda *_: self._rescale())
        self._rescale()
        self.root = manager
        self.attach(self.session)
        for seconds, function in self._every:
            Clock.schedule_interval(lambda dt, f=function: f(), seconds)
        Clock.schedule_interval(lambda dt: give_back_freed_memory(), TRIM_EVERY_S)
        if self._on_first_frame is not None:
            Window.bind(on_flip=self._first_flip)
        return manager

    def _first_flip(self, window) -> None:
        """The first frame is on the screen (``on_flip`` follows each finished frame)."""
        window.unbind(on_flip=self._first_flip)
        self._on_first_frame()

    def attach(self, session: Session) -> None:
        """Show ``session`` (the demo and the tests switch sessions without a new window)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        self.session = session
        session.use_worker(AdviceWorker(lambda done: Clock.schedule_once(lambda dt: done())))
        self._unsubscribe = session.subscribe(self._show)
        self._show(session.view)

    def _rescale(self) -> None:
        from kivy.core.window import Window

        width, height = Window.size
        self.scale = min(width / BASE_SIZE[0], height / BASE_SIZE[1])

    def _show(self, view: ViewState) -> None:
        from assistant.screens import screen_class, screen_name

        self.view = view
        manager = self.root
        name = screen_name(view.screen, view.game_id)
        if not manager.has_screen(name):  # each kind of screen is built when first shown
            manager.add_widget(screen_class(view.screen, view.game_id)(name=name))
        screen = manager.get_screen(name)
        screen.update(view)
        self.message_text = screen.word_message(view) if view.message else ""
        manager.current = name

    # --- text ----------------------------------------------------------------------------------

    def set_language(self, language: str) -> None:
        """Show every screen in ``language`` (the settings screen): the screens are built again,
        as their texts are set when they are built."""
        if language not in i18n.LANGUAGES:
            raise ValueError(f"language {language!r} is not one of {', '.join(i18n.LANGUAGES)}")
        from assistant.screens.widgets import discard

        self.language = language
        discard(self.root, list(self.root.screens))
        self._show(self.session.view)

    def t(self, text: Any) -> str:
        """``text`` (a Text from the engine or the session, or a plain string) in the app's language."""
        return i18n.translate(text, self.language)

    def tr(self, template: str, **fields: Any) -> str:
        """A screen text: the English template translated, then filled in."""
        return i18n.translate(make_text(template, **fields), self.language)

    # --- from devices --------------------------------------------------------------------------

    @mainthread
    def post_intent(self, intent: Any) -> None:
        """Buttons and the serial panel call this from their own threads. A press that wakes a
        dark screen does nothing else, as a touch does."""
        if self.blanker is not None and self.blanker.touched():
            return
        self.session.handle_intent(intent)

    @mainthread
    def post_notice(self, text: Any, about: str = "") -> None:
        self.session.notify(text, about)

    @mainthread
    def post(self, function: Callable[[], Any]) -> None:
        """Run ``function`` on the UI thread (the camera reader's suggestions)."""
        function()

    def screen_for(self, game_id: str):
        from assistant.screens import screen_name
        return self.root.get_screen(screen_name(GAME, game_id))
