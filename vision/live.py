"""Frames in, still observations of the dice out: the vision end of the live loop.

``TableWatcher`` takes the frames one by one. The dice reader runs only on still frames, and a
reading is reported once, when enough of them agree (``vision.stillness.StableReader``). The
whole frame is the dice area (no mat yet). A still period that shows the dice of the last
observation where they lay is not reported: nothing was rolled, a hand passed over the table.
Nor is one that shows them as the observation before it did: thrown dice never land back where
and as they lay, so a die knocked and put back is no roll. Otherwise the observation says how
many of its dice lie untouched since the last one (the same face and colour, in the same place,
turned the same way): a roll throws its dice, so those were not rolled.
"""
from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

import numpy as np

from vision.dice import DiceReader, DieReading
from vision.stillness import StableReader

UNTOUCHED_TURN = 10.0  # degrees: a still die's box turns under 1 degree between readings


@dataclass(frozen=True)
class Observation:
    """The dice of a settled table: read at frame ``frame``, still since frame ``still_since``
    (the first frame of that still period; the difference is the latency of the reading), and
    how many of them lie as the previous observation saw them (``stayed``)."""

    frame: int
    still_since: int
    dice: tuple[DieReading, ...]
    stayed: int = 0

    def faces(self) -> list[Mapping[str, float]]:
        """Each die's face probabilities."""
        return [die.faces for die in self.dice]


class TableWatcher:
    def __init__(self, stable: StableReader):
        self.stable = stable
        self._still_since = 0
        self._seen: deque[tuple[DieReading, ...]] = deque(maxlen=2)  # the last two observations' dice
        self.settled = False  # the last frame fed settled a still scene (reported or not)

    @classmethod
    def from_settings(cls, dice: Mapping, stillness: Mapping, state_dir: str | Path = "",
                      printed: bool = False) -> "TableWatcher":
        """From the ``[vision.dice]`` and ``[vision.stillness]`` settings, for dice with ``printed``
        faces or pips; the reader's enrolled faces and learnt empty table are looked for in
        ``state_dir``."""
        reader = DiceReader.from_settings(dice, state_dir, printed=printed)
        return cls(StableReader.from_settings(reader.read, stillness))

    def feed(self, index: int, image: np.ndarray) -> Observation | None:
        """Take frame ``index``; the observation the first time a still table's dice are settled."""
        reading = self.stable.update(image)
        self.settled = reading is not None
        gate = self.stable.gate
        if gate.motion > gate.moving_fraction:  # this frame differs from the one before: a still period may start here
            self._still_since = index
        if reading is None:
            return None
        dice = tuple(reading)
        if self._seen and same_dice(self._seen[-1], dice):
            return None
        if self._seen and same_dice(self._seen[0], dice):  # put back as it lay
            self._seen.append(dice)
            return None
        stayed = lying_still(self._seen[-1], dice) if self._seen else 0
        self._seen.append(dice)
        return Observation(index, self._still_since, dice, stayed)


def same_dice(before: tuple[DieReading, ...], now: tuple[DieReading, ...]) -> bool:
    """Whether ``now`` shows every die of ``before`` where it lay or was put back by a hand (the same
    face and colour within half a die, turned any way), and no other."""
    return len(before) == len(now) == _twins(before, now, 0.5, 45.0)


def lying_still(before: tuple[DieReading, ...], now: tuple[DieReading, ...]) -> int:
    """How many dice of ``now`` lie untouched since ``before`` saw them: the face and colour of one
    of its dice, within a quarter of a die of where it lay and turned less than ``UNTOUCHED_TURN``.
    A thrown die may land near a die like the one that lay there, but seldom also square to it."""
    return _twins(before, now, 0.25, UNTOUCHED_TURN)


def _twins(before: tuple[DieReading, ...], now: tuple[DieReading, ...], reach: float, turn: float) -> int:
    """How many dice of ``now`` have a die of ``before`` (each counted once) with their face and
    colour, within ``reach`` of its side and ``turn`` degrees."""
    left, twins = list(before), 0
    for die in now:
        twin = next((old for old in left if old.face == die.face and old.colour == die.colour
                     and math.hypot(old.x - die.x, old.y - die.y) <= reach * max(old.box[1])
                     and abs((old.box[2] - die.box[2] + 45) % 90 - 45) <= turn), None)
        if twin is not None:
            left.remove(twin)
            twins += 1
    return twins
