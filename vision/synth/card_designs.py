"""Synthetic card faces and backs of many designs, to teach a card detector what a whole card is.

A :class:`Design` is one printing of one deck: its kind (Hilo-like, UNO-like, poker, tarot, gem,
large numerals), size, corners, rim, inks, font, index corners, frames, decoration and back.
``random_design`` draws one, ``deck`` lists its faces ("<colour> <value>"), ``render_face`` and
``render_back`` draw one card in portrait (its top at row 0) with the alpha of its outline.

As on a real deck, what a card shows follows from its design and label alone (``Design.seed`` fixes
the layout, a tarot picture, a back's pattern); the ``rng`` of a render only shifts the print
against the cut, as a press does. The faces carry what a detector must not take for a card of its
own: corner indices, ovals, inner frames, framed pictures.
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Sequence

import cv2
import numpy as np

DESIGN_KINDS = ("hilo", "uno", "poker", "tarot", "gem", "numeral")
BORDERS = ("white", "black", "none")
DECORATIONS = ("none", "stripes", "dots", "icons")
BACK_PATTERNS = ("diamonds", "checks", "stripes", "concentric", "dots", "plain")
ASPECT_RANGE = (1.25, 1.75)

BGR = tuple[int, int, int]

_INKS: dict[str, BGR] = {
    "red": (45, 40, 210), "orange": (30, 130, 240), "yellow": (40, 205, 240),
    "lime": (60, 210, 150), "green": (70, 150, 40), "teal": (140, 140, 20),
    "cyan": (215, 185, 40), "blue": (200, 100, 30), "navy": (110, 45, 25),
    "purple": (150, 50, 120), "pink": (180, 110, 240), "magenta": (150, 40, 200),
    "brown": (40, 75, 135), "grey": (125, 125, 125),
}
_JEWELS: dict[str, BGR] = {
    "red": (60, 30, 190), "green": (90, 165, 30), "blue": (200, 90, 25), "purple": (165, 50, 135),
    "yellow": (40, 200, 240), "cyan": (215, 200, 70), "white": (235, 235, 235), "orange": (30, 120, 235),
}
_GOLD: BGR = (60, 175, 215)
_RED_SUIT, _BLACK_SUIT = (40, 30, 200), (30, 30, 30)
_SUITS = {"hearts": _RED_SUIT, "diamonds": _RED_SUIT, "spades": _BLACK_SUIT, "clubs": _BLACK_SUIT}
_FOUR_COLOUR_SUITS = {"hearts": _RED_SUIT, "diamonds": (190, 90, 20), "spades": _BLACK_SUIT, "clubs": (50, 140, 30)}
_POKER_RANKS = ("A",) + tuple(str(v) for v in range(2, 11)) + ("J", "Q", "K")
_TAROT_SUITS = ("cups", "swords", "wands", "coins")
_TAROT_RANKS = tuple(str(v) for v in range(1, 11)) + ("page", "knight", "queen", "king")
_FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
          cv2.FONT_HERSHEY_TRIPLEX)

# (width, height) mm of common printings per kind; each design jitters one.
_SIZES = {
    "hilo": ((56, 87), (57, 89), (59, 91), (63, 88)),
    "uno": ((56, 87), (57, 89), (63, 88)),
    "poker": ((63, 88), (57, 89), (44, 67), (59, 91), (89, 127)),
    "tarot": ((70, 120), (70, 115), (72, 120), (66, 112)),
    "gem": ((63, 88), (57, 89), (50, 75), (70, 110), (66, 92)),
    "numeral": ((56, 87), (63, 88), (57, 89), (70, 100), (80, 120), (44, 67)),
}
_BORDER_ODDS = {  # white, black, none
    "hilo": (0.7, 0.15, 0.15), "uno": (0.6, 0.3, 0.1), "poker": (0.8, 0.1, 0.1),
    "tarot": (0.4, 0.3, 0.3), "gem": (0.1, 0.3, 0.6), "numeral": (0.4, 0.2, 0.4),
}
_INDEX_SHARE = {  # index height as a share of the card width
    "hilo": (0.075, 0.13), "uno": (0.07, 0.12), "poker": (0.06, 0.085),
    "tarot": (0.045, 0.06), "gem": (0.055, 0.09), "numeral": (0.07, 0.13),
}


@dataclass(frozen=True)
class Back:
    """A design's back: ``pattern`` in ``ink`` on ``ground``, a white rim of ``rim_mm`` (0: none)."""

    pattern: str              # one of BACK_PATTERNS
    ground: BGR
    ink: BGR
    rim_mm: float
    pitch_mm: float
    width_mm: float           # stroke width of the pattern
    angle: float              # degrees, of stripes and diamonds
    logo: str                 # "", "circle", "ellipse" or "star"
    logo_text: str


@dataclass(frozen=True)
class Design:
    """One printing of a deck. ``inks`` are the deck's colours (suits for poker and tarot)."""

    kind: str
    size_mm: tuple[float, float]
    corner_radius_mm: float
    border: str
    border_mm: float          # rim width; 0 when border is "none"
    inks: tuple[tuple[str, BGR], ...]
    values: tuple[str, ...]
    paper: BGR
    key: BGR                  # the dark ink: outlines, black rims, poker's black suits
    font: int
    weight: float             # stroke width as a share of a text's height
    index_corners: int        # 0, 2 or 4
    index_mm: float
    inner_frame: bool
    decoration: str           # one of DECORATIONS
    style: str                # numeral: "flat" or "white"; gem: "dark" or "jewel"; else ""
    underline_69: bool
    misregistration_mm: float
    back: Back
    seed: int


# ----------------------------------------------------------------------------- designs

