"""Seeded photographs of tables and desks with printed things on them and no dice: frames on which
a dice reader must report no die.

Printed text in any font and size, barcodes, logos (rings, badges with a letter), keys of a
keyboard, rows of round buttons or holes, and playing cards of any design
(``vision.synth.card_designs``: a poker six's pips lie much as a die's do), on a synthetic table
(``card_scenes.table_texture``), through the synthetic camera's faults (``cards.spoil``).
"""
from __future__ import annotations

import string

import cv2
import numpy as np

from vision.synth.card_designs import deck, random_design, render_face
from vision.synth.card_scenes import paste_card, table_texture
from vision.synth.cards import Photo, spoil

PHOTO = Photo(glare=(0.0, 0.4), blur=(0.3, 1.8), noise=(1.0, 7.0), jpeg=(60, 95), light=(0.6, 1.15),
              gradient=(-0.3, 0.3))
_FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_TRIPLEX,
          cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX)
_CHARACTERS = string.ascii_letters + string.digits + ".:-+%@#*o"


def desk_scene(seed: int, size: tuple[int, int] = (640, 480)) -> np.ndarray:
    """A ``size`` (w, h) BGR photograph of a table with 3-12 printed things on it, none a die."""
    rng = np.random.default_rng(seed)
    canvas = table_texture(size, (), rng)
    for _ in range(int(rng.integers(3, 13))):
        _THINGS[str(rng.choice(list(_THINGS)))](canvas, rng)
    return spoil(canvas, PHOTO, rng)


def _ink(rng, paper: np.ndarray | None = None) -> tuple[float, float, float]:
    """A printing colour: mostly dark, else any; far from ``paper`` when given."""
    colour = rng.uniform(0, 70, 3) if rng.random() < 0.6 else rng.uniform(0, 255, 3)
    if paper is not None and np.abs(colour - paper).mean() < 60:
        colour = 255 - paper
    return tuple(float(c) for c in colour)


def _spot(canvas, rng, room_below: float) -> tuple[int, int]:
    """Where a thing starts: anywhere, a little past the frame's edges too, but ``room_below`` of
    the frame's height above its bottom edge (text and keys run downwards from it)."""
    h, w = canvas.shape[:2]
    return int(rng.uniform(-0.1, 1.0) * w), int(rng.uniform(-0.1, 1.0) * h * (1 - room_below))


def _text(canvas, rng) -> None:
    """A few lines of printed characters, on the table or on a sheet of paper."""
    h, w = canvas.shape[:2]
    scale = rng.uniform(0.3, 2.2)
    font = int(rng.choice(_FONTS))
    thickness = max(1, int(scale * rng.uniform(0.8, 2.5)))
    x, y = _spot(canvas, rng, 0.2)
    if rng.random() < 0.5:  # a sheet or a label under the text
        paper = rng.uniform(180, 255, 3)
        corner = (x + int(rng.uniform(0.2, 0.7) * w), y + int(rng.uniform(0.1, 0.4) * h))
        cv2.rectangle(canvas, (x - 10, y - 10), corner, tuple(float(c) for c in paper), -1)
        ink = _ink(rng, paper)
    else:
        ink = _ink(rng)
    step = int(30 * scale * rng.uniform(1.0, 1.6)) + 2
    for line in range(int(rng.integers(1, 7))):
        words = "".join(rng.choice(list(_CHARACTERS + " " * 8), int(rng.integers(3, 30))))
        cv2.putText(canvas, words, (x, y + line * step + step), font, scale, ink, thickness, cv2.LINE_AA)


def _barcode(canvas, rng) -> None:
    x, y = _spot(canvas, rng, 0.2)
    height = int(rng.uniform(20, 120))
    unit = rng.uniform(1.0, 3.5)
    cv2.rectangle(canvas, (x - 6, y - 6), (x + int(unit * 110) + 6, y + height + 6), (245, 245, 245), -1)
    at = float(x)
    for _ in range(int(rng.integers(25, 45))):
        bar = unit * rng.integers(1, 4)
        if rng.random() < 0.5:
            cv2.rectangle(canvas, (int(at), y), (int(at + bar) - 1, y + height), (20, 20, 20), -1)
        at += bar


