"""Labelled dice photographs as training and evaluation records, and the fixed tune/held-out split.

Two labelling conventions exist in ``labels.csv`` folders: the box around the whole die (photos
taken straight down, e.g. dice-tray), or the box around the top face's pips (oblique webcam
photos, e.g. dice-webcam). Both boxes are centred on the top face, which is what the reader
reports. The die side is the box side for the first; for the second it is estimated from the
pip boxes in the same photo, each divided by the share of the side its face's pips span.
"""
from __future__ import annotations

import random
import statistics
from dataclasses import dataclass
from pathlib import Path

from vision.evaluate import read_labels

HELD_OUT_FRACTION = 0.2
SPLIT_SEED = 2024
# Longer side of the box around a face's pips / die side, on average over rotations (measured
# on dice-webcam as the ratio of each face's median box to that of fours and fives).
PIP_SPAN = {"1": 0.48, "2": 0.64, "3": 0.66, "4": 0.8, "5": 0.8, "6": 0.9}


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
    out = {}
    for name, boxes in labels.items():
        if boxes_around_pips:
            sides = [max(b.xmax - b.xmin, b.ymax - b.ymin) / PIP_SPAN[b.label] for b in boxes]
            side = statistics.median(sides) if sides else 0.0
            out[name] = [LabelledDie(*b.centre(), side, b.label) for b in boxes]
        else:
            out[name] = [LabelledDie(*b.centre(), ((b.xmax - b.xmin) + (b.ymax - b.ymin)) / 2, b.label)
                         for b in boxes]
    return out