def random_design(rng: np.random.Generator, kinds: Sequence[str] = DESIGN_KINDS) -> Design:
    """A random printing of one of ``kinds``."""
    unknown = set(kinds) - set(DESIGN_KINDS)
    if unknown or not kinds:
        raise ValueError(f"unknown design kinds: {sorted(unknown) or 'none given'}")
    kind = str(rng.choice(list(kinds)))
    size = _random_size(rng, kind)
    border = str(rng.choice(BORDERS, p=_BORDER_ODDS[kind]))
    inks, values = _random_deck(rng, kind)
    lo, hi = _INDEX_SHARE[kind]
    return Design(
        kind=kind, size_mm=size,
        corner_radius_mm=0.0 if rng.random() < 0.12 else round(float(rng.uniform(1.5, 5.0)), 2),
        border=border,
        border_mm=0.0 if border == "none" else round(float(rng.uniform(1.8, 5.0)), 2),
        inks=inks, values=values,
        paper=_jitter(rng, (246, 246, 246), 6, lo=215),
        key=_jitter(rng, (32, 30, 30), 8),
        font=int(rng.choice(_FONTS)) | (cv2.FONT_ITALIC if rng.random() < 0.15 else 0),
        weight=round(float(rng.uniform(0.07, 0.17)), 3),
        index_corners=int(rng.choice((0, 0, 2, 4)) if kind == "tarot" else rng.choice((2, 4))),
        index_mm=round(float(rng.uniform(lo, hi) * size[0]), 2),
        inner_frame=bool(rng.random() < (0.25 if kind == "poker" else 0.4)),
        decoration=str(rng.choice(DECORATIONS, p=(0.8, 0.1, 0.05, 0.05) if kind == "poker"
                                  else (0.45, 0.2, 0.2, 0.15))),
        style={"numeral": str(rng.choice(("flat", "white"))),
               "gem": str(rng.choice(("dark", "jewel")))}.get(kind, ""),
        underline_69=kind == "hilo" or (kind in ("uno", "numeral", "gem") and bool(rng.random() < 0.6)),
        misregistration_mm=round(float(rng.uniform(0.1, 1.0)), 2),
        back=_random_back(rng),
        seed=int(rng.integers(2**31)),
    )


def _random_size(rng, kind: str) -> tuple[float, float]:
    w, h = _SIZES[kind][rng.integers(len(_SIZES[kind]))]
    w, h = w * rng.uniform(0.97, 1.03), h * rng.uniform(0.97, 1.03)
    h = float(np.clip(h, w * (ASPECT_RANGE[0] + 0.01), w * (ASPECT_RANGE[1] - 0.01)))
    return round(float(w), 1), round(h, 1)


def _random_deck(rng, kind: str) -> tuple[tuple[tuple[str, BGR], ...], tuple[str, ...]]:
    """The deck's colours (with this printing's inks) and values."""
    if kind == "poker":
        suits = _FOUR_COLOUR_SUITS if rng.random() < 0.15 else _SUITS
        return tuple((s, _jitter(rng, c, 8)) for s, c in suits.items()), _POKER_RANKS
    if kind == "tarot":
        names = rng.choice(list(_INKS), 4, replace=False)
        return tuple((s, _jitter(rng, _INKS[n], 10)) for s, n in zip(_TAROT_SUITS, names)), _TAROT_RANKS
    if kind == "gem":
        names = rng.choice(list(_JEWELS), int(rng.integers(4, 7)), replace=False)
        first = int(rng.integers(0, 2))
        values = tuple(str(v) for v in range(first, first + int(rng.integers(7, 13))))
        return tuple((str(n), _jitter(rng, _JEWELS[n], 10)) for n in names), values
    if kind == "hilo":
        names = rng.choice(list(_INKS), int(rng.integers(4, 9)), replace=False)
        values = tuple(str(v) for v in range(-2, 13))
    elif kind == "uno":
        names = ("red", "yellow", "green", "blue") if rng.random() < 0.7 else rng.choice(list(_INKS), 4, replace=False)
        values = tuple(str(v) for v in range(10)) + ("+2", "skip", "reverse")
    else:  # numeral: "0-9 in four colours", sometimes a longer run
        names = ("red", "yellow", "green", "blue") if rng.random() < 0.5 else rng.choice(list(_INKS), 4, replace=False)
        first = int(rng.integers(0, 2))
        values = tuple(str(v) for v in range(first, first + int(rng.choice((10, 10, 11, 13)))))
    return tuple((str(n), _jitter(rng, _INKS[n], 12)) for n in names), values


def _random_back(rng) -> Back:
    name = str(rng.choice(("red", "blue", "navy", "green", "teal", "purple", "brown", "magenta", "orange", "grey")))
    ground = _jitter(rng, _INKS[name], 15)
    if rng.random() < 0.15:
        ground = _jitter(rng, (30, 30, 30), 8)
    r = rng.random()
    if r < 0.45:  # white on a colour
        ink = _jitter(rng, (240, 240, 240), 8)
    elif r < 0.75:  # one colour: a lighter or darker tone of the ground
        ink = _mix(ground, (255, 255, 255) if sum(ground) < 360 else (0, 0, 0), rng.uniform(0.2, 0.45))
    else:
        ink = _jitter(rng, _INKS[str(rng.choice([n for n in _INKS if n != name]))], 15)
    pattern = str(rng.choice(BACK_PATTERNS, p=(0.25, 0.15, 0.2, 0.15, 0.1, 0.15)))
    logo = str(rng.choice(("circle", "ellipse", "star"))) if pattern == "plain" or rng.random() < 0.35 else ""
    letters = rng.choice(list("ABCDEGHKLMNOPRSTUXZ"), int(rng.integers(1, 5)))
    return Back(pattern=pattern, ground=ground, ink=ink,
                rim_mm=round(float(rng.uniform(2, 5)), 2) if rng.random() < 0.55 else 0.0,
                pitch_mm=round(float(rng.uniform(1.8, 6.0)), 2), width_mm=round(float(rng.uniform(0.25, 0.9)), 2),
                angle=round(float(rng.uniform(25, 65) * rng.choice((-1, 1))), 1),
                logo=logo, logo_text="".join(letters))


