"""Cards that are only partly visible (fanned, overlapping, half under a book), read by a corner.

A visible card corner is where two straight edges of a bright region meet at about a right
angle. Playing cards print their index (rank and suit) in two opposite corners, and so do
Hilo-like cards; the patch beside a corner, cut out in the corner's own frame, shows that index
upright whichever way the card lies. The patch is taken so that its axes (along one edge,
then the other) turn like the image's axes, which makes the cut unique for each corner; a
corner without an index (the other two) gives a patch that enrolment teaches to refuse.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.arrays import unit_rows
from vision.card_detect import DetectParams, straight_runs
from vision.card_features import CARD_SIZE, INDEX_SIZE, hog, ink

# The index patch, as fractions of the card's width and height (the rectified face's corner).
INDEX_FRACTION = (INDEX_SIZE[0] / CARD_SIZE[0], INDEX_SIZE[1] / CARD_SIZE[1])


@dataclass(frozen=True)
class Corner:
    """A corner point (frame pixels) and unit vectors along its two edges, ``right`` then
    ``down``, turning like the image's x then y axes."""

    point: tuple[float, float]
    right: tuple[float, float]
    down: tuple[float, float]


def corner_of(point, a, b) -> Corner:
    """The corner at ``point`` whose edges run towards ``a`` and ``b`` (in either order)."""
    p = np.asarray(point, np.float64)
    u, v = np.asarray(a, np.float64) - p, np.asarray(b, np.float64) - p
    u, v = u / (np.linalg.norm(u) + 1e-9), v / (np.linalg.norm(v) + 1e-9)
    if u[0] * v[1] - u[1] * v[0] < 0:
        u, v = v, u
    return Corner((float(p[0]), float(p[1])), (float(u[0]), float(u[1])), (float(v[0]), float(v[1])))


def nudged(corner: Corner, right: float, down: float) -> Corner:
    """The corner moved ``right`` px along its first edge and ``down`` px along its second."""
    (x, y), (rx, ry), (dx, dy) = corner.point, corner.right, corner.down
    return Corner((x + right * rx + down * dx, y + right * ry + down * dy), corner.right, corner.down)


def card_corners(quad: np.ndarray) -> list[Corner]:
    """The four corners of a card outline (clockwise, first side short): the index corners
    (first and third) then the two others."""
    q = np.asarray(quad, np.float64)
    return [corner_of(q[i], q[(i + 1) % 4], q[(i + 3) % 4]) for i in (0, 2, 1, 3)]


