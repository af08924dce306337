"""Seeded synthetic Hilo-like cards and tables, for the tests, the benchmarks and the demo.

The cards imitate a Hilo printing: a white rim, a panel in one of eight colours, a big value in a
white oval and small values in two corners; 6 and 9 are underlined. Hold Up's gem and GV cards
are printed alike, a colour for each stone (and the GV cards') and the value or the letter G or V.
``hilo_table`` lays two or three players' grids and the piles on a printed mat and photographs
it: perspective, uneven light, glare, blur, noise and JPEG compression. Every random choice comes from the given seed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Mapping

import cv2
import numpy as np

from engine.holdup.deck import EXAMPLE_DECK
from engine.table import FACE_DOWN
from vision.mat import MatLayout
from vision.mat_print import mat_drawing, render

# The synthetic printing's inks (BGR). A real deck is learnt by enrolment, not from these.
HILO_COLOURS = {
    "red": (45, 40, 215),
    "orange": (30, 135, 245),
    "yellow": (40, 215, 245),
    "lime": (70, 225, 165),
    "green": (70, 140, 30),
    "blue": (205, 110, 35),
    "purple": (160, 55, 130),
    "pink": (185, 120, 245),
}
HILO_VALUES = tuple(str(v) for v in range(-1, 12))
HILO_DECK = tuple(f"{c} {v}" for c in HILO_COLOURS for v in HILO_VALUES)
# Hold Up's example box (engine.holdup.deck.EXAMPLE_DECK: four stones, values 1 to 9) and the
# double-sided GV cards, whose faces read "gv G" and "gv V" as the engine's table view names them.
HOLDUP_COLOURS = {
    "diamond": (200, 195, 60),
    "ruby": (50, 30, 200),
    "emerald": (90, 160, 30),
    "sapphire": (185, 80, 25),
    "gv": (45, 55, 75),
}
HOLDUP_DECK = tuple(f"{stone} {value}" for stone, value, _ in EXAMPLE_DECK)
GV_FACES = ("gv G", "gv V")
INKS = {**HILO_COLOURS, **HOLDUP_COLOURS}
CARD_MM = (56.0, 87.0)


@dataclass(frozen=True)
class SynthCard:
    """A card visible in a synthetic frame: corners in pixels (clockwise from the card's own top-left),
    ``label`` ("<colour> <value>" or "face-down"), the mat zone and cell it lies in."""

    corners: np.ndarray
    label: str
    zone: str = ""
    cell: tuple[int, int] | None = None

    def box(self) -> tuple[float, float, float, float]:
        (x0, y0), (x1, y1) = self.corners.min(axis=0), self.corners.max(axis=0)
        return float(x0), float(y0), float(x1), float(y1)


@dataclass
class SynthScene:
    """One synthetic photograph and its truth. ``to_mm_h`` maps frame pixels to mat mm."""

    frame: np.ndarray
    cards: list[SynthCard]
    to_mm_h: np.ndarray | None = None
    grids: dict[int, list[list[str]]] = field(default_factory=dict)


# ---- single cards -------------------------------------------------------------------------

def _rounded_mask(h: int, w: int, r: int) -> np.ndarray:
    mask = np.zeros((h, w), np.uint8)
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return mask


def _number(image: np.ndarray, text: str, centre: tuple[float, float], height: float, width: float,
            colour, outline=None, underline: bool = False, flip: bool = False) -> None:
    """Draw ``text`` centred, at most ``height`` tall and ``width`` wide (pixels)."""
    font = cv2.FONT_HERSHEY_DUPLEX
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, 2)
    scale = min(height / th, width / tw)
    thick = max(1, int(round(scale * 2.2)))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    pad = thick * 3 + 2
    h = th + pad * 2 + (int(th * 0.3) if underline else 0)
    canvas = np.zeros((h, tw + 2 * pad, 3), np.uint8)
    alpha = np.zeros(canvas.shape[:2], np.uint8)
    org = (pad, pad + th)
    layers = [(outline, thick + max(2, thick // 2))] if outline is not None else []
    for col, t in layers + [(colour, thick)]:
        cv2.putText(canvas, text, org, font, scale, col, t, cv2.LINE_AA)
        cv2.putText(alpha, text, org, font, scale, 255, t, cv2.LINE_AA)
        if underline:
            y = pad + th + int(th * 0.22)
            cv2.line(canvas, (pad, y), (pad + tw, y), col, t, cv2.LINE_AA)
            cv2.line(alpha, (pad, y), (pad + tw, y), 255, t, cv2.LINE_AA)
    if flip:
        canvas, alpha = canvas[::-1, ::-1], alpha[::-1, ::-1]
    ch, cw = alpha.shape
    x0, y0 = int(round(centre[0] - cw / 2)), int(round(centre[1] - ch / 2))
    region = image[y0:y0 + ch, x0:x0 + cw]
    a = alpha[: region.shape[0], : region.shape[1], None] / 255.0
    region[:] = (region * (1 - a) + canvas[: region.shape[0], : region.shape[1]] * a).astype(np.uint8)


@lru_cache(maxsize=256)
def render_card(label: str, px_per_mm: float = 4.0) -> tuple[np.ndarray, np.ndarray]:
    """A card face (or its back for "face-down") upright: BGR image and alpha mask."""
    s = px_per_mm
    w, h = int(round(CARD_MM[0] * s)), int(round(CARD_MM[1] * s))
    mask = _rounded_mask(h, w, int(round(3.5 * s)))
    card = np.full((h, w, 3), 246, np.uint8)
    inset = int(round(3.2 * s))
    panel = _rounded_mask(h - 2 * inset, w - 2 * inset, int(round(2.5 * s)))
    if label == FACE_DOWN:
        back = np.zeros((h - 2 * inset, w - 2 * inset, 3), np.uint8)
        back[:] = (95, 45, 25)
        step = int(round(4 * s))
        for k in range(-back.shape[0], back.shape[1] + back.shape[0], step):
            cv2.line(back, (k, 0), (k + back.shape[0], back.shape[0]), (150, 105, 60), max(1, int(s * 0.6)))
            cv2.line(back, (k, back.shape[0]), (k + back.shape[0], 0), (150, 105, 60), max(1, int(s * 0.6)))
        cv2.ellipse(back, (back.shape[1] // 2, back.shape[0] // 2), (int(17 * s), int(11 * s)), 0, 0, 360,
                    (95, 45, 25), -1, cv2.LINE_AA)
        cv2.ellipse(back, (back.shape[1] // 2, back.shape[0] // 2), (int(17 * s), int(11 * s)), 0, 0, 360,
                    (235, 235, 235), max(1, int(s * 0.9)), cv2.LINE_AA)
        _number(back, "HILO", (back.shape[1] / 2, back.shape[0] / 2), 9 * s, 26 * s, (235, 235, 235))
        fill = back
    else:
        colour, value = label.split()
        ink = INKS[colour]
        fill = np.zeros((h - 2 * inset, w - 2 * inset, 3), np.uint8)
        fill[:] = ink
        ph, pw = fill.shape[:2]
        cv2.ellipse(fill, (pw // 2, ph // 2), (int(19 * s), int(27 * s)), 0, 0, 360, (246, 246, 246), -1,
                    cv2.LINE_AA)
        under = value in ("6", "9")
        _number(fill, value, (pw / 2, ph / 2), 22 * s, 30 * s, ink, outline=(40, 40, 40), underline=under)
        corner = dict(height=6.5 * s, width=9 * s, colour=(250, 250, 250), underline=under)
        _number(fill, value, (6.5 * s, 7.5 * s), **corner)
        _number(fill, value, (pw - 6.5 * s, ph - 7.5 * s), flip=True, **corner)
    region = card[inset:h - inset, inset:w - inset]
    a = panel[..., None] / 255.0
    region[:] = (region * (1 - a) + fill * a).astype(np.uint8)
    return card, mask


# ---- tables -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Photo:
    """How the synthetic camera spoils the picture. Each range is (low, high), drawn per frame."""

    size: tuple[int, int] = (1280, 720)
    fill: tuple[float, float] = (0.86, 0.97)         # mat height / frame height
    keystone: tuple[float, float] = (0.0, 0.16)      # top edge shrink from perspective
    tilt_deg: tuple[float, float] = (-6.0, 6.0)
    light: tuple[float, float] = (0.75, 1.1)
    gradient: tuple[float, float] = (-0.22, 0.22)
    glare: tuple[float, float] = (0.25, 0.6)         # strength of 1-2 glare spots
    blur: tuple[float, float] = (0.3, 1.5)           # Gaussian sigma, pixels
    noise: tuple[float, float] = (1.5, 5.0)
    jpeg: tuple[int, int] = (70, 95)


MAT_PX_PER_MM = 2.5  # the flat mat picture that the synthetic camera photographs
GRID_SHAPES = ((3, 3),) * 5 + ((2, 3), (3, 2), (1, 3), (3, 1))  # a grid is mostly whole


def hilo_table(layout: MatLayout, seed: int, photo: Photo = Photo(), face_down_rate: float = 0.35,
               empty_rate: float = 0.04, all_face_up: bool = False, deck=None,
               shapes: tuple[tuple[int, int], ...] = GRID_SHAPES) -> SynthScene:
    """A Hilo table on ``layout`` with random grids, piles and a spoiled photograph of it.

    Each grid takes one of ``shapes`` (rows, columns) somewhere in its printed 3 x 3 places, a
    place is left empty with ``empty_rate`` and a card lies face down with ``face_down_rate``.
    ``deck`` is the order in which the visible cards are dealt (default: the shuffled Hilo deck);
    cards hidden under the top of a pile are drawn at random."""
    rng = np.random.default_rng(seed)
    draw_label = iter(deck if deck is not None else [HILO_DECK[i] for i in rng.permutation(len(HILO_DECK))])
    s = MAT_PX_PER_MM
    mat = render(mat_drawing(layout), layout.size, s)
    placed: list[tuple[str, np.ndarray, str, tuple[int, int] | None]] = []  # label, corners mm, zone, cell
    grids: dict[int, list[list[str]]] = {}

    def lay(label: str, centre, angle: float, zone: str, cell=None, visible=True):
        corners = card_corners_mm(centre, angle)
        paste_card_image(mat, label, corners * s, rng)
        if visible:
            placed.append((label, corners, zone, cell))

    for zone in layout.zones:
        if zone.kind == "grid":
            rows, cols = shapes[rng.integers(len(shapes))]
            r0, c0 = rng.integers(0, zone.rows - rows + 1), rng.integers(0, zone.cols - cols + 1)
            grid = [["empty"] * cols for _ in range(rows)]
            for cell in zone.cells():
                r, c = cell.row - r0, cell.col - c0
                if not (0 <= r < rows and 0 <= c < cols) or rng.random() < empty_rate:
                    continue
                label = next(draw_label)
                if not all_face_up and rng.random() < face_down_rate:
                    label = FACE_DOWN
                grid[r][c] = label
                angle = zone.rotation + rng.uniform(-4, 4) + 180 * rng.integers(2)
                lay(label, (cell.x + rng.uniform(-2.5, 2.5), cell.y + rng.uniform(-2.5, 2.5)), angle,
                    zone.id, (cell.row, cell.col))
            grids[zone.seat] = grid
        elif zone.kind == "pile":
            top = FACE_DOWN if zone.id == "draw" and not all_face_up else next(draw_label)
            for k in range(int(rng.integers(1, 3))):
                under = FACE_DOWN if top == FACE_DOWN else HILO_DECK[rng.integers(len(HILO_DECK))]
                lay(under, (zone.x + rng.uniform(-1.2, 1.2), zone.y + rng.uniform(-1.2, 1.2)),
                    zone.rotation + rng.uniform(-2, 2), zone.id, visible=False)
            lay(top, (zone.x + rng.uniform(-1.5, 1.5), zone.y + rng.uniform(-1.5, 1.5)),
                zone.rotation + rng.uniform(-3, 3) + 180 * rng.integers(2), zone.id)
    frame, h_mm_to_px = photograph(mat, s, layout.size, photo, rng)
    cards = []
    for label, corners, zone, cell in placed:
        px = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), h_mm_to_px).reshape(4, 2)
        cards.append(SynthCard(px.astype(np.float32), label, zone, cell))
    return SynthScene(frame, cards, np.linalg.inv(h_mm_to_px), grids)


def mat_photo(layout: MatLayout, seed: int, photo: Photo = Photo(),
              labels: Mapping[str, str] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The empty mat (``labels``: the zone names printed on it) through the spoiled camera: the
    frame and the mm -> pixel homography. One seed places the camera alike under any ``photo``
    of the same size: frames of a fixed camera as the light changes."""
    s = MAT_PX_PER_MM
    mat = render(mat_drawing(layout, labels), layout.size, s)
    return photograph(mat, s, layout.size, photo, np.random.default_rng(seed))


def mat_mask(layout: MatLayout, mm_to_px: np.ndarray, shape) -> np.ndarray:
    """Where the mat lies in a frame of ``shape`` (255 inside), from ``mat_photo``'s homography."""
    w, h = layout.size
    corners = cv2.perspectiveTransform(np.float64([[[0, 0]], [[w, 0]], [[w, h]], [[0, h]]]), mm_to_px)
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, corners.reshape(-1, 2).astype(np.int32), 255)
    return mask