def _jitter(rng, bgr, sd: float, lo: int = 0) -> BGR:
    c = np.clip(np.asarray(bgr, float) + rng.normal(0, sd, 3), lo, 255)
    return tuple(int(round(v)) for v in c)


def _mix(a, b, t: float) -> BGR:
    return tuple(int(round((1 - t) * x + t * y)) for x, y in zip(a, b))


@lru_cache(maxsize=256)
def deck(design: Design) -> tuple[str, ...]:
    """The face labels of ``design``, "<colour> <value>", in deck order."""
    labels = tuple(f"{c} {v}" for c, _ in design.inks for v in design.values)
    if design.kind == "tarot":
        return labels + tuple(f"trumps {v}" for v in range(22))
    if design.kind == "uno":
        return labels + ("black wild", "black +4")
    return labels


# ----------------------------------------------------------------------------- rendering

def render_face(design: Design, label: str, px_per_mm: float,
                rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The face ``label`` of ``design``: (BGR image, alpha of the outline), portrait, top at row 0."""
    if label not in deck(design):
        raise ValueError(f"{label!r} is not a face of this {design.kind} design")
    colour, value = label.split(" ")
    image, alpha = _blank(design, px_per_mm)
    pen = _Pen(image, px_per_mm, rng.uniform(-1, 1, 2) * design.misregistration_mm)
    art = np.random.default_rng([design.seed, zlib.crc32(label.encode())])
    ink = dict(design.inks).get(colour, design.key)
    _FACES[design.kind](pen, design, colour, ink, value, art)
    return image, alpha


def render_back(design: Design, px_per_mm: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The back of ``design``: (BGR image, alpha of the outline), portrait, top at row 0."""
    image, alpha = _blank(design, px_per_mm)
    pen = _Pen(image, px_per_mm, rng.uniform(-1, 1, 2) * design.misregistration_mm)
    back = design.back
    image[:] = back.ground
    _BACK_PATTERNS[back.pattern](pen, back)
    if back.logo:
        _logo(pen, design)
    if back.rim_mm:
        _ring(pen, back.rim_mm, max(design.corner_radius_mm - back.rim_mm, 0.6), design.paper)
    return image, alpha


def _blank(design: Design, px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    w, h = (max(2, int(round(v * px_per_mm))) for v in design.size_mm)
    alpha = _outline_alpha(h, w, round(design.corner_radius_mm * px_per_mm, 2)).copy()
    return np.empty((h, w, 3), np.uint8), alpha


@lru_cache(maxsize=64)
def _outline_alpha(h: int, w: int, r: float) -> np.ndarray:
    """Coverage of each pixel by a w x h rounded rectangle of corner radius r (by signed distance,
    worked out on one corner and mirrored to the others)."""
    alpha = np.full((h, w), 255, np.uint8)
    r = min(r, w / 2, h / 2)
    k = min(int(np.ceil(r)) + 1, w // 2, h // 2)
    if r > 0 and k > 0:
        q = r - (np.arange(k) + 0.5)  # how far past the arc's centre, towards the cut
        qx, qy = q[None, :], q[:, None]
        d = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0)) + np.minimum(np.maximum(qx, qy), 0) - r
        corner = np.round(np.clip(0.5 - d, 0, 1) * 255).astype(np.uint8)
        alpha[:k, :k], alpha[:k, -k:] = corner, corner[:, ::-1]
        alpha[-k:, :k], alpha[-k:, -k:] = corner[::-1], corner[::-1, ::-1]
    alpha.flags.writeable = False
    return alpha


_SHIFT = 4  # cv2 fixed-point bits: sub-pixel placement of every shape


class _Pen:
    """Draws on a card image in card millimetres, the print shifted by ``offset`` mm against the cut."""

    def __init__(self, image: np.ndarray, px_per_mm: float, offset=(0.0, 0.0)):
        self.image, self.s = image, px_per_mm
        self.offset = np.asarray(offset, float)
        self.w, self.h = image.shape[1] / px_per_mm, image.shape[0] / px_per_mm

    def _fix(self, pts) -> np.ndarray:
        p = (np.asarray(pts, float) + self.offset) * self.s - 0.5  # pixel centres at integers
        return np.round(p * (1 << _SHIFT)).astype(np.int32)

    def _px(self, mm: float) -> int:
        return max(1, int(round(mm * self.s)))

    def fill(self, poly, colour) -> None:
        cv2.fillPoly(self.image, [self._fix(poly)], colour, cv2.LINE_AA, _SHIFT)

    def fill_with_holes(self, polys, colour) -> None:
        cv2.fillPoly(self.image, [self._fix(p) for p in polys], colour, cv2.LINE_AA, _SHIFT)

    def outline(self, poly, colour, width: float) -> None:
        cv2.polylines(self.image, [self._fix(poly)], True, colour, self._px(width), cv2.LINE_AA, _SHIFT)

    def lines(self, segments, colour, width: float) -> None:
        """Many straight strokes in one call; a segment of zero length prints a dot."""
        cv2.polylines(self.image, list(self._fix(segments)), False, colour, self._px(width), cv2.LINE_AA, _SHIFT)

    def circle(self, centre, r: float, colour, width: float = 0.0) -> None:
        cv2.circle(self.image, tuple(self._fix(centre)), int(r * self.s * (1 << _SHIFT)), colour,
                   self._px(width) if width else -1, cv2.LINE_AA, _SHIFT)

    def ellipse(self, centre, axes, angle: float, colour, width: float = 0.0, arc=(0, 360)) -> None:
        axes = tuple(int(a * self.s * (1 << _SHIFT)) for a in axes)
        cv2.ellipse(self.image, tuple(self._fix(centre)), axes, angle, arc[0], arc[1], colour,
                    self._px(width) if width else -1, cv2.LINE_AA, _SHIFT)

    def text(self, text: str, centre, height: float, colour, font: int, weight: float,
             max_width: float | None = None, outline=None, underline: bool = False):
        """``text`` centred on ``centre``, its digits' ink ``height`` mm tall (narrowed to ``max_width``),
        over a halo of ``outline`` when given; returns its box (x0, y0, x1, y1) in mm."""
        text = text.replace("0", "O")  # these fonts slash the zero; printed decks do not
        per_scale, per_px = _digit_extent(font)
        (w1, _), _ = cv2.getTextSize(text, font, 1.0, 1)
        thick = max(1, int(round(weight * height * self.s)))
        scale = max(height * self.s - per_px.sum() * thick, 1.0) / per_scale.sum()
        if max_width and w1 * scale > max_width * self.s:
            scale = max_width * self.s / w1
            thick = max(1, int(round(weight * per_scale.sum() * scale)))
        up, down = per_scale * scale + per_px * thick
        (w, _), _ = cv2.getTextSize(text, font, scale, thick)
        cx, cy = (np.asarray(centre, float) + self.offset) * self.s - 0.5
        org = (int(round(cx - w / 2)), int(round(cy + (up - down) / 2)))
        top, bottom = org[1] - up, org[1] + down
        halo = max(1, thick // 2 + self._px(0.3))
        under_y = int(round(bottom + thick / 2 + max(1.0, 0.08 * (bottom - top))))
        for ink, extra in ((outline, 2 * halo), (colour, 0)) if outline is not None else ((colour, 0),):
            cv2.putText(self.image, text, org, font, scale, ink, thick + extra, cv2.LINE_AA)
            if underline:
                cv2.line(self.image, (org[0], under_y), (org[0] + w, under_y), ink, thick + extra, cv2.LINE_AA)
        x0, y0 = (org[0] + 0.5) / self.s - self.offset[0], (top + 0.5) / self.s - self.offset[1]
        return x0, y0, x0 + w / self.s, y0 + (bottom - top) / self.s


@lru_cache(maxsize=32)
def _digit_extent(font: int) -> tuple[np.ndarray, np.ndarray]:
    """How far digits' ink reaches (above, below) the baseline per unit of scale and per pixel of
    thickness: the height getTextSize reports holds room above them, and cv2 4 strokes grow with
    thickness where cv2 5 glyphs turn bold and keep their size."""
    def reach(thickness: int) -> np.ndarray:
        canvas = np.zeros((400, 1400), np.uint8)
        cv2.putText(canvas, "0123456789", (20, 300), font, 4.0, 255, thickness)
        rows = np.flatnonzero(canvas.max(1))
        return np.array([300 - rows[0], rows[-1] - 300], float)
    per_px = (reach(9) - reach(1)) / 8
    return (reach(1) - per_px) / 4.0, per_px


def _both_ends(pen: _Pen, draw: Callable[[_Pen], None]) -> None:
    """``draw`` as printed and again with the card turned half round, as indices and courts are."""
    draw(pen)
    turned = np.ascontiguousarray(pen.image[::-1, ::-1])
    draw(_Pen(turned, pen.s, -pen.offset))
    pen.image[:] = turned[::-1, ::-1]


_QUARTER = np.stack([np.cos(np.linspace(0, np.pi / 2, 9)), np.sin(np.linspace(0, np.pi / 2, 9))], 1)


def _rounded(x0: float, y0: float, x1: float, y1: float, r: float) -> np.ndarray:
    """The outline of a rounded rectangle, clockwise (on screen) from the right edge's foot."""
    r = max(0.0, min(r, (x1 - x0) / 2, (y1 - y0) / 2))
    corners = ((x1 - r, y1 - r), (x0 + r, y1 - r), (x0 + r, y0 + r), (x1 - r, y0 + r))
    arcs = [np.asarray(c) + r * (_QUARTER @ np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]]))
            for c, a in zip(corners, np.arange(4) * np.pi / 2)]
    return np.concatenate(arcs)


