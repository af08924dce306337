"""Naming a die's body colour from a configurable palette (``"name #rrggbb"`` entries)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from vision.dice_patches import PATCH_CONTEXT, PATCH_SIDE

_ENTRY = re.compile(r"^\s*(\S+)\s+#([0-9a-fA-F]{6})\s*$")
_LIGHTNESS_WEIGHT = 0.5  # uneven light changes lightness far more than hue: count it less
_HALF = round(0.35 * PATCH_SIDE / PATCH_CONTEXT)  # half the top-face square sampled, in patch px


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
        """The palette name nearest to the body colour of the die centred in ``square`` ("" if none)."""
        if not self.names:
            return ""
        lab = _to_lab(body_colour(square)[None, :])[0]
        distance = ((self.lab - lab) ** 2 * (_LIGHTNESS_WEIGHT ** 2, 1, 1)).sum(axis=1)
        return self.names[int(np.argmin(distance))]


def body_colour(square: np.ndarray) -> np.ndarray:
    """Median BGR of the central top face: pips cover well under half of it, so they drop out."""
    middle = PATCH_SIDE // 2
    face = square[middle - _HALF: middle + _HALF, middle - _HALF: middle + _HALF].reshape(-1, 3)
    return np.median(face, axis=0).astype(np.uint8)


def _to_lab(bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(bgr.reshape(1, -1, 3).astype(np.uint8), cv2.COLOR_BGR2Lab)[0].astype(np.float64)
