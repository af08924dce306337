"""Finding cards in a frame: convex quadrilaterals of card proportions with strong outlines.

Candidates come from three cues, because no single one works on every table:
- the outer contours of bright regions (white card faces and rims) at several brightness levels;
- the holes of those regions (the coloured panel of a rimmed card, which stays separate when the
  white rims of touching cards merge), grown outwards to the card's outer edge;
- regions enclosed by Canny edges, and the holes closed edges make (cards whose face is not
  white, or that stand out from the table by their outline alone).
Each candidate becomes a quadrilateral; those of card proportions whose four sides lie on image
edges are kept. A quadrilateral that contains two kept cards is two touching cards, not one.
Work happens on a copy scaled to ``detect_width`` pixels; corners are returned in frame pixels.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any, Mapping

import cv2
import numpy as np

from vision.card_detector import normals, outward_step

_NEXT = np.array([1, 2, 3, 0])  # corner i + 1
_PREV = np.array([3, 0, 1, 2])  # corner i - 1
RIM_SPREAD = 1.5  # a side grown this many times as far as the others' median has missed its edge
PLACE_REACH = 4.0  # pixels of the working copy: how far a card may lie off its place (~6 mm on an A1 mat)


@dataclass(frozen=True)
class DetectParams:
    detect_width: int = 640               # work on a copy this wide (pixels)
    white_levels: tuple[int, ...] = (90, 120, 150, 180, 210)  # brightness levels of the min channel
    canny: tuple[int, int] = (40, 120)    # Canny thresholds for the edge cue
    aspect: tuple[float, float] = (1.2, 1.9)  # long side / short side of a card in the image
    min_area: float = 0.004               # card area as a fraction of the frame, at least
    max_area: float = 0.35                # and at most
    edge_min: float = 8.0                 # grey-level step per pixel that counts as an outline
    min_support: float = 0.6              # fraction of the outline that must lie on such steps
    min_side_support: float = 0.35        # and of each side
    overlap: float = 0.3                  # two quads overlapping more than this are one card
    adaptive_block: int = 11              # also: brighter than the mean of this neighbourhood (0: off)
    adaptive_offset: int = 10             # by at least this much

    @classmethod
    def from_settings(cls, section: Mapping[str, Any]) -> "DetectParams":
        """Build from a settings table; keys that are not detection parameters are ignored."""
        kwargs = {}
        for f in fields(cls):
            if f.name in section:
                value = section[f.name]
                kwargs[f.name] = tuple(value) if isinstance(value, list) else value
        return cls(**kwargs)


@dataclass(frozen=True)
class Quad:
    """A card outline: ``corners`` (4x2 float32, frame pixels, clockwise on the image) and the
    fraction of its outline found on image edges."""

    corners: np.ndarray
    support: float

    @property
    def centre(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])


def find_quads(frame: np.ndarray, params: DetectParams = DetectParams(), select: bool = True) -> list[Quad]:
    """Card outlines in ``frame``, best supported first. Outlines that enclose two cards are
    dropped; with ``select`` only the best of overlapping outlines is kept, otherwise all of
    them are returned for a classifier to choose from."""
    scale, small, gray, gx, gy = _working_copy(frame, params)
    white = cv2.min(cv2.min(small[..., 0], small[..., 1]), small[..., 2])
    area = gray.shape[0] * gray.shape[1]
    lo, hi = params.min_area * area, params.max_area * area

    # Rough shapes (rims broken into a C, perspective, a panel's proportions) get some slack.
    loose = (params.aspect[0] * 0.8, params.aspect[1] * 1.25)
    outer: list[np.ndarray] = []
    panels: list[np.ndarray] = []
    for level in params.white_levels:
        mask = cv2.threshold(white, level, 255, cv2.THRESH_BINARY)[1]
        _collect(mask, lo, hi, loose, outer, panels)
    if params.adaptive_block > 0:
        block = params.adaptive_block | 1
        mask = cv2.adaptiveThreshold(white, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, block,
                                     -params.adaptive_offset)
        _collect(mask, lo, hi, loose, outer, panels)
    if params.canny[1] > 0:
        edges = cv2.Canny(cv2.GaussianBlur(gray, (3, 3), 0), *params.canny)
        # a region's outline, and also a hole's: where a card's outline is one closed edge, the
        # hole it makes in the surrounding region is the card, however its print splits it inside
        _collect(cv2.bitwise_not(cv2.dilate(edges, None)), lo, hi, loose, outer, outer)

    quads = [q for q in (_snap(_distinct(outer), gx, gy, params),
                         _grow(_distinct(panels), gx, gy, params)) if len(q)]
    if not quads:
        return []
    quads = np.concatenate(quads)
    quads = quads[_card_shaped(quads, lo, hi, params)]
    support, weakest = _support(quads, gx, gy, params.edge_min)
    good = (support >= params.min_support) & (weakest >= params.min_side_support)
    quads, support = quads[good], support[good]
    order = np.argsort(-support, kind="stable")
    quads, support = quads[order], support[order]
    keep = _distinct_index(quads)
    quads, support = quads[keep], support[keep]
    chosen = _select(quads, params.overlap, select)
    return [Quad((quads[i] / scale).astype(np.float32), float(support[i])) for i in chosen]


def _working_copy(frame: np.ndarray, params: DetectParams) -> tuple[float, np.ndarray, np.ndarray, np.ndarray,
                                                                       np.ndarray]:
    """The frame scaled to ``detect_width`` (BGR), its scale, grey levels and their gradients."""
    h, w = frame.shape[:2]
    scale = min(1.0, params.detect_width / max(h, w))
    small = cv2.resize(frame, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA) \
        if scale < 1 else frame
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3, scale=0.25)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3, scale=0.25)
    return scale, small, gray, gx, gy


def _collect(mask: np.ndarray, lo: float, hi: float, aspect: tuple[float, float], outer: list | None,
             holes: list | None) -> None:
    """Quads of the regions of ``mask`` (``outer``) and of the holes in them (``holes``) whose
    size and proportions (long / short side within ``aspect``) could be a card's."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return
    for contour, parent in zip(contours, hierarchy[0, :, 3]):
        out = holes if parent >= 0 else outer
        if out is None or len(contour) < 4:
            continue
        # A card's bounding box is at least its area and at most about twice it (turned 45 degrees).
        _, _, bw, bh = cv2.boundingRect(contour)
        if not lo * (0.6 if parent >= 0 else 1.0) <= bw * bh <= 2.2 * hi:
            continue
        # Cheap shape test before fitting: a card (even a C-shaped ring of rim, through its hull)
        # nearly fills its smallest enclosing rectangle, unlike an oval or a triangle.
        _, (rw, rh), _ = cv2.minAreaRect(contour)
        if min(rw, rh) <= 0 or not aspect[0] <= max(rw, rh) / min(rw, rh) <= aspect[1]:
            continue
        hull = cv2.convexHull(contour)
        if cv2.contourArea(hull) < 0.85 * rw * rh:
            continue
        quad = _fit_quad(hull)
        if quad is not None:
            out.append(quad)