def _ring(pen: _Pen, width: float, inner_radius: float, colour) -> None:
    """A rim of ``width`` mm from the cut inwards (its inner edge moves with the print)."""
    outer = np.array([(-3, -3), (pen.w + 3, -3), (pen.w + 3, pen.h + 3), (-3, pen.h + 3)])
    inner = _rounded(width, width, pen.w - width, pen.h - width, inner_radius)
    pen.fill_with_holes([outer, inner], colour)


def _ground(pen: _Pen, d: Design, face) -> tuple[float, float, float, float]:
    """Fills the face, decorates it, prints the rim; returns the panel inside the rim (mm)."""
    pen.image[:] = face
    if d.decoration != "none":
        _decorate(pen, d, _mix(face, (255, 255, 255) if sum(face) < 450 else d.key, 0.16))
    b = d.border_mm
    rim = d.paper if d.border == "white" else d.key
    if b and rim != face:
        _ring(pen, b, max(d.corner_radius_mm - b, 0.8), rim)
    return b, b, pen.w - b, pen.h - b


def _decorate(pen: _Pen, d: Design, colour) -> None:
    lay = np.random.default_rng([d.seed, 1])
    if d.decoration == "stripes":
        _line_family(pen, lay.uniform(20, 70) * lay.choice((-1, 1)), lay.uniform(2.5, 6), lay.uniform(0.3, 1.2), colour)
    elif d.decoration == "dots":
        pitch = lay.uniform(3.5, 7)
        _dot_grid(pen, pitch, pitch * lay.uniform(0.12, 0.25), colour)
    else:  # icons: small stars scattered over the face
        for _ in range(int(lay.integers(6, 16))):
            pen.fill(_star(5, 0.45) * lay.uniform(2, 4.5) + (lay.uniform(0, pen.w), lay.uniform(0, pen.h)), colour)


def _line_family(pen: _Pen, angle: float, pitch: float, width: float, colour) -> None:
    """Parallel strokes ``pitch`` mm apart at ``angle`` degrees across the whole card."""
    t = np.deg2rad(angle)
    u, n = np.array([np.cos(t), np.sin(t)]), np.array([-np.sin(t), np.cos(t)])
    half = np.hypot(pen.w, pen.h) / 2 + 1
    k = np.arange(-np.ceil(half / pitch), np.ceil(half / pitch) + 1)[:, None] * pitch
    mid = np.array([pen.w / 2, pen.h / 2]) + k * n
    pen.lines(np.stack([mid - half * u, mid + half * u], 1), colour, width)


