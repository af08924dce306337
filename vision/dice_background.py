"""The empty table as the fixed camera sees it, so that what is printed or lies there for good
(the mat's markers and lettering, a keyboard, a cup) is not taken for dice.

It is learnt from a few frames of the empty table (``table-assistant calibrate
dice-background``): their median, in grey levels, so a hand passing through one frame does not
count. A die is dropped when the frame around it still looks as the empty table did there.
Looks are compared by normalised correlation, which ignores a change of light, each die's
square searched up to half a side around its place in the empty table, which forgives a camera
or a mat moved by a few pixels. A real die hides what lies under it, even on a printed marker,
and correlates far less.

A table learnt before the camera or the mat moved farther no longer does that: ``fit`` tells,
from how many of its textured places a frame still shows where they were, and how many moved
(the kiosk then asks for the table to be learnt again).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence, TypeVar

import cv2
import numpy as np

log = logging.getLogger(__name__)

SAME = 0.85         # correlation from which a die's square is the empty table's
_SEARCH = 0.5       # how far a die's square is searched in the empty table, in die sides
_FLAT = 4.0         # grey-level spread under which the empty table shows nothing there
# Whether the table has moved (``fit``) is judged on copies _CHECK_WIDTH px wide, in squares of
# _TILE px where the learnt table shows something (_TEXTURED grey levels of spread). A place is
# in place when found within _IN_PLACE px of where it was learnt, correlating at least _MATCH; it
# has moved when it correlates less than _UNLIKE there but at least _MATCH farther off, within
# _MOVED px (a mat pushed a few centimetres). The table has moved when at least _LEAST_MOVED
# places have, and at least _MOVED_SHARE of those seen (the rest of the table - its wood outside
# the mat - may not have moved). On 1280x720 frames of the printed mats (bench/dice.py) this
# tells a move of 16 px or 2 degrees, where the moved print begins to pass for dice again.
_CHECK_WIDTH, _TILE, _TEXTURED = 320, 16, 8.0
_IN_PLACE, _MOVED, _MATCH, _UNLIKE = 1, 24, 0.8, 0.6
_LEAST_MOVED, _MOVED_SHARE = 6, 0.2

Reading = TypeVar("Reading")  # anything with x, y and a rotated box, as DieReading


class BackgroundError(ValueError):
    """The empty-table frames or file cannot be used."""


@dataclass(frozen=True)
class TableFit:
    """How a frame shows the learnt table's textured places: how many ``in_place``, how many
    ``moved``; the others are covered (cards, hands) or gone. ``other_size``: the frame is not
    the size the table was learnt at (another camera setting)."""

    in_place: int
    moved: int
    other_size: bool = False

    @property
    def stale(self) -> bool:
        """The camera or the mat has moved since the table was learnt: learn it again."""
        return self.other_size or self.moved >= max(_LEAST_MOVED, _MOVED_SHARE * (self.in_place + self.moved))


class TableBackground:
    """The empty table, ``grey``: an 8-bit grey image the size of the camera's frames."""

    def __init__(self, grey: np.ndarray):
        self.grey = grey
        self._warned: tuple[int, int] | None = None
        self._small = _check_copy(grey)
        self._places = _textured_places(self._small)

    @classmethod
    def from_frames(cls, frames: Sequence[np.ndarray]) -> "TableBackground":
        """The median of frames of the empty table (BGR or grey, all of one size)."""
        if not frames:
            raise BackgroundError("no frames of the empty table")
        shape = frames[0].shape[:2]
        for number, frame in enumerate(frames, start=1):
            if frame.shape[:2] != shape:
                raise BackgroundError(f"frame {number} is {frame_size(frame.shape)}, the first is {frame_size(shape)}: "
                                      "take every frame with the same camera setting")
        greys = [f if f.ndim == 2 else cv2.cvtColor(f, cv2.COLOR_BGR2GRAY) for f in frames]
        return cls(np.median(np.stack(greys), axis=0).astype(np.uint8))

    def save(self, path: str | Path) -> None:
        """Write atomically (PNG): a half-written file never replaces a good one."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        ok, data = cv2.imencode(".png", self.grey)
        if not ok:
            raise BackgroundError(f"{path}: cannot encode the empty table as PNG")
        partial = path.with_name(path.name + ".partial")
        partial.write_bytes(data.tobytes())
        partial.replace(path)

    @classmethod
    def load(cls, path: str | Path) -> "TableBackground":
        path = Path(path)
        grey = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
        if grey is None:
            raise BackgroundError(f"{path}: not an image of the empty table; run "
                                  "`table-assistant calibrate dice-background` again, or delete the file")
        return cls(grey)

    def keep(self, frame: np.ndarray, readings: Sequence[Reading]) -> list[Reading]:
        """The readings whose place in ``frame`` does not look as the empty table did. A frame of
        another size than the empty table's is from another camera setting: nothing is dropped."""
        if not readings:
            return []
        if frame.shape[:2] != self.grey.shape:
            if self._warned != frame.shape[:2]:
                self._warned = frame.shape[:2]
                log.warning("the empty table was learnt at %s but frames are %s: it is not used; "
                            "run `table-assistant calibrate dice-background` again",
                            frame_size(self.grey.shape), frame_size(frame.shape))
            return list(readings)
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        return [r for r in readings if self.likeness(grey, r.x, r.y, max(r.box[1])) < SAME]

    def likeness(self, grey: np.ndarray, x: float, y: float, side: float) -> float:
        """Highest correlation of the die's square (``side`` px around x, y) in ``grey`` with the
        empty table there, searched _SEARCH sides around; 0 where either shows nothing."""
        h, w = grey.shape
        half, reach = max(2, round(side / 2)), max(2, round(side * _SEARCH))
        x0, y0 = max(round(x) - half, 0), max(round(y) - half, 0)
        x1, y1 = min(round(x) + half, w), min(round(y) + half, h)
        square = grey[y0:y1, x0:x1]
        window = _around(self.grey, square, x0, y0, reach)
        if min(square.shape) < 4 or square.std() < _FLAT or window.std() < _FLAT:
            return 0.0
        return _best_match(window, square)

    def fit(self, frame: np.ndarray) -> TableFit:
        """How ``frame`` (BGR or grey) still shows the empty table, see TableFit."""
        if frame.shape[:2] != self.grey.shape:
            return TableFit(0, 0, other_size=True)
        small = _check_copy(frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
        in_place = moved = 0
        for x, y in self._places:
            square = small[y:y + _TILE, x:x + _TILE]
            if square.std() < _FLAT:  # covered by something plain (it would correlate with anything)
                continue
            here = _best_match(_around(self._small, square, x, y, _IN_PLACE), square)
            if here >= _MATCH:
                in_place += 1
            elif here < _UNLIKE and _best_match(_around(self._small, square, x, y, _MOVED), square) >= _MATCH:
                moved += 1
        return TableFit(in_place, moved)


def _check_copy(grey: np.ndarray) -> np.ndarray:
    scale = _CHECK_WIDTH / grey.shape[1]
    return cv2.resize(grey, (_CHECK_WIDTH, max(_TILE, round(grey.shape[0] * scale))), interpolation=cv2.INTER_AREA)


def _textured_places(small: np.ndarray) -> list[tuple[int, int]]:
    """Top-left corners of the _TILE squares where ``small`` shows something."""
    h, w = small.shape
    return [(x, y) for y in range(0, h - _TILE + 1, _TILE) for x in range(0, w - _TILE + 1, _TILE)
            if small[y:y + _TILE, x:x + _TILE].std() >= _TEXTURED]


def _around(table: np.ndarray, square: np.ndarray, x: int, y: int, reach: int) -> np.ndarray:
    """The part of ``table`` where ``square``, whose top-left corner is (x, y), is searched:
    ``reach`` px around it."""
    h, w = square.shape
    return table[max(y - reach, 0):y + h + reach, max(x - reach, 0):x + w + reach]


def _best_match(window: np.ndarray, square: np.ndarray) -> float:
    """Highest correlation of ``square`` anywhere in ``window``."""
    return float(cv2.matchTemplate(window, square, cv2.TM_CCOEFF_NORMED).max())


def frame_size(shape) -> str:
    """An image shape as "640x480" (width x height)."""
    return f"{shape[1]}x{shape[0]}"