def _fit_quad(hull: np.ndarray) -> np.ndarray | None:
    """Four corners (any order) of a region, from its convex hull, if the region is mostly a
    convex quadrilateral; else None.

    The hull is simplified to a polygon whose nearly straight runs are joined; its four longest
    runs are taken as the card's sides and meet at the corners. Rounded corners, a bump where
    something touches the card and a corner hidden by a hand give short runs, which this ignores.
    (Plain Python arithmetic: the polygons have a handful of vertices.)
    """
    hull_area = cv2.contourArea(hull)
    if hull_area <= 0:
        return None
    poly = cv2.approxPolyDP(hull, 0.006 * cv2.arcLength(hull, True), True).reshape(-1, 2).tolist()
    runs = straight_runs(poly)
    if len(runs) < 4:
        return None
    sides = sorted(sorted(range(len(runs)), key=lambda i: -math.hypot(*runs[i][1]))[:4])
    corners = []
    for k in range(4):
        (ax, ay), (dx, dy) = runs[sides[k]]
        (bx, by), (ex, ey) = runs[sides[(k + 1) % 4]]
        den = dx * ey - dy * ex
        if abs(den) < 1e-3 * math.hypot(dx, dy) * math.hypot(ex, ey):
            return None  # two "sides" are parallel neighbours: not a quadrilateral
        t = ((bx - ax) * ey - (by - ay) * ex) / den
        corners.append((ax + t * dx, ay + t * dy))
    quad = np.array(corners, np.float32)
    ratio = hull_area / max(cv2.contourArea(quad), 1e-6)
    return quad if 0.8 < ratio < 1.1 else None