def _dot_grid(pen: _Pen, pitch: float, r: float, colour) -> None:
    """Dots on a staggered grid (zero-length strokes: one call for all of them)."""
    xs, ys = np.meshgrid(np.arange(0, pen.w + pitch, pitch), np.arange(0, pen.h + pitch, pitch))
    xs = xs + (np.arange(len(ys))[:, None] % 2) * pitch / 2
    pts = np.stack([xs.ravel(), ys.ravel()], 1)
    pen.lines(np.stack([pts, pts], 1), colour, 2 * r)


def _star(points: int, inner: float) -> np.ndarray:
    """A star of unit outer radius, one point up."""
    a = -np.pi / 2 + np.arange(2 * points) * np.pi / points
    r = np.where(np.arange(2 * points) % 2, inner, 1.0)
    return np.stack([r * np.cos(a), r * np.sin(a)], 1)


def _regular(sides: int, turn: float = 0.0) -> np.ndarray:
    a = turn + np.arange(sides) * 2 * np.pi / sides
    return np.stack([np.cos(a), np.sin(a)], 1)


def _indices(pen: _Pen, d: Design, x0: float, y0: float, x1: float,
             draw_one: Callable[[_Pen, tuple[float, float]], None]) -> None:
    """``draw_one`` at the panel's top-left corner (and top-right with four indices), both ends."""
    def top(p: _Pen) -> None:
        col, row = 0.9 * d.index_mm + 1.2, 0.5 * d.index_mm + 2.0
        draw_one(p, (x0 + col, y0 + row))
        if d.index_corners == 4:
            draw_one(p, (x1 - col, y0 + row))
    if d.index_corners:
        _both_ends(pen, top)


def _corner_numerals(pen: _Pen, d: Design, value: str, panel, colour) -> None:
    x0, y0, x1, _ = panel
    _indices(pen, d, x0, y0, x1, lambda p, c: p.text(
        value, c, d.index_mm, colour, d.font, d.weight, 1.6 * d.index_mm,
        underline=d.underline_69 and value in ("6", "9")))


def _big_numeral(pen: _Pen, d: Design, value: str, centre, height: float, max_width: float, colour,
                 outline=None) -> None:
    pen.text(value, centre, height, colour, d.font, d.weight * 1.2, max_width, outline,
             d.underline_69 and value in ("6", "9"))


def _inner_frame(pen: _Pen, d: Design, panel, inset: float, colour) -> None:
    x0, y0, x1, y1 = panel
    pen.outline(_rounded(x0 + inset, y0 + inset, x1 - inset, y1 - inset, max(d.corner_radius_mm, 1.5)),
                colour, 0.5)


# ----------------------------------------------------------------------------- faces

def _hilo_face(pen: _Pen, d: Design, colour: str, ink, value: str, art) -> None:
    lay = np.random.default_rng(d.seed)
    panel = _ground(pen, d, ink)
    centre = (pen.w / 2, pen.h / 2)
    axes = (pen.w * lay.uniform(0.3, 0.4), pen.h * lay.uniform(0.22, 0.3))
    pen.ellipse(centre, axes, 0, d.paper)
    if lay.random() < 0.4:
        pen.ellipse(centre, (axes[0] * 0.9, axes[1] * 0.9), 0, ink, 0.4)
    if d.inner_frame:
        _inner_frame(pen, d, panel, 1.2, d.paper)
    _big_numeral(pen, d, value, centre, axes[1] * 1.1, axes[0] * 1.55, ink)
    _corner_numerals(pen, d, value, panel, d.paper)


def _uno_face(pen: _Pen, d: Design, colour: str, ink, value: str, art) -> None:
    lay = np.random.default_rng(d.seed)
    wild = value in ("wild", "+4")
    panel = _ground(pen, d, d.key if wild else ink)
    x0, y0, x1, y1 = panel
    tilt = lay.uniform(20, 40)  # leaning right: the top-left and bottom-right indices stay clear
    reach = 0.5 if d.index_corners == 2 else 0.4
    axes = _fit_ellipse((x1 - x0) * lay.uniform(0.34, 0.42), (y1 - y0) * reach, tilt, (x1 - x0) / 2, (y1 - y0) / 2)
    centre = (pen.w / 2, pen.h / 2)
    if wild:
        for i, (_, quarter) in enumerate(d.inks):
            pen.ellipse(centre, axes, tilt, quarter, arc=(90 * i, 90 * i + 90))
    else:
        pen.ellipse(centre, axes, tilt, d.paper)
    if d.inner_frame:
        _inner_frame(pen, d, panel, 1.0, d.paper)
    if value != "wild":
        _uno_symbol(pen, d, value, centre, pen.h * 0.25, (x1 - x0) * 0.75, d.paper if wild else ink, d.key)
    _indices(pen, d, x0, y0, x1, lambda p, c: _uno_symbol(
        p, d, "W" if value == "wild" else value, c, d.index_mm, 1.6 * d.index_mm, d.paper, d.key))


def _fit_ellipse(a: float, b: float, tilt: float, half_w: float, half_h: float) -> tuple[float, float]:
    """Semi-axes (horizontal a, vertical b before the tilt) shrunk so the tilted ellipse fits."""
    t = np.deg2rad(tilt)
    ex, ey = np.hypot(a * np.cos(t), b * np.sin(t)), np.hypot(a * np.sin(t), b * np.cos(t))
    k = min(1.0, 0.96 * half_w / ex, 0.96 * half_h / ey)
    return a * k, b * k