def moved_view(frame: np.ndarray, dx: float, dy: float, degrees: float = 0.0,
               only: np.ndarray | None = None) -> np.ndarray:
    """``frame`` as a camera moved (dx, dy) px and turned ``degrees`` about the frame's middle
    would see it; with ``only`` (a mask such as ``mat_mask``), only that part moves: a mat pushed
    on a table that stays."""
    h, w = frame.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    m[:, 2] += (dx, dy)
    out = cv2.warpAffine(frame, m, (w, h), borderMode=cv2.BORDER_REFLECT)
    if only is None:
        return out
    inside = cv2.warpAffine(only, m, (w, h))[..., None] / 255.0
    return (out * inside + frame * (1 - inside)).astype(np.uint8)


def enrolment_tables(layout: MatLayout, seed: int, photo: Photo = Photo()) -> list[SynthScene]:
    """The photos a club would take to enrol a Hilo deck on a two-player mat: two tables of face-up
    cards showing every value in at least two colours and every colour at least three times, and
    a table of mostly face-down cards."""
    rng = np.random.default_rng(seed)
    cards = _enrolment_deck(rng)
    full = dict(shapes=((3, 3),), empty_rate=0.0, photo=photo)
    return [hilo_table(layout, seed + 1, deck=cards[:20], all_face_up=True, **full),
            hilo_table(layout, seed + 2, deck=cards[20:], all_face_up=True, **full),
            hilo_table(layout, seed + 3, face_down_rate=0.7, **full)]


