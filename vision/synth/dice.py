"""Seeded synthetic photographs of dice on a table, with their ground truth.

A scene is drawn in four steps: a background (felt, wood, cardboard, mat, tray), each die's
shadow and body (the top face, plus the sides a camera sees when the die is off-axis), the
lighting (gradient, glare), then the camera (perspective tilt, blur, noise). Every choice comes
from ``random.Random(seed)`` / ``numpy.random.default_rng(seed)``, so a seed is a scene.

Faces are pips ("1".."6"), pictures (``PICTURES``: some dice print a skull for the one and an
emblem for the six) or printed symbols (any other text, e.g. the Excape "7" and "X").
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from typing import Sequence

import cv2
import numpy as np

from engine.table import STANDARD_FACES

# name -> (body BGR, ink BGR): the dice the renderer knows how to paint.
DICE_COLOURS: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "white": ((232, 236, 236), (25, 25, 25)),
    "ivory": ((200, 232, 240), (30, 30, 30)),
    "black": ((35, 35, 35), (235, 235, 235)),
    "red": ((40, 40, 200), (240, 240, 240)),
    "green": ((70, 160, 30), (30, 225, 240)),
    "blue": ((190, 90, 30), (240, 240, 240)),
    "yellow": ((40, 220, 235), (20, 20, 20)),
    "purple": ((130, 40, 100), (240, 240, 240)),
    "orange": ((30, 130, 240), (20, 20, 20)),
}
BACKGROUNDS = ("felt", "wood", "cardboard", "mat", "tray")
# What a die is made of: opaque plastic; translucent, casino-like (the table and the pips of the
# face beneath show through the body); marbled (the body swirled with a lighter and a darker tone).
MATERIALS = ("opaque", "translucent", "marbled")

# Pip centres on a face of side 1 centred on 0: the usual layouts.
_PIPS = {
    "1": [(0, 0)],
    "2": [(-1, -1), (1, 1)],
    "3": [(-1, -1), (0, 0), (1, 1)],
    "4": [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    "5": [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    "6": [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
PICTURES = {"skull": "1", "emblem": "6"}  # picture -> the pip face it stands for
_PIP_SPACING = 0.27  # pip offset from the face centre, in face sides
_PIP_RADIUS = 0.095
_SUPERSAMPLE = 4


@dataclass(frozen=True)
class SynthDie:
    """Ground truth of one die: top-face centre (px), top-face side (px), angle (deg), face, colour."""

    x: float
    y: float
    size: float
    angle: float
    face: str
    colour: str


@dataclass(frozen=True)
class Scene:
    image: np.ndarray
    dice: tuple[SynthDie, ...]


@dataclass(frozen=True)
class Look:
    """Every perturbation the renderer can apply; the defaults give a clean top-down photo."""

    background: str = "felt"
    rotation: bool = True        # random angle per die (else axis-aligned)
    lean: float = 0.0            # side height seen, in die sides (0 = straight down)
    perspective: float = 0.0     # camera tilt: fraction of the width the far edge shrinks
    gradient: float = 0.0        # lighting falloff across the frame, 0..1
    shadow: bool = True
    glare: bool = False          # a specular highlight on each die
    blur: float = 0.0            # Gaussian sigma, px
    noise: float = 0.0           # Gaussian noise sigma, grey levels
    touching: bool = False       # dice placed in touching pairs
    printed: bool = False        # every face printed as its symbol, even "1".."6" (Excape dice)
    material: str = "opaque"     # one of MATERIALS, for every die of the scene


def render_scene(
    seed: int,
    size: tuple[int, int] = (640, 640),
    count: int = 5,
    die_px: float = 40.0,
    faces: Sequence[str] = STANDARD_FACES,
    colours: Sequence[str] = tuple(DICE_COLOURS),
    look: Look = Look(),
    backdrop: np.ndarray | None = None,
) -> Scene:
    """A seeded scene of ``count`` dice about ``die_px`` wide on a ``size`` = (width, height) frame,
    or on a copy of ``backdrop`` (a BGR frame of the table, e.g. a photographed mat) instead of
    ``look.background``, at its size."""
    if look.material not in MATERIALS:
        raise ValueError(f"unknown dice material {look.material!r}: one of {', '.join(MATERIALS)}")
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    if backdrop is None:
        width, height = size
        image = _background(look.background, width, height, rng, nrng)
    else:
        height, width = backdrop.shape[:2]
        image = backdrop.copy()
    placed = _place(rng, count, width, height, die_px, look.touching)
    dice = []
    for x, y, side, angle in placed:
        face = rng.choice(list(faces))
        colour = rng.choice(list(colours))
        angle = angle if look.rotation else 0.0
        dice.append(_draw_die(image, x, y, side, angle, face, colour, look, rng))
    image = image.astype(np.float32)
    if look.gradient:
        image *= _gradient(width, height, look.gradient, rng)[..., None]
    if look.perspective:
        image, dice = _tilt(image, dice, look.perspective, rng)
    if look.blur:
        image = cv2.GaussianBlur(image, (0, 0), look.blur)
    if look.noise:
        image += nrng.normal(0, look.noise, image.shape).astype(np.float32)
    return Scene(np.clip(image, 0, 255).astype(np.uint8), tuple(dice))


def _draw_marks(canvas: np.ndarray, face: str, side: float, cx: float, cy: float, ink, body, printed: bool) -> None:
    shift = 4  # fixed-point bits for sub-pixel drawing
    if face in PICTURES:
        _draw_picture(canvas, face, side, cx, cy, ink, body)
        return
    if face in _PIPS and not printed:
        radius = int(_PIP_RADIUS * side * (1 << shift))
        for px, py in _PIPS[face]:
            centre = (int((cx + px * _PIP_SPACING * side) * (1 << shift)),
                      int((cy + py * _PIP_SPACING * side) * (1 << shift)))
            cv2.circle(canvas, centre, radius, ink, -1, cv2.LINE_AA, shift)
        return
    font = cv2.FONT_HERSHEY_DUPLEX
    thickness = max(1, int(side * 0.07))
    (tw, th), _ = cv2.getTextSize(face, font, 1.0, thickness)
    scale = side * 0.55 / max(tw, th)
    (tw, th), _ = cv2.getTextSize(face, font, scale, thickness)
    cv2.putText(canvas, face, (int(cx - tw / 2), int(cy + th / 2)), font, scale, ink, thickness, cv2.LINE_AA)
    if face in ("6", "9"):  # underline tells 6 from a turned 9, as on printed dice
        y = int(cy + th / 2 + side * 0.08)
        cv2.line(canvas, (int(cx - tw / 2), y), (int(cx + tw / 2), y), ink, thickness, cv2.LINE_AA)


def _draw_picture(canvas: np.ndarray, face: str, side: float, cx: float, cy: float, ink, body) -> None:
    """A skull (head, eye sockets, nose, teeth) or an emblem (a star in a ring), about 0.6 of the side."""
    def at(dx: float, dy: float) -> tuple[int, int]:
        return int(cx + dx * side), int(cy + dy * side)

    if face == "skull":
        cv2.ellipse(canvas, at(0, -0.05), (int(0.24 * side), int(0.22 * side)), 0, 0, 360, ink, -1, cv2.LINE_AA)
        cv2.rectangle(canvas, at(-0.13, 0.05), at(0.13, 0.27), ink, -1, cv2.LINE_AA)
        for dx in (-0.1, 0.1):
            cv2.circle(canvas, at(dx, -0.04), int(0.065 * side), body, -1, cv2.LINE_AA)
        cv2.fillConvexPoly(canvas, np.array([at(0, 0.05), at(-0.035, 0.12), at(0.035, 0.12)], np.int32), body,
                           cv2.LINE_AA)
        for dx in (-0.065, 0.0, 0.065):
            cv2.line(canvas, at(dx, 0.17), at(dx, 0.27), body, max(1, int(0.025 * side)), cv2.LINE_AA)
        return
    cv2.circle(canvas, at(0, 0), int(0.3 * side), ink, max(1, int(0.05 * side)), cv2.LINE_AA)
    star = [at(0.22 * math.sin(k * math.pi / 5) * (1 if k % 2 == 0 else 0.42),
               -0.22 * math.cos(k * math.pi / 5) * (1 if k % 2 == 0 else 0.42)) for k in range(10)]
    cv2.fillPoly(canvas, [np.array(star, np.int32)], ink, cv2.LINE_AA)


def _background(kind: str, width: int, height: int, rng: random.Random, nrng) -> np.ndarray:
    if kind not in BACKGROUNDS:
        raise ValueError(f"unknown background {kind!r}; choose from {', '.join(BACKGROUNDS)}")
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    if kind == "wood":
        base = np.array([150, 200, 225], np.float32) * rng.uniform(0.75, 1.05)
        phase = rng.uniform(0, 6.28)
        wave = np.sin(yy / rng.uniform(6, 14) + 3 * np.sin(xx / rng.uniform(60, 140) + phase))
        grain = cv2.GaussianBlur(nrng.normal(0, 1, (height, width)).astype(np.float32), (0, 0), 3, sigmaY=0.7)
        shade = 1 + 0.06 * wave + 0.05 * grain
    else:
        base = {
            "felt": np.array([rng.uniform(40, 90), rng.uniform(90, 140), rng.uniform(20, 60)], np.float32),
            "cardboard": np.array([110, 150, 185], np.float32) * rng.uniform(0.8, 1.1),
            "mat": np.array([rng.uniform(50, 90), rng.uniform(40, 70), rng.uniform(30, 60)], np.float32),
            "tray": np.array([205, 205, 200], np.float32) * rng.uniform(0.85, 1.05),
        }[kind]
        roughness = {"felt": 0.08, "cardboard": 0.05, "mat": 0.03, "tray": 0.02}[kind]
        fibre = cv2.GaussianBlur(nrng.normal(0, 1, (height, width)).astype(np.float32), (0, 0), 1.2)
        shade = 1 + roughness * fibre / max(float(fibre.std()), 1e-6)
    return np.clip(base[None, None, :] * shade[..., None], 0, 255).astype(np.uint8)


def _place(rng: random.Random, count: int, width: int, height: int, die_px: float, touching: bool):
    """(x, y, side, angle) for each die, not overlapping (touching pairs when asked)."""
    placed: list[tuple[float, float, float, float]] = []
    margin = die_px * 1.2
    for _ in range(count * 200):
        if len(placed) == count:
            break
        side = die_px * rng.uniform(0.9, 1.1)
        angle = rng.uniform(0, 90)
        if touching and len(placed) % 2 == 1:
            px, py, pside, pangle = placed[-1]
            angle = pangle + rng.uniform(-4, 4)
            direction = math.radians(pangle + rng.choice((0, 90, 180, 270)))
            gap = (side + pside) / 2 + 0.5
            x, y = px + gap * math.cos(direction), py + gap * math.sin(direction)
        else:
            x, y = rng.uniform(margin, width - margin), rng.uniform(margin, height - margin)
        if not (margin <= x <= width - margin and margin <= y <= height - margin):
            continue
        clearance = 1.0 if touching and len(placed) % 2 == 1 else 1.6
        others = placed[:-1] if touching and len(placed) % 2 == 1 else placed
        if all(math.hypot(x - ox, y - oy) > clearance * (side + os_) / 2 * 1.42 for ox, oy, os_, _ in others):
            placed.append((x, y, side, angle))
    return placed


def _draw_die(image, x, y, side, angle, face, colour, look: Look, rng: random.Random) -> SynthDie:
    body, ink = DICE_COLOURS[colour]
    height, width = image.shape[:2]
    # The camera looks down from above the frame centre: a die away from it shows the sides that
    # face the centre, and its top face appears shifted outwards from its base.
    out = np.array([x - width / 2, y - height / 2], np.float64)
    reach = np.hypot(width, height) / 2
    lean = out / reach * look.lean * side
    top_x, top_y = x + lean[0], y + lean[1]
    half = side / 2
    if look.shadow:
        _blend_polygon(image, _square(x + 0.18 * side, y + 0.22 * side, half * 1.05, angle), (0, 0, 0), 0.35,
                       soften=side * 0.12)
    base = _square(x, y, half, angle)
    top = _square(top_x, top_y, half, angle)
    if look.lean:
        side_colour = tuple(int(c * 0.72) for c in body)
        hull = cv2.convexHull(np.vstack([base, top]).astype(np.float32))[:, 0, :]
        _blend_polygon(image, hull, side_colour, 1.0)
    _paste_face(image, face, top_x, top_y, side, angle, body, ink, look.printed, look.material)
    if look.glare:
        gx = top_x + rng.uniform(-0.25, 0.25) * side
        gy = top_y + rng.uniform(-0.25, 0.25) * side
        _add_glare(image, gx, gy, side * rng.uniform(0.12, 0.22))
    return SynthDie(round(top_x, 2), round(top_y, 2), round(side, 2), round(angle % 90, 2), face, colour)


def _square(x: float, y: float, half: float, angle: float) -> np.ndarray:
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    corners = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], np.float64) * half
    return corners @ np.array([[c, s], [-s, c]]) + (x, y)


def _blend_polygon(image, polygon, colour, alpha: float, soften: float = 0.0) -> None:
    mask = np.zeros(image.shape[:2], np.float32)
    cv2.fillPoly(mask, [np.round(polygon * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    if soften:
        mask = cv2.GaussianBlur(mask, (0, 0), soften)
    mask = (mask * alpha)[..., None]
    image[:] = (image * (1 - mask) + np.array(colour, np.float32) * mask).astype(np.uint8)


def _paste_face(image, face, x, y, side, angle, body, ink, printed: bool, material: str) -> None:
    """Draw the rounded top face rotated by ``angle`` at (x, y), supersampled then reduced, of
    ``material`` (see MATERIALS)."""
    ss = _SUPERSAMPLE
    body, ink = tuple(int(c) for c in body), tuple(int(c) for c in ink)
    pad = int(side * 0.8) + 2
    big = 2 * pad * ss
    face_big = np.zeros((big, big, 3), np.uint8)
    alpha_big = np.zeros((big, big), np.uint8)
    s = side * ss
    corner = int(s * 0.14)
    top_left = (int(big / 2 - s / 2), int(big / 2 - s / 2))
    bottom_right = (int(big / 2 + s / 2), int(big / 2 + s / 2))
    for canvas, colour in ((face_big, body), (alpha_big, 255)):
        cv2.rectangle(canvas, (top_left[0] + corner, top_left[1]), (bottom_right[0] - corner, bottom_right[1]),
                      colour, -1)
        cv2.rectangle(canvas, (top_left[0], top_left[1] + corner), (bottom_right[0], bottom_right[1] - corner),
                      colour, -1)
        for cx in (top_left[0] + corner, bottom_right[0] - corner):
            for cy in (top_left[1] + corner, bottom_right[1] - corner):
                cv2.circle(canvas, (cx, cy), corner, colour, -1, cv2.LINE_AA)
    # a soft bevel: the face darkens slightly towards its edges
    bevel = cv2.GaussianBlur(alpha_big.astype(np.float32) / 255, (0, 0), s * 0.06)
    face_big = (face_big * (0.8 + 0.2 * bevel[..., None])).astype(np.uint8)
    if material == "marbled":
        # seeded by where the die lies, so a scene's other draws are those of its opaque dice
        face_big = _marbled(face_big, np.random.default_rng([round(x * 100), round(y * 100)]))
    if material == "translucent":
        if face in _PIPS and not printed:  # the face beneath, seen through the body: mirrored, soft, faint
            under = np.zeros((big, big), np.uint8)
            _draw_marks(under, str(7 - int(face)), s, big / 2, big / 2, 255, 0, False)
            under = cv2.GaussianBlur(cv2.flip(under, 1), (0, 0), s * 0.04).astype(np.float32)[..., None] / 255 * 0.35
            face_big = (face_big * (1 - under) + np.array(ink, np.float32) * under).astype(np.uint8)
        marks = np.zeros((big, big), np.uint8)
        _draw_marks(marks, face, s, big / 2, big / 2, 255, 0, printed)
        # the body lets the table through, the marks painted on it do not
        alpha_big = (alpha_big * (0.55 + 0.45 * marks.astype(np.float32) / 255)).astype(np.uint8)
    _draw_marks(face_big, face, s, big / 2, big / 2, ink, body, printed)
    rotation = cv2.getRotationMatrix2D((big / 2, big / 2), -angle, 1.0)
    face_big = cv2.warpAffine(face_big, rotation, (big, big), flags=cv2.INTER_LINEAR)
    alpha_big = cv2.warpAffine(alpha_big, rotation, (big, big), flags=cv2.INTER_LINEAR)
    small = 2 * pad
    face_small = cv2.resize(face_big, (small, small), interpolation=cv2.INTER_AREA).astype(np.float32)
    alpha = cv2.resize(alpha_big, (small, small), interpolation=cv2.INTER_AREA).astype(np.float32)[..., None] / 255
    # position with sub-pixel accuracy by a translation of the small patch
    x0, y0 = int(math.floor(x)) - pad, int(math.floor(y)) - pad
    frac = np.float32([[1, 0, x - math.floor(x)], [0, 1, y - math.floor(y)]])
    face_small = cv2.warpAffine(face_small, frac, (small, small))
    alpha = cv2.warpAffine(alpha, frac, (small, small))[..., None]
    h, w = image.shape[:2]
    ys, xs = slice(max(y0, 0), min(y0 + small, h)), slice(max(x0, 0), min(x0 + small, w))
    sub_y = slice(ys.start - y0, ys.stop - y0)
    sub_x = slice(xs.start - x0, xs.stop - x0)
    region = image[ys, xs].astype(np.float32)
    a = alpha[sub_y, sub_x]
    image[ys, xs] = (region * (1 - a) + face_small[sub_y, sub_x] * a).astype(np.uint8)


def _marbled(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The body swirled: bands a little lighter and darker, bent by a smooth random field."""
    n = face.shape[0]
    field = cv2.resize(rng.normal(0, 1, (5, 5)).astype(np.float32), (n, n), interpolation=cv2.INTER_CUBIC)
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n
    direction = rng.uniform(0, math.pi)
    bands = np.sin(2 * math.pi * rng.uniform(1.5, 3.0) * (xx * math.cos(direction) + yy * math.sin(direction))
                   + 2.5 * field)
    return np.clip(face * (1 + rng.uniform(0.15, 0.3) * bands)[..., None], 0, 255).astype(np.uint8)


