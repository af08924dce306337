"""Labelled dice photographs as training and evaluation records, and the fixed tune/held-out split.

Two labelling conventions exist in ``labels.csv`` folders: the box around the whole die (photos
taken straight down, e.g. dice-tray), or the box around the top face's pips (oblique webcam
photos, e.g. dice-webcam). Both boxes are centred on the top face, which is what the reader
reports. The die side is the box side for the first; for the second it is estimated from the
pip boxes of faces 2-6 in the same photo (pips span about 0.8 of the side).
"""
from __future__ import annotations

import random
import statistics
from dataclasses import dataclass
from pathlib import Path

from vision.evaluate import read_labels

HELD_OUT_FRACTION = 0.2
SPLIT_SEED = 2024
PIP_SPAN = 0.8  # pip box side / die side, on average over rotations


@dataclass(frozen=True)
class LabelledDie:
    x: float
    y: float
    side: float
    face: str


def split(names: list[str], seed: int = SPLIT_SEED) -> tuple[list[str], list[str]]:
    """(tune, held_out): a seeded shuffle of the sorted names, the last fifth held out."""
    shuffled = sorted(names)
    random.Random(seed).shuffle(shuffled)
    cut = round(len(shuffled) * (1 - HELD_OUT_FRACTION))
    return sorted(shuffled[:cut]), sorted(shuffled[cut:])


def load_dice(folder: str | Path, boxes_around_pips: bool) -> dict[str, list[LabelledDie]]:
    """Dice by image name, with each die's top-face centre and side in pixels."""
    labels = read_labels(folder)
    fallback = _typical_pip_side(labels) if boxes_around_pips else 0.0
    out = {}
    for name, boxes in labels.items():
        if boxes_around_pips:
            sides = [max(b.xmax - b.xmin, b.ymax - b.ymin) / PIP_SPAN for b in boxes if b.label != "1"]
            side = statistics.median(sides) if sides else fallback
            out[name] = [LabelledDie(*b.centre(), side, b.label) for b in boxes]
        else:
            out[name] = [LabelledDie(*b.centre(), ((b.xmax - b.xmin) + (b.ymax - b.ymin)) / 2, b.label)
                         for b in boxes]
    return out


def _typical_pip_side(labels) -> float:
    sides = [max(b.xmax - b.xmin, b.ymax - b.ymin) / PIP_SPAN
             for boxes in labels.values() for b in boxes if b.label != "1"]
    return statistics.median(sides)