def fanned_cards(labels: list[str], seed: int, size: tuple[int, int] = (960, 540),
                 card_px: float = 170.0, step: float = 0.45) -> SynthScene:
    """A hand of cards fanned on a table, each covering the right part of the one before, seen
    from above (no mat); each card's box is that of its visible part."""
    rng = np.random.default_rng(seed)
    w, h = size
    frame = _table_texture(h, w, rng).astype(np.uint8)
    height = card_px
    width = height * CARD_MM[0] / CARD_MM[1]
    angle = rng.uniform(-8, 8)
    start = np.array([w / 2 - (len(labels) - 1) * step * width / 2, h / 2 + rng.uniform(-20, 20)])
    a = np.deg2rad(angle)
    along = np.array([np.cos(a), -np.sin(a)])
    cards, masks = [], []
    for k, label in enumerate(labels):
        centre = start + along * k * step * width + rng.uniform(-4, 4, 2)
        corners = card_corners_mm(centre / (width / CARD_MM[0]), angle + rng.uniform(-3, 3) + 180 * rng.integers(2))
        corners = corners * (width / CARD_MM[0])
        paste_card_image(frame, label, corners, rng)
        mask = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 255)
        masks = [cv2.bitwise_and(m, cv2.bitwise_not(mask)) for m in masks] + [mask]
        cards.append((label, corners))
    out = []
    for (label, corners), mask in zip(cards, masks):
        ys, xs = np.nonzero(mask)
        visible = np.float32([[xs.min(), ys.min()], [xs.max(), ys.min()], [xs.max(), ys.max()], [xs.min(), ys.max()]])
        out.append(SynthCard(visible, label))
    frame = spoil(frame.astype(np.float32), Photo(size=size, glare=(0.1, 0.3), blur=(0.3, 0.8)), rng)
    return SynthScene(frame, out)