def _logo(canvas, rng) -> None:
    """A ring, a disc or an oblong badge, with a letter or two in it (a square with a symbol in
    its middle is how a printed die looks)."""
    x, y = _spot(canvas, rng, 0.1)
    radius = int(rng.uniform(8, 60))
    colour = _ink(rng)
    ink = _ink(rng, np.array(colour))
    if rng.random() < 0.5:
        cv2.circle(canvas, (x, y), radius, colour, -1 if rng.random() < 0.6 else max(1, radius // 6), cv2.LINE_AA)
    else:
        box = cv2.boxPoints(((x, y), (2 * radius, 2 * radius * rng.uniform(0.3, 0.65)), float(rng.uniform(0, 90))))
        cv2.fillConvexPoly(canvas, box.astype(np.int32), colour, cv2.LINE_AA)
    letters = "".join(rng.choice(list(string.ascii_uppercase + string.digits), int(rng.integers(1, 3))))
    scale = radius / 22
    cv2.putText(canvas, letters, (x - int(radius * 0.6), y + int(radius * 0.4)), int(rng.choice(_FONTS)), scale, ink,
                max(1, int(scale * 2)), cv2.LINE_AA)


def _keys(canvas, rng) -> None:
    """A keyboard's keys: squares side by side in rows, each with a small character in its upper
    left (in its middle, it would be a printed die)."""
    x, y = _spot(canvas, rng, 0.3)
    side = int(rng.uniform(12, 50))
    gap = int(side * rng.uniform(0.05, 0.2)) + 1
    key = _ink(rng)
    ink = _ink(rng, np.array(key))
    for row in range(int(rng.integers(1, 5))):
        for column in range(int(rng.integers(2, 12))):
            kx, ky = x + column * (side + gap) + row * side // 3, y + row * (side + gap)
            cv2.rectangle(canvas, (kx, ky), (kx + side, ky + side), key, -1, cv2.LINE_AA)
            cv2.putText(canvas, str(rng.choice(list(_CHARACTERS))), (kx + side // 8, ky + side * 4 // 9),
                        cv2.FONT_HERSHEY_SIMPLEX, side / 80, ink, max(1, side // 30), cv2.LINE_AA)


def _buttons(canvas, rng) -> None:
    """Round buttons, holes or studs in a row or a grid (a remote, a board game's track)."""
    x, y = _spot(canvas, rng, 0.3)
    radius = int(rng.uniform(2, 12))
    step = int(radius * rng.uniform(2.2, 5))
    colour = _ink(rng)
    for row in range(int(rng.integers(1, 4))):
        for column in range(int(rng.integers(2, 9))):
            cv2.circle(canvas, (x + column * step, y + row * step), radius, colour, -1, cv2.LINE_AA)


def _card(canvas, rng) -> None:
    """A playing card of a random design, face up, anywhere on the table."""
    w = canvas.shape[1]
    design = random_design(rng)
    width = rng.uniform(0.08, 0.45) * w
    face, alpha = render_face(design, str(rng.choice(deck(design))), width / design.size_mm[0] * 1.3, rng)
    ch, cw = alpha.shape
    centre = np.array(_spot(canvas, rng, 0.0), np.float32)
    angle = np.radians(rng.uniform(0, 360))
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], np.float32)
    half = np.array([[-cw, -ch], [cw, -ch], [cw, ch], [-cw, ch]], np.float32) / 2 * (width / cw)
    paste_card(canvas, face, alpha, centre + half @ turn.T, rng)


_THINGS = {"text": _text, "barcode": _barcode, "logo": _logo, "keys": _keys, "buttons": _buttons, "card": _card}
