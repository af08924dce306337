"""Row-wise array arithmetic that the card and dice readers share."""
from __future__ import annotations

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