def scattered_cards(labels: list[str], seed: int, photo: Photo = Photo(),
                    card_px: tuple[float, float] = (130.0, 200.0)) -> SynthScene:
    """Cards lying anywhere and at any angle on a bare table (no mat), none over another, seen
    from above by a spoiled camera; a card that finds no free place is left out. ``card_px``:
    the range of a card's height in pixels."""
    rng = np.random.default_rng(seed)
    w, h = photo.size
    frame = _table_texture(h, w, rng).astype(np.uint8)
    cards: list[SynthCard] = []
    centres: list[np.ndarray] = []
    for label in labels:
        for _ in range(100):
            height = rng.uniform(*card_px)
            px_per_mm = height / CARD_MM[1]
            centre = rng.uniform(0, 1, 2) * (w, h)
            corners = card_corners_mm(centre / px_per_mm, rng.uniform(0, 360)) * px_per_mm
            inside = corners.min() >= 2 and (corners.max(axis=0) <= (w - 3, h - 3)).all()
            # two cards this far apart cannot touch, however they are turned
            if inside and all(np.linalg.norm(centre - c) > 1.2 * card_px[1] for c in centres):
                paste_card_image(frame, label, corners, rng)
                cards.append(SynthCard(corners.astype(np.float32), label))
                centres.append(centre)
                break
    return SynthScene(spoil(frame.astype(np.float32), photo, rng), cards)


