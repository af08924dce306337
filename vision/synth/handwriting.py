"""Synthetic handwritten digits: hand-made skeletons drawn by seeded writers.

Each digit has a few skeletons (how people form it: a 1 with or without its flag and foot, an open
or a closed 4, ...), strokes of points in a unit box (x right, y down, the digit 1 tall). A
:class:`Writer` is one person's habits, drawn from a seed: which skeleton of each digit, slant,
width, size, pen and stroke width, and how unsteady the hand is. Each glyph they write varies
again a little. Writers of the test photos come from other seeds than those of training.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

Stroke = list[tuple[float, float]]


def arc(cx: float, cy: float, rx: float, ry: float, start: float, end: float, steps: int = 14) -> Stroke:
    """Points on an ellipse from ``start`` to ``end`` degrees (0 = right, 90 = down)."""
    a = np.deg2rad(np.linspace(start, end, steps))
    return [(float(cx + rx * np.cos(t)), float(cy + ry * np.sin(t))) for t in a]


SKELETONS: dict[int, list[list[Stroke]]] = {
    0: [[arc(0.5, 0.5, 0.38, 0.5, -90, 275, 24)],
        [arc(0.5, 0.5, 0.33, 0.5, -100, 260, 24)]],
    1: [[[(0.5, 0.0), (0.5, 1.0)]],
        [[(0.22, 0.25), (0.55, 0.0), (0.55, 1.0)]],
        [[(0.22, 0.25), (0.55, 0.0), (0.55, 1.0)], [(0.25, 1.0), (0.85, 1.0)]]],
    2: [[arc(0.5, 0.28, 0.36, 0.28, 190, 370) + [(0.12, 1.0), (0.92, 1.0)]],
        [arc(0.48, 0.3, 0.38, 0.3, 200, 400) + [(0.1, 0.98), (0.4, 0.9), (0.92, 1.0)]]],
    3: [[arc(0.47, 0.25, 0.36, 0.25, 200, 450) + arc(0.47, 0.74, 0.4, 0.26, -90, 155)],
        [[(0.1, 0.0), (0.85, 0.0), (0.4, 0.42)] + arc(0.47, 0.7, 0.4, 0.3, -80, 160)]],
    4: [[[(0.62, 0.0), (0.05, 0.66), (0.95, 0.66)], [(0.7, 0.28), (0.7, 1.0)]],
        [[(0.15, 0.0), (0.08, 0.6), (0.92, 0.6)], [(0.72, 0.05), (0.72, 1.0)]],
        [[(0.7, 1.0), (0.7, 0.0), (0.05, 0.68), (0.95, 0.68)]]],
    5: [[[(0.2, 0.02), (0.15, 0.45)] + arc(0.48, 0.69, 0.38, 0.31, -125, 155), [(0.2, 0.0), (0.88, 0.0)]],
        [[(0.88, 0.0), (0.22, 0.0), (0.16, 0.44)] + arc(0.48, 0.69, 0.38, 0.31, -125, 160)]],
    6: [[[(0.78, 0.02), (0.45, 0.18), (0.18, 0.55)] + arc(0.5, 0.7, 0.32, 0.3, 180, 530, 22)],
        [arc(0.9, 0.55, 0.72, 0.55, 250, 180, 8) + arc(0.5, 0.72, 0.33, 0.28, 180, 520, 20)]],
    7: [[[(0.08, 0.0), (0.92, 0.0), (0.38, 1.0)]],
        [[(0.08, 0.05), (0.92, 0.0), (0.4, 1.0)], [(0.3, 0.52), (0.82, 0.52)]]],
    8: [[arc(0.5, 0.25, 0.28, 0.25, 90, 450, 20) + arc(0.5, 0.73, 0.36, 0.27, -90, 270, 20)],
        [arc(0.5, 0.26, 0.3, 0.26, 60, -270, 20) + arc(0.5, 0.74, 0.34, 0.26, -90, 270, 20)]],
    9: [[arc(0.48, 0.3, 0.34, 0.3, 0, -360, 22) + [(0.82, 0.3), (0.72, 1.0)]],
        [arc(0.48, 0.28, 0.34, 0.28, 10, -350, 22) + arc(0.2, 0.3, 0.62, 0.7, 0, 70, 8)]],
}
PENS = ((140, 40, 20), (30, 30, 30), (110, 60, 40), (160, 70, 10), (60, 40, 30))  # BGR: blues, blacks


@dataclass(frozen=True)
class Writer:
    """One person's way of writing digits."""

    variants: tuple[int, ...]  # the skeleton of each digit 0..9
    slant: float               # x shift per unit of height (italic > 0)
    width: float               # width factor
    height_mm: float
    stroke_mm: float
    pen: tuple[int, int, int]  # BGR
    pressure: float            # 1 = full ink
    wobble: float              # point jitter, in digit heights

    @classmethod
    def from_seed(cls, seed: int) -> "Writer":
        rng = np.random.default_rng([seed, 17])
        return cls(tuple(int(rng.integers(len(SKELETONS[d]))) for d in range(10)),
                   float(rng.uniform(-0.12, 0.35)), float(rng.uniform(0.7, 1.25)),
                   float(rng.uniform(5.0, 8.0)), float(rng.uniform(0.3, 0.9)),
                   PENS[int(rng.integers(len(PENS)))], float(rng.uniform(0.7, 1.0)),
                   float(rng.uniform(0.01, 0.045)))