def _uno_symbol(pen: _Pen, d: Design, value: str, centre, size: float, max_width: float, colour, outline) -> None:
    c = np.asarray(centre, float)
    if value == "skip":
        r = size * 0.5
        for ink, extra in ((outline, 0.7), (colour, 0.0)):
            pen.circle(c, r, ink, size * 0.17 + extra)
            pen.lines([[c + r * np.array([-0.7, 0.7]), c + r * np.array([0.7, -0.7])]], ink, size * 0.17 + extra)
    elif value == "reverse":
        arrow = np.array([(-0.12, 0.45), (-0.12, -0.1), (-0.3, -0.1), (0.0, -0.48), (0.3, -0.1), (0.12, -0.1),
                          (0.12, 0.45)])
        turn = np.deg2rad(45)
        rot = np.array([[np.cos(turn), np.sin(turn)], [-np.sin(turn), np.cos(turn)]])
        for sign in (1, -1):
            poly = ((arrow * (1, sign) + (sign * 0.2, 0)) @ rot) * size * 1.2 + c
            pen.outline(poly, outline, 0.7)
            pen.fill(poly, colour)
    else:
        pen.text(value, c, size, colour, d.font, d.weight * 1.3, max_width, outline)


def _poker_face(pen: _Pen, d: Design, suit: str, ink, rank: str, art) -> None:
    panel = _ground(pen, d, d.paper if d.border != "none" else _mix(d.paper, (170, 220, 240), 0.25))
    x0, y0, x1, y1 = panel
    if d.inner_frame:
        _inner_frame(pen, d, panel, 1.2, ink)

    def index(p: _Pen, c) -> None:
        box = p.text(rank, c, d.index_mm, ink, d.font, d.weight, 1.6 * d.index_mm)
        _pip(p, suit, (c[0], box[3] + 0.45 * d.index_mm + 0.6), 0.9 * d.index_mm, ink)
    _indices(pen, d, x0, y0, x1, index)

    margin = 2.2 * d.index_mm + 2.5
    if rank in ("J", "Q", "K"):
        below_index = 1.2 * d.index_mm + 1
        _court(pen, d, suit, ink, rank, (x0 + margin, y0 + below_index, x1 - margin, y1 - below_index), art)
    elif rank == "A":
        _pip(pen, suit, (pen.w / 2, pen.h / 2), pen.w * 0.32, ink)
    else:
        _pips(pen, suit, int(rank), (x0 + margin, y0 + 2.5, x1 - margin, y1 - 2.5), ink)


# Pip layouts: (column -1/0/1, row 0..1) of the usual number cards.
_PIP_LAYOUT = {
    2: [(0, 0), (0, 1)], 3: [(0, 0), (0, .5), (0, 1)], 4: [(-1, 0), (1, 0), (-1, 1), (1, 1)],
    5: [(-1, 0), (1, 0), (0, .5), (-1, 1), (1, 1)],
    6: [(-1, 0), (1, 0), (-1, .5), (1, .5), (-1, 1), (1, 1)],
    7: [(-1, 0), (1, 0), (0, .25), (-1, .5), (1, .5), (-1, 1), (1, 1)],
    8: [(-1, 0), (1, 0), (0, .25), (-1, .5), (1, .5), (0, .75), (-1, 1), (1, 1)],
    9: [(-1, 0), (1, 0), (-1, 1 / 3), (1, 1 / 3), (0, .5), (-1, 2 / 3), (1, 2 / 3), (-1, 1), (1, 1)],
    10: [(-1, 0), (1, 0), (0, 1 / 6), (-1, 1 / 3), (1, 1 / 3), (-1, 2 / 3), (1, 2 / 3), (0, 5 / 6), (-1, 1), (1, 1)],
}


def _pips(pen: _Pen, suit: str, n: int, area, colour) -> None:
    x0, y0, x1, y1 = area
    size = min((x1 - x0) * 0.27, (y1 - y0) * 0.14)
    for col, row in _PIP_LAYOUT[n]:
        centre = ((x0 + x1) / 2 + col * ((x1 - x0) / 2 - size * 0.55), y0 + size / 2 + row * (y1 - y0 - size))
        _pip(pen, suit, centre, size, colour, inverted=row > 0.5)


def _suit_shapes(suit: str) -> list[np.ndarray]:
    """A suit as filled polygons of unit height centred on 0, point (or lobes) up."""
    t = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    lobes = 13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t)
    heart = np.stack([16 * np.sin(t) ** 3, -lobes], 1)
    heart = (heart - (0, 2.5)) / 29
    stem = np.array([(-0.03, 0.1), (0.03, 0.1), (0.17, 0.5), (-0.17, 0.5)])
    if suit == "hearts":
        return [heart]
    if suit == "diamonds":
        return [np.array([(0, -0.5), (0.36, 0), (0, 0.5), (-0.36, 0)])]
    if suit == "spades":
        return [heart * (1, -0.8) + (0, -0.1), stem]
    circle = np.stack([np.cos(t), np.sin(t)], 1) * 0.21
    return [circle + (0, -0.28), circle + (-0.22, 0.04), circle + (0.22, 0.04), circle * 0.6 + (0, -0.05), stem]


_SUIT_SHAPES = {s: _suit_shapes(s) for s in ("hearts", "diamonds", "spades", "clubs")}
_TAROT_SUIT_SHAPE = dict(zip(_TAROT_SUITS, ("hearts", "spades", "clubs", "diamonds")))


def _pip(pen: _Pen, suit: str, centre, size: float, colour, inverted: bool = False) -> None:
    flip = np.array([1, -1 if inverted else 1])
    for poly in _SUIT_SHAPES[suit]:  # one call each: cv2 fills overlapping polygons even-odd
        pen.fill(poly * flip * size + centre, colour)


_CROWN = np.array([(-1, 1), (-1, -0.6), (-0.5, 0.2), (0, -1), (0.5, 0.2), (1, -0.6), (1, 1)])


