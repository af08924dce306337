"""Our own debounce and press timing, driven by a manual clock."""
import pytest

from hardware.debounce import Debouncer
from hardware.intents import Intent
from hardware.presses import PressDetector


def test_a_change_counts_once_it_has_held_for_the_settle_time(clock):
    contact = Debouncer(0.02, clock)
    contact.feed(True)
    assert contact.poll() is None
    assert contact.deadline() == pytest.approx(100.02)
    clock.advance(0.019)
    assert contact.poll() is None and contact.level is False
    clock.advance(0.001)
    assert contact.poll() is True and contact.level is True
    assert contact.since == pytest.approx(100.0)  # the level began with the edge, not the poll
    assert contact.poll() is None and contact.deadline() is None


def test_bounces_shorter_than_the_settle_time_are_ignored(clock):
    contact = Debouncer(0.02, clock)
    for _ in range(5):  # a burst of bounce while pressing, each edge 3 ms apart
        contact.feed(True)
        clock.advance(0.003)
        contact.feed(False)
        clock.advance(0.003)
        assert contact.poll() is None
    contact.feed(True)
    clock.advance(0.015)
    assert contact.poll() is None  # the last bounce restarted the wait
    clock.advance(0.005)
    assert contact.poll() is True


def test_a_glitch_that_returns_to_the_accepted_level_changes_nothing(clock):
    contact = Debouncer(0.02, clock)
    contact.feed(True)
    clock.advance(0.005)
    contact.feed(False)
    clock.advance(1.0)
    assert contact.poll() is None and contact.level is False and contact.deadline() is None


def test_negative_settle_time_is_refused(clock):
    with pytest.raises(ValueError, match="settle time"):
        Debouncer(-0.1, clock)


def test_without_a_long_press_the_intent_is_sent_on_press(clock):
    press = PressDetector(Intent.UNDO, None, 0.8, clock)
    assert press.update(True) == [Intent.UNDO]
    clock.advance(5.0)
    assert press.poll() == [] and press.deadline() is None
    assert press.update(False) == []


def test_a_short_press_of_a_button_with_a_long_press_is_sent_on_release(clock):
    press = PressDetector(Intent.CONFIRM, Intent.MENU, 0.8, clock)
    assert press.update(True) == []
    clock.advance(0.5)
    assert press.poll() == []
    assert press.update(False) == [Intent.CONFIRM]


def test_holding_is_timed_from_the_press_not_from_when_it_was_noticed(clock):
    press = PressDetector(Intent.CONFIRM, Intent.MENU, 0.8, clock)
    clock.advance(0.05)
    press.update(True, since=100.0)
    assert press.deadline() == pytest.approx(100.8)


def test_holding_sends_the_long_intent_once_while_held_and_nothing_on_release(clock):
    press = PressDetector(Intent.CONFIRM, Intent.MENU, 0.8, clock)
    press.update(True)
    assert press.deadline() == pytest.approx(100.8)
    clock.advance(0.8)
    assert press.poll() == [Intent.MENU]
    clock.advance(3.0)
    assert press.poll() == []
    assert press.update(False) == []
