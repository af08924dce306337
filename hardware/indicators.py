"""Lights and buzzer that acknowledge what happened at the table.

Each kind of feedback is a pattern (blinks of the green "ok" light, the red "alert" light, beeps)
played by gpiozero in its own background threads, so ``signal`` returns at once; a new signal on
an output replaces the pattern still playing there.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import Enum
from typing import Any, Mapping

from hardware import gpio

log = logging.getLogger(__name__)


class Feedback(str, Enum):
    TURN_CHANGE = "turn_change"
    ILLEGAL_MOVE = "illegal_move"
    STABLE_READING = "stable_reading"


@dataclass(frozen=True)
class Blink:
    on_s: float
    off_s: float
    count: int


@dataclass(frozen=True)
class Pattern:
    ok: Blink | None = None
    alert: Blink | None = None
    buzzer: Blink | None = None


PATTERNS: Mapping[Feedback, Pattern] = {
    # two green blinks and a short chirp: the next player's turn
    Feedback.TURN_CHANGE: Pattern(ok=Blink(0.15, 0.15, 2), buzzer=Blink(0.05, 0.0, 1)),
    # three red blinks and a long beep: the engine refused the move
    Feedback.ILLEGAL_MOVE: Pattern(alert=Blink(0.12, 0.12, 3), buzzer=Blink(0.4, 0.0, 1)),
    # one quick green flash, silent (readings are frequent): the camera has a stable reading
    Feedback.STABLE_READING: Pattern(ok=Blink(0.08, 0.0, 1)),
}


class Indicators:
    """An ok LED, an alert LED and a buzzer on GPIO pins (0 = not wired)."""

    def __init__(
        self,
        *,
        pin_factory,
        led_ok: int = gpio.NOT_WIRED,
        led_alert: int = gpio.NOT_WIRED,
        buzzer: int = gpio.NOT_WIRED,
        beep: bool = True,
        patterns: Mapping[Feedback, Pattern] = PATTERNS,
    ):
        from gpiozero import LED, Buzzer

        self._patterns = patterns
        self._outputs = {}
        try:
            for role, pin, kind in (("ok", led_ok, LED), ("alert", led_alert, LED),
                                    ("buzzer", buzzer if beep else gpio.NOT_WIRED, Buzzer)):
                if pin != gpio.NOT_WIRED:
                    self._outputs[role] = kind(pin, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise

    def signal(self, feedback: Feedback) -> None:
        """Start the pattern for ``feedback``; returns at once."""
        pattern = self._patterns[feedback]
        for role, device in self._outputs.items():
            blink = getattr(pattern, role)
            if blink is not None:
                device.blink(on_time=blink.on_s, off_time=blink.off_s, n=blink.count, background=True)

    def close(self) -> None:
        """Turn everything off and release the pins; closing twice is harmless."""
        for device in self._outputs.values():
            device.off()  # stops a pattern still playing, leaving the output dark and silent
            device.close()
        self._outputs = {}

    def __enter__(self) -> "Indicators":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class NoIndicators:
    """Stands in for the lights when there is no GPIO: shows nothing."""

    def signal(self, feedback: Feedback) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> "NoIndicators":
        return self

    def __exit__(self, *exc) -> None:
        pass


def open_indicators(
    config: gpio.GpioConfig | Mapping[str, Any], pin_factory=None
) -> Indicators | NoIndicators:
    """The lights and buzzer of the [gpio] settings, or ``NoIndicators`` when GPIO is off or missing."""
    config = gpio.GpioConfig.of(config)
    wired = (config.led_ok, config.led_alert, config.buzzer if config.beep else gpio.NOT_WIRED)
    if not config.enabled or not any(wired):
        return NoIndicators()
    factory = gpio.pin_factory(pin_factory)
    if factory is None:
        return NoIndicators()
    try:
        return Indicators(
            pin_factory=factory, led_ok=config.led_ok, led_alert=config.led_alert,
            buzzer=config.buzzer, beep=config.beep,
        )
    except Exception as exc:  # as for the buttons: the pin backends raise many kinds
        gpio.report_no_gpio(f"the lights' pins cannot be used: {exc}")
        return NoIndicators()