def _court(pen: _Pen, d: Design, suit: str, ink, rank: str, frame, art) -> None:
    """A framed double-headed picture: the upper half drawn, then again turned half round."""
    x0, y0, x1, y1 = frame
    pen.fill(_rounded(x0, y0, x1, y1, 0.8), _mix(d.paper, _GOLD, 0.12))
    robe, trim = _jitter(art, _INKS[str(art.choice(("blue", "green", "purple", "red", "navy")))], 10), _GOLD
    w, h = x1 - x0, y1 - y0
    cx, mid = (x0 + x1) / 2, (y0 + y1) / 2
    head = (cx + art.uniform(-0.05, 0.05) * w, y0 + h * 0.2)
    headgear = _CROWN if rank != "J" else _regular(3, -np.pi / 2)

    def half(p: _Pen) -> None:
        p.fill(np.array([(x0 + w * 0.12, mid), (cx - w * 0.1, head[1] + h * 0.08), (cx + w * 0.1, head[1] + h * 0.08),
                         (x1 - w * 0.12, mid)]), robe)
        p.lines([[(x0 + w * 0.2, mid - h * 0.05), (x1 - w * 0.2, mid - h * 0.05)]], trim, w * 0.05)
        p.circle(head, w * 0.13, (150, 190, 235))
        p.fill(headgear * (w * 0.14, h * 0.05) + (head[0], head[1] - w * 0.15), trim)
        _pip(p, suit, (x0 + w * 0.16, y0 + h * 0.1), w * 0.16, ink)
        p.text(rank, (x1 - w * 0.16, y0 + h * 0.1), w * 0.12, ink, d.font, d.weight)
    _both_ends(pen, half)
    pen.lines([[(x0, mid), (x1, mid)]], d.key, 0.3)
    pen.outline(_rounded(x0, y0, x1, y1, 0.8), ink, 0.45)


def _tarot_face(pen: _Pen, d: Design, suit: str, ink, value: str, art) -> None:
    lay = np.random.default_rng(d.seed)
    panel = _ground(pen, d, d.paper)
    x0, y0, x1, y1 = panel
    m = lay.uniform(1.5, 3.5)
    band = (y1 - y0) * lay.uniform(0.09, 0.12)
    top = (y1 - y0) * lay.uniform(0.06, 0.09)
    pic = (x0 + m, y0 + m + top, x1 - m, y1 - m - band)
    _tarot_picture(pen, suit, ink, value, pic, art)
    frame_ink = d.key if lay.random() < 0.6 else ink
    pen.outline(_rounded(*pic, 0.5), frame_ink, 0.5)
    if lay.random() < 0.5:
        pen.outline(_rounded(pic[0] - 1, pic[1] - 1, pic[2] + 1, pic[3] + 1, 1), frame_ink, 0.3)
    number = _roman(int(value)) if value.isdigit() else value.upper()
    pen.text(number, (pen.w / 2, y0 + m + top / 2), top * 0.45, d.key, d.font, d.weight, pic[2] - pic[0])
    band_box = (pic[0], y1 - m - band * 0.8, pic[2], y1 - m)
    pen.fill(_rounded(*band_box, 0.5), _mix(d.paper, ink, 0.15))
    pen.outline(_rounded(*band_box, 0.5), frame_ink, 0.35)
    pen.text(_tarot_title(suit, value, art), ((band_box[0] + band_box[2]) / 2, (band_box[1] + band_box[3]) / 2),
             band * 0.28, d.key, d.font, d.weight, (band_box[2] - band_box[0]) * 0.9)
    _corner_numerals(pen, d, value if value.isdigit() else value[0].upper(), panel, d.key)


def _tarot_title(suit: str, value: str, art) -> str:
    if suit == "trumps":
        return "THE " + "".join(art.choice(list("ABCDEFGHILMNORSTUW"), int(art.integers(3, 8))))
    rank = "ACE" if value == "1" else _roman(int(value)) if value.isdigit() else value.upper()
    return f"{rank} OF {suit.upper()}"


