"""Frames in, still observations of the dice out: the vision end of the live loop.

``TableWatcher`` takes the frames one by one. The dice reader runs only on still frames, and a
reading is reported once, when enough of them agree (``vision.stillness.StableReader``). The
dice area is the whole frame, or on a play mat that prints one (Hold Up's) its dice zone
(``dice_area``): the cards around it are not dice. A still period that shows the dice of the last
observation where they lay is not reported: nothing was rolled, a hand passed over the table.
Nor is one that shows them as the observation before it did: thrown dice never land back where
and as they lay, so a die knocked and put back is no roll. Which dice of an observation lie
untouched since an earlier one (``lying_still``: the same face and colour, in the same place,
turned the same way) is for the game to weigh: a roll throws its dice, so those were not rolled.

``GameWatcher`` puts a game's watchers together on the same frames: the dice, the cards on its
mat (``vision.live_cards.CardWatcher``), or both (Hold Up). On a mat, each die read is placed in
the mat's dice zone it lies in (``dice_zones``: Excape's rungs and roll area).
"""
from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from vision.dice import DiceReader, DieReading
from vision.live_cards import CardObservation, CardWatcher
from vision.mat import MatLayout, MatPose, find_mat
from vision.stillness import StableReader

UNTOUCHED_TURN = 10.0  # degrees: a still die's box turns under 1 degree between readings
MAT_EVERY = 30  # frames between two looks for the mat when no card watcher finds it
AREA_STEP = 8  # px: the dice area's edges are rounded out to this, so the mat's pose found again keeps it
DIE_SIDE_MM = (9.0, 30.0)  # a die's side on a mat: a larger "die" is the mat's print (a zone's outline)
# Once the dice of a table have been seen (SIDE_SAMPLES of them), a die read there is at most
# SIDE_SLACK times larger than the upper quartile of their sides: two touching dice taken for one
# are larger, and would hide both (the reader sizes a die to within about a quarter, or by its
# symbol alone: half, which the quartile keeps from pulling the limit down).
SIDE_SAMPLES, SIDE_SLACK = 8, 1.4
# mm around the dice zone where a die lying on its edge still is (the cards nearest it on Hold Up's
# mat lie 14 mm away: their numerals must stay out)
AREA_MARGIN_MM = 6.0


@dataclass(frozen=True)
class Observation:
    """The dice of a settled table: read at frame ``frame``, still since frame ``still_since``
    (the first frame of that still period; the difference is the latency of the reading), and on
    a mat, the dice zone each lies in (``zones``: a zone id, None outside them all; () off a mat)."""

    frame: int
    still_since: int
    dice: tuple[DieReading, ...]
    zones: tuple[str | None, ...] = ()

    def faces(self) -> list[Mapping[str, float]]:
        """Each die's face probabilities."""
        return [die.faces for die in self.dice]

    def colours(self) -> tuple[str, ...]:
        """Each die's body colour (a palette name; "" where unsure)."""
        return tuple(die.colour for die in self.dice)


class TableWatcher:
    def __init__(self, stable: StableReader):
        self.stable = stable
        self._still_since = 0
        self._seen: deque[tuple[DieReading, ...]] = deque(maxlen=2)  # the last two observations' dice
        self._sides_mm: deque[float] = deque(maxlen=4 * SIDE_SAMPLES)  # the latest dice observed on a mat ...
        self._sides_on: MatLayout | None = None  # ... this one (another game's mat: other dice)
        self.settled = False  # the last frame fed settled a still scene (reported or not)
        self.table: Observation | None = None  # the still table last settled, reported or not

    @classmethod
    def from_settings(cls, dice: Mapping, stillness: Mapping, state_dir: str | Path = "",
                      printed: bool = False) -> "TableWatcher":
        """From the ``[vision.dice]`` and ``[vision.stillness]`` settings, for dice with ``printed``
        faces or pips; the reader's enrolled faces and learnt empty table are looked for in
        ``state_dir``."""
        reader = DiceReader.from_settings(dice, state_dir, printed=printed)
        return cls(StableReader.from_settings(reader.read, stillness))

    def feed(self, index: int, image: np.ndarray, area: tuple[slice, slice] | None = None,
             mat: tuple[MatPose, MatLayout] | None = None) -> Observation | None:
        """Take frame ``index`` (only its ``area`` when given, see ``dice_area``; on a ``mat``, only
        what ``on_the_mat`` keeps, of a die's size there: ``die_sides``, each die in its zone); the
        observation the first time a still table's dice are settled (``table`` holds it, and the
        settled dice not reported)."""
        if mat is None:
            reading = self.stable.update(image, area)
        else:
            if mat[1] != self._sides_on:
                self._sides_mm.clear()
                self._sides_on = mat[1]
            seen = float(np.percentile(self._sides_mm, 75)) if len(self._sides_mm) >= SIDE_SAMPLES else None
            reading = self.stable.update(image, area, lambda dice: on_the_mat(mat, dice), die_sides(mat, seen))
        self.settled = reading is not None
        gate = self.stable.gate
        if gate.motion > gate.moving_fraction:  # this frame differs from the one before: a still period may start here
            self._still_since = index
        if reading is None:
            return None
        dice = tuple(reading)
        self.table = Observation(index, self._still_since, dice, () if mat is None else dice_zones(mat, dice))
        if self._seen and same_dice(self._seen[-1], dice):
            return None
        if self._seen and same_dice(self._seen[0], dice):  # put back as it lay
            self._seen.append(dice)
            return None
        self._seen.append(dice)
        if mat is not None:
            self._sides_mm.extend(sides_mm(mat, dice))
        return self.table


