"""Printed dice faces (e.g. the Excape 1-7 and X) learned from photos of the user's own dice.

Each enrolled die becomes a small grey square of its top face, turned upright by the die's edge
angle and normalised (zero mean, unit length), stored in its four quarter turns because an upright
die may still lie any of four ways. A die is read by correlating its square, shifted (below) and
at each of ``ZOOMS`` (the found centre and side are not exact), with every stored one: a face's
score is its best correlation, and a softmax of the scores scaled by
``SHARPNESS`` gives probabilities. That scale is fitted on the frames of filmed games
(``vision/training/fit_printed_sharpness.py``), not on the enrolment photos: three dice a face,
photographed still and clean, fitted anything from 45 to 1700 for the same printed dice, whose
game frames fitted 130 together (90 % interval 122-140; 131, 120-145, with the three sizes).
Refitted with the shift searched within ``REACH`` (below), no die of those games was misread, so
the fit has no optimum and says only "150 or more" (90 %): 130 stays, on the cautious side.
Correlation ignores brightness and contrast, and its magnitude ignores which of ink and body is
darker, so dark dice with light print match light dice with dark print.

The top face may lie up to ``REACH`` px off the found centre: the detector centres the die's
whole outline, and a die seen at an angle, away from the middle of the view, shows a side beside
its top face. The shift is searched coarse to fine: every ``STEP`` px within ``REACH`` at the
found size, then, for each face near the best, every px within ``SLACK`` of that face's own best
coarse shift at each of ``ZOOMS``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping

import cv2
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from vision.arrays import load_npz
from vision.dice_patches import PATCH_CONTEXT, PATCH_SIDE

SQUARE = 28          # side of the compared face square, px (at 20 px, printed 3s and 5s blurred together)
REACH = 6            # face-square px (a sixth of the side) the top face may lie off the found centre, each way
STEP = 3             # px between the coarse shifts (the fine search covers the gaps)
SLACK = 2            # px of fine shift tried each way around the best coarse one
CONTENDS = 0.1       # a face this far under the best at the coarse shifts is not searched finely
ZOOMS = (0.94, 1.0, 1.06)  # face sizes tried, relative to the found die's: its side is found within ~7 %
SHARPNESS = 130.0    # softmax scale on correlations (vision/training/fit_printed_sharpness.py)
_FACE_SPAN = 0.8     # of the die side: the printed area, without the rounded rim


class EnrolledFacesError(ValueError):
    """The enrolled-faces file is missing, unreadable, or holds no faces."""


def face_square(square: np.ndarray, angle: float, zoom: float = 1.0) -> np.ndarray:
    """The upright grey top face of the die centred in a reader patch, ``SQUARE + 2 * REACH`` px,
    the face ``zoom`` times as large as the patch's die size says."""
    middle = (PATCH_SIDE - 1) / 2
    side = SQUARE + 2 * REACH
    scale = zoom * SQUARE / (PATCH_SIDE / PATCH_CONTEXT * _FACE_SPAN)
    matrix = cv2.getRotationMatrix2D((middle, middle), angle, scale)
    matrix[:, 2] += (side - 1) / 2 - middle
    grey = cv2.cvtColor(square, cv2.COLOR_BGR2GRAY)
    return cv2.warpAffine(grey, matrix, (side, side), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE).astype(np.float32)


def face_squares(square: np.ndarray, angle: float) -> np.ndarray:
    """``face_square`` at each of ``ZOOMS``, stacked: what a die is read from."""
    return np.stack([face_square(square, angle, zoom) for zoom in ZOOMS])


def _normalised(rows: np.ndarray) -> np.ndarray:
    rows = rows - rows.mean(axis=1, keepdims=True)
    return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-6)


_COARSE = slice(0, 2 * REACH + 1, STEP)  # the coarse shifts' top-left corners, each way


def _near(corner: int) -> slice:
    """The fine shifts' top-left corners, each way, around a coarse one."""
    return slice(max(corner - SLACK, 0), min(corner + SLACK, 2 * REACH) + 1)


def _windows(faces: np.ndarray, y: slice, x: slice) -> np.ndarray:
    """The SQUARE x SQUARE windows of a stack of face squares whose top-left corners lie in the
    rows ``y`` and columns ``x``, normalised, one per row."""
    windows = sliding_window_view(faces, (SQUARE, SQUARE), axis=(1, 2))[:, y, x]
    return _normalised(windows.reshape(-1, SQUARE * SQUARE))


