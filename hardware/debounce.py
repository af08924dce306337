"""Debouncing a mechanical contact in software, with the clock passed in so tests control time.

gpiozero's mock pins do not simulate bounce and real pins report every bounce as an edge, so
the level of a contact is taken to be the raw level once it has held steady for ``settle_s``.
"""
from __future__ import annotations

from typing import Callable


class Debouncer:
    """The accepted level of one contact, fed with raw levels as they change."""

    def __init__(self, settle_s: float, clock: Callable[[], float], level: bool = False):
        if settle_s < 0:
            raise ValueError(f"settle time must be 0 or more seconds, got {settle_s}")
        self.settle_s = settle_s
        self.level = level
        self.since = clock()  # when the contact first reached the accepted level
        self._clock = clock
        self._raw = level
        self._raw_since = self.since

    def feed(self, raw: bool) -> None:
        """Record the contact's raw level now (repeating the same level changes nothing)."""
        if raw != self._raw:
            self._raw = raw
            self._raw_since = self._clock()

    def poll(self) -> bool | None:
        """The new accepted level if the raw level has now held for the settle time, else None."""
        due = self.deadline()
        if due is not None and self._clock() >= due:
            self.level = self._raw
            self.since = self._raw_since
            return self.level
        return None

    def deadline(self) -> float | None:
        """When ``poll`` may next accept a change (clock time), or None if nothing is pending."""
        return None if self._raw == self.level else self._raw_since + self.settle_s
