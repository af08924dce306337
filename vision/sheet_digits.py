"""Reading one handwritten digit: the features of its ink, and the small network that reads them.

The features are those of the UCI / NIST handwritten digits (scikit-learn's ``load_digits``),
so the network learns from those real digits and from synthetic ones alike: the ink is scaled to
fit a 32 x 32 box (its proportions kept, centred), its strokes are made as thick as NIST's
normalisation makes them (a fixed share of the box is ink), and each 4 x 4 block's ink pixels are
counted: 64 numbers from 0 to 16, divided by 16. The model (``vision/models/digits.npz``, trained
by ``vision/training/train_digits.py``) is one Gaussian-kernel machine per digit (one against the
others), its scores made probabilities by a softmax at a fitted temperature, run in numpy.
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

from vision.arrays import softmax

BOX = 32
BLOCK = 4
INK_SHARE = 0.3  # of the box's pixels, as in the NIST bitmaps (about 310 of 1024)
CLASSES = ("1", "2", "3", "4", "5", "6")
DIGIT_MODEL = "digits.npz"


class DigitModelError(ValueError):
    """The digit network's file is missing or is not one."""


def digit_features(ink: np.ndarray) -> np.ndarray:
    """The 64 block counts (0..1) of a binary ink image holding one mark (nonzero = ink)."""
    ys, xs = np.nonzero(ink)
    if not len(ys):
        return np.zeros(BOX * BOX // (BLOCK * BLOCK), np.float32)
    crop = (ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1] > 0).astype(np.float32)
    h, w = crop.shape
    scale = BOX / max(h, w)
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    small = cv2.resize(crop, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR) >= 0.5
    box = np.zeros((BOX, BOX), np.uint8)
    top, left = (BOX - size[1]) // 2, (BOX - size[0]) // 2
    box[top:top + size[1], left:left + size[0]] = small
    box = normalised_strokes(box)
    counts = box.reshape(BOX // BLOCK, BLOCK, BOX // BLOCK, BLOCK).sum(axis=(1, 3))
    return (counts.ravel() / (BLOCK * BLOCK)).astype(np.float32)


def normalised_strokes(box: np.ndarray) -> np.ndarray:
    """Strokes thickened or thinned evenly until INK_SHARE of the box is ink."""
    if not box.any():
        return box
    outside = cv2.distanceTransform((box == 0).astype(np.uint8), cv2.DIST_L2, 3)
    inside = cv2.distanceTransform(box.astype(np.uint8), cv2.DIST_L2, 3)
    signed = np.where(box > 0, -inside, outside).ravel()
    target = int(INK_SHARE * box.size)
    threshold = np.partition(signed, target - 1)[target - 1]
    # Thinning peels one pixel at most, so that a thin part of a thick stroke is not cut.
    return (signed <= max(threshold, -1.0)).reshape(box.shape).astype(np.uint8)


@dataclass(frozen=True)
class DigitModel:
    """Scores ``exp(-gamma |f - s|^2) @ coef + intercept`` over the support digits ``support``,
    one column per digit of CLASSES; probabilities are their softmax times ``sharpness``."""

    support: np.ndarray    # (n, 64)
    coef: np.ndarray       # (n, len(CLASSES))
    intercept: np.ndarray  # (len(CLASSES),)
    gamma: float
    sharpness: float

    @classmethod
    def load(cls, name_or_path: str = DIGIT_MODEL) -> "DigitModel":
        """The model from a path, or by file name from the packaged ``vision/models``."""
        path = Path(name_or_path)
        if not path.is_absolute() and not path.exists():
            path = Path(str(resources.files("vision").joinpath("models", name_or_path)))
        try:
            with np.load(path) as data:
                model = cls(data["support"].astype(np.float32), data["coef"].astype(np.float32),
                            data["intercept"].astype(np.float32), float(data["gamma"]), float(data["sharpness"]))
                classes = tuple(str(c) for c in data["classes"])
        except (OSError, KeyError, ValueError) as exc:
            raise DigitModelError(f"{path}: not a digit model ({exc})") from None
        if classes != CLASSES or model.support.shape[1] != (BOX // BLOCK) ** 2:
            raise DigitModelError(f"{path}: a digit model reads 64 features into {', '.join(CLASSES)}")
        return model

    def scores(self, features: np.ndarray) -> np.ndarray:
        """(n, len(CLASSES)) kernel scores for (n, 64) features."""
        f = features.astype(np.float32)
        distance = (f * f).sum(1)[:, None] + (self.support * self.support).sum(1)[None] - 2 * f @ self.support.T
        return np.exp(-self.gamma * np.maximum(distance, 0)) @ self.coef + self.intercept

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        return softmax(self.sharpness * self.scores(features).astype(np.float64))

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, support=self.support.astype(np.float16), coef=self.coef.astype(np.float32),
                            intercept=self.intercept.astype(np.float32), gamma=self.gamma, sharpness=self.sharpness,
                            classes=np.array(CLASSES))
