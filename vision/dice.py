"""Find every six-sided die in a frame and read its top face and body colour.

Two small networks (ONNX, run by ``cv2.dnn``; trained by ``vision/training/train_dice.py``):

1. the *detector* looks at the frame reduced to ``detector_width`` px and proposes top-face
   centres with a rough die size;
2. the *face network* looks at a patch around each proposal at full resolution, says whether
   it is a die, gives a probability for each pip face, and corrects the centre and size; it runs
   ``face_passes`` times, each time on a patch re-centred on the last answer.

The die's angle comes from the patch's edges, its colour from the median of its top face matched
against a palette. Dice with printed faces (the Excape 1-7 and X) are read against faces enrolled
from the user's own dice (``vision.dice_faces``) instead of the pip probabilities.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Mapping, Sequence

import cv2
import numpy as np

from engine.table import Die
from vision.dice_colours import Palette, body_colour
from vision.dice_faces import EnrolledFaces, face_square
from vision.dice_patches import (DETECTOR_STRIDE, PATCH_CONTEXT, PATCH_SIDE, PIP_FACES, detector_input, patch,
                                 pyramid)

DETECTOR_MODEL = "dice_detector.onnx"
FACE_MODEL = "dice_faces.onnx"


class DiceReaderError(ValueError):
    """The dice reader cannot be built: a model or enrolled-faces file is missing or unusable."""


@dataclass(frozen=True)
class DieReading:
    """One die as seen: where its top face is, how sure the reader is, and what it shows.

    ``box`` is an OpenCV rotated rectangle ``((x, y), (w, h), angle_degrees)`` around the top face;
    ``faces`` maps every face the reader knows to a probability (they sum to 1).
    """

    x: float
    y: float
    box: tuple[tuple[float, float], tuple[float, float], float]
    faces: Mapping[str, float]
    confidence: float
    colour: str

    @property
    def face(self) -> str:
        return max(self.faces, key=self.faces.__getitem__)

    def die(self) -> Die:
        return Die(self.face, self.colour)

    def corners(self) -> np.ndarray:
        return cv2.boxPoints(self.box)


class DiceReader:
    """Reads dice from BGR frames. Build it once (loads the networks) and call ``read`` per frame."""

    def __init__(
        self,
        detector: cv2.dnn.Net,
        face_network: cv2.dnn.Net,
        palette: Palette,
        detector_width: int = 320,
        proposal_threshold: float = 0.2,
        min_confidence: float = 0.5,
        face_passes: int = 2,
        max_dice: int = 40,
        enrolled: EnrolledFaces | None = None,
    ):
        if face_passes < 1:
            raise DiceReaderError(f"face_passes must be at least 1, not {face_passes}")
        self.detector = detector
        self.face_network = face_network
        self.palette = palette
        self.detector_width = detector_width
        self.proposal_threshold = proposal_threshold
        self.min_confidence = min_confidence
        self.face_passes = face_passes
        self.max_dice = max_dice
        self.enrolled = enrolled

    @classmethod
    def from_settings(cls, section: Mapping, state_dir: str | Path = "") -> "DiceReader":
        """Build from the ``[vision.dice]`` settings; enrolled faces are read from ``state_dir``."""
        enrolled = None
        if section["faces"] == "enrolled":
            enrolled = EnrolledFaces.load(Path(state_dir) / section["faces_file"])
        elif section["faces"] != "pips":
            raise DiceReaderError(f"vision.dice.faces must be \"pips\" or \"enrolled\", not {section['faces']!r}")
        return cls(
            detector=load_network(section["detector_model"] or DETECTOR_MODEL),
            face_network=load_network(section["face_model"] or FACE_MODEL),
            palette=Palette.parse(section["palette"]),
            detector_width=section["detector_width"],
            proposal_threshold=section["proposal_threshold"],
            min_confidence=section["min_confidence"],
            face_passes=section["face_passes"],
            max_dice=section["max_dice"],
            enrolled=enrolled,
        )

    def read(self, frame: np.ndarray) -> list[DieReading]:
        """Every die in a BGR frame, most confident first."""
        return [reading for reading, _ in self._read(frame)]

    def enrol_faces(self, photos: Mapping[str, Sequence[np.ndarray]]) -> EnrolledFaces:
        """Learn printed faces from photos by face; every die in a photo must show that face.

        Raises ValueError naming the face whose photo shows no die.
        """
        samples: dict[str, list[np.ndarray]] = {}
        for face, frames in photos.items():
            for number, frame in enumerate(frames, start=1):
                found = self._read(frame)
                if not found:
                    raise ValueError(f"face {face}: no die found in photo {number}")
                samples.setdefault(face, []).extend(face_square(square, r.box[2]) for r, square in found)
        return EnrolledFaces.from_samples(samples)

    def learn_palette(self, photos: Mapping[str, Sequence[np.ndarray]]) -> list[str]:
        """Palette entries ("name #rrggbb") from photos by colour name; every die in a photo has it.

        Raises ValueError naming the colour whose photos show no die.
        """
        entries = []
        for name, frames in photos.items():
            colours = [body_colour(square) for frame in frames for _, square in self._read(frame)]
            if not colours:
                raise ValueError(f"colour {name}: no die found in its photos")
            b, g, r = np.median(colours, axis=0).astype(int).tolist()
            entries.append(f"{name} #{r:02x}{g:02x}{b:02x}")
        return entries

    def read_whole(self, image: np.ndarray) -> DieReading:
        """The one die filling ``image`` (a photo cropped around a single die), without the finder."""
        _check_frame(image)
        h, w = image.shape[:2]
        return self._refine(image, np.array([[(w - 1) / 2, (h - 1) / 2, 0.8 * min(w, h)]]), 0.0)[0][0]

    def _read(self, frame: np.ndarray) -> list[tuple[DieReading, np.ndarray]]:
        """Readings with the final patch each was read from."""
        _check_frame(frame)
        proposals = self.propose(frame)
        return self._refine(frame, proposals, self.min_confidence) if len(proposals) else []

    def _refine(self, frame: np.ndarray, proposals: np.ndarray, minimum: float):
        """Run the face passes on (x, y, side) proposals; keep the confident, distinct dice."""
        levels = pyramid(frame, float(proposals[:, 2].max()) * 1.5)
        for _ in range(self.face_passes):
            patches = [patch(levels, x, y, side) for x, y, side in proposals]
            out = self._run_faces(patches)
            span = proposals[:, 2:3] * PATCH_CONTEXT
            proposals = np.hstack([proposals[:, :2] + out[:, 7:9] * span,
                                   proposals[:, 2:3] * np.exp(np.clip(out[:, 9:10], -0.7, 0.7))])
        confidence = _sigmoid(out[:, 0])
        found = []
        for i in _suppress(proposals, confidence, minimum)[: self.max_dice]:
            square = patch(levels, *proposals[i])
            found.append((self._reading(proposals[i], confidence[i], out[i], square), square))
        return found

    def propose(self, frame: np.ndarray) -> np.ndarray:
        """(x, y, side) rows in frame pixels: local maxima of the detector's centre map."""
        small, scale = detector_input(frame, self.detector_width)
        self.detector.setInput(cv2.dnn.blobFromImage(small, 1 / 255))
        maps = self.detector.forward()[0]
        heat = _sigmoid(maps[0])
        peaks = (heat >= self.proposal_threshold) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
        rows, cols = np.nonzero(peaks)
        order = np.argsort(-heat[rows, cols])[: self.max_dice * 2]
        rows, cols = rows[order], cols[order]
        x = (cols + 0.5 + maps[2, rows, cols]) * DETECTOR_STRIDE / scale
        y = (rows + 0.5 + maps[3, rows, cols]) * DETECTOR_STRIDE / scale
        side = np.exp(np.clip(maps[1, rows, cols], 1.0, 6.0)) / scale
        return np.stack([x, y, side], axis=1).astype(np.float64)

    def _run_faces(self, patches: Sequence[np.ndarray]) -> np.ndarray:
        self.face_network.setInput(cv2.dnn.blobFromImages(list(patches), 1 / 255))
        return self.face_network.forward().astype(np.float64)

    def _reading(self, proposal, confidence: float, out: np.ndarray, square: np.ndarray) -> DieReading:
        x, y, side = (float(v) for v in proposal)
        angle = _edge_angle(square)
        if self.enrolled is not None:
            faces = self.enrolled.probabilities(face_square(square, angle))
        else:
            faces = dict(zip(PIP_FACES, _softmax(out[1:7]).round(4).tolist()))
        return DieReading(
            x=round(x, 1), y=round(y, 1), box=((round(x, 1), round(y, 1)), (round(side, 1),) * 2, round(angle, 1)),
            faces=faces, confidence=round(float(confidence), 4), colour=self.palette.name(square))


