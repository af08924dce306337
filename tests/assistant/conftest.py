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
    os.environ.update(KIVY_NO_ARGS="1", KIVY_HOME=home, KIVY_WINDOW="sdl2", KIVY_NO_CONSOLELOG="1",
                      KIVY_NO_FILELOG="1")
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
        self.frames(3)

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

    def frames(self, count=2):
        for _ in range(count):
            self.loop.idle()

    def resize(self, width, height):
        from kivy.core.window import Window
        Window.size = (width, height)
        self.frames(4)

    def tap(self, widget):
        """A finger down and up at the widget's centre, through the window like a real touch."""
        from kivy.tests.common import UnitTestTouch
        self.frames()  # lay out whatever changed since the last frame
        assert widget.get_root_window() is not None, f"{widget} is not on screen"
        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
        self.frames()

    def widgets(self, kind=None, root=None, **attrs):
        """Widgets under ``root`` (the current screen) of class name ``kind`` with these attributes."""
        found = []
        for widget in (root or self.screen).walk(restrict=True):
            if kind and type(widget).__name__ != kind:
                continue
            if all(getattr(widget, k, object()) == v for k, v in attrs.items()):
                found.append(widget)
        return found

    def button(self, text, root=None):
        """The visible, enabled button showing ``text``."""
        matches = [w for w in self.widgets(root=root) if getattr(w, "text", None) == text
                   and hasattr(w, "on_release") and not w.disabled and w.opacity > 0]
        assert matches, f"no button {text!r} on {self.screen.name}"
        return matches[0]

    def tap_text(self, text, root=None):
        self.tap(self.button(text, root))

    def shot(self, name):
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.frames(2)
        self.app.root.export_to_png(str(path))
        return path

    def stop(self):
        self.app.stop()
        self.frames(1)