def scattered_enrolment(seed: int, photo: Photo = Photo()) -> list[SynthScene]:
    """Enrolment photos of a Hilo deck without the mat: the cards of ``enrolment_tables`` face up,
    scattered eight to a photo, and a photo of backs."""
    rng = np.random.default_rng(seed)
    cards = _enrolment_deck(rng)
    return [scattered_cards(cards[k:k + 8], seed + 1 + k, photo) for k in range(0, len(cards), 8)] + \
        [scattered_cards([FACE_DOWN] * 8, seed + 99, photo)]


def _enrolment_deck(rng) -> list[str]:
    """40 face-up cards, shuffled: every value in at least two colours, every colour at least
    three times (colour and value are learnt apart)."""
    colours = list(HILO_COLOURS)
    chosen = [f"{colours[(2 * i + k) % len(colours)]} {v}" for i, v in enumerate(HILO_VALUES) for k in (0, 1)]
    others = [c for c in HILO_DECK if c not in chosen]
    cards = chosen + [others[i] for i in rng.permutation(len(others))[:40 - len(chosen)]]
    return [cards[i] for i in rng.permutation(len(cards))]


def card_corners_mm(centre, angle_deg: float, size=CARD_MM) -> np.ndarray:
    """Corners of a card of ``size`` (mm) turned ``angle_deg`` counter-clockwise, clockwise from its
    own top-left."""
    w, h = size
    a = np.deg2rad(angle_deg)
    u = np.array([np.cos(a), -np.sin(a)])
    v = np.array([np.sin(a), np.cos(a)])
    local = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
    return np.array([np.asarray(centre) + x * u + y * v for x, y in local])


def paste_card_image(image: np.ndarray, label: str, corners_px: np.ndarray, rng) -> None:
    """Warp a card onto ``image`` with a soft shadow."""
    card, mask = render_card(label)
    ch, cw = mask.shape
    src = np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]])
    x0, y0 = np.floor(corners_px.min(axis=0)).astype(int) - 6
    x1, y1 = np.ceil(corners_px.max(axis=0)).astype(int) + 6
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, image.shape[1]), min(y1, image.shape[0])
    m = cv2.getPerspectiveTransform(src, np.float32(corners_px - (x0, y0)))
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(card, m, size, flags=cv2.INTER_AREA)
    alpha = cv2.warpPerspective(mask, m, size, flags=cv2.INTER_LINEAR) / 255.0
    shadow = cv2.GaussianBlur(alpha, (0, 0), 2.0)
    shadow = np.roll(shadow, (2, 1), axis=(0, 1)) * rng.uniform(0.25, 0.45)
    region = image[y0:y1, x0:x1].astype(np.float32)
    region *= 1 - shadow[..., None]
    region = region * (1 - alpha[..., None]) + warped * alpha[..., None]
    image[y0:y1, x0:x1] = np.clip(region, 0, 255).astype(np.uint8)


