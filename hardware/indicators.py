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
    """An ok LED, an alert LED and a buzzer on GPIO pins (0 = not wired). Without ``beep`` the
    buzzer's pin is left alone until ``set_beep(True)``."""

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
        from gpiozero import LED

        self._patterns = patterns
        self._pin_factory = pin_factory
        self._buzzer_pin = buzzer
        self._outputs = {}
        try:
            for role, pin in (("ok", led_ok), ("alert", led_alert)):
                if pin != gpio.NOT_WIRED:
                    self._outputs[role] = LED(pin, pin_factory=pin_factory)
            if beep:
                self.set_beep(True)
        except Exception:
            self.close()
            raise

    @property
    def has_buzzer(self) -> bool:
        return self._buzzer_pin != gpio.NOT_WIRED

    @property
    def beep(self) -> bool:
        return "buzzer" in self._outputs

    def set_beep(self, on: bool) -> None:
        """Sound the buzzer from the next signal, or not (its pin then released)."""
        from gpiozero import Buzzer

        if on and not self.beep and self.has_buzzer:
            self._outputs["buzzer"] = Buzzer(self._buzzer_pin, pin_factory=self._pin_factory)
        elif not on and self.beep:
            device = self._outputs.pop("buzzer")
            device.off()
            device.close()

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
    wired = (config.led_ok, config.led_alert, config.buzzer)  # a silent buzzer may be turned on later
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
