"""Short and long presses of one button, from its debounced level, with an injected clock."""
from __future__ import annotations

from typing import Callable

from hardware.intents import Intent


class PressDetector:
    """Decides which intent a press means.

    Without a long-press intent the short intent is sent as soon as the button goes down (the
    quickest response). With one, holding for ``long_press_s`` sends the long intent at that
    moment, while still held; releasing earlier sends the short intent.
    """

    def __init__(
        self, short: Intent, long: Intent | None, long_press_s: float, clock: Callable[[], float]
    ):
        if long is not None and long_press_s <= 0:
            raise ValueError(f"long-press time must be more than 0 seconds, got {long_press_s}")
        self.short = short
        self.long = long
        self.long_press_s = long_press_s
        self._clock = clock
        self._pressed_at: float | None = None  # set while held and the long press has not fired

    def update(self, pressed: bool, since: float | None = None) -> list[Intent]:
        """The button's debounced level changed (at clock time ``since``, default now); return
        the intents this sends. Holding is timed from ``since``, the moment of the press itself."""
        if self.long is None:
            return [self.short] if pressed else []
        if pressed:
            self._pressed_at = self._clock() if since is None else since
            return []
        fired_short = self._pressed_at is not None
        self._pressed_at = None
        return [self.short] if fired_short else []

    def poll(self) -> list[Intent]:
        """The long intent once the button has been held long enough, else nothing."""
        due = self.deadline()
        if due is not None and self._clock() >= due:
            self._pressed_at = None
            return [self.long]
        return []

    def deadline(self) -> float | None:
        """When the held button becomes a long press (clock time), or None."""
        if self._pressed_at is None:
            return None
        return self._pressed_at + self.long_press_s
