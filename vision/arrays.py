"""Array arithmetic that the card and dice readers share, and reading their saved arrays."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np


def softmax(x: np.ndarray) -> np.ndarray:
    """Probabilities from logits along the last axis."""
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def unit_rows(x: np.ndarray) -> np.ndarray:
    """Each row scaled to unit length (a row of zeros stays zero)."""
    return x / (np.linalg.norm(x, axis=1, keepdims=True) + 1e-6)


def sigmoid(x: np.ndarray) -> np.ndarray:
    """Probabilities from logits, element-wise."""
    return 1.0 / (1.0 + np.exp(-np.clip(x, -30, 30)))


def masked_median(image: np.ndarray, mask: np.ndarray) -> float:
    """The median of a uint8 image's pixels where ``mask`` is nonzero, as numpy's (the mean of the
    middle two of an even count; 0 where the mask is empty), from their histogram: no sort."""
    counts = np.cumsum(cv2.calcHist([image], [0], mask, [256], [0, 256]).ravel())
    n = int(counts[-1])
    if not n:
        return 0.0
    low, high = np.searchsorted(counts, [(n - 1) // 2, n // 2], side="right")
    return float(low + high) / 2


def load_npz(path: str | Path) -> dict[str, np.ndarray]:
    """Every array of an .npz file, read whole. A missing file is FileNotFoundError; any other
    failure is one ValueError saying what broke: a damaged file fails deep in zipfile, zlib or
    numpy's header parser, each with exceptions of its own (BadZipFile, zlib.error, TokenError,
    SyntaxError, EOFError, MemoryError for a shape that was never written...)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            return {name: data[name] for name in data.files}
    except FileNotFoundError:
        raise
    except Exception as exc:  # noqa: BLE001 - see above: every one means a damaged file
        raise ValueError(f"{type(exc).__name__}: {exc}") from None
