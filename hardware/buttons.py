"""GPIO push buttons that send intents: our own debounce and long presses, in one small thread.

Edges from gpiozero only record the raw level; a worker thread sleeps until the next debounce or
long-press deadline and delivers intents through ``on_intent`` (called on that thread: a UI must
hop to its own thread, e.g. with Kivy's ``Clock.schedule_once``).
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable, Iterable, Mapping

from hardware import gpio
from hardware.debounce import Debouncer
from hardware.intents import Intent
from hardware.presses import PressDetector

log = logging.getLogger(__name__)

IntentCallback = Callable[[Intent], None]


class _Button:
    def __init__(self, wiring: gpio.ButtonWiring, device, debounce_s, long_press_s, clock):
        self.wiring = wiring
        self.device = device
        self.debouncer = Debouncer(debounce_s, clock, level=bool(device.is_active))
        self.presses = PressDetector(wiring.intent, wiring.long_intent, long_press_s, clock)

    def poll(self) -> list[Intent]:
        self.debouncer.feed(bool(self.device.is_active))  # in case an edge event was missed
        level = self.debouncer.poll()
        intents = self.presses.update(level, self.debouncer.since) if level is not None else []
        return intents + self.presses.poll()

    def deadline(self) -> float | None:
        times = [t for t in (self.debouncer.deadline(), self.presses.deadline()) if t is not None]
        return min(times, default=None)


class GpioButtons:
    """Buttons wired to GPIO pins (to ground, with the internal pull-up, unless ``pull_up`` is off).

    With ``background=False`` no thread is started and the caller runs ``poll()`` itself (tests).
    """

    def __init__(
        self,
        wiring: Iterable[gpio.ButtonWiring],
        on_intent: IntentCallback,
        *,
        pin_factory,
        debounce_s: float = 0.03,
        long_press_s: float = 0.8,
        pull_up: bool = True,
        clock: Callable[[], float] = time.monotonic,
        background: bool = True,
    ):
        from gpiozero import DigitalInputDevice

        self._on_intent = on_intent
        self._clock = clock
        self._wake = threading.Condition()
        self._closed = False
        self._buttons: list[_Button] = []
        self._thread: threading.Thread | None = None
        try:
            for item in wiring:
                device = DigitalInputDevice(
                    item.pin, pull_up=pull_up, bounce_time=None, pin_factory=pin_factory
                )
                button = _Button(item, device, debounce_s, long_press_s, clock)
                device.when_activated = lambda b=button: self._edge(b, True)
                device.when_deactivated = lambda b=button: self._edge(b, False)
                self._buttons.append(button)
        except Exception:
            self.close()
            raise
        if background:
            self._thread = threading.Thread(target=self._run, name="gpio-buttons", daemon=True)
            self._thread.start()

    def _edge(self, button: _Button, level: bool) -> None:
        with self._wake:
            button.debouncer.feed(level)
            self._wake.notify()

    def poll(self) -> list[Intent]:
        """Deliver (and return) the intents whose time has come."""
        with self._wake:
            intents = [intent for button in self._buttons for intent in button.poll()]
        for intent in intents:
            log.debug("button: %s", intent)
            try:
                self._on_intent(intent)
            except Exception:  # the application's bug must not stop the buttons
                log.exception("buttons: the intent callback failed")
        return intents

    def next_deadline(self) -> float | None:
        """When ``poll`` next has something to decide (clock time), or None when all is quiet."""
        with self._wake:
            return self._deadline()

    def _deadline(self) -> float | None:
        return min((t for b in self._buttons if (t := b.deadline()) is not None), default=None)

    def _run(self) -> None:
        while True:
            self.poll()
            with self._wake:
                if self._closed:
                    return
                deadline = self._deadline()
                timeout = None if deadline is None else max(0.0, deadline - self._clock())
                if timeout != 0.0:
                    self._wake.wait(timeout)

    def close(self) -> None:
        """Release the pins and stop the thread; closing twice is harmless."""
        with self._wake:
            self._closed = True
            self._wake.notify()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)
        for button in self._buttons:
            button.device.close()
        self._buttons = []

    def __enter__(self) -> "GpioButtons":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class NoButtons:
    """Stands in for the buttons when there is no GPIO: sends nothing."""

    def poll(self) -> list[Intent]:
        return []

    def close(self) -> None:
        pass

    def __enter__(self) -> "NoButtons":
        return self

    def __exit__(self, *exc) -> None:
        pass


def open_buttons(
    config: gpio.GpioConfig | Mapping[str, Any], on_intent: IntentCallback, pin_factory=None
) -> GpioButtons | NoButtons:
    """The buttons of the [gpio] settings, or ``NoButtons`` when GPIO is off or missing (said once).

    ValueError naming the setting when the settings are inconsistent."""
    config = gpio.GpioConfig.of(config)
    if not config.enabled or not config.buttons:
        return NoButtons()
    factory = gpio.pin_factory(pin_factory)
    if factory is None:
        return NoButtons()
    try:
        return GpioButtons(
            config.buttons, on_intent, pin_factory=factory, debounce_s=config.debounce_s,
            long_press_s=config.long_press_s, pull_up=config.pull_up,
        )
    except Exception as exc:  # gpiozero and its backends raise many kinds (lgpio.error, OSError...)
        gpio.report_no_gpio(f"the buttons' pins cannot be used: {exc}")
        return NoButtons()
