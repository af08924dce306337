"""GPIO buttons on gpiozero's mock pins: pin map, debounce, long press, no GPIO."""
import logging
import queue

import pytest
from gpiozero import Device, DigitalInputDevice
from gpiozero.exc import BadPinFactory

from hardware import gpio
from hardware.buttons import GpioButtons, NoButtons, open_buttons
from hardware.indicators import NoIndicators, open_indicators
from hardware.intents import Intent

SECTION = {
    "enabled": True, "debounce_s": 0.02, "long_press_s": 0.8, "pull_up": True,
    "led_ok": 5, "led_alert": 6, "buzzer": 13, "beep": True,
    "buttons": {"confirm": 17, "undo": 27, "next": 22, "menu": 23, "up": 24, "down": 0},
    "long_press": {"confirm": "menu", "undo": "", "next": "", "menu": "", "up": "", "down": ""},
}


def config(**changes):
    return gpio.GpioConfig.from_mapping({**SECTION, **changes})


def make_buttons(factory, clock, sent, **changes):
    cfg = config(**changes)
    return GpioButtons(cfg.buttons, sent.append, pin_factory=factory, debounce_s=cfg.debounce_s,
                       long_press_s=cfg.long_press_s, clock=clock, background=False)


def press(factory, pin, clock, hold_s=0.05):
    factory.pin(pin).drive_low()  # buttons wire the pin to ground
    clock.advance(hold_s)


def test_every_wired_button_sends_its_own_intent(mock_factory, clock):
    sent = []
    with make_buttons(mock_factory, clock, sent) as buttons:
        for pin in (27, 22, 23, 24):
            press(mock_factory, pin, clock)
            buttons.poll()
            mock_factory.pin(pin).drive_high()
            clock.advance(0.05)
            buttons.poll()
    assert sent == [Intent.UNDO, Intent.NEXT, Intent.MENU, Intent.UP]


def test_a_pin_set_to_0_is_not_wired(mock_factory, clock):
    buttons = make_buttons(mock_factory, clock, [])
    assert sorted(b.wiring.intent for b in buttons._buttons) == sorted(
        [Intent.CONFIRM, Intent.UNDO, Intent.NEXT, Intent.MENU, Intent.UP])
    buttons.close()


def test_a_bouncing_contact_sends_one_intent(mock_factory, clock):
    sent = []
    pin = mock_factory.pin(27)
    with make_buttons(mock_factory, clock, sent) as buttons:
        for _ in range(4):  # contact bounce: edges 2 ms apart, each seen by gpiozero
            pin.drive_low()
            clock.advance(0.002)
            pin.drive_high()
            clock.advance(0.002)
            buttons.poll()
        pin.drive_low()
        assert buttons.poll() == []
        clock.advance(0.02)
        assert buttons.poll() == [Intent.UNDO]
        for _ in range(3):  # and bounce on release
            pin.drive_high()
            clock.advance(0.002)
            pin.drive_low()
            clock.advance(0.002)
            buttons.poll()
        pin.drive_high()
        clock.advance(0.03)
        buttons.poll()
        press(mock_factory, 27, clock)
        buttons.poll()
    assert sent == [Intent.UNDO, Intent.UNDO]


def test_long_and_short_presses_of_the_same_button(mock_factory, clock):
    sent = []
    pin = mock_factory.pin(17)
    with make_buttons(mock_factory, clock, sent) as buttons:
        pin.drive_low()
        clock.advance(0.3)
        buttons.poll()
        pin.drive_high()
        clock.advance(0.03)
        buttons.poll()
        assert sent == [Intent.CONFIRM]
        pressed_at = clock.now
        pin.drive_low()
        clock.advance(0.03)
        buttons.poll()
        assert buttons.next_deadline() == pytest.approx(pressed_at + 0.8)  # timed from the press
        clock.advance(0.76)
        assert buttons.poll() == []
        clock.advance(0.01)
        buttons.poll()
        assert sent == [Intent.CONFIRM, Intent.MENU]
        pin.drive_high()
        clock.advance(0.03)
        buttons.poll()
    assert sent == [Intent.CONFIRM, Intent.MENU]


def test_the_background_thread_delivers_intents_without_polling(mock_factory):
    sent = queue.Queue()
    cfg = config()
    with GpioButtons(cfg.buttons, sent.put, pin_factory=mock_factory, debounce_s=0.005,
                     long_press_s=0.05) as buttons:
        mock_factory.pin(22).drive_low()
        assert sent.get(timeout=2.0) is Intent.NEXT
        mock_factory.pin(22).drive_high()
        mock_factory.pin(17).drive_low()  # confirm has a long press: held, it becomes menu
        assert sent.get(timeout=2.0) is Intent.MENU
        assert buttons._thread.is_alive()
    assert not buttons._thread.is_alive()


