"""Seeded photographs of cards of any design on any table, the training data of the card detector.

A scene is one deck (sometimes two) of a random design (``vision.synth.card_designs``) laid on a
table in one of the ways people lay cards: scattered, in a player's grid, touching in a row,
stacked in a pile, fanned in a hand, or one card held near the camera. The table is a real
photograph when some are given, or a synthetic texture: wood, cloth, felt, paper, a print with
outlined boxes; things that are not cards lie on it (dice, pens, a phone, printed card outlines).
The whole table is seen through a camera in perspective, then spoiled (light, glare, blur, noise,
JPEG) at twice the size and scaled down, as a frame is scaled down for the detector.

Every card whose visible part is at least ``VISIBLE`` of its outline is in the scene's truth, with
its four corners (clockwise from the card's own top-left) even where another card covers them.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

import cv2
import numpy as np

from engine.table import FACE_DOWN
from vision.synth.card_designs import Design, deck, random_design, render_back, render_face
from vision.synth.cards import Photo, SynthCard, SynthScene, spoil

VISIBLE = 0.5
LAYOUTS = ("scatter", "grid", "row", "pile", "fan", "close")
# How often each layout is drawn (a pile and a row are the hard cases: one card is one card).
LAYOUT_WEIGHTS = (0.2, 0.2, 0.15, 0.15, 0.1, 0.2)
PHOTO = Photo(glare=(0.0, 0.5), blur=(0.4, 2.0), noise=(1.0, 7.0), jpeg=(60, 95), light=(0.6, 1.15),
              gradient=(-0.3, 0.3))


def detector_scene(seed: int, size: tuple[int, int] = (320, 240), backgrounds: Sequence[np.ndarray] = (),
                   face_down_rate: float = 0.3, design: Design | None = None, label: str | None = None) -> SynthScene:
    """One photograph ``size`` (w, h) pixels of cards on a table, and its truth. With ``design``
    and ``label``: a photograph of that one card of that deck, as taken to enrol a deck."""
    rng = np.random.default_rng(seed)
    w, h = size
    big = (2 * w, 2 * h)
    table = table_texture(big, backgrounds, rng)
    if design is not None:
        designs, layout = [design], "close"
    else:
        designs = [random_design(rng)] if rng.random() < 0.8 else [random_design(rng), random_design(rng)]
        layout = LAYOUTS[rng.choice(len(LAYOUTS), p=LAYOUT_WEIGHTS)]
    placed = _place(layout, big, designs[0], rng)
    masks: list[np.ndarray] = []
    truth: list[tuple[np.ndarray, str]] = []
    _distractors(table, rng, before=True)
    for corners in placed:
        design = designs[int(rng.integers(len(designs)))]
        px_per_mm = float(np.linalg.norm(corners[1] - corners[0])) / design.size_mm[0]
        px_per_mm = min(max(px_per_mm, 1.0), 8.0)  # render near the size it is seen at
        shown = label or (FACE_DOWN if rng.random() < face_down_rate else str(rng.choice(deck(design))))
        image, alpha = render_back(design, px_per_mm, rng) if shown == FACE_DOWN else \
            render_face(design, shown, px_per_mm, rng)
        mask = paste_card(table, image, alpha, corners, rng)
        masks = [m & ~mask for m in masks] + [mask]
        truth.append((corners, shown))
    before = table.copy()
    _distractors(table, rng, before=False)
    over = np.any(table != before, axis=2)  # what lies over the cards hides them as a card would
    masks = [m & ~(over * np.uint8(255)) for m in masks]
    # the camera: a mild perspective of the whole table
    view = _camera(big, rng)
    frame = cv2.warpPerspective(table, view, big, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    frame = spoil(frame.astype(np.float32), replace(PHOTO, size=big), rng)
    frame = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    cards = []
    for (corners, label), mask in zip(truth, masks):
        whole = cv2.countNonZero(_fill(corners, big))
        if whole and cv2.countNonZero(mask) >= VISIBLE * whole:
            seen = cv2.perspectiveTransform(corners.reshape(-1, 1, 2).astype(np.float64), view).reshape(4, 2)
            cards.append(SynthCard((seen / 2).astype(np.float32), label))
    return SynthScene(frame, cards)


# ---- where the cards lie ------------------------------------------------------------------

def _place(layout: str, size, design: Design, rng) -> list[np.ndarray]:
    """Corners of the cards of one layout, bottom card first."""
    w, h = size
    aspect = design.size_mm[1] / design.size_mm[0]
    if layout == "close":
        width = rng.uniform(0.25, 0.7) * w
        return [_corners((rng.uniform(0.35, 0.65) * w, rng.uniform(0.35, 0.65) * h), width, aspect,
                         rng.uniform(-30, 30) + 90 * rng.integers(4))]
    width = w * np.exp(rng.uniform(np.log(0.05), np.log(0.22)))
    angle = rng.uniform(-180, 180) if rng.random() < 0.4 else rng.uniform(-12, 12) + 90 * rng.integers(4)
    if layout == "scatter":
        return _scattered(int(rng.integers(1, 13)), width, aspect, size, rng)
    if layout == "grid":
        rows, cols = int(rng.integers(1, 4)), int(rng.integers(2, 5))
        gap = rng.uniform(0.04, 0.35) * width
        return _grid(rows, cols, width, aspect, gap, angle, size, rng)
    if layout == "row":  # touching or nearly
        return _grid(1 if rng.random() < 0.6 else 2, int(rng.integers(2, 7)), width, aspect,
                     rng.uniform(-0.02, 0.04) * width, angle, size, rng)
    if layout == "pile":
        centre = rng.uniform(0.3, 0.7, 2) * size
        n = int(rng.integers(2, 7))
        return [_corners(centre + rng.normal(0, 0.25 * width, 2), width, aspect, angle + rng.normal(0, 25))
                for _ in range(n)]
    # a fanned hand: each card over the one before, turned a little more
    n = int(rng.integers(3, 8))
    step = rng.uniform(0.5, 0.8) * width
    start = np.array(rng.uniform(0.3, 0.5, 2) * size)
    spread = rng.uniform(3, 12)
    a = np.deg2rad(angle)
    along = np.array([np.cos(a), np.sin(a)])
    return [_corners(start + k * step * along, width, aspect, angle + (k - n / 2) * spread) for k in range(n)]


def _scattered(n: int, width: float, aspect: float, size, rng) -> list[np.ndarray]:
    placed: list[np.ndarray] = []
    for _ in range(n):
        for _ in range(60):
            w = width * rng.uniform(0.85, 1.15)
            centre = rng.uniform(0, 1, 2) * size
            reach = 0.6 * w * aspect
            if all(np.linalg.norm(centre - p.mean(axis=0)) > reach + 0.6 * np.linalg.norm(p[2] - p[0]) / 2 * 1.1
                   for p in placed):
                placed.append(_corners(centre, w, aspect, rng.uniform(-180, 180)))
                break
    return placed


def _grid(rows: int, cols: int, width: float, aspect: float, gap: float, angle: float, size, rng) -> list[np.ndarray]:
    height = width * aspect
    a = np.deg2rad(angle)
    u, v = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    centre = rng.uniform(0.25, 0.75, 2) * size
    out = []
    for r in range(rows):
        for c in range(cols):
            if rng.random() < 0.1:
                continue  # an empty place in the grid
            at = centre + (c - (cols - 1) / 2) * (width + gap) * u + (r - (rows - 1) / 2) * (height + gap) * v
            out.append(_corners(at + rng.normal(0, 0.02 * width, 2), width, aspect, angle + rng.normal(0, 2)))
    return out


def _corners(centre, width: float, aspect: float, angle_deg: float) -> np.ndarray:
    """A card's corners, clockwise from its own top-left, turned ``angle_deg`` (image y down)."""
    a = np.deg2rad(angle_deg)
    u, v = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    x, y = width / 2, width * aspect / 2
    return np.array([centre - x * u - y * v, centre + x * u - y * v, centre + x * u + y * v,
                     centre - x * u + y * v], np.float32)


