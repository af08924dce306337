"""Reading one handwritten digit: its ink brought to a standard box, and the small network that reads it.

The ink is scaled to fit a 32 x 32 box (its proportions kept, centred) and its strokes are made
evenly thicker or thinner until a fixed share of the box is ink (as the UCI / NIST handwritten
digits were normalised), so a thin pen and a felt tip, a small digit and a large one, look alike. The network
(``vision/models/digits.onnx``, trained by ``vision/training/train_digits.py`` on real handwritten
digits and synthetic ones) reads a batch of such boxes into the probabilities of 1 to 6; its
softmax temperature is fitted and folded into its last layer. Run with OpenCV's dnn.
"""
from __future__ import annotations

import threading
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

from vision.arrays import softmax

BOX = 32
# of the box's pixels: thin enough that the loop of a 2 or a 6 stays open (the NIST bitmaps have
# 0.3; 0.3, 0.2 and 0.15 were compared on the choosing sets of train_digits.py)
INK_SHARE = 0.15
CLASSES = ("1", "2", "3", "4", "5", "6")
DIGIT_MODEL = "digits.onnx"


class DigitModelError(ValueError):
    """The digit network's file is missing or is not one."""


def digit_box(ink: np.ndarray) -> np.ndarray:
    """The BOX x BOX (0 / 1) standard view of a binary ink image holding one mark (nonzero = ink)."""
    box = np.zeros((BOX, BOX), np.uint8)
    ys, xs = np.nonzero(ink)
    if not len(ys):
        return box
    crop = (ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1] > 0).astype(np.float32)
    h, w = crop.shape
    scale = BOX / max(h, w)
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    small = cv2.resize(crop, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR) >= 0.5
    top, left = (BOX - size[1]) // 2, (BOX - size[0]) // 2
    box[top:top + size[1], left:left + size[0]] = small
    return normalised_strokes(box)


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


class DigitModel:
    """The digit network: ``probabilities(boxes)`` for (n, BOX, BOX) boxes of ``digit_box``."""

    def __init__(self, network: cv2.dnn.Net):
        self.network = network
        self._lock = threading.Lock()  # one OpenCV network, run by one thread at a time

    @classmethod
    def load(cls, name_or_path: str = DIGIT_MODEL) -> "DigitModel":
        """The model from a path, or by file name from the packaged ``vision/models``."""
        path = Path(name_or_path)
        if not path.is_absolute() and not path.exists():
            path = Path(str(resources.files("vision").joinpath("models", name_or_path)))
        try:
            model = cls(cv2.dnn.readNetFromONNX(str(path)))
            shape = model.logits(np.zeros((1, BOX, BOX), np.uint8)).shape
        except cv2.error as exc:
            raise DigitModelError(f"{path}: not a digit model ({str(exc).strip().splitlines()[-1]})") from None
        if shape != (1, len(CLASSES)):
            raise DigitModelError(f"{path}: a digit model reads a {BOX}x{BOX} box into {', '.join(CLASSES)}")
        return model

    def logits(self, boxes: np.ndarray) -> np.ndarray:
        if not len(boxes):
            return np.zeros((0, len(CLASSES)), np.float32)
        with self._lock:
            self.network.setInput(np.ascontiguousarray(boxes, np.float32)[:, None])
            return self.network.forward().reshape(len(boxes), -1)

    def probabilities(self, boxes: np.ndarray) -> np.ndarray:
        return softmax(self.logits(boxes).astype(np.float64))
