"""The kiosk's own screen blanking: the screen goes dark after a while without a touch and the
next touch only wakes it (a tap on a dark screen must not press the button under it).

A panel with a backlight (the official DSI touchscreens) is switched off through sysfs
(``bl_power``, which the udev rules let the video group write); any other screen is covered in
black by the window, as SDL gives no way to put an HDMI screen in DPMS standby.
"""
from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Callable

log = logging.getLogger(__name__)

FB_BLANK_UNBLANK, FB_BLANK_POWERDOWN = 0, 4  # bl_power's values (linux/fb.h)


class Backlights:
    """The backlights in /sys/class/backlight that this process may switch."""

    def __init__(self, root: str | Path = "/"):
        self.paths = sorted(Path(root, "sys/class/backlight").glob("*/bl_power"))

    def __bool__(self) -> bool:
        return bool(self.paths)

    def power(self, on: bool) -> bool:
        """Switch every backlight; False when none could be switched (said once each)."""
        switched = False
        for path in list(self.paths):
            try:
                path.write_text(f"{FB_BLANK_UNBLANK if on else FB_BLANK_POWERDOWN}\n")
                switched = True
            except OSError as exc:
                log.warning("cannot switch the backlight %s (%s): the screen is blacked out instead; "
                            "`table-assistant doctor` tells what is missing", path.parent.name, exc)
                self.paths.remove(path)
        return switched


class IdleBlanker:
    """Blanks after ``after_s`` seconds without a touch. ``dark(True/False)`` does the blanking
    (the window's cover); backlights, when there are, are switched as well."""

    def __init__(self, after_s: float, dark: Callable[[bool], None], backlights: Backlights,
                 clock: Callable[[], float] = time.monotonic):
        self.after_s = after_s
        self._dark = dark
        self._backlights = backlights
        self._clock = clock
        self._last = clock()
        self.blank = False

    def touched(self) -> bool:
        """A touch: True when it only woke the screen and must go no further."""
        self._last = self._clock()
        if not self.blank:
            return False
        self._set(False)
        return True

    def tick(self) -> None:
        if not self.blank and self._clock() - self._last >= self.after_s:
            self._set(True)

    def _set(self, blank: bool) -> None:
        self.blank = blank
        self._backlights.power(not blank)
        self._dark(blank)