def _add_glare(image, x, y, radius) -> None:
    h, w = image.shape[:2]
    yy, xx = np.ogrid[0:h, 0:w]
    spot = np.exp(-(((xx - x) ** 2) + ((yy - y) ** 2 * 2.5)) / (2 * radius ** 2)).astype(np.float32)
    image[:] = np.clip(image + spot[..., None] * 90, 0, 255).astype(np.uint8)


def _gradient(width: int, height: int, strength: float, rng: random.Random) -> np.ndarray:
    direction = rng.uniform(0, 2 * math.pi)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    ramp = ((xx - width / 2) * math.cos(direction) + (yy - height / 2) * math.sin(direction)) / max(width, height)
    return (1 - strength * (ramp + 0.5)).astype(np.float32).clip(0.05, None)


def _tilt(image, dice, strength: float, rng: random.Random):
    """A camera tilted towards one edge: that edge shrinks by ``strength`` of the frame width."""
    h, w = image.shape[:2]
    inset = strength * w / 2
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[inset, 0], [w - inset, 0], [w, h], [0, h]])
    if rng.random() < 0.5:  # tilt towards the bottom edge instead
        dst = np.float32([[0, 0], [w, 0], [w - inset, h], [inset, h]])
    matrix = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(image, matrix, (w, h), borderMode=cv2.BORDER_REFLECT)
    moved = []
    for die in dice:
        x, y = cv2.perspectiveTransform(np.float32([[[die.x, die.y]]]), matrix).reshape(2)
        scale = math.sqrt(abs(np.linalg.det(_local_jacobian(matrix, die.x, die.y))))
        moved.append(replace(die, x=round(float(x), 2), y=round(float(y), 2), size=round(die.size * scale, 2)))
    return warped, moved


def _local_jacobian(matrix: np.ndarray, x: float, y: float) -> np.ndarray:
    eps = 0.5
    pts = np.float32([[[x, y]], [[x + eps, y]], [[x, y + eps]]])
    out = cv2.perspectiveTransform(pts, matrix).reshape(3, 2)
    return np.stack([(out[1] - out[0]) / eps, (out[2] - out[0]) / eps], axis=1)