def straight_runs(pts: list, max_turn: float = 0.2) -> list[tuple[tuple, tuple]]:
    """Edges of a closed polygon, consecutive edges turning less than ``max_turn`` radians
    joined: (start point, vector) of each run."""
    n = len(pts)
    angles = [math.atan2(pts[(i + 1) % n][1] - pts[i][1], pts[(i + 1) % n][0] - pts[i][0]) for i in range(n)]
    breaks = [i for i in range(n)
              if abs((angles[(i + 1) % n] - angles[i] + math.pi) % (2 * math.pi) - math.pi) >= max_turn]
    runs = []
    for k, b in enumerate(breaks):
        first, end = pts[(b + 1) % n], pts[(breaks[(k + 1) % len(breaks)] + 1) % n]
        runs.append(((first[0], first[1]), (end[0] - first[0], end[1] - first[1])))
    return runs


def _clockwise(q: np.ndarray) -> np.ndarray:
    """Corners clockwise on the image (y down), each quad starting from its top-left-most corner."""
    d = q - q.mean(axis=1, keepdims=True)
    q = np.take_along_axis(q, np.argsort(np.arctan2(d[..., 1], d[..., 0]), axis=1)[..., None], axis=1)
    start = np.argmin(q.sum(axis=2), axis=1)
    index = (np.arange(4)[None] + start[:, None]) % 4
    return np.take_along_axis(q, index[..., None], axis=1)


# ---- batched geometry: Q is an array of quads, n x 4 x 2 -------------------------------------

def _sides(q: np.ndarray) -> np.ndarray:
    return np.linalg.norm(q[:, _NEXT] - q, axis=2)                      # n x 4


def _areas(q: np.ndarray) -> np.ndarray:
    d1, d2 = q[:, 2] - q[:, 0], q[:, 3] - q[:, 1]
    return np.abs(d1[:, 0] * d2[:, 1] - d1[:, 1] * d2[:, 0]) / 2


def _card_shaped(q: np.ndarray, lo: float, hi: float, params: DetectParams) -> np.ndarray:
    s = _sides(q)
    a, b = (s[:, 0] + s[:, 2]) / 2, (s[:, 1] + s[:, 3]) / 2
    aspect = np.maximum(a, b) / np.maximum(np.minimum(a, b), 1e-6)
    # Perspective shortens opposite sides differently, but not by this much.
    even = np.minimum(s[:, 0], s[:, 2]) >= 0.6 * np.maximum(s[:, 0], s[:, 2])
    even &= np.minimum(s[:, 1], s[:, 3]) >= 0.6 * np.maximum(s[:, 1], s[:, 3])
    e = q[:, _NEXT] - q
    turn = e[:, :, 0] * e[:, _NEXT, 1] - e[:, :, 1] * e[:, _NEXT, 0]     # > 0: clockwise, convex
    area = _areas(q)
    return ((area >= lo) & (area <= hi) & even & np.all(turn > 0, axis=1)
            & (aspect >= params.aspect[0]) & (aspect <= params.aspect[1]))