def photograph(mat: np.ndarray, s: float, size_mm, photo: Photo, rng) -> tuple[np.ndarray, np.ndarray]:
    """Put the flat mat into a camera frame; return the frame and the mm -> pixel homography."""
    fw, fh = photo.size
    mw, mh = size_mm
    height = fh * rng.uniform(*photo.fill)
    width = height * mw / mh
    if width > fw * 0.97:
        width = fw * 0.97
        height = width * mh / mw
    near = 1 - rng.uniform(*photo.keystone)
    top, bottom = (near, 1.0) if rng.random() < 0.5 else (1.0, near)  # which edge is farther
    quad = np.array([[-width / 2 * top, -height / 2], [width / 2 * top, -height / 2],
                     [width / 2 * bottom, height / 2], [-width / 2 * bottom, height / 2]])
    a = np.deg2rad(rng.uniform(*photo.tilt_deg))
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    quad = quad @ rot.T + (fw / 2 + rng.uniform(-0.03, 0.03) * fw, fh / 2 + rng.uniform(-0.02, 0.02) * fh)
    quad += rng.uniform(-0.008, 0.008, quad.shape) * fh
    # The whole mat stays in view, as a mounted camera is set up to see it.
    centre = np.array([fw / 2, fh / 2])
    reach = np.max(np.abs(quad - centre) / (centre - 4), axis=0).max()
    if reach > 1:
        quad = centre + (quad - centre) / reach
    corners_mm = np.float32([[0, 0], [mw, 0], [mw, mh], [0, mh]])
    h_mm_to_px = cv2.getPerspectiveTransform(corners_mm, np.float32(quad))
    frame = _table_texture(fh, fw, rng)
    scale = np.diag([1 / s, 1 / s, 1.0])
    m = h_mm_to_px @ scale
    warped = cv2.warpPerspective(mat, m, (fw, fh), flags=cv2.INTER_AREA)
    inside = cv2.warpPerspective(np.full(mat.shape[:2], 255, np.uint8), m, (fw, fh), flags=cv2.INTER_LINEAR)
    a = inside[..., None] / 255.0
    frame = (frame * (1 - a) + warped * a).astype(np.float32)
    frame = spoil(frame, photo, rng)
    return frame, h_mm_to_px


def _table_texture(h: int, w: int, rng) -> np.ndarray:
    base = np.array(rng.uniform([40, 70, 110], [70, 110, 160]), np.float32)
    grain = cv2.resize(rng.normal(0, 1, (h // 16 + 1, 8)).astype(np.float32), (w, h))
    grain = cv2.GaussianBlur(grain, (0, 0), 3)
    return np.clip(base * (1 + 0.18 * grain[..., None]), 0, 255)


def spoil(frame: np.ndarray, photo: Photo, rng) -> np.ndarray:
    """The camera's faults on a frame: uneven light and tint, glare, blur, noise and JPEG."""
    h, w = frame.shape[:2]
    xs = np.arange(w, dtype=np.float32)[None, :]
    ys = np.arange(h, dtype=np.float32)[:, None]
    gain = rng.uniform(*photo.light) * (1 + rng.uniform(*photo.gradient) * (xs / w - 0.5)
                                        + rng.uniform(*photo.gradient) * (ys / h - 0.5))
    tint = rng.uniform(0.92, 1.08, 3).astype(np.float32)
    frame = np.clip(frame * gain[..., None] * tint, 0, 255)
    for _ in range(int(rng.integers(1, 3))):
        cx, cy = rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h
        sx, sy = rng.uniform(25, 80), rng.uniform(25, 80)
        x0, x1 = int(max(cx - 3 * sx, 0)), int(min(cx + 3 * sx, w))
        y0, y1 = int(max(cy - 3 * sy, 0)), int(min(cy + 3 * sy, h))
        spot = (np.exp(-(((xs[:, x0:x1] - cx) / sx) ** 2 + ((ys[y0:y1] - cy) / sy) ** 2) / 2)
                * rng.uniform(*photo.glare))
        region = frame[y0:y1, x0:x1]
        region += (255 - region) * spot[..., None]
    frame = cv2.GaussianBlur(frame, (0, 0), rng.uniform(*photo.blur))
    frame = frame + rng.normal(0, rng.uniform(*photo.noise), frame.shape).astype(np.float32)
    frame = np.clip(frame, 0, 255).astype(np.uint8)
    quality = int(rng.integers(photo.jpeg[0], photo.jpeg[1] + 1))
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)
