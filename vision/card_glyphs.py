"""The learned description of a card's central value (``vision/training/train_card_glyphs.py``).

A small network turns the value crop of a card (``card_features.value_crops``) into EMBEDDING
numbers that stay put for one value whatever its print, size, blur or half turn, and differ
between values; enrolment learns a deck's values on them.
"""
from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np

MODEL = Path(__file__).resolve().parent / "models" / "card_glyphs.onnx"
INPUT_SIZE = (32, 40)   # width, height: card_features' glyph box
EMBEDDING = 64


_loaded = threading.local()   # a network per thread: an OpenCV network is not to be shared


def _network() -> cv2.dnn.Net:
    if not hasattr(_loaded, "net"):
        _loaded.net = cv2.dnn.readNetFromONNX(str(MODEL))
    return _loaded.net


def glyph_vectors(crops: np.ndarray) -> np.ndarray:
    """n x EMBEDDING for n value crops (n x 40 x 32, ink 0-255)."""
    if not len(crops):
        return np.zeros((0, EMBEDDING), np.float32)
    net = _network()
    net.setInput(np.ascontiguousarray(crops, np.float32)[:, None] / 255.0)
    return net.forward().reshape(len(crops), EMBEDDING)