@dataclass(frozen=True)
class EnrolledFaces:
    faces: tuple[str, ...]
    vectors: np.ndarray   # (n, SQUARE * SQUARE), one row per stored square
    labels: np.ndarray    # (n,) index into faces

    @classmethod
    def from_samples(cls, samples: Mapping[str, Iterable[np.ndarray]]) -> "EnrolledFaces":
        """From upright face squares (``face_square``) by face; each is kept in its four quarter turns."""
        faces = tuple(samples)
        rows, labels = [], []
        for index, face in enumerate(faces):
            for grid in samples[face]:
                centre = grid[REACH:REACH + SQUARE, REACH:REACH + SQUARE]
                rows += [np.rot90(centre, turn).ravel() for turn in range(4)]
                labels += [index] * 4
        if not rows:
            raise EnrolledFacesError("no enrolled dice faces")
        return cls(faces, _normalised(np.array(rows, np.float32)), np.array(labels, np.int32))

    def scores(self, face: np.ndarray) -> np.ndarray:
        """The best correlation of an upright face square (``face_square``), or of any of a stack
        of them (``face_squares``), with each enrolled face. Each face is searched at its own best
        coarse shift (another's may put its strokes on the die's edge), finely where it comes
        within ``CONTENDS`` of the best face."""
        stack = face.reshape(-1, *face.shape[-2:])
        coarse = np.abs(_windows(stack[len(stack) // 2][None], _COARSE, _COARSE) @ self.vectors.T)
        scores = np.full(len(self.faces), -1.0)
        np.maximum.at(scores, self.labels, coarse.max(axis=0))
        per_row = len(range(*_COARSE.indices(2 * REACH + 1)))
        shifts: dict[int, list[int]] = {}
        for index in np.flatnonzero(scores >= scores.max() - CONTENDS):
            shifts.setdefault(int(coarse[:, self.labels == index].max(axis=1).argmax()), []).append(index)
        for shift, indices in shifts.items():
            y, x = (STEP * v for v in divmod(shift, per_row))
            rows = np.isin(self.labels, indices)
            fine = np.abs(_windows(stack, _near(y), _near(x)) @ self.vectors[rows].T).max(axis=0)
            np.maximum.at(scores, self.labels[rows], fine)
        return scores

    def probabilities(self, face: np.ndarray) -> dict[str, float]:
        """Probability of each enrolled face for an upright face square or a stack (``scores``)."""
        scores = self.scores(face)
        weights = np.exp(SHARPNESS * (scores - scores.max()))
        weights /= weights.sum()
        return {face: round(float(p), 4) for face, p in zip(self.faces, weights)}

    def counts(self) -> dict[str, int]:
        """How many dice were enrolled for each face."""
        return {face: int((self.labels == i).sum()) // 4 for i, face in enumerate(self.faces)}

    def save(self, path: str | Path) -> None:
        """Write atomically: a half-written file never replaces a good one."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        with open(partial, "wb") as handle:
            np.savez(handle, faces=np.array(self.faces), vectors=self.vectors, labels=self.labels)
        partial.replace(path)

    @classmethod
    def load(cls, path: str | Path) -> "EnrolledFaces":
        path = Path(path)
        if not path.is_file():
            raise EnrolledFacesError(f"{path}: no enrolled dice faces; run `table-assistant calibrate dice-faces`")
        try:
            data = load_npz(path)
            faces = tuple(str(f) for f in data["faces"])
            vectors, labels = data["vectors"].astype(np.float32), data["labels"].astype(np.int32)
        except (OSError, KeyError, ValueError, TypeError) as exc:
            raise EnrolledFacesError(f"{path}: not an enrolled-faces file ({exc})") from None
        side = math.isqrt(vectors.shape[1]) if vectors.ndim == 2 else 0
        if side != SQUARE and side * side == vectors.shape[1]:
            raise EnrolledFacesError(f"{path}: faces enrolled at {side} px by an older version (now {SQUARE} px); "
                                     "run `table-assistant calibrate dice-faces` again")
        if not faces or vectors.ndim != 2 or vectors.shape[1] != SQUARE * SQUARE or len(labels) != len(vectors) \
                or labels.min(initial=0) < 0 or labels.max(initial=0) >= len(faces):
            raise EnrolledFacesError(f"{path}: not an enrolled-faces file (inconsistent contents)")
        return cls(faces, vectors, labels)
