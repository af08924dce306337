"""Read the table only when nothing moves, and report a reading once, when frames agree on it.

``StillnessGate`` compares each frame with the one before, reduced and blurred so that sensor
noise and compression do not count as motion: the scene is still after ``still_frames``
consecutive frames in which at most ``moving_fraction`` of the pixels changed by more than
``pixel_threshold`` grey levels. Rolling dice and hands moving over the table are never still.

``StableReader`` runs a reader only on still frames and votes over the last ``votes`` readings:
when at least ``agree`` of them see the same dice (as many, each in the same place), it reports
that reading once, with each die's face probabilities averaged over the agreeing frames and its
colour the one most of them name. Faces and colours need not agree: a die that lies still
changes neither, so a reading that flickers between two is a die the reader is unsure of, and
the average says so (waiting for the frames to agree left whole rolls unreported: a still 4 read
4, 5 and 6 in turn, a purple die read white one frame in three). It stays quiet until the
scene moves again; the next still period may report again (a re-roll can land on the same faces).
A settled reading with a die whose likeliest face is under ``doubt`` is not reported at once: the
reader reads on, up to ``patience`` still frames, and reports what most of them see (a face
flickering in five frames is often read surely over ten; a sure reading loses no time).
"""
from __future__ import annotations

import math
from collections import Counter, deque
from dataclasses import replace
from typing import Callable, Sequence

import cv2
import numpy as np


class StillnessGate:
    def __init__(self, pixel_threshold: float = 12.0, moving_fraction: float = 0.002, still_frames: int = 3,
                 width: int = 160):
        if still_frames < 1 or width < 8:
            raise ValueError("stillness needs still_frames >= 1 and width >= 8")
        self.pixel_threshold = pixel_threshold
        self.moving_fraction = moving_fraction
        self.still_frames = still_frames
        self.width = width
        self.motion = 1.0        # fraction of pixels that changed in the last frame
        self._previous: np.ndarray | None = None
        self._quiet = 0

    @classmethod
    def from_settings(cls, section) -> "StillnessGate":
        return cls(section["pixel_threshold"], section["moving_fraction"], section["still_frames"], section["width"])

    def update(self, frame: np.ndarray) -> bool:
        """Take the next frame; True while the scene has been still long enough to read."""
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        height = max(1, round(grey.shape[0] * self.width / grey.shape[1]))
        small = cv2.GaussianBlur(cv2.resize(grey, (self.width, height), interpolation=cv2.INTER_AREA), (5, 5), 0)
        if self._previous is None or self._previous.shape != small.shape:
            self.motion = 1.0
        else:
            changed = cv2.absdiff(small, self._previous) > self.pixel_threshold
            self.motion = float(np.count_nonzero(changed)) / changed.size
        self._previous = small
        self._quiet = self._quiet + 1 if self.motion <= self.moving_fraction else 0
        return self._quiet >= self.still_frames


class StableReader:
    """Wraps ``read(frame) -> list[DieReading]`` with a stillness gate and voting; with an area of
    the frame, ``read(frame, area)`` and the gate watches that area only; with the dice's sides
    known, ``read(frame, area, sides)``."""

    def __init__(self, read: Callable, gate: StillnessGate, votes: int = 5, agree: int = 4, doubt: float = 0.0,
                 patience: int | None = None):
        patience = votes if patience is None else patience
        if not 1 <= agree <= votes <= patience:
            raise ValueError(f"need 1 <= agree <= votes <= patience, got agree={agree}, votes={votes}, "
                             f"patience={patience}")
        self.read = read
        self.gate = gate
        self.votes = votes
        self.agree = agree
        self.doubt = doubt
        self._recent: deque[list] = deque(maxlen=patience)
        self._reported = False

    @classmethod
    def from_settings(cls, read: Callable, section) -> "StableReader":
        """From the ``[vision.stillness]`` settings."""
        return cls(read, StillnessGate.from_settings(section), section["votes"], section["agree"],
                   section["doubt"], section["patience"])

    @property
    def settled(self) -> bool:
        """Whether this still period's reading has settled (and been reported)."""
        return self._reported

    def update(self, frame: np.ndarray, area: tuple[slice, slice] | None = None,
               keep: Callable[[list], list] | None = None, sides: Callable | None = None) -> list | None:
        """Take the next frame (only its ``area`` when given; of what is read there, what ``keep``
        keeps; ``sides``, when given, the dice's least and most side in px, see ``DiceReader.read``); the
        stable reading the first time it is settled, else None."""
        if not self.gate.update(frame if area is None else frame[area]):
            self._recent.clear()
            self._reported = False
            return None
        if self._reported:
            return None
        where = (area, sides) if sides is not None else () if area is None else (area,)
        reading = self.read(frame, *where)
        self._recent.append(reading if keep is None else keep(reading))
        recent = list(self._recent)
        settled = consensus(recent[-self.votes:], self.agree)
        if settled is None:
            return None
        if any(max(die.faces.values()) < self.doubt for die in settled):
            if len(recent) < self._recent.maxlen:
                return None  # read on
            settled = consensus(recent, len(recent) * self.agree // self.votes) or settled
        self._reported = True
        return settled


# Readings of one die in two frames are of the same place when their centres are at most this
# many of its sides apart (the larger of the two). The reader places a die that lies still
# within about a quarter of its side from frame to frame (a camera at a slant: by its top face,
# or by the whole die); a reading farther off is the reader placing it elsewhere, on a pip or a
# shadow, and mostly with doubt.
NEAR = 1 / 3


def consensus(readings: Sequence[list], agree: int, near: float = NEAR) -> list | None:
    """The reading that at least ``agree`` frames share (the same dice, each within ``near`` of
    its side of the same place), each die's probabilities averaged over them (and so its face:
    the likeliest on average) and its colour the one most of them name (the latest of the most
    named; those unsure of it name none); None if none does. Of the readings most frames share,
    the latest is reported."""
    anchor, twins = None, []
    for frame in reversed(readings):
        matched = [t for other in readings if (t := _twins(frame, other, near)) is not None]
        if len(matched) > len(twins):
            anchor, twins = frame, matched
    if len(twins) < agree:
        return None
    return [replace(die, faces={face: round(sum(t[k].faces.get(face, 0.0) for t in twins) / len(twins), 4)
                                for face in die.faces},
                    colour=_most_named([t[k].colour for t in reversed(twins)]))
            for k, die in enumerate(anchor)]


def _most_named(colours: Sequence[str]) -> str:
    """The colour most of ``colours`` name (the first of the most named), "" where none is named."""
    named = Counter(colour for colour in colours if colour)
    return named.most_common(1)[0][0] if named else ""


def _twins(anchor: list, frame: list, near: float) -> list | None:
    """The dice of ``frame`` that are those of ``anchor``, in its order: each within ``near`` of
    the larger side of the same place, the nearest pairs first; None unless every die of both has
    its twin."""
    if len(frame) != len(anchor):
        return None
    pairs = sorted((math.hypot(a.x - b.x, a.y - b.y) / max(a.box[1][0], b.box[1][0]), i, j)
                   for i, a in enumerate(anchor) for j, b in enumerate(frame))
    twins, taken = {}, set()
    for apart, i, j in pairs:
        if apart <= near and i not in twins and j not in taken:
            twins[i] = frame[j]
            taken.add(j)
    return [twins[i] for i in range(len(anchor))] if len(twins) == len(anchor) else None