def glyph_strokes(writer: Writer, digit: int, rng: np.random.Generator) -> list[np.ndarray]:
    """The strokes of one written digit, in units of its height, centred on (0, 0)."""
    options = SKELETONS[digit]
    # Mostly the writer's habit, now and then another way of forming the digit.
    variant = writer.variants[digit] if rng.random() < 0.85 else int(rng.integers(len(options)))
    angle = np.deg2rad(rng.normal(0, 4))
    slant = writer.slant + rng.normal(0, 0.05)
    width = writer.width * rng.uniform(0.9, 1.1)
    rotate = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    out = []
    for stroke in options[variant]:
        pts = np.array(stroke, np.float64)
        pts = pts + unsteadiness(len(pts), writer.wobble, rng)
        pts = smoothed(pts)
        pts = (pts - 0.5) * (width, 1.0)
        pts[:, 0] -= slant * pts[:, 1]
        out.append(pts @ rotate.T)
    return out


def unsteadiness(count: int, size: float, rng: np.random.Generator) -> np.ndarray:
    """Jitter that drifts along a stroke rather than shaking from point to point."""
    kernel = np.hanning(7)
    kernel /= np.sqrt((kernel ** 2).sum())  # keeps the jitter's spread at ``size``
    noise = rng.normal(0, size, (count + 6, 2))
    return np.column_stack([np.convolve(noise[:, i], kernel, "valid") for i in range(2)])[:count]


def smoothed(points: np.ndarray, rounds: int = 2) -> np.ndarray:
    """Chaikin corner cutting: a hand rounds the corners of its strokes a little."""
    for _ in range(rounds):
        if len(points) < 3:
            return points
        q = 0.75 * points[:-1] + 0.25 * points[1:]
        r = 0.25 * points[:-1] + 0.75 * points[1:]
        points = np.vstack([points[:1], np.column_stack([q, r]).reshape(-1, 2), points[-1:]])
    return points


def write_digit(image: np.ndarray, digit: int, centre_px: tuple[float, float], px_per_mm: float, writer: Writer,
                rng: np.random.Generator) -> None:
    """Write ``digit`` in ``writer``'s hand into BGR ``image`` around ``centre_px``, in place."""
    height = writer.height_mm * rng.uniform(0.88, 1.1) * px_per_mm
    strokes = [s * height + centre_px for s in glyph_strokes(writer, digit, rng)]
    write_strokes(image, strokes, writer.stroke_mm * rng.uniform(0.85, 1.15) * px_per_mm,
                  writer.pen, writer.pressure)


def write_strokes(image: np.ndarray, strokes: list[np.ndarray], width_px: float, pen: tuple[int, int, int],
                  pressure: float) -> None:
    """Draw strokes (points in image pixels) in ``pen`` over the part of ``image`` they cover."""
    pts = np.vstack(strokes)
    pad = width_px + 2
    x0, y0 = (max(0, int(v)) for v in np.floor(pts.min(axis=0) - pad))
    x1, y1 = np.ceil(pts.max(axis=0) + pad).astype(int)
    x1, y1 = min(int(x1), image.shape[1]), min(int(y1), image.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    alpha = np.zeros((y1 - y0, x1 - x0), np.float32)
    for stroke in strokes:
        ink_line(alpha, stroke - (x0, y0), width_px)
    lay_ink(image[y0:y1, x0:x1], alpha * pressure, pen)


def ink_line(alpha: np.ndarray, points_px: np.ndarray, width_px: float) -> None:
    """Add one anti-aliased stroke of ``width_px`` to the 0..1 ink coverage ``alpha``."""
    shift = 4
    pts = np.round(points_px * (1 << shift)).astype(np.int32)
    layer = np.zeros_like(alpha)
    cv2.polylines(layer, [pts], False, 1.0, max(1, int(round(width_px))), cv2.LINE_AA, shift)
    np.maximum(alpha, layer, out=alpha)


def lay_ink(image: np.ndarray, alpha: np.ndarray, pen: tuple[int, int, int]) -> None:
    """Ink of colour ``pen`` with coverage ``alpha`` over ``image`` (BGR), in place."""
    a = np.clip(alpha, 0, 1)[..., None]
    image[:] = (image * (1 - a) + np.array(pen, np.float32) * a).astype(np.uint8)
