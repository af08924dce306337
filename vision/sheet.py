"""Reading a photo of a filled score sheet: every cell's digit with its probabilities, and the seat.

The sheet's four markers give the homography (``vision.mat.MatLocator``; three are enough); the
sheet is straightened at ``read.px_per_mm`` and its darkness taken against the paper around each
point (so shadows and uneven light do not count as ink). The printed blank sheet, drawn at the
same scale and widened a little, is subtracted: lines, stars and hearts are not ink, and pen
written over them stays. Ink starts at ``read.ink`` darkness, or lower (down to ``faint_ink``)
on a sheet written with a faint pen. A cell's ink, cleared of specks and of what reaches in from
its neighbours, is empty below ``empty_mm2``; marks that stand apart side by side are two
digits; otherwise ``vision.sheet_digits`` reads it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.mat import MatLocator, MatNotFound, MatPose
from vision.mat_print import render
from vision.sheet_digits import CLASSES, DigitModel, digit_box
from vision.sheet_layout import SheetLayout
from vision.sheet_print import sheet_drawing

CHOICES = ("empty",) + CLASSES
TEMPLATE_SLACK_MM = 0.5   # how far off the printed lines may be found (the homography's error)
PAPER_MM = 2.5            # wider than any pen stroke: the paper's brightness is the brightest nearby
EMPTY_SOFTNESS_MM2 = 0.25
SEAT_MARGIN_MM = 0.7
FAINT_SHARE = 0.45        # of the pen's darkness on the sheet, for the ink threshold
WEAK_SHARE = 0.6          # of the ink threshold, where a stroke goes on from its ink


class SheetNotFound(ValueError):
    """The photo shows no sheet of the asked pad (none at all, another pad's, or several)."""


class SheetUnreadable(ValueError):
    """The sheet is found but too blurred to read."""


@dataclass(frozen=True)
class CellRead:
    x: int
    y: int
    probabilities: tuple[float, ...]  # over CHOICES
    marks: int                        # separate marks side by side: 2 or more is several digits

    @property
    def best(self) -> str:
        return CHOICES[int(np.argmax(self.probabilities))]

    @property
    def sureness(self) -> float:
        return max(self.probabilities)

    @property
    def digit(self) -> int | None:
        """The digit read, or None for an empty cell or several digits."""
        return int(self.best) if self.best.isdigit() and self.marks < 2 else None

    def to_dict(self) -> dict[str, Any]:
        return {"x": self.x, "y": self.y, "read": self.best if self.marks < 2 else "several",
                "sureness": round(self.sureness, 4), "marks": self.marks,
                "probabilities": {c: round(p, 4) for c, p in zip(CHOICES, self.probabilities)}}


@dataclass(frozen=True)
class SheetRead:
    pad: str
    cells: tuple[CellRead, ...]  # in the layout's reading order
    seats: tuple[int, ...]       # the seat boxes crossed
    sharpness: float
    pose: MatPose

    @property
    def seat(self) -> int | None:
        return self.seats[0] if len(self.seats) == 1 else None

    def unsure(self, sure: float) -> list[CellRead]:
        """Cells not read as one digit with at least ``sure`` probability."""
        return [c for c in self.cells if c.digit is None or c.sureness < sure]


@dataclass(frozen=True)
class SheetCut:
    """A located sheet, straightened: each cell's ink (0 / 1) in the layout's reading order."""

    pose: MatPose
    sharpness: float
    cells: tuple[np.ndarray, ...]
    seats: tuple[int, ...]  # the seat boxes crossed


class SheetCutter:
    """Finds one pad's sheet (``layout``) in a photo and cuts out the ink of its cells."""

    def __init__(self, layout: SheetLayout):
        self.layout = layout
        self.settings = layout.read
        self.px_per_mm = layout.read["px_per_mm"]
        self.locator = MatLocator(layout.mat(), min_markers=3, max_reprojection_px=layout.read["max_reprojection_px"],
                                  hold_frames=0)
        blank = render(sheet_drawing(layout), layout.size, self.px_per_mm)
        printed = 1 - cv2.cvtColor(blank, cv2.COLOR_BGR2GRAY).astype(np.float32) / 255
        slack = 2 * int(round(TEMPLATE_SLACK_MM * self.px_per_mm)) + 1
        self.printed = cv2.dilate(printed, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (slack, slack)))
        paper = 2 * int(round(PAPER_MM * self.px_per_mm)) + 1
        self.paper_kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (paper, paper))

    def cut(self, image: np.ndarray) -> SheetCut:
        """Raises SheetNotFound or SheetUnreadable with a one-line reason."""
        gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        pose = self.locate(gray)
        straight = pose.rectify(gray, self.layout.size, self.px_per_mm)
        sharpness = self.sharpness(straight)
        if sharpness < self.settings["min_sharpness"]:
            raise SheetUnreadable(f"the pad {self.layout.pad} sheet is too blurred to read (sharpness "
                                  f"{sharpness:.2f}, needs {self.settings['min_sharpness']:.2f}): "
                                  "hold it still, in focus")
        ink = self.ink(straight)
        cells = [self.box(ink, self.layout.cell_box(x, y), self.settings["inner_margin_mm"])
                 for (x, y), _ in self.layout.cells]
        # A faint pen (light, thin, blurred) is read against its own darkness on this sheet.
        pen = float(np.percentile(np.concatenate([c.ravel() for c in cells]), 99))
        threshold = float(np.clip(FAINT_SHARE * pen, self.settings["faint_ink"], self.settings["ink"]))
        speck = self.settings["speck_mm2"] * self.px_per_mm ** 2
        seats = tuple(box.seat for box in self.layout.seats
                      if cleaned(self.box(ink, (box.x, box.y, box.x + box.size, box.y + box.size), SEAT_MARGIN_MM),
                                 threshold, speck).sum() >= self.settings["empty_mm2"] * self.px_per_mm ** 2)
        return SheetCut(pose, sharpness, tuple(without_intruders(cleaned(c, threshold, speck)) for c in cells), seats)

    def locate(self, gray: np.ndarray) -> MatPose:
        pad = self.layout.pad
        try:
            return self.locator.locate(gray)
        except MatNotFound as exc:
            for other, ids in self.layout.other_pads.items():
                if len(set(exc.foreign) & set(ids)) >= 2:
                    raise SheetNotFound(f"this is a pad {other} sheet, not pad {pad}") from None
            if len(exc.seen) >= self.locator.min_markers:  # found, but they disagree
                raise SheetNotFound(f"the pad {pad} sheet's markers do not agree: show one flat sheet at a "
                                    "time") from None
            seen = ", ".join(map(str, exc.seen)) or "none"
            raise SheetNotFound(f"no pad {pad} sheet found: {len(exc.seen)} of its 4 markers seen "
                                f"({seen}), 3 are needed; is the whole sheet in view and in focus?") from None

    def sharpness(self, straight: np.ndarray) -> float:
        """How sharp the markers' edges are: the steepest step across them over their contrast,
        1 for a clean edge, falling as blur spreads it."""
        values = []
        for m in self.layout.markers:
            x0, y0 = (int(round(v * self.px_per_mm)) for v in (m.x, m.y))
            side = int(round(m.size * self.px_per_mm))
            patch = straight[y0:y0 + side, x0:x0 + side].astype(np.float32)
            contrast = np.percentile(patch, 95) - np.percentile(patch, 5)
            gx = cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3) / 8
            gy = cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3) / 8
            values.append(np.percentile(np.hypot(gx, gy), 99) / max(contrast, 1.0) * 2)
        return float(np.clip(np.median(values), 0, 1))

    def ink(self, straight: np.ndarray) -> np.ndarray:
        """Darkness against the paper nearby (0 .. 1), less what is printed there."""
        paper = cv2.morphologyEx(straight, cv2.MORPH_CLOSE, self.paper_kernel).astype(np.float32)
        darkness = 1 - straight.astype(np.float32) / np.maximum(paper, 1)
        return np.clip(darkness - self.printed, 0, 1)

    def box(self, ink: np.ndarray, box: tuple[float, float, float, float], margin_mm: float) -> np.ndarray:
        """The part of ``ink`` inside a box of the sheet (mm) less a margin."""
        left, top, right, bottom = (int(round(v * self.px_per_mm)) for v in
                                    (box[0] + margin_mm, box[1] + margin_mm, box[2] - margin_mm, box[3] - margin_mm))
        return ink[top:bottom, left:right]


