"""The [gpio] settings, checked, and the pin factory (or the fact that this machine has no GPIO)."""
from __future__ import annotations

import logging
import os
import warnings
from dataclasses import dataclass
from typing import Any, Mapping

from hardware.intents import Intent

log = logging.getLogger(__name__)

NOT_WIRED = 0
BCM_PINS = range(1, 28)  # GPIO1..GPIO27 on the 40-pin header (GPIO0 is the HAT EEPROM's)


@dataclass(frozen=True)
class ButtonWiring:
    intent: Intent
    pin: int
    long_intent: Intent | None = None


@dataclass(frozen=True)
class GpioConfig:
    enabled: bool
    buttons: tuple[ButtonWiring, ...]
    debounce_s: float
    long_press_s: float
    pull_up: bool
    led_ok: int
    led_alert: int
    buzzer: int
    beep: bool

    @classmethod
    def of(cls, config: "GpioConfig | Mapping[str, Any]") -> "GpioConfig":
        return config if isinstance(config, cls) else cls.from_mapping(config)

    @classmethod
    def from_mapping(cls, section: Mapping[str, Any]) -> "GpioConfig":
        """Read the [gpio] table; ValueError naming the key for anything inconsistent."""
        long_press = section.get("long_press", {})
        buttons = []
        for name, pin in section["buttons"].items():
            intent = _intent(f"gpio.buttons.{name}", name)
            if pin == NOT_WIRED:
                continue
            long_name = long_press.get(name, "")
            long_intent = _intent(f"gpio.long_press.{name}", long_name) if long_name else None
            buttons.append(ButtonWiring(intent, _pin(f"gpio.buttons.{name}", pin), long_intent))
        for name in long_press:
            if name not in section["buttons"]:
                raise ValueError(f"gpio.long_press.{name}: there is no button {name!r} in gpio.buttons")
        config = cls(
            enabled=bool(section["enabled"]),
            buttons=tuple(buttons),
            debounce_s=_seconds("gpio.debounce_s", section["debounce_s"], 0.0, 1.0),
            long_press_s=_seconds("gpio.long_press_s", section["long_press_s"], 0.1, 10.0),
            pull_up=bool(section["pull_up"]),
            led_ok=_pin("gpio.led_ok", section["led_ok"], optional=True),
            led_alert=_pin("gpio.led_alert", section["led_alert"], optional=True),
            buzzer=_pin("gpio.buzzer", section["buzzer"], optional=True),
            beep=bool(section["beep"]),
        )
        config._check_pins_unique()
        return config

    def _check_pins_unique(self) -> None:
        used: dict[int, str] = {}
        named = [(f"gpio.buttons.{b.intent}", b.pin) for b in self.buttons] + [
            ("gpio.led_ok", self.led_ok), ("gpio.led_alert", self.led_alert), ("gpio.buzzer", self.buzzer)
        ]
        for key, pin in named:
            if pin == NOT_WIRED:
                continue
            if pin in used:
                raise ValueError(f"{key}: GPIO{pin} is already used by {used[pin]}")
            used[pin] = key


def _intent(key: str, name: str) -> Intent:
    try:
        return Intent.parse(name)
    except ValueError as exc:
        raise ValueError(f"{key}: {exc}") from None


def _pin(key: str, pin: int, optional: bool = False) -> int:
    if optional and pin == NOT_WIRED:
        return pin
    if pin not in BCM_PINS:
        raise ValueError(
            f"{key}: {pin} is not a GPIO number of the 40-pin header "
            f"(BCM numbering, {BCM_PINS.start}-{BCM_PINS.stop - 1}; 0 = not wired)"
        )
    return pin


def _seconds(key: str, value: float, low: float, high: float) -> float:
    if not low <= value <= high:
        raise ValueError(f"{key}: {value} s is outside {low}-{high} s")
    return float(value)


LGPIO_PIPE = ".lgd-nfy"  # lgpio's notification pipe, made in the working directory
_reported: set[str] = set()


def report_once(message: str) -> None:
    if message not in _reported:
        _reported.add(message)
        log.warning("%s", message)


def report_no_gpio(reason: str) -> None:
    """Say once per process that buttons and lights are off, and why."""
    report_once(f"no GPIO on this machine ({reason}): buttons, lights and buzzer are off; "
                "`table-assistant doctor` tells what is missing on a Raspberry Pi")


def explain(reasons: str) -> str:
    """What to do about gpiozero's reasons for passing over a pin library ("" when nothing is known)."""
    if LGPIO_PIPE in reasons:
        return (f"lgpio makes its notification pipe in the working directory ({os.getcwd()}), which this "
                "user cannot write: start from a writable directory (the unit runs in /run/table-assistant) "
                "or set LG_WD to one")
    if "No module named 'lgpio'" in reasons:
        return "lgpio is missing: sudo apt install python3-lgpio (a venv must see the system's packages)"
    return ""


def load_pin_factory():
    """gpiozero's default pin factory for this machine, and gpiozero's reasons for passing over the
    libraries it prefers ("Falling back from lgpio: ..."), which are warnings it would otherwise
    print or lose. gpiozero's error, with those reasons, when there is none."""
    from gpiozero import Device
    from gpiozero.exc import BadPinFactory, PinWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            Device.ensure_pin_factory()
        except BadPinFactory as exc:
            failure = exc
        else:
            failure = None
    reasons = [str(w.message) for w in caught if issubclass(w.category, PinWarning)]
    if failure is not None:
        raise BadPinFactory("; ".join([str(failure), *reasons])) from None
    return Device.pin_factory, reasons


def pin_factory(requested=None):
    """The pin factory to use, or None (reported once) when this machine has no GPIO."""
    if requested is not None:
        return requested
    from gpiozero.exc import GPIOZeroError

    try:
        factory, fallbacks = load_pin_factory()
    except (GPIOZeroError, ImportError, OSError) as exc:
        report_no_gpio(" ".join(filter(None, [str(exc), explain(str(exc))])))
        return None
    if fallbacks:
        reasons = "; ".join(fallbacks)
        report_once(" ".join(filter(None, [f"GPIO through {type(factory).__name__}, gpiozero's fallback: {reasons}.",
                                           explain(reasons)])))
    return factory