def _camera(size, rng) -> np.ndarray:
    """A homography of the table to the frame: a camera a little off straight down."""
    w, h = size
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    k = rng.uniform(0, 0.12)  # perspective: the far edge shrinks
    dst = src + np.float32([[k * w, 0], [-k * w, 0], [0, 0], [0, 0]]) * rng.uniform(0.3, 1.0)
    if rng.random() < 0.5:
        dst[:, 1] = h - dst[:, 1]
        dst = dst[[3, 2, 1, 0]]
    dst += rng.normal(0, 0.015, dst.shape).astype(np.float32) * (w, h)
    return cv2.getPerspectiveTransform(src, dst.astype(np.float32))


# ---- pasting --------------------------------------------------------------------------------

def paste_card(canvas: np.ndarray, image: np.ndarray, alpha: np.ndarray, corners: np.ndarray, rng) -> np.ndarray:
    """Warp a card image onto ``canvas`` at ``corners`` with a soft shadow; its mask on the canvas."""
    ch, cw = alpha.shape
    src = np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]])
    x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int) - 8, 0)
    x1, y1 = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + 8, (canvas.shape[1], canvas.shape[0]))
    mask = np.zeros(canvas.shape[:2], np.uint8)
    if x1 <= x0 or y1 <= y0:
        return mask
    m = cv2.getPerspectiveTransform(src, np.float32(corners - (x0, y0)))
    box = (int(x1 - x0), int(y1 - y0))
    warped = cv2.warpPerspective(image, m, box, flags=cv2.INTER_AREA).astype(np.float32)
    a = cv2.warpPerspective(alpha, m, box, flags=cv2.INTER_LINEAR).astype(np.float32) / 255.0
    shift = rng.uniform(0.5, 4.0, 2)
    shadow = cv2.GaussianBlur(np.roll(a, (int(shift[1]), int(shift[0])), axis=(0, 1)), (0, 0), shift.max())
    region = canvas[y0:y1, x0:x1].astype(np.float32) * (1 - shadow[..., None] * rng.uniform(0.15, 0.5))
    canvas[y0:y1, x0:x1] = np.clip(region * (1 - a[..., None]) + warped * a[..., None], 0, 255).astype(np.uint8)
    mask[y0:y1, x0:x1] = (a > 0.5).astype(np.uint8) * 255
    return mask