def test_closing_releases_the_pins_and_twice_is_harmless(mock_factory, clock):
    buttons = make_buttons(mock_factory, clock, [])
    buttons.close()
    buttons.close()
    make_buttons(mock_factory, clock, []).close()  # the same pins can be taken again


@pytest.mark.parametrize("changes, message", [
    ({"buttons": {**SECTION["buttons"], "undo": 17}}, r"gpio.buttons.undo: GPIO17 is already used by gpio.buttons.confirm"),
    ({"led_ok": 22}, r"gpio.led_ok: GPIO22 is already used by gpio.buttons.next"),
    ({"buttons": {**SECTION["buttons"], "jump": 4}}, r"gpio.buttons.jump: unknown intent 'jump'"),
    ({"long_press": {**SECTION["long_press"], "undo": "fly"}}, r"gpio.long_press.undo: unknown intent 'fly'"),
    ({"long_press": {**SECTION["long_press"], "jump": "menu"}}, r"gpio.long_press.jump: there is no button"),
    ({"buttons": {**SECTION["buttons"], "up": 40}}, r"gpio.buttons.up: 40 is not a GPIO number"),
    ({"buzzer": -1}, r"gpio.buzzer: -1 is not a GPIO number"),
    ({"debounce_s": 2.0}, r"gpio.debounce_s: 2.0 s is outside"),
    ({"long_press_s": 0.0}, r"gpio.long_press_s: 0.0 s is outside"),
])
def test_inconsistent_settings_are_refused_naming_the_key(changes, message):
    with pytest.raises(ValueError, match=message):
        config(**changes)


@pytest.fixture
def no_gpio(monkeypatch):
    """A machine where gpiozero finds no pin factory (as off a Raspberry Pi)."""
    def fail():
        raise BadPinFactory("Unable to load any default pin factory!")
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "ensure_pin_factory", staticmethod(fail))
    monkeypatch.setattr(gpio, "_reported", set())


def test_off_a_pi_buttons_and_lights_are_no_ops_and_it_is_said_once(no_gpio, caplog):
    caplog.set_level(logging.WARNING, logger="hardware")
    buttons = open_buttons(config(), lambda intent: None)
    lights = open_indicators(config())
    assert isinstance(buttons, NoButtons) and isinstance(lights, NoIndicators)
    assert buttons.poll() == []
    lights.signal("turn_change")
    open_buttons(config(), lambda intent: None)
    reports = [r for r in caplog.records if "no GPIO on this machine" in r.getMessage()]
    assert len(reports) == 1
    assert "Unable to load any default pin factory" in reports[0].getMessage()


def test_gpio_turned_off_in_the_settings_is_silent(no_gpio, caplog):
    caplog.set_level(logging.DEBUG, logger="hardware")
    assert isinstance(open_buttons(config(enabled=False), lambda intent: None), NoButtons)
    assert isinstance(open_indicators(config(enabled=False)), NoIndicators)
    assert caplog.records == []


def test_on_a_pi_the_default_factory_is_used_with_the_gpio_settings_as_they_are(mock_factory):
    with open_buttons(SECTION, lambda intent: None) as buttons:
        assert isinstance(buttons, GpioButtons)
    with open_indicators(SECTION) as lights:
        assert not isinstance(lights, NoIndicators)


def test_pins_that_cannot_be_taken_fall_back_to_no_buttons(mock_factory, monkeypatch, caplog):
    monkeypatch.setattr(gpio, "_reported", set())
    holder = DigitalInputDevice(17, pin_factory=mock_factory)  # another device holds GPIO17
    try:
        assert isinstance(open_buttons(config(), lambda intent: None), NoButtons)
    finally:
        holder.close()
    assert any("buttons' pins cannot be used" in r.getMessage() for r in caplog.records)


def test_a_failing_intent_callback_does_not_stop_the_buttons(mock_factory, clock, caplog):
    sent = []

    def on_intent(intent):
        sent.append(intent)
        raise RuntimeError("application bug")
    cfg = config()
    with GpioButtons(cfg.buttons, on_intent, pin_factory=mock_factory, clock=clock,
                     debounce_s=cfg.debounce_s, background=False) as buttons:
        for pin in (27, 22):
            press(mock_factory, pin, clock)
            buttons.poll()
    assert sent == [Intent.UNDO, Intent.NEXT]
    assert any("intent callback failed" in r.getMessage() for r in caplog.records)