def dice_area(mat: tuple[MatPose, MatLayout] | None, shape: tuple[int, ...]) -> tuple[slice, slice] | None:
    """The part of a frame of ``shape`` where the dice lie: the dice zones of the mat found (its
    pose and layout) and ``AREA_MARGIN_MM`` around, rounded out to ``AREA_STEP`` px; None without a
    mat, on a mat without a dice zone, or one whose dice zone is out of the frame (the whole frame
    is the dice area)."""
    if mat is None:
        return None
    pose, layout = mat
    zones = [zone for zone in layout.zones if zone.kind == "dice"]
    if not zones:
        return None
    corners = np.vstack([zone.corners() for zone in zones])
    low, high = corners.min(axis=0) - AREA_MARGIN_MM, corners.max(axis=0) + AREA_MARGIN_MM
    px = pose.to_px(np.array([low, [high[0], low[1]], high, [low[0], high[1]]]))
    x0, y0 = np.floor(px.min(axis=0) / AREA_STEP).astype(int) * AREA_STEP
    x1, y1 = np.ceil(px.max(axis=0) / AREA_STEP).astype(int) * AREA_STEP
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, shape[1]), min(y1, shape[0])
    return (slice(y0, y1), slice(x0, x1)) if x1 > x0 and y1 > y0 else None


def on_the_mat(mat: tuple[MatPose, MatLayout], dice: Sequence[DieReading]) -> list[DieReading]:
    """The dice read on a mat (its pose and layout) that lie in one of its dice zones (see
    ``dice_zones``): around them the mat prints its markers, its track and the zones' names,
    which the reader may take for dice."""
    return [die for die, zone in zip(dice, dice_zones(mat, dice)) if zone is not None]