def _distinct_index(q: np.ndarray) -> list[int]:
    """Indices of the first of each group of nearly equal quads (one card found at several levels)."""
    size = np.sqrt(_areas(q))
    d = np.abs(q[:, None] - q[None]).max(axis=(2, 3))
    same = d < 0.08 * np.minimum(size[:, None], size[None])
    keep: list[int] = []
    for i in range(len(q)):
        if not keep or not same[i, keep].any():
            keep.append(i)
    return keep


def _distinct(quads: list[np.ndarray]) -> np.ndarray:
    if not quads:
        return np.zeros((0, 4, 2), np.float32)
    q = _clockwise(np.array(quads, np.float32))
    return q[_distinct_index(q)]


def _support(q: np.ndarray, gx, gy, edge_min: float) -> tuple[np.ndarray, np.ndarray]:
    """Fraction of outline points with a brightness step (either way) within two pixels of the
    side: over the whole outline, and on its weakest side."""
    offsets = np.tile(np.array([-2.0, -1.0, 0.0, 1.0, 2.0], np.float32), (len(q), 1))
    steps = np.abs(outward_step(q, gx, gy, offsets)).max(axis=1) > edge_min   # N x 4 x n
    per_side = steps.mean(axis=2)
    return per_side.mean(axis=1), per_side.min(axis=1)


def _grow(q: np.ndarray, gx, gy, params: DetectParams, steps: int = 12) -> np.ndarray:
    """Move each side of a panel outwards to the card's outer edge (bright inside, darker out).
    Panels where some side finds no such edge are dropped."""
    if not len(q):
        return q
    reach = np.maximum(3.0, 0.16 * _sides(q).min(axis=1))                   # N
    offsets = reach[:, None] * np.linspace(0, 1, steps, dtype=np.float32)[None]
    response = np.median(outward_step(q, gx, gy, offsets), axis=3)        # N x k x 4
    best = response.max(axis=1)                                            # N x 4
    # The nearest offset nearly as strong as the best: the card's own edge, not a neighbour's.
    first = np.argmax(response >= 0.7 * best[:, None, :], axis=1)          # N x 4
    shift = np.take_along_axis(offsets, first, axis=1)
    # A card's rim is as wide all round: a side whose outer edge does not show (the rim against a
    # white paper margin or another white card) would run on to the next edge; it moves as the others.
    middle = np.median(shift, axis=1, keepdims=True)
    shift = np.where(shift > RIM_SPREAD * middle + 0.5, middle, shift)
    moved, ok = _move_sides(q, shift)
    return moved[ok & np.all(best >= params.edge_min, axis=1)]


def snap_outlines(frame: np.ndarray, quads: np.ndarray, params: DetectParams = DetectParams(),
                  reach: float = PLACE_REACH) -> np.ndarray:
    """Card outlines where a card is expected (``quads``, n x 4 x 2 frame pixels, e.g. a mat's
    places, each the card's size) moved by up to ``reach`` pixels of the working copy
    (``detect_width``) each way onto the strongest edges: the card as it lies, a little off its
    place, onto edges where the card is the brighter side (a card on a mat: not the edge of a
    dark panel inside its rim). The outline keeps its size: each pair of opposite sides moves
    together, so a side whose card edge hardly shows (a white rim on a white paper margin)
    follows the other one instead of running on to the next edge beyond (the paper's edge)."""
    scale, _, _, gx, gy = _working_copy(frame, params)
    q = _clockwise(np.asarray(quads, np.float32) * scale)
    if not len(q):
        return np.asarray(quads, np.float32)
    offsets, steps = _edge_steps(q, gx, gy, reach)
    response = np.maximum(steps, 0)  # a card on the mat is brighter than it: not a dark panel's edge in its rim
    # Side i moved out by t and its opposite side by -t (offsets run symmetrically) is a shift by t.
    best = [np.argmax(response[:, :, i] + response[:, ::-1, i + 2], axis=1) for i in (0, 1)]
    shift = np.stack([offsets[np.arange(len(q)), k] for k in best], axis=1)
    moved, ok = _move_sides(q, np.concatenate([shift, -shift], axis=1))
    return (np.where(ok[:, None, None], moved, q) / scale).astype(np.float32)


