"""The window configuration on a (fake) Pi: one tap is one press, and the screen blanks.

Each case runs taps.py in its own process (Kivy opens one window per process, and reads its
input configuration once), under the X server of the screen tests.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.app import configure_window
from fake_pi import backlight, connector, keyboard_and_mouse, touchscreen

TAPS = Path(__file__).with_name("taps.py")


@pytest.fixture
def tap(x_display, tmp_path):
    root = tmp_path / "root"
    keyboard_and_mouse(root)
    touchscreen(root, 4, fifo=True)
    backlight(root)
    connector(root, 0, "HDMI-A-1", "disconnected")
    connector(root, 2, "DSI-2")

    def run(scenario):
        env = dict(os.environ, DISPLAY=x_display, KIVY_HOME=str(tmp_path / "kivy"), KIVY_NO_ARGS="1",
                   KIVY_NO_CONSOLELOG="1", KIVY_NO_FILELOG="1", KIVY_WINDOW="sdl2")
        done = subprocess.run([sys.executable, str(TAPS), scenario, str(root)], env=env, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-3000:]
        return json.loads(done.stdout.strip().splitlines()[-1])
    return run


def test_kivys_own_input_settings_count_a_tap_twice(tap):
    """What the kiosk had: Kivy's default [input] reads the touchscreen beside SDL's mouse."""
    result = tap("kivy-defaults")
    assert result["reads_touchscreen"] and result["presses"] == 2


def test_under_a_desktop_the_tap_is_the_desktops_pointer_only(tap):
    result = tap("kiosk-desktop")
    assert result["providers"] == {"mouse": "mouse,disable_multitouch"}
    assert not result["reads_touchscreen"] and result["presses"] == 1


def test_under_kmsdrm_kivy_reads_the_touchscreen_and_a_mouse_button_of_the_same_tap_is_dropped(tap, tmp_path):
    result = tap("kiosk-kmsdrm")
    assert result["providers"] == {"mouse": "mouse,disable_multitouch,disable_on_activity",
                                   "touch_event4": f"mtdev,{tmp_path}/root/dev/input/event4"}
    assert result["sdl"]["SDL_TOUCH_MOUSE_EVENTS"] == "0"  # and SDL is told to make none
    assert result["reads_touchscreen"] and result["presses"] == 1  # on a screen turned upside down
    # straight on the screen: full screen, on the card of the connected panel, no pointer over it
    assert result["graphics"] == {"fullscreen": "auto", "rotation": "180", "show_cursor": "0"}
    assert result["sdl"]["SDL_KMSDRM_DEVICE_INDEX"] == "2"


def test_in_a_desktop_window_the_size_and_pointer_are_kept(tap):
    assert tap("kiosk-desktop")["graphics"] == {"fullscreen": "0", "rotation": "0", "show_cursor": "1"}


def test_the_screen_blanks_when_idle_and_the_waking_tap_presses_nothing(tap):
    result = tap("kiosk-blank")
    assert result["blank_backlight"] == "4" and result["presses_while_blank"] == 0
    assert result["woken_backlight"] == "0" and result["presses"] == 1


@pytest.mark.parametrize("changes, message", [
    ({"rotation": 45}, "ui.rotation: 45 is not one of 0, 90, 180, 270"),
    ({"cursor": "never"}, "ui.cursor: 'never' is not one of 'auto', 'show', 'hide'"),
    ({"blank_after_s": -1.0}, "ui.blank_after_s: -1.0 s is negative"),
    ({"keyboard": "qwerty"}, "ui.keyboard: 'qwerty' is not"),
    ({"size": (200, 100)}, "at least 320x240, not 200x100"),
])
def test_window_settings_that_cannot_work_are_refused_naming_the_setting(changes, message):
    kwargs = {"fullscreen": False, "size": (800, 480), "keyboard": "dock", **changes}
    with pytest.raises(ValueError, match=message):
        configure_window(**kwargs)
