"""Finding cards in a frame with one learned pass: each card's four corners, and whether it lies
face down.

The network (``vision/training/train_card_detector.py``) sees the frame scaled to ``INPUT_WIDTH``
pixels and marks, on a grid of stride ``STRIDE``, how likely a face-up and a face-down card's
centre lies in each cell, with that card's corners. A card is a peak of those maps, so a card's
own printing (its indices, an oval, an inner frame) never becomes a card of its own, and two
cards touching are two peaks. It looks again at half that size for cards wider than a fifth of
the frame. The corners, good to a pixel or two of the scaled frame, are then moved onto the card's
outline in a copy of the frame ``refine_width`` wide.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.arrays import sigmoid

MODEL = Path(__file__).resolve().parent / "models" / "card_detector.onnx"
INPUT_WIDTH = 320    # the frame's longer side, scaled, in the network's input
STRIDE = 4           # input pixels per cell of the network's maps
CORNER_UNIT = 32.0   # input pixels per unit of the corner offsets
_EDGE_STEP = 4.0     # grey levels per pixel across a side that count as the card's outline
_ALIGN = 32          # the input's sides are padded to a multiple of the network's coarsest stride
LARGE = 64           # input pixels: a card's short side from which the half-size look finds it
_NEXT = np.array([1, 2, 3, 0])
_PREV = np.array([3, 0, 1, 2])


@dataclass(frozen=True)
class FoundCard:
    """A card: ``corners`` (4x2 float32, frame pixels, clockwise on the image), how sure the
    network is that a card lies there, and the probability it lies face down."""

    corners: np.ndarray
    score: float
    face_down: float


class CardDetector:
    def __init__(self, path: str | Path = MODEL, threshold: float = 0.3, refine_width: int = 640):
        if not Path(path).is_file():
            raise FileNotFoundError(f"card detector model not found: {path} "
                                    "(vision/training/train_card_detector.py makes it)")
        self.net = cv2.dnn.readNetFromONNX(str(path))
        self.threshold = threshold
        self.refine_width = refine_width

    def find(self, frame: np.ndarray) -> list[FoundCard]:
        """Every card in ``frame`` (BGR or grey), surest first."""
        if frame.ndim == 2:
            frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        h, w = frame.shape[:2]
        scale = INPUT_WIDTH / max(h, w)
        small = cv2.resize(frame, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
        # A large card (a fifth of the frame wide and more, up to two thirds) is more than the
        # network takes in well at once: it finds such a card at half the size (where its index
        # corners are too small to be taken for cards), and only such cards are looked for there.
        half = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2), interpolation=cv2.INTER_AREA)
        large = [(2 * c, s, d) for c, s, d in _peaks(self._maps(half), self.threshold)
                 if _short_side(c) >= LARGE / 2]
        cards = _one_each(_peaks(self._maps(small), self.threshold) + large)
        if not cards:
            return []
        refine = min(1.0, self.refine_width / max(h, w))
        work = cv2.resize(frame, (round(w * refine), round(h * refine)), interpolation=cv2.INTER_AREA) \
            if refine < 1 else frame
        gray = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
        gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3, scale=0.25)
        gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3, scale=0.25)
        quads = np.array([c[0] for c in cards], np.float32) * (refine / scale)
        reach = max(2.0, 2.0 * refine / scale)  # the network's corners are good to about a cell's half
        quads = snap(quads, gx, gy, reach) / refine
        return [FoundCard(q.astype(np.float32), s, d) for q, (_, s, d) in zip(quads, cards)]

    def _maps(self, image: np.ndarray) -> np.ndarray:
        """The network's maps of ``image`` (its sides padded to a multiple of ``_ALIGN``)."""
        ph, pw = -image.shape[0] % _ALIGN, -image.shape[1] % _ALIGN
        image = cv2.copyMakeBorder(image, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
        blob = (image.astype(np.float32).transpose(2, 0, 1)[None] / 255.0 - 0.5).astype(np.float32)
        self.net.setInput(blob)
        return self.net.forward()[0]


Candidate = tuple[np.ndarray, float, float]  # corners in input pixels, score, face-down probability


def _peaks(maps: np.ndarray, threshold: float) -> list[Candidate]:
    """A card at each peak of the maps over ``threshold``."""
    heat = sigmoid(maps[:2])
    both = heat.max(axis=0)
    peaks = (both == cv2.dilate(both, np.ones((3, 3), np.uint8))) & (both > threshold)
    out = []
    for y, x in zip(*np.nonzero(peaks)):
        centre = (np.array([x, y], np.float32) + 0.5) * STRIDE
        corners = clockwise(centre + maps[2:, y, x].reshape(4, 2) * CORNER_UNIT)
        if abs(cv2.contourArea(corners)) >= 4 * STRIDE * STRIDE:
            down = heat[1, y, x] / (heat[0, y, x] + heat[1, y, x])
            out.append((corners, float(both[y, x]), float(down)))
    return out


def _one_each(cards: list[Candidate]) -> list[Candidate]:
    """The cards surest first, each whose outline mostly covers a surer one's dropped (two
    cells of one card, or one card seen at two sizes)."""
    kept: list[Candidate] = []
    for card in sorted(cards, key=lambda c: -c[1]):
        area = abs(cv2.contourArea(card[0]))
        if not any(cv2.intersectConvexConvex(card[0], k[0])[0] > 0.5 * min(area, abs(cv2.contourArea(k[0])))
                   for k in kept):
            kept.append(card)
    return kept


def _short_side(corners: np.ndarray) -> float:
    return float(min(np.linalg.norm(corners[1] - corners[0]), np.linalg.norm(corners[2] - corners[1])))


def clockwise(corners: np.ndarray) -> np.ndarray:
    """The corners ordered clockwise on the image (y down), from the one nearest the top-left."""
    c = corners.mean(axis=0)
    angles = np.arctan2(corners[:, 1] - c[1], corners[:, 0] - c[0])
    q = corners[np.argsort(angles)]
    first = int(np.argmin(q[:, 0] + q[:, 1]))
    return np.roll(q, -first, axis=0).astype(np.float32)


# ---- moving the sides onto the outline -------------------------------------------------------

def normals(q: np.ndarray) -> np.ndarray:
    """Outward unit normals of the sides (side i runs from corner i to corner i+1): n x 4 x 2."""
    d = q[:, _NEXT] - q
    d /= np.linalg.norm(d, axis=2, keepdims=True) + 1e-9
    # Clockwise on a y-down image: the outward normal of direction (dx, dy) is (dy, -dx).
    return np.stack([d[..., 1], -d[..., 0]], axis=2)


def outward_step(q: np.ndarray, gx, gy, offsets: np.ndarray, n: int = 12) -> np.ndarray:
    """Brightness drop across each side moved outwards by ``offsets`` (n_quads x k, pixels):
    an array n_quads x k x 4 x n."""
    t = np.linspace(0.12, 0.88, n, dtype=np.float32)[None, None, :, None]
    pts = q[:, :, None, :] + (q[:, _NEXT] - q)[:, :, None, :] * t            # N x 4 x n x 2
    out = normals(q)                                                         # N x 4 x 2
    pts = pts[:, None] + offsets[:, :, None, None, None] * out[:, None, :, None, :]
    h, w = gx.shape
    x = np.clip(np.rint(pts[..., 0]).astype(np.int32), 0, w - 1)
    y = np.clip(np.rint(pts[..., 1]).astype(np.int32), 0, h - 1)
    nx, ny = out[:, None, :, None, 0], out[:, None, :, None, 1]
    return -(gx[y, x] * nx + gy[y, x] * ny)


def snap(q: np.ndarray, gx, gy, reach: float, n: int = 16) -> np.ndarray:
    """Fit each side to the outline: at ``n`` points along it, the strongest brightness step
    within ``reach`` pixels across it; a line through those (outliers left out) is the new side.
    A side with too few steps (covered, or against a table of its colour) stays."""
    offsets = np.tile(np.linspace(-reach, reach, max(5, int(4 * reach) + 1), dtype=np.float32), (len(q), 1))
    response = np.abs(outward_step(q, gx, gy, offsets, n))                   # N x k x 4 x n
    best = offsets[0][np.argmax(response, axis=1)]                           # N x 4 x n
    weight = (response.max(axis=1) > _EDGE_STEP).astype(np.float32)
    t = np.linspace(0.12, 0.88, n, dtype=np.float32)
    for _ in range(2):  # fit, leave out the points far from the fit, fit again
        a, b = _line_fit(t, best, weight)
        weight *= np.abs(best - (a[..., None] + b[..., None] * t)) <= 1.0
    enough = weight.sum(axis=2) >= n / 3
    a, b = np.where(enough, a, 0.0), np.where(enough, b, 0.0)
    out = normals(q)
    start = q + a[..., None] * out
    end = q[:, _NEXT] + (a + b)[..., None] * out
    return _corners_of_sides(start, end - start, q)


def _line_fit(t: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Weighted least squares y = a + b t along the last axis."""
    sw, st, sy = w.sum(-1) + 1e-9, (w * t).sum(-1), (w * y).sum(-1)
    stt, sty = (w * t * t).sum(-1), (w * t * y).sum(-1)
    den = sw * stt - st * st
    b = np.where(np.abs(den) > 1e-9, (sw * sty - st * sy) / np.where(np.abs(den) > 1e-9, den, 1.0), 0.0)
    return (sy - b * st) / sw, b


def _corners_of_sides(start: np.ndarray, direction: np.ndarray, fallback: np.ndarray) -> np.ndarray:
    """Corner i where side i-1 meets side i (each side a point and a direction, n x 4 x 2);
    a quad whose sides do not meet is ``fallback``."""
    p1, d1, p2, d2 = start[:, _PREV], direction[:, _PREV], start, direction
    den = d1[..., 0] * d2[..., 1] - d1[..., 1] * d2[..., 0]
    ok = np.all(np.abs(den) > 1e-6, axis=1)
    den = np.where(np.abs(den) > 1e-6, den, 1.0)
    t = ((p2[..., 0] - p1[..., 0]) * d2[..., 1] - (p2[..., 1] - p1[..., 1]) * d2[..., 0]) / den
    return np.where(ok[:, None, None], p1 + t[..., None] * d1, fallback).astype(np.float32)
