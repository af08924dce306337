"""Printed dice faces (e.g. the Excape 1-7 and X) learned from photos of the user's own dice.

Each enrolled die becomes a small grey square of its top face, turned upright by the die's edge
angle and normalised (zero mean, unit length), stored in its four quarter turns because an upright
die may still lie any of four ways. A die is read by correlating its square, at every shift of up
to ``SLACK`` px and at each of ``ZOOMS`` (the found centre and side are not exact), with every
stored one: a face's score is its best correlation, and a softmax of the scores scaled by
``SHARPNESS`` gives probabilities. That scale is fitted on the frames of filmed games
(``vision/training/fit_printed_sharpness.py``), not on the enrolment photos: three dice a face,
photographed still and clean, fitted anything from 45 to 1700 for the same printed dice, whose
game frames fitted 130 together (90 % interval 122-140; 131, 120-145, with the three sizes).
Correlation ignores brightness and contrast, and its magnitude ignores which of ink and body is
darker, so dark dice with light print match light dice with dark print.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping

import cv2
import numpy as np

from vision.arrays import load_npz
from vision.dice_patches import PATCH_CONTEXT, PATCH_SIDE

SQUARE = 28          # side of the compared face square, px (at 20 px, printed 3s and 5s blurred together)
SLACK = 2            # px of shift tried each way when comparing
ZOOMS = (0.94, 1.0, 1.06)  # face sizes tried, relative to the found die's: its side is found within ~7 %
SHARPNESS = 130.0    # softmax scale on correlations (vision/training/fit_printed_sharpness.py)
_FACE_SPAN = 0.8     # of the die side: the printed area, without the rounded rim


class EnrolledFacesError(ValueError):
    """The enrolled-faces file is missing, unreadable, or holds no faces."""


def face_square(square: np.ndarray, angle: float, zoom: float = 1.0) -> np.ndarray:
    """The upright grey top face of the die centred in a reader patch, ``SQUARE + 2 * SLACK`` px,
    the face ``zoom`` times as large as the patch's die size says."""
    middle = (PATCH_SIDE - 1) / 2
    side = SQUARE + 2 * SLACK
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


def _windows(faces: np.ndarray) -> np.ndarray:
    """Every SQUARE x SQUARE window of one face square or a stack of them, normalised, one per row."""
    shifts = range(2 * SLACK + 1)
    return _normalised(np.array([face[y:y + SQUARE, x:x + SQUARE].ravel()
                                 for face in faces.reshape(-1, *faces.shape[-2:]) for y in shifts for x in shifts]))


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
                centre = grid[SLACK:SLACK + SQUARE, SLACK:SLACK + SQUARE]
                rows += [np.rot90(centre, turn).ravel() for turn in range(4)]
                labels += [index] * 4
        if not rows:
            raise EnrolledFacesError("no enrolled dice faces")
        return cls(faces, _normalised(np.array(rows, np.float32)), np.array(labels, np.int32))

    def scores(self, face: np.ndarray) -> np.ndarray:
        """The best correlation of an upright face square (``face_square``), or of any of a stack
        of them (``face_squares``), with each enrolled face."""
        scores = np.full(len(self.faces), -1.0)
        np.maximum.at(scores, self.labels, np.abs(_windows(face) @ self.vectors.T).max(axis=0))
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