def load_network(name_or_path: str) -> cv2.dnn.Net:
    """An ONNX network from a path, or by file name from the packaged ``vision/models``."""
    path = Path(name_or_path)
    if not path.is_absolute() and not path.exists():
        path = Path(str(resources.files("vision").joinpath("models", name_or_path)))
    if not path.is_file():
        raise DiceReaderError(f"{path}: no such model file")
    try:
        return cv2.dnn.readNetFromONNX(str(path))
    except cv2.error as exc:
        raise DiceReaderError(f"{path}: not a readable ONNX model ({exc.msg.strip() or exc})") from None


def _check_frame(frame) -> None:
    if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise ValueError("the dice reader needs an 8-bit BGR colour image")


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-np.clip(x, -30, 30)))


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max())
    return e / e.sum()


def _suppress(proposals: np.ndarray, confidence: np.ndarray, minimum: float) -> list[int]:
    """Indices of confident proposals, dropping any whose centre lies within half a die of a better one."""
    kept: list[int] = []
    for i in np.argsort(-confidence):
        if confidence[i] < minimum:
            break
        x, y, side = proposals[i]
        if all(math.hypot(x - proposals[k, 0], y - proposals[k, 1]) > 0.5 * min(side, proposals[k, 2])
               for k in kept):
            kept.append(int(i))
    return kept


def _edge_angle(square: np.ndarray) -> float:
    """The die's rotation in [0, 90) degrees: the dominant edge direction near the patch centre.

    Square outlines put their gradient energy at four directions 90 degrees apart, so averaging
    the gradient angle times four cancels round pips and keeps the outline.
    """
    grey = cv2.cvtColor(square, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    weight = (gx * gx + gy * gy) * _WINDOW
    theta = np.arctan2(gy, gx)
    c = float((weight * np.cos(4 * theta)).sum())
    s = float((weight * np.sin(4 * theta)).sum())
    return math.degrees(math.atan2(s, c) / 4) % 90


def _window() -> np.ndarray:
    """Weights over the patch: the die outline (half a side from the centre) counts the most."""
    middle = (PATCH_SIDE - 1) / 2
    yy, xx = np.mgrid[0:PATCH_SIDE, 0:PATCH_SIDE].astype(np.float32)
    radius = np.hypot(xx - middle, yy - middle) / (PATCH_SIDE / PATCH_CONTEXT)
    return np.exp(-((radius - 0.55) ** 2) / (2 * 0.15 ** 2)).astype(np.float32)


_WINDOW = _window()
