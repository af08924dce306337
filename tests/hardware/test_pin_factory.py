"""The pin factory gpiozero loads, and its reasons for passing over lgpio, which it only warns of."""
import logging
import warnings

import pytest
from gpiozero import Device
from gpiozero.exc import BadPinFactory, PinFactoryFallback
from gpiozero.pins.mock import MockFactory

from hardware import gpio

NO_PIPE = "Falling back from lgpio: [Errno 2] No such file or directory: '.lgd-nfy-3'"


@pytest.fixture
def gpiozero_choosing(monkeypatch):
    """gpiozero choosing its default factory: ``choose(factory_or_None, *warnings)``."""
    def choose(factory, *reasons):
        def default():
            for reason in reasons:
                warnings.warn(PinFactoryFallback(reason))
            if factory is None:
                raise BadPinFactory("Unable to load any default pin factory!")
            return factory
        monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(default))
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(gpio, "_reported", set())
    yield choose
    Device.pin_factory = None


def test_a_fallback_is_kept_with_the_factory_and_said_once_with_what_to_do(gpiozero_choosing, caplog, monkeypatch):
    monkeypatch.chdir("/")
    mock = MockFactory()
    gpiozero_choosing(mock, NO_PIPE)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing is left for Python to print on stderr
        assert gpio.load_pin_factory() == (mock, [NO_PIPE])
    Device.pin_factory = None
    caplog.set_level(logging.WARNING, logger="hardware")
    assert gpio.pin_factory() is mock and gpio.pin_factory() is mock
    (said,) = [r.getMessage() for r in caplog.records]
    assert said.startswith(f"GPIO through MockFactory, gpiozero's fallback: {NO_PIPE}.")
    assert "working directory (/), which this user cannot write" in said


def test_no_factory_at_all_names_every_reason(gpiozero_choosing, caplog):
    gpiozero_choosing(None, "Falling back from lgpio: No module named 'lgpio'",
                      "Falling back from native: unable to locate Pi revision")
    with pytest.raises(BadPinFactory, match="Unable to load any default pin factory!; Falling back from lgpio: "
                                            "No module named 'lgpio'; Falling back from native"):
        gpio.load_pin_factory()
    caplog.set_level(logging.WARNING, logger="hardware")
    assert gpio.pin_factory() is None
    assert "sudo apt install python3-lgpio" in caplog.records[0].getMessage()


def test_a_factory_given_is_used_as_it_is(mock_factory):
    assert gpio.pin_factory(mock_factory) is mock_factory
    assert gpio.explain("something else") == ""