def _fill(corners: np.ndarray, size) -> np.ndarray:
    mask = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 255)
    return mask


# ---- tables and what else lies on them ------------------------------------------------------

def table_texture(size, backgrounds: Sequence[np.ndarray], rng) -> np.ndarray:
    """A table: one of ``backgrounds`` (photographs) now and then, else a synthetic texture (wood,
    cloth, plain, paper, a pattern, a print of outlined boxes)."""
    w, h = size
    if len(backgrounds) and rng.random() < 0.35:
        photo = backgrounds[int(rng.integers(len(backgrounds)))]
        ph, pw = photo.shape[:2]
        s = rng.uniform(0.5, 1.0)
        cw, chh = int(pw * s), int(ph * s)
        x, y = int(rng.integers(0, pw - cw + 1)), int(rng.integers(0, ph - chh + 1))
        out = cv2.resize(photo[y:y + chh, x:x + cw], (w, h), interpolation=cv2.INTER_LINEAR)
        return out if rng.random() < 0.5 else cv2.flip(out, int(rng.integers(-1, 2)))
    kind = rng.choice(("wood", "cloth", "plain", "paper", "pattern", "boxes"), p=(0.2, 0.25, 0.2, 0.15, 0.1, 0.1))
    base = _muted(rng.uniform(0, 255, 3), rng) if kind != "paper" else rng.uniform(200, 250) * np.ones(3)
    if kind == "plain" and rng.random() < 0.5:
        base = rng.uniform(5, 60, 3)  # dark cloth
    if kind == "wood":
        base = rng.uniform([30, 60, 100], [120, 170, 225])
        shape = (h // 12 + 1, 6) if rng.random() < 0.5 else (6, w // 12 + 1)  # grain across or along
        grain = cv2.GaussianBlur(cv2.resize(rng.normal(0, 1, shape).astype(np.float32), (w, h)), (0, 0), 2)
        out = base * (1 + 0.2 * grain[..., None])
    elif kind in ("cloth", "plain", "paper"):
        sigma = {"cloth": rng.uniform(1, 4), "plain": rng.uniform(4, 30), "paper": rng.uniform(8, 40)}[kind]
        noise = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), sigma)
        noise /= noise.std() + 1e-6
        out = base * (1 + rng.uniform(0.02, 0.15) * noise[..., None])
    elif kind == "pattern":
        out = np.empty((h, w, 3), np.float32)
        out[:] = base
        other = _muted(rng.uniform(0, 255, 3), rng)
        step = int(rng.integers(6, 60))
        yy, xx = np.mgrid[0:h, 0:w]
        if rng.random() < 0.5:
            on = ((xx // step + yy // step) % 2).astype(bool)
        else:
            on = (((xx + yy) // step) % 2).astype(bool)
        out[on] = other
        out = cv2.GaussianBlur(out, (0, 0), 1.0)
    else:  # a printed mat or board: outlined boxes, some of a card's shape
        out = np.empty((h, w, 3), np.float32)
        out[:] = base
        ink = tuple(float(c) for c in rng.uniform(0, 255, 3))
        for _ in range(int(rng.integers(2, 12))):
            bw = rng.uniform(0.05, 0.3) * w
            bh = bw * rng.uniform(0.6, 1.8)
            x, y = rng.uniform(0, w - bw), rng.uniform(0, h - bh)
            cv2.rectangle(out, (int(x), int(y)), (int(x + bw), int(y + bh)), ink, int(rng.integers(1, 5)),
                          cv2.LINE_AA)
    return np.clip(out, 0, 255).astype(np.uint8)


def _muted(colour: np.ndarray, rng) -> np.ndarray:
    """A colour nearer grey, as most tables are."""
    return colour.mean() + (colour - colour.mean()) * rng.uniform(0.1, 1.0)


def _distractors(canvas: np.ndarray, rng, before: bool) -> None:
    """Things on the table that are not cards: dice, pens, a phone, coins, printed card outlines."""
    h, w = canvas.shape[:2]
    for _ in range(int(rng.integers(0, 4 if before else 3))):
        kind = rng.choice(("die", "pen", "phone", "coin", "outline", "blob"))
        colour = tuple(float(c) for c in rng.uniform(0, 255, 3))
        centre = rng.uniform(0, 1, 2) * (w, h)
        size = rng.uniform(0.02, 0.08) * w
        if kind == "die":
            box = cv2.boxPoints(((float(centre[0]), float(centre[1])), (size, size), float(rng.uniform(0, 90))))
            cv2.fillConvexPoly(canvas, box.astype(np.int32), colour, cv2.LINE_AA)
            for _ in range(int(rng.integers(1, 7))):
                spot = centre + rng.uniform(-0.3, 0.3, 2) * size
                cv2.circle(canvas, (int(spot[0]), int(spot[1])), max(1, int(size / 10)), (20, 20, 20), -1, cv2.LINE_AA)
        elif kind in ("pen", "phone"):
            long_ = rng.uniform(0.1, 0.3) * w
            dims = (long_, long_ / rng.uniform(6, 14)) if kind == "pen" else (long_, long_ / rng.uniform(2.0, 2.3))
            box = cv2.boxPoints(((float(centre[0]), float(centre[1])), dims, float(rng.uniform(0, 180))))
            cv2.fillConvexPoly(canvas, box.astype(np.int32), colour if kind == "pen" else (25, 25, 30), cv2.LINE_AA)
        elif kind == "coin":
            cv2.circle(canvas, (int(centre[0]), int(centre[1])), int(size / 2), colour, -1, cv2.LINE_AA)
        elif kind == "outline":
            width = rng.uniform(0.06, 0.2) * w
            corners = _corners(centre, width, rng.uniform(1.3, 1.6), rng.uniform(-180, 180))
            cv2.polylines(canvas, [np.round(corners).astype(np.int32)], True, colour, int(rng.integers(1, 4)),
                          cv2.LINE_AA)
        else:
            axes = (int(size * rng.uniform(0.5, 2)), int(size * rng.uniform(0.5, 2)))
            cv2.ellipse(canvas, (int(centre[0]), int(centre[1])), axes, float(rng.uniform(0, 180)), 0, 360,
                        colour, -1, cv2.LINE_AA)
