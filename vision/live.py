"""Frames in, still observations of the dice out: the vision end of the live loop.

``TableWatcher`` takes the frames one by one. The dice reader runs only on still frames, and a
reading is reported once, when enough of them agree (``vision.stillness.StableReader``). The
whole frame is the dice area (no mat yet). A still period that shows the dice of the last
observation where they lay is not reported: nothing was rolled, a hand passed over the table.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

import numpy as np

from vision.dice import DiceReader, DieReading
from vision.stillness import StableReader


@dataclass(frozen=True)
class Observation:
    """The dice of a settled table: read at frame ``frame``, still since frame ``still_since``
    (the first frame of that still period; the difference is the latency of the reading)."""

    frame: int
    still_since: int
    dice: tuple[DieReading, ...]

    def faces(self) -> list[Mapping[str, float]]:
        """Each die's face probabilities."""
        return [die.faces for die in self.dice]


class TableWatcher:
    def __init__(self, stable: StableReader):
        self.stable = stable
        self._still_since = 0
        self._last: tuple[DieReading, ...] = ()
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
        if reading is None or unmoved(self._last, reading):
            return None
        self._last = tuple(reading)
        return Observation(index, self._still_since, self._last)


def unmoved(before: tuple[DieReading, ...], now: list[DieReading]) -> bool:
    """Whether ``now`` shows the dice of ``before``, each with its face and colour, within half
    a die of where it lay."""
    if len(before) != len(now):
        return False
    left = list(before)
    for die in now:
        twin = next((old for old in left if old.face == die.face and old.colour == die.colour
                     and math.hypot(old.x - die.x, old.y - die.y) <= max(old.box[1]) / 2), None)
        if twin is None:
            return False
        left.remove(twin)
    return True
