"""Naming a die's body colour from a configurable palette (``"name #rrggbb"`` entries)."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from vision.dice_patches import PATCH_CONTEXT, PATCH_SIDE

_ENTRY = re.compile(r"^\s*(\S+)\s+#([0-9a-fA-F]{6})\s*$")
# Measured on 866 dice of 150 seeded synthetic Excape scenes (30 px; light gradients, glare, blur,
# noise; `vision.synth.dice`), each read from one frame:
# - Uneven light changes lightness far more than hue: it counts less (on the ring below, weighed 0.5
#   it misnamed 23 dice, 0.3 11: mostly a blue die in shade as purple; white and black stay apart).
_LIGHTNESS_WEIGHT = 0.3
# - The top face is sampled on a ring around its middle, in die sides from its centre: inside the
#   face however the die is turned (its inscribed circle is 0.5), outside most of what is printed
#   on it. A printed 6 and its underline, or a 3, cover much of the middle square: its median named
#   a purple die with white ink white, a green one with yellow ink yellow (46 misnamed, at 0.5).
_RING = (0.32, 0.44)
# - A colour is named only where its squared distance to the nearest palette entry is at most this
#   share of that to the next: 1 of the 11 misnamed is named so, and 20 of the 855 right (2.3 %) are
#   not (an unsure colour, "", is taken as any).
_SURE = 0.6


@dataclass(frozen=True)
class Palette:
    names: tuple[str, ...]
    lab: np.ndarray  # one CIELAB row per name (OpenCV 8-bit scale)

    @classmethod
    def parse(cls, entries: Sequence[str]) -> "Palette":
        """Read ``["white #f0f0f0", ...]``; raise ValueError naming the first malformed entry."""
        names, colours = [], []
        for entry in entries:
            found = _ENTRY.match(entry)
            if not found:
                raise ValueError(f"dice palette entry {entry!r} is not \"name #rrggbb\"")
            names.append(found.group(1))
            rgb = bytes.fromhex(found.group(2))
            colours.append((rgb[2], rgb[1], rgb[0]))
        if len(set(names)) != len(names):
            raise ValueError("dice palette names must be different from each other")
        return cls(tuple(names), _to_lab(np.array(colours, np.uint8)) if colours else np.zeros((0, 3)))

    def name(self, square: np.ndarray) -> str:
        """The palette name nearest to the body colour of the die centred in ``square``; "" if none
        is, or where the next nearest is nearly as near (``_SURE``): a colour unsure is not named."""
        if not self.names:
            return ""
        lab = _to_lab(body_colour(square)[None, :])[0]
        distance = ((self.lab - lab) ** 2 * (_LIGHTNESS_WEIGHT ** 2, 1, 1)).sum(axis=1)
        nearest, *others = np.argsort(distance)
        if others and distance[nearest] > _SURE * distance[others[0]]:
            return ""
        return self.names[int(nearest)]


def body_colour(square: np.ndarray) -> np.ndarray:
    """Median BGR of the top face on a ring around its middle (``_RING``): pips and printed symbols
    cover well under half of it, so they drop out."""
    return np.median(square[_ring_mask()], axis=0).astype(np.uint8)


@functools.lru_cache(maxsize=1)
def _ring_mask() -> np.ndarray:
    y, x = np.mgrid[:PATCH_SIDE, :PATCH_SIDE] - (PATCH_SIDE - 1) / 2
    radius = np.hypot(x, y) * PATCH_CONTEXT / PATCH_SIDE  # in die sides
    return (radius >= _RING[0]) & (radius <= _RING[1])


def _to_lab(bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(bgr.reshape(1, -1, 3).astype(np.uint8), cv2.COLOR_BGR2Lab)[0].astype(np.float64)