@dataclass(frozen=True, eq=False)
class DieSides:
    """The least and most side a die may have on a mat, in mm, and in px where it lies in a frame
    (the mat's pose): ``sides(points)`` for an (n, 2) array of points."""

    pose: MatPose
    low_mm: float
    high_mm: float

    def __call__(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        scale = px_per_mm(self.pose, points)
        return self.low_mm * scale, self.high_mm * scale


def die_sides(mat: tuple[MatPose, MatLayout], seen_mm: float | None = None) -> DieSides:
    """The sides a die may have in a frame of the mat (its pose and layout): ``DIE_SIDE_MM``, and
    at most ``SIDE_SLACK`` times ``seen_mm`` (the dice seen there) once known. The reader takes
    nothing else for a die: a zone's outline or two touching dice read as one large die would hide
    the dice in it."""
    low, high = DIE_SIDE_MM
    return DieSides(mat[0], low, high if seen_mm is None else min(high, seen_mm * SIDE_SLACK))


def sides_mm(mat: tuple[MatPose, MatLayout], dice: Sequence[DieReading]) -> list[float]:
    """The side (mm) of each die read on the mat (its pose and layout), at the scale where it lies."""
    if not dice:
        return []
    scale = px_per_mm(mat[0], np.array([[die.x, die.y] for die in dice], np.float64))
    return (np.array([max(die.box[1]) for die in dice]) / scale).tolist()


def px_per_mm(pose: MatPose, points: np.ndarray) -> np.ndarray:
    """The frame's scale (px a mm, the mean of its two directions) at each of an (n, 2) array of
    points of a frame of the mat seen in ``pose``."""
    mm = pose.to_mm(points)
    x, y = (np.linalg.norm(pose.to_px(mm + step) - points, axis=1) for step in ((1.0, 0.0), (0.0, 1.0)))
    return np.sqrt(x * y)


def dice_zones(mat: tuple[MatPose, MatLayout], dice: Sequence[DieReading]) -> tuple[str | None, ...]:
    """The id of the mat's dice zone each die lies in (its centre within ``AREA_MARGIN_MM`` of
    the zone: a die on its edge; the zone it is deepest in where two reach), None for a die outside
    them all."""
    pose, layout = mat
    zones = [zone for zone in layout.zones if zone.kind == "dice"]
    if not dice:
        return ()
    found: list[str | None] = []
    for point in pose.to_mm(np.array([[die.x, die.y] for die in dice], np.float64)):
        outside = {zone.id: _outside(zone, point) for zone in zones}
        nearest = min(outside, key=outside.get, default=None)
        found.append(nearest if nearest is not None and outside[nearest] <= AREA_MARGIN_MM else None)
    return tuple(found)


def _outside(zone, point) -> float:
    """How far (mm) ``point`` lies outside ``zone`` (negative: how deep inside)."""
    x, y = zone.to_local(point)
    return max(abs(x) - zone.w / 2, abs(y) - zone.h / 2)


def same_dice(before: tuple[DieReading, ...], now: tuple[DieReading, ...]) -> bool:
    """Whether ``now`` shows every die of ``before`` where it lay or was put back by a hand (the same
    face and colour, an unsure one any, within half a die, turned any way), and no other."""
    return len(before) == len(now) == _twins(before, now, 0.5, 45.0)


def lying_still(before: tuple[DieReading, ...], now: tuple[DieReading, ...]) -> int:
    """How many dice of ``now`` lie untouched since ``before`` saw them: the face and colour (an
    unsure one: any) of one of its dice, within a quarter of a die of where it lay and turned less than ``UNTOUCHED_TURN``.
    A thrown die may land near a die like the one that lay there, but seldom also square to it."""
    return _twins(before, now, 0.25, UNTOUCHED_TURN)


def _twins(before: tuple[DieReading, ...], now: tuple[DieReading, ...], reach: float, turn: float) -> int:
    """How many dice of ``now`` have a die of ``before`` (each counted once) with their face and
    colour (either unnamed: any), within ``reach`` of its side and ``turn`` degrees."""
    left, twins = list(before), 0
    for die in now:
        twin = next((old for old in left if old.face == die.face and _alike(old.colour, die.colour)
                     and math.hypot(old.x - die.x, old.y - die.y) <= reach * max(old.box[1])
                     and abs((old.box[2] - die.box[2] + 45) % 90 - 45) <= turn), None)
        if twin is not None:
            left.remove(twin)
            twins += 1
    return twins


def _alike(colour: str, other: str) -> bool:
    """Two dice's colours may be one die's: the same, or either unnamed (unsure, see ``Palette.name``)."""
    return colour == other or not colour or not other


class GameWatcher:
    """A game's watchers on the same frames: its cards on the mat, and its dice (only in the dice
    zones of the game's mat, ``mats``, once found: the cards around it are not dice; each die read
    with the zone it lies in; the card watcher finds the mat, or without one the mat is looked for
    every ``MAT_EVERY`` frames, the last pose found kept while hands hide its markers). A
    still table's cards are reported once its dice have settled too (or the dice area moves
    again), so that a roll is judged before the cards that its dice moved, whichever settles first."""

    def __init__(self, dice: TableWatcher | None = None, cards: CardWatcher | None = None,
                 mats: Sequence[MatLayout] = ()):
        self.dice = dice
        self.cards = cards
        self.mats = mats
        self.area: tuple[slice, slice] | None = None  # where the dice were last read
        self._held: CardObservation | None = None  # the cards settled, waiting for the dice
        self._mat: tuple[MatPose, MatLayout] | None = None  # found without the card watcher

    @property
    def reads(self) -> tuple[str, ...]:
        return tuple(kind for kind, watcher in (("dice", self.dice), ("cards", self.cards)) if watcher is not None)

    def feed(self, index: int, image: np.ndarray) -> list[Observation | CardObservation]:
        """Take frame ``index``; the observations it settles, the dice first."""
        cards = self.cards.feed(index, image) if self.cards is not None else None
        self._held = cards or self._held
        dice = None
        if self.dice is not None:
            mat = self._mat_seen(index, image)
            self.area = dice_area(mat, image.shape)
            dice = self.dice.feed(index, image, self.area, mat)
        seen: list[Observation | CardObservation] = [dice] if dice is not None else []
        gate = self.dice.stable.gate if self.dice is not None else None
        if self._held is not None and (gate is None or self.dice.stable.settled or gate.motion > gate.moving_fraction):
            seen.append(self._held)
            self._held = None
        return seen

    def _mat_seen(self, index: int, image: np.ndarray) -> tuple[MatPose, MatLayout] | None:
        if self.cards is not None:
            return self.cards.mat
        if self.mats and index % MAT_EVERY == 0:
            self._mat = find_mat(image, self.mats) or self._mat
        return self._mat
