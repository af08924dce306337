"""One tap, as a Pi delivers it twice: SDL's mouse button (under a desktop, the desktop's pointer
made of the touch) and the touchscreen's own evdev events, read by whichever Kivy input
providers the window configuration left. Prints the presses a full-window button counted.

    python taps.py SCENARIO ROOT     (run by test_window.py, under an X server)

ROOT is a fake file system with a multitouch touchscreen at sys/class/input/event4, its device
node a FIFO the tap's evdev records are written to. libmtdev is replaced by a reader of that
FIFO; everything else is Kivy's: its default [input] section, its probesysfs, its mtdev
provider, its mouse provider, runTouchApp creating the providers from Config.
"""
import json
import os
import select
import struct
import sys
import time
from pathlib import Path
from types import SimpleNamespace

EV_SYN, EV_ABS, SYN_REPORT = 0, 3, 0
ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0x2F, 0x35, 0x36, 0x39
EVENT = "llHHi"  # struct input_event on a 64-bit kernel
SIZE = (800, 480)

scenario, root = sys.argv[1], Path(sys.argv[2])
node = root / "dev/input/event4"

from kivy.config import Config  # noqa: E402
from kivy.input.providers import mtdev as mtdev_provider, probesysfs  # noqa: E402
from kivy.lib import mtdev as libmtdev  # noqa: E402


class FakeMtdev:
    """libmtdev's Device on the fake node: it passes on the records written there."""

    def __init__(self, filename):
        self._fd = os.open(filename, os.O_RDONLY | os.O_NONBLOCK)

    def get_abs(self, index):
        return SimpleNamespace(minimum=0, maximum=SIZE[index == libmtdev.MTDEV_ABS_POSITION_Y] - 1)

    def idle(self, ms):
        return not select.select([self._fd], [], [], ms / 1000)[0]

    def get(self):
        try:
            data = os.read(self._fd, struct.calcsize(EVENT))
        except BlockingIOError:
            return None
        return libmtdev.input_event.from_buffer_copy(data) if len(data) == struct.calcsize(EVENT) else None

    def close(self):
        os.close(self._fd)


mtdev_provider.Device = FakeMtdev
# Kivy's probesysfs looks in the real /sys/class/input and names nodes in /dev/input: point it here
probesysfs.get_inputs = lambda path: [probesysfs.Input(str(root / "sys/class/input/event4"))]
probesysfs.Input.device = property(lambda self: str(node))

env = dict(os.environ)
if scenario == "kiosk-kmsdrm":
    env["SDL_VIDEODRIVER"] = "kmsdrm"  # what configure_window sees; this window stays on the X server
if scenario.startswith("kiosk"):
    from assistant.app import configure_window
    configure_window(fullscreen=False, size=SIZE, keyboard="system", env=env, root=str(root),
                     rotation=180 if scenario == "kiosk-kmsdrm" else 0,
                     blank_after_s=2.0 if scenario == "kiosk-blank" else 0.0)
else:
    Config.set("graphics", "width", str(SIZE[0]))
    Config.set("graphics", "height", str(SIZE[1]))

from kivy.base import EventLoop, runTouchApp  # noqa: E402
from kivy.uix.button import Button  # noqa: E402

presses = []
runTouchApp(Button(on_press=lambda button: presses.append(time.monotonic())), embedded=True)
window = EventLoop.window


def frames(seconds=0.3):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        EventLoop.idle()
        time.sleep(0.01)


def writer():
    deadline = time.monotonic() + 5
    while True:
        try:
            return os.open(node, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # no reader: none of the providers opened the touchscreen
            if time.monotonic() > deadline:
                return None
            frames(0.05)


def evdev(fd, *events):
    if fd is not None:
        now = time.time()
        os.write(fd, b"".join(struct.pack(EVENT, int(now), int(now % 1 * 1e6), *e) for e in events))


def tap(fd, where=(400, 240)):
    x, y = where
    evdev(fd, (EV_ABS, ABS_MT_SLOT, 0), (EV_ABS, ABS_MT_TRACKING_ID, 7), (EV_ABS, ABS_MT_POSITION_X, x),
          (EV_ABS, ABS_MT_POSITION_Y, y), (EV_SYN, SYN_REPORT, 0))
    frames()
    window.dispatch("on_mouse_down", x, y, "left", [])  # SDL's mouse button of the same finger
    frames()
    evdev(fd, (EV_ABS, ABS_MT_TRACKING_ID, -1), (EV_SYN, SYN_REPORT, 0))
    window.dispatch("on_mouse_up", x, y, "left", [])
    frames()


frames(0.2)
fd = writer() if scenario in ("kivy-defaults", "kiosk-kmsdrm") else None
backlight = root / "sys/class/backlight/10-0045/bl_power"
result = {"providers": dict(Config.items("input")), "reads_touchscreen": fd is not None,
          "graphics": {k: Config.get("graphics", k) for k in ("fullscreen", "rotation", "show_cursor")},
          "sdl": {k: v for k, v in env.items() if k.startswith("SDL_")}}
if scenario == "kiosk-blank":
    frames(3.5)  # well past blank_after_s without a touch (a loaded machine ticks late)
    result["blank_backlight"] = backlight.read_text().strip()
    tap(fd)
    result["presses_while_blank"] = len(presses)
    result["woken_backlight"] = backlight.read_text().strip()
tap(fd)
result["presses"] = len(presses)
print(json.dumps(result))