class SheetReader:
    """Reads photos of one pad's sheets (``layout``) with the digit network ``model``."""

    def __init__(self, layout: SheetLayout, model: DigitModel | None = None):
        self.cutter = SheetCutter(layout)
        self.model = model or DigitModel.load()

    def read(self, image: np.ndarray) -> SheetRead:
        """Raises SheetNotFound or SheetUnreadable with a one-line reason."""
        cut = self.cutter.cut(image)
        px = self.cutter.px_per_mm
        areas = np.array([c.sum() for c in cut.cells]) / px ** 2
        digits = self.model.probabilities(np.stack([digit_box(c) for c in cut.cells]))
        empty = 1 / (1 + np.exp((areas - self.cutter.settings["empty_mm2"]) / EMPTY_SOFTNESS_MM2))
        probabilities = np.hstack([empty[:, None], (1 - empty)[:, None] * digits])
        layout = self.cutter.layout
        cells = tuple(CellRead(x, y, tuple(float(p) for p in row), count_marks(crop, px))
                      for ((x, y), _), row, crop in zip(layout.cells, probabilities, cut.cells))
        return SheetRead(layout.pad, cells, cut.seats, cut.sharpness, cut.pose)


def cleaned(patch: np.ndarray, threshold: float, speck_px: float) -> np.ndarray:
    """The ink of ``patch`` (0 / 1): blobs darker than WEAK_SHARE of ``threshold`` that reach
    ``threshold`` somewhere (so a stroke fading along its length stays whole), and are no specks."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats((patch > WEAK_SHARE * threshold).astype(np.uint8),
                                                               connectivity=8)
    darkest = np.zeros(count, np.float32)
    np.maximum.at(darkest, labels.ravel(), patch.ravel())
    keep = ((darkest >= threshold) & (stats[:, cv2.CC_STAT_AREA] >= speck_px)).astype(np.uint8)
    keep[0] = 0
    return keep[labels]


def without_intruders(ink: np.ndarray, share: float = 0.25) -> np.ndarray:
    """``ink`` less the blobs at its edge much smaller than its largest blob: a neighbour's
    digit or a printed line reaching into the cell, not part of its own digit."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    if count <= 2:
        return ink
    area = stats[:, cv2.CC_STAT_AREA]
    left, top = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    right, bottom = left + stats[:, cv2.CC_STAT_WIDTH], top + stats[:, cv2.CC_STAT_HEIGHT]
    edge = (left == 0) | (top == 0) | (right == ink.shape[1]) | (bottom == ink.shape[0])
    keep = ~(edge & (area < share * area[1:].max()))
    keep[0] = False
    return keep.astype(np.uint8)[labels]


def count_marks(ink: np.ndarray, px_per_mm: float, min_height_mm: float = 2.5, overlap: float = 0.3) -> int:
    """How many marks stand side by side: the ink's blobs, those whose columns overlap by more
    than ``overlap`` of the narrower one taken together (a 5's bar and body, a 4's two strokes),
    counting the groups at least ``min_height_mm`` tall (a digit, not a dash)."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    groups: list[list[int]] = []  # left, right, top, bottom
    for left, top, width, height in sorted(stats[1:, :4].tolist()):
        right, bottom = left + width, top + height
        for group in groups:
            shared = min(right, group[1]) - max(left, group[0])
            if shared > overlap * min(width, group[1] - group[0]):
                group[:] = min(left, group[0]), max(right, group[1]), min(top, group[2]), max(bottom, group[3])
                break
        else:
            groups.append([left, right, top, bottom])
    return sum(1 for _, _, top, bottom in groups if bottom - top >= min_height_mm * px_per_mm)
