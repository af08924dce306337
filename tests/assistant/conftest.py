"""The screen tests' fixture: one Kivy window for the whole run (Kivy has one window per process),
under the X server of ``xvfb-run`` or an Xvfb started here, driven frame by frame with simulated
touches. Screenshots go to test-artifacts/screenshots/ (git-ignored).
"""
import atexit
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
BOARD_CELLS = {"CardView", "SheetCell", "TrackSpace"}


@pytest.fixture(scope="session")
def x_display():
    if os.environ.get("DISPLAY"):
        yield os.environ["DISPLAY"]
        return
    if not shutil.which("Xvfb"):
        pytest.skip("no DISPLAY and no Xvfb to start one: the screen tests need an X server")
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                              pass_fds=(write,), stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    os.environ["DISPLAY"] = f":{number}"
    yield os.environ["DISPLAY"]
    server.terminate()
    server.wait(timeout=10)


@pytest.fixture(scope="session")
def ui(x_display):
    """A running TableApp at 800x480 and a driver for it (see ``Driver``)."""
    home = tempfile.mkdtemp(prefix="kivy-home-")
    atexit.register(shutil.rmtree, home, ignore_errors=True)
    # KIVY_LOG_MODE as the app sets it: Kivy must not wrap sys.stderr, which pytest captures per test
    os.environ.update(KIVY_NO_ARGS="1", KIVY_HOME=home, KIVY_WINDOW="sdl2", KIVY_NO_CONSOLELOG="1",
                      KIVY_NO_FILELOG="1", KIVY_LOG_MODE="PYTHON")
    from kivy.config import Config
    Config.set("graphics", "width", "800")
    Config.set("graphics", "height", "480")
    Config.set("kivy", "exit_on_escape", "0")
    driver = Driver()
    yield driver
    driver.stop()


class Driver:
    """Runs the app one frame at a time and touches it like a finger would."""

    def __init__(self):
        from kivy.base import EventLoop

        from assistant.app import TableApp
        from assistant.session import Session
        from assistant.store import IN_MEMORY, Store

        self.loop = EventLoop
        self.app = TableApp(Session(Store(IN_MEMORY)))
        self.app._run_prepare()  # build, open the window, dispatch on_start: what run() does first
        self.frames(2)

    @property
    def session(self):
        return self.app.session

    @property
    def view(self):
        return self.app.session.view

    @property
    def screen(self):
        return self.app.root.current_screen

    def use(self, session):
        self.app.attach(session)
        self.frames()
        return session

    def frames(self, count=1):
        """Run the UI loop: layout, clock callbacks, drawing (a drawn frame costs ~0.2 s here)."""
        for _ in range(count):
            self.loop.idle()

    def wait(self, predicate, timeout=20.0):
        """Run frames until ``predicate()`` holds (background advice arrives through the clock)."""
        import time
        deadline = time.monotonic() + timeout
        while not predicate():
            assert time.monotonic() < deadline, "the screen did not get there in time"
            self.frames(1)
            time.sleep(0.01)

    def play_until(self, done, rng, limit=2000):
        """Play seeded random moves (and dice and cards) through the session until ``done(view)``."""
        for _ in range(limit):
            view = self.session.view
            if done(view):
                self.frames()
                return view
            assert view.outcome is None, "the game ended first"
            state = self.session.position
            action = state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
            assert self.session.play(action).last == str(action)
        raise AssertionError(f"not reached in {limit} moves")

    def find(self, what, matches, tries=6):
        """The first widget ``matches()`` returns after a frame (lists recycle their widgets as
        they lay out, so a widget is looked up only once the screen is laid out)."""
        for _ in range(tries):
            self.frames()
            found = matches()
            if found:
                return found[0]
        raise AssertionError(f"no {what} on {self.screen.name}")

    def one(self, class_name, **attrs):
        """The widget of that class with these attribute values (e.g. a picker's "ruby" button)."""
        return self.find(f"{class_name} {attrs}", lambda: self.widgets(class_name, **attrs))

    def choice(self, text):
        """The side list's move whose label contains ``text``."""
        return self.find(f"move {text!r} in the list",
                         lambda: [w for w in self.widgets("ChoiceItem") if text in w.label])

    def resize(self, width, height):
        from kivy.core.window import Window
        Window.size = (width, height)
        self.frames(2)

    def tap(self, widget):
        """A finger down and up at the centre of a widget just found (``find`` and the helpers
        using it), through the window like a real touch."""
        from kivy.tests.common import UnitTestTouch
        assert widget.get_root_window() is not None, f"{widget} is not on screen"
        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()  # handlers run now, except in a scrolling list, which waits to tell a
        if self._in_scrolling_list(widget):  # tap from a swipe and delivers the tap a moment later
            self.settle(0.3)

    @staticmethod
    def _in_scrolling_list(widget):
        from kivy.uix.scrollview import ScrollView
        while widget is not None and widget.parent is not widget:
            if isinstance(widget, ScrollView):
                return True
            widget = widget.parent
        return False

    def settle(self, seconds):
        """Run the UI loop for ``seconds`` of clock time."""
        import time
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.frames()
            time.sleep(0.02)

    def widgets(self, class_name=None, root=None, **attrs):
        """Widgets under ``root`` (the current screen) of that class with these attribute values."""
        found = []
        for widget in (root or self.screen).walk(restrict=True):
            if class_name and type(widget).__name__ != class_name:
                continue
            if all(getattr(widget, k, object()) == v for k, v in attrs.items()):
                found.append(widget)
        return found

    def button(self, text, root=None):
        """The visible, enabled button showing ``text``."""
        from assistant.screens.widgets import shown
        return self.find(f"button {text!r}", lambda: [
            w for w in self.widgets(root=root) if getattr(w, "text", None) == text
            and hasattr(w, "on_release") and not w.disabled and shown(w)])

    def tap_text(self, text, root=None):
        self.tap(self.button(text, root))

    def smallest_target(self):
        """(size, class, text) of the smallest visible, enabled touch target on screen, board
        cells (Hilo cards, Splitter sheet cells, Excape track) apart: every move they offer is
        also in the side list, whose entries are full-size targets."""
        from kivy.uix.behaviors import ButtonBehavior
        from assistant.screens.widgets import shown
        self.frames()
        found = [w for w in self.screen.walk(restrict=True)
                 if isinstance(w, ButtonBehavior) and type(w).__name__ not in BOARD_CELLS
                 and shown(w) and not w.disabled and w.width > 1 and w.height > 1]
        widget = min(found, key=lambda w: min(w.size))
        return min(widget.size), type(widget).__name__, getattr(widget, "text", "")

    def assert_touch_targets(self):
        """Every touch target is at least 48 px (scaled with the screen)."""
        side, kind, text = self.smallest_target()
        assert side >= 48 * self.app.scale - 0.5, f"{kind} {text!r} on {self.screen.name} is {side:.0f} px"

    def shot(self, name):
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.frames()
        self.app.root.export_to_png(str(path))
        return path

    def stop(self):
        self.app.stop()