def _snap(q: np.ndarray, gx, gy, params: DetectParams, reach: float = 2.0) -> np.ndarray:
    """Move each side of a rough outline onto the strongest edge within ``reach`` pixels."""
    if not len(q):
        return q
    offsets, steps = _edge_steps(q, gx, gy, reach)
    moved, ok = _move_sides(q, np.take_along_axis(offsets, np.argmax(np.abs(steps), axis=1), axis=1))
    return np.where(ok[:, None, None], moved, q)


def _edge_steps(q: np.ndarray, gx, gy, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """The offsets tried (N x k, -reach..reach pixels, symmetric) and the brightness drop each
    side of each quad meets when moved out by each (N x k x 4; negative: brighter outside)."""
    offsets = np.tile(np.linspace(-reach, reach, int(2 * reach) + 1, dtype=np.float32), (len(q), 1))
    return offsets, np.median(outward_step(q, gx, gy, offsets), axis=3)


def _move_sides(q: np.ndarray, shift: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Move side i of each quad outwards by shift[:, i] pixels; new corners, and which are valid."""
    start = q + shift[..., None] * normals(q)                             # a point on each side
    direction = q[:, _NEXT] - q
    # Corner i is where side i-1 meets side i.
    p1, d1, p2, d2 = start[:, _PREV], direction[:, _PREV], start, direction
    den = d1[..., 0] * d2[..., 1] - d1[..., 1] * d2[..., 0]
    ok = np.all(np.abs(den) > 1e-6, axis=1)
    den = np.where(np.abs(den) > 1e-6, den, 1.0)
    t = ((p2[..., 0] - p1[..., 0]) * d2[..., 1] - (p2[..., 1] - p1[..., 1]) * d2[..., 0]) / den
    return (p1 + t[..., None] * d1).astype(np.float32), ok


def _select(q: np.ndarray, overlap: float, best_only: bool) -> list[int]:
    """Drop quads that cover two others (touching cards); with ``best_only`` keep only the first
    of overlapping ones. ``q`` is sorted best first."""
    n = len(q)
    areas = _areas(q)
    inter = np.zeros((n, n))
    lo, hi = q.min(axis=1), q.max(axis=1)
    touching = np.all((lo[:, None] < hi[None]) & (lo[None] < hi[:, None]), axis=2)
    for i, j in zip(*np.nonzero(np.triu(touching, 1))):
        inter[i, j] = inter[j, i] = cv2.intersectConvexConvex(q[i], q[j])[0]
    # A quad is two touching cards when it is about twice a typical card's size and holds two
    # separate card-sized quads (halves of one card are smaller than a typical card).
    typical = float(np.median(areas)) if n else 0.0
    card_sized = (areas > 0.5 * typical) & (areas < 1.5 * typical)
    composite = set()
    for i in np.nonzero(areas >= 1.6 * typical)[0]:
        inside = [j for j in np.nonzero(card_sized)[0] if inter[i, j] > 0.8 * areas[j]]
        if any(inter[a, b] < 0.2 * min(areas[a], areas[b]) for k, a in enumerate(inside) for b in inside[k + 1:]):
            composite.add(int(i))
    chosen: list[int] = []
    for i in range(n):
        if i not in composite and (not best_only or all(
                inter[i, j] <= overlap * min(areas[i], areas[j]) for j in chosen)):
            chosen.append(i)
    return chosen