def _tarot_picture(pen: _Pen, suit: str, ink, value: str, pic, art) -> None:
    """A scene of random shapes: sky, ground, a sun, a figure, things; the suit's emblems."""
    x0, y0, x1, y1 = pic
    w, h = x1 - x0, y1 - y0
    palette = [_jitter(art, _INKS[str(n)], 15) for n in art.choice(list(_INKS), 4, replace=False)]
    pen.fill(_rounded(*pic, 0.5), _mix(palette[0], (255, 255, 255), 0.6))
    horizon = y0 + h * art.uniform(0.55, 0.8)
    hills = np.stack([np.linspace(x0, x1, 6), horizon + art.uniform(-0.06, 0.06, 6) * h], 1)
    pen.fill(np.concatenate([hills, [(x1, y1), (x0, y1)]]), _mix(palette[1], (0, 0, 0), 0.2))
    pen.circle((x0 + w * art.uniform(0.2, 0.8), y0 + h * art.uniform(0.1, 0.3)), w * art.uniform(0.08, 0.16),
               _jitter(art, (60, 200, 245), 15))
    for _ in range(int(art.integers(2, 6))):
        c = (x0 + w * art.uniform(0.15, 0.85), y0 + h * art.uniform(0.25, 0.85))
        size = w * art.uniform(0.06, 0.2)
        shape = _regular(int(art.integers(3, 7)), art.uniform(0, np.pi)) * size + c
        pen.fill(shape, palette[int(art.integers(2, 4))])
    body = (x0 + w * art.uniform(0.35, 0.65), horizon)
    pen.fill(np.array([(body[0] - w * 0.12, body[1]), (body[0], body[1] - h * 0.35), (body[0] + w * 0.12, body[1])]),
             palette[3])
    pen.circle((body[0], body[1] - h * 0.38), w * 0.06, (140, 180, 225))
    if suit != "trumps" and value.isdigit():
        for i in range(int(value)):
            _pip(pen, _TAROT_SUIT_SHAPE[suit], (x0 + w * (0.12 + 0.19 * (i % 5)), y1 - h * (0.08 + 0.11 * (i // 5))),
                 w * 0.1, ink)


def _roman(n: int) -> str:
    if n == 0:
        return "0"
    out = ""
    for v, s in ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= v:
            out, n = out + s, n - v
    return out


def _gem_face(pen: _Pen, d: Design, colour: str, ink, value: str, art) -> None:
    lay = np.random.default_rng(d.seed)
    face = (_jitter(lay, (40, 25, 20), 8) if d.style == "dark" else _mix(ink, (0, 0, 0), 0.55))
    panel = _ground(pen, d, face)
    gold = _jitter(lay, _GOLD, 10)
    if d.border == "none" and lay.random() < 0.7:
        _inner_frame(pen, d, panel, lay.uniform(1.2, 2.5), gold)
    if d.inner_frame:
        _inner_frame(pen, d, panel, lay.uniform(3, 5), _mix(face, gold, 0.5))
    cut = int(lay.integers(4))
    gem_at = (pen.w / 2, pen.h * lay.uniform(0.5, 0.6))
    _gem(pen, cut, gem_at, pen.w * lay.uniform(0.25, 0.33), ink, gold)
    if lay.random() < 0.5:
        _big_numeral(pen, d, value, (pen.w / 2, pen.h * 0.24), pen.h * 0.12, pen.w * 0.6, gold)
    else:
        _big_numeral(pen, d, value, gem_at, pen.w * 0.18, pen.w * 0.35, (245, 245, 245), d.key)
    _corner_numerals(pen, d, value, panel, gold)


def _gem(pen: _Pen, cut: int, centre, r: float, colour, rim) -> None:
    """A cut stone: an outline (hexagon, octagon, rhombus or brilliant), its table and facets."""
    shapes = (_regular(6, np.pi / 6), _regular(8, np.pi / 8), _regular(4) * (0.75, 1.0),
              np.array([(-1, -0.35), (-0.55, -0.8), (0.55, -0.8), (1, -0.35), (0, 0.95)]))
    outline = shapes[cut] * r + centre
    table = shapes[cut] * r * 0.5 + centre
    pen.fill(outline, colour)
    pen.fill(table, _mix(colour, (255, 255, 255), 0.35))
    pen.lines(np.stack([outline, table], 1), _mix(colour, (0, 0, 0), 0.35), 0.3)
    pen.outline(outline, rim, 0.5)


def _numeral_face(pen: _Pen, d: Design, colour: str, ink, value: str, art) -> None:
    lay = np.random.default_rng(d.seed)
    face, numeral = (ink, d.paper) if d.style == "flat" else (d.paper, ink)
    panel = _ground(pen, d, face)
    x0, y0, x1, y1 = panel
    if d.inner_frame:
        inset = lay.uniform(1.5, 4)
        box = _rounded(x0 + inset, y0 + inset, x1 - inset, y1 - inset, max(d.corner_radius_mm, 2))
        if lay.random() < 0.5:
            pen.outline(box, numeral, lay.uniform(0.4, 1.2))
        else:
            pen.fill(box, _mix(face, numeral, 0.15))
    outline = d.key if lay.random() < 0.3 else None
    _big_numeral(pen, d, value, (pen.w / 2, pen.h / 2), (y1 - y0) * lay.uniform(0.35, 0.5), (x1 - x0) * 0.78,
                 numeral, outline)
    _corner_numerals(pen, d, value, panel, numeral)


_FACES = {"hilo": _hilo_face, "uno": _uno_face, "poker": _poker_face, "tarot": _tarot_face,
          "gem": _gem_face, "numeral": _numeral_face}


# ----------------------------------------------------------------------------- backs

def _diamonds(pen: _Pen, back: Back) -> None:
    _line_family(pen, back.angle, back.pitch_mm, back.width_mm, back.ink)
    _line_family(pen, -back.angle, back.pitch_mm, back.width_mm, back.ink)


def _checks(pen: _Pen, back: Back) -> None:
    pitch = back.pitch_mm * 1.5 * pen.s
    ox, oy = pen.offset * pen.s
    cols = ((np.arange(pen.image.shape[1]) - ox) // pitch).astype(int)
    rows = ((np.arange(pen.image.shape[0]) - oy) // pitch).astype(int)
    pen.image[(rows[:, None] + cols[None, :]) % 2 == 0] = back.ink


def _stripes(pen: _Pen, back: Back) -> None:
    _line_family(pen, back.angle, back.pitch_mm, back.pitch_mm * 0.45, back.ink)


def _concentric(pen: _Pen, back: Back) -> None:
    step = back.pitch_mm * 0.8
    for inset in np.arange(step, min(pen.w, pen.h) / 2 - 1.5 * step, step):
        pen.outline(_rounded(inset, inset, pen.w - inset, pen.h - inset, max(3 - inset * 0.1, 0.5)),
                    back.ink, back.width_mm)


def _dots(pen: _Pen, back: Back) -> None:
    _dot_grid(pen, back.pitch_mm, back.pitch_mm * 0.22, back.ink)


_BACK_PATTERNS: dict[str, Callable[[_Pen, Back], None]] = {
    "diamonds": _diamonds, "checks": _checks, "stripes": _stripes, "concentric": _concentric,
    "dots": _dots, "plain": lambda pen, back: None,
}


def _logo(pen: _Pen, d: Design) -> None:
    back = d.back
    centre, w = (pen.w / 2, pen.h / 2), pen.w
    if back.logo == "star":
        pen.fill(_star(5, 0.45) * w * 0.28 + centre, back.ink)
        return
    if back.logo == "circle":
        pen.circle(centre, w * 0.3, back.ground)
        pen.circle(centre, w * 0.3, back.ink, 0.8)
        pen.text(back.logo_text, centre, w * 0.14, back.ink, d.font, d.weight, w * 0.45)
    else:  # a tilted ellipse, as on UNO's back
        axes = _fit_ellipse(w * 0.3, pen.h * 0.45, 30, w * 0.45, pen.h * 0.45)
        pen.ellipse(centre, axes, 30, back.ink)
        pen.text(back.logo_text, centre, w * 0.14, back.ground, d.font, d.weight, w * 0.6)