def index_patches(frame: np.ndarray, corners: list[Corner], widths, aspect: float) -> np.ndarray:
    """The index patch beside each corner (n x INDEX_SIZE height x width, BGR), for a card of the
    given width in pixels (one per corner) and height / width ``aspect``."""
    pw, ph = INDEX_SIZE
    out = np.empty((len(corners), ph, pw, 3), np.uint8)
    for i, (c, width) in enumerate(zip(corners, widths)):
        along_right = INDEX_FRACTION[0] * width
        along_down = INDEX_FRACTION[1] * width * aspect
        p, r, d = np.array(c.point), np.array(c.right), np.array(c.down)
        src = np.float32([p, p + r * along_right, p + d * along_down])
        dst = np.float32([[0, 0], [pw, 0], [0, ph]])
        m = cv2.getAffineTransform(src, dst)
        out[i] = cv2.warpAffine(frame, m, (pw, ph), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    return out


def index_features(patches: np.ndarray) -> np.ndarray:
    """Gradient histograms of the patches' ink, enlarged twice: histogram cells then span 4 patch
    pixels, not 8, which tells apart index glyphs that coarser cells confuse (A and 9, K and J)."""
    n, h, w, _ = patches.shape
    enlarged = cv2.resize(ink(patches), (w * 2, n * h * 2), interpolation=cv2.INTER_LINEAR)
    return unit_rows(hog(enlarged.reshape(n, h * 2, w * 2).astype(np.float32)))


# A corner's shorter edge may be this much of ``min_side`` (see _mask_corners).
_SHORTER_EDGE = 0.9


def find_corners(frame: np.ndarray, params: DetectParams, min_side: float = 0.035,
                 levels: tuple[int, ...] = (120, 160, 200), cut_levels: tuple[int, ...] = (190,)) -> list[Corner]:
    """Right-angled convex corners of bright regions, one edge at least ``min_side`` of the
    frame's larger side long, the other at least _SHORTER_EDGE of that; bright regions are also
    cut along image edges so that overlapping cards come apart.

    The regions are brighter than each of ``levels``, cut and uncut; and brighter than each of
    ``cut_levels``, cut only. A card on cream paper joins the paper at the lower levels and at
    190 stands apart from it; but uncut, that level also shows parts of printed papers shaped
    like a card's corner."""
    h, w = frame.shape[:2]
    scale = min(1.0, params.detect_width / max(h, w))
    small = cv2.resize(frame, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA) \
        if scale < 1 else frame
    white = cv2.min(cv2.min(small[..., 0], small[..., 1]), small[..., 2])
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    cuts = cv2.bitwise_not(cv2.dilate(cv2.Canny(cv2.GaussianBlur(gray, (3, 3), 0), *params.canny), None))
    shortest = min_side * max(small.shape[:2])
    found: list[Corner] = []
    masks = []
    for level in levels:
        mask = cv2.threshold(white, level, 255, cv2.THRESH_BINARY)[1]
        masks += [mask, cv2.bitwise_and(mask, cuts)]
    masks += [cv2.bitwise_and(cv2.threshold(white, level, 255, cv2.THRESH_BINARY)[1], cuts) for level in cut_levels]
    for mask in masks:
        found += _mask_corners(mask, shortest)
    found = [Corner((c.point[0] / scale, c.point[1] / scale), c.right, c.down) for c in found]
    return _distinct_corners(found, 4.0 / scale)


def _mask_corners(mask: np.ndarray, shortest: float) -> list[Corner]:
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    out: list[Corner] = []
    if hierarchy is None:
        return out
    for contour, parent in zip(contours, hierarchy[0, :, 3]):
        if parent >= 0 or len(contour) < 8:
            continue
        _, _, bw, bh = cv2.boundingRect(contour)
        if max(bw, bh) < shortest:
            continue
        poly = cv2.approxPolyDP(contour, max(1.5, 0.004 * cv2.arcLength(contour, True)), True)
        pts = poly.reshape(-1, 2).tolist()
        if len(pts) < 3:
            continue
        turning = 1.0 if cv2.contourArea(poly, oriented=True) > 0 else -1.0
        runs = straight_runs(pts, 0.25)
        out += _run_corners(runs, shortest, shortest, turning)
        # Beside a card's index the rim is narrow: the index, or a card lying over it, may cut
        # one edge short there (_SHORTER_EDGE). Such shorter runs are looked at apart, as they
        # would cut a rounded corner's edges apart.
        out += _run_corners(runs, shortest, _SHORTER_EDGE * shortest, turning)
    return out


def _run_corners(runs, longer: float, shorter: float, turning: float) -> list[Corner]:
    """Corners where two straight runs of an outline, one at least ``longer`` and the other at
    least ``shorter`` px long, meet at about a right angle, turning as the outline does (convex).
    A card's rounded corner (or a nick in its rim) leaves short runs between its edges: two long
    runs count as meeting when only shorter runs, shorter together than a third of the shorter
    edge, lie between them."""
    out: list[Corner] = []
    long_runs = [k for k, (_, (dx, dy)) in enumerate(runs) if math.hypot(dx, dy) >= shorter]
    for k, following in zip(long_runs, long_runs[1:] + long_runs[:1]):
        (ax, ay), (dx, dy) = runs[k]
        (bx, by), (ex, ey) = runs[following]
        la, lb = math.hypot(dx, dy), math.hypot(ex, ey)
        if max(la, lb) < longer:
            continue
        between = range(k + 1, following if following > k else following + len(runs))
        if sum(math.hypot(*runs[j % len(runs)][1]) for j in between) > min(la, lb) / 3:
            continue
        angle = math.degrees(math.atan2(dx * ey - dy * ex, dx * ex + dy * ey))
        # A convex turn of the region's outline (the sign follows the outline's direction).
        if not 65 <= abs(angle) <= 115 or (angle > 0) != (turning > 0):
            continue
        t = ((bx - ax) * ey - (by - ay) * ex) / (dx * ey - dy * ex)
        px, py = ax + t * dx, ay + t * dy
        out.append(corner_of((px, py), (px - dx, py - dy), (px + ex, py + ey)))
    return out


def _distinct_corners(corners: list[Corner], radius: float) -> list[Corner]:
    """One corner per place and pair of directions (each level finds the same corners)."""
    kept: list[Corner] = []
    for c in corners:
        if not any(math.hypot(c.point[0] - k.point[0], c.point[1] - k.point[1]) < radius
                   and c.right[0] * k.right[0] + c.right[1] * k.right[1] > 0.9
                   and c.down[0] * k.down[0] + c.down[1] * k.down[1] > 0.9 for k in kept):
            kept.append(c)
    return kept
