"""The kiosk's screen blanking, on a test clock and a fake /sys/class/backlight."""
import logging

from assistant.blanking import Backlights, IdleBlanker
from fake_pi import backlight


class Clock:
    now = 100.0

    def __call__(self):
        return self.now


def test_the_screen_goes_dark_after_the_wait_and_the_waking_touch_goes_no_further(tmp_path):
    power = backlight(tmp_path)
    clock, darkness = Clock(), []
    blanker = IdleBlanker(60, darkness.append, Backlights(tmp_path), clock)
    clock.now += 59
    blanker.tick()
    assert not blanker.touched() and darkness == []  # a touch in time resets the wait
    clock.now += 59
    blanker.tick()
    assert darkness == [] and power.read_text() == "0\n"
    clock.now += 1
    blanker.tick()
    assert blanker.blank and darkness == [True] and power.read_text() == "4\n"
    assert blanker.touched() is True  # woken: this touch presses nothing
    assert darkness == [True, False] and power.read_text() == "0\n"
    assert blanker.touched() is False


def test_a_backlight_that_cannot_be_switched_is_said_once_and_the_window_still_goes_black(tmp_path, caplog):
    (tmp_path / "sys/class/backlight/rpi_backlight/bl_power").mkdir(parents=True)  # unwritable, even by root
    lights = Backlights(tmp_path)
    clock, darkness = Clock(), []
    blanker = IdleBlanker(1, darkness.append, lights, clock)
    clock.now += 1
    with caplog.at_level(logging.WARNING, logger="assistant.blanking"):
        blanker.tick()
        blanker.touched()
    assert darkness == [True, False] and not lights
    (warning,) = caplog.records
    assert "cannot switch the backlight rpi_backlight" in warning.getMessage()


def test_no_backlight_is_no_backlight(tmp_path):
    assert not Backlights(tmp_path) and Backlights(tmp_path).power(True) is False


def test_a_button_press_that_wakes_the_dark_screen_does_nothing_else(monkeypatch):
    from kivy.app import App

    from assistant.app import TableApp

    # a new app becomes Kivy's running one: the screen tests' app is given back after this test
    monkeypatch.setattr(App, "_running_app", App.get_running_app())

    class Blanker:
        def __init__(self, dark):
            self.dark = dark

        def touched(self):
            woke, self.dark = self.dark, False
            return woke

    intents = []
    app = TableApp(type("Session", (), {"handle_intent": lambda self, intent: intents.append(intent)})())
    app.blanker = Blanker(dark=True)
    press = TableApp.post_intent.__wrapped__  # as run on the UI thread
    press(app, "CONFIRM")
    assert intents == []
    press(app, "CONFIRM")
    assert intents == ["CONFIRM"]
