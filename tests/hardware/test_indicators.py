"""Lights and buzzer patterns on gpiozero's mock pins."""
import time

import pytest

from hardware.indicators import PATTERNS, Blink, Feedback, Indicators, NoIndicators, Pattern

# the shipped patterns' shapes, at a thousandth of their length so the test waits milliseconds
FAST = {
    feedback: Pattern(**{
        role: Blink(b.on_s / 1000, b.off_s / 1000, b.count) if b else None
        for role, b in vars(pattern).items()
    })
    for feedback, pattern in PATTERNS.items()
}


def states(factory, pin):
    return [s.state for s in factory.pin(pin).states]


def wait_until_settled(factory, pins, expected_lengths, timeout=2.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(len(factory.pin(p).states) >= n for p, n in zip(pins, expected_lengths)):
            return
        time.sleep(0.001)


def transitions(blink: Blink) -> list[bool]:
    """The pin states a blink pattern goes through from off: on/off `count` times."""
    return [False] + [True, False] * blink.count


@pytest.mark.parametrize("feedback", list(Feedback))
def test_each_feedback_plays_its_pattern_on_its_outputs(mock_factory, feedback):
    pins = {"ok": 5, "alert": 6, "buzzer": 13}
    pattern = FAST[feedback]
    expected = {role: transitions(getattr(pattern, role)) if getattr(pattern, role) else [False]
                for role in pins}
    with Indicators(pin_factory=mock_factory, led_ok=5, led_alert=6, buzzer=13, patterns=FAST) as lights:
        lights.signal(feedback)
        wait_until_settled(mock_factory, pins.values(), [len(e) for e in expected.values()])
        assert {role: states(mock_factory, pin) for role, pin in pins.items()} == expected


def test_the_shipped_patterns_tell_the_three_events_apart():
    assert PATTERNS[Feedback.ILLEGAL_MOVE].alert and not PATTERNS[Feedback.ILLEGAL_MOVE].ok
    assert PATTERNS[Feedback.TURN_CHANGE].ok and not PATTERNS[Feedback.TURN_CHANGE].alert
    assert PATTERNS[Feedback.STABLE_READING].buzzer is None  # readings are frequent: silent


def test_signal_returns_before_the_pattern_is_over(mock_factory):
    with Indicators(pin_factory=mock_factory, led_alert=6) as lights:
        lights.signal(Feedback.ILLEGAL_MOVE)  # the shipped pattern lasts 0.72 s
        assert len(mock_factory.pin(6).states) < len(transitions(PATTERNS[Feedback.ILLEGAL_MOVE].alert))


def test_without_beep_the_buzzer_pin_is_left_alone(mock_factory):
    with Indicators(pin_factory=mock_factory, led_ok=5, buzzer=13, beep=False, patterns=FAST) as lights:
        lights.signal(Feedback.TURN_CHANGE)
        wait_until_settled(mock_factory, [5], [5])
    assert states(mock_factory, 13) == [False] and mock_factory.pin(13).function == "input"


def test_the_buzzer_turned_on_and_off_while_running(mock_factory):
    with Indicators(pin_factory=mock_factory, led_ok=5, buzzer=13, beep=False, patterns=FAST) as lights:
        assert lights.has_buzzer and not lights.beep
        lights.set_beep(True)
        lights.signal(Feedback.TURN_CHANGE)
        wait_until_settled(mock_factory, [5, 13], [5, 3])
        assert states(mock_factory, 13) == transitions(FAST[Feedback.TURN_CHANGE].buzzer)
        lights.set_beep(False)
        assert not lights.beep and mock_factory.pin(13).function == "input"  # released
        lights.signal(Feedback.ILLEGAL_MOVE)
        time.sleep(0.05)
        assert states(mock_factory, 13) == transitions(FAST[Feedback.TURN_CHANGE].buzzer)
    with Indicators(pin_factory=mock_factory, led_ok=6) as lights:
        assert not lights.has_buzzer


def test_closing_turns_everything_off_and_twice_is_harmless(mock_factory):
    lights = Indicators(pin_factory=mock_factory, led_ok=5, led_alert=6, buzzer=13)
    lights.signal(Feedback.ILLEGAL_MOVE)
    lights.close()
    lights.close()
    assert not mock_factory.pin(6).state and not mock_factory.pin(13).state


def test_no_indicators_accepts_every_signal():
    with NoIndicators() as lights:
        for feedback in Feedback:
            lights.signal(feedback)
