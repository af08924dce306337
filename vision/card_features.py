"""What the classifiers see of a card: its face rectified upright, a shape description that ignores
colour (for the printed value) and a colour description that ignores the printed shapes.

Cards are rectified to a fixed portrait size, so a card lying in any of its four 90-degree turns
looks the same except for a half turn; the enrolment shows the classifiers both half turns.
Functions take and return batches: faces are an array n x height x width x 3 (BGR).
"""
from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.arrays import masked_median, unit_rows
from vision.card_glyphs import EMBEDDING, INPUT_SIZE, glyph_vectors

CARD_SIZE = (96, 144)         # width, height of a rectified card, pixels
_RIM = 2                      # pixels of the quarter-size face's border left out of its colour
_CELL, _BINS = 8, 9           # histogram of oriented gradients: 8x8-pixel cells, 9 directions
_BATCH = 64                   # images hog works on at once (see hog)
INDEX_SIZE = (24, 48)         # the corner where a playing card prints its index (width, height)


def portrait(corners: np.ndarray, lengths: np.ndarray | None = None) -> np.ndarray:
    """Corners reordered so the first side (corner 0 -> 1) is a short side of the card.

    ``lengths`` are the four side lengths to compare (e.g. measured on the mat in mm, where
    perspective does not mislead); by default they are measured in the image.
    """
    c = np.asarray(corners, np.float32)
    if lengths is None:
        lengths = np.linalg.norm(c[[1, 2, 3, 0]] - c, axis=1)
    if lengths[0] + lengths[2] > lengths[1] + lengths[3]:
        c = c[[1, 2, 3, 0]]
    return c


def rectify(frame: np.ndarray, corners_list) -> np.ndarray:
    """The cards seen from the front, upright or upside down, at CARD_SIZE: n x h x w x 3.

    Corners are clockwise, the first side short (see :func:`portrait`). A card much larger than
    CARD_SIZE in the frame is warped at a multiple of the size and then shrunk, which averages
    pixels instead of skipping them.
    """
    w, h = CARD_SIZE
    faces = np.empty((len(corners_list), h, w, 3), np.uint8)
    for i, corners in enumerate(corners_list):
        c = np.asarray(corners, np.float32)
        height = max(np.hypot(*(c[3] - c[0])), np.hypot(*(c[2] - c[1])))
        k = min(max(int(round(height / h)), 1), 4)
        dst = np.float32([[0, 0], [w * k, 0], [w * k, h * k], [0, h * k]])
        m = cv2.getPerspectiveTransform(c, dst)
        face = cv2.warpPerspective(frame, m, (w * k, h * k), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)
        faces[i] = face if k == 1 else cv2.resize(face, CARD_SIZE, interpolation=cv2.INTER_AREA)
    return faces


def half_turn(faces: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(faces[:, ::-1, ::-1])


def soften(faces: np.ndarray, sigma: float = 1.5) -> np.ndarray:
    """The faces as a camera slightly out of focus would see them."""
    n, h, w, c = faces.shape
    return cv2.GaussianBlur(_tall(faces), (0, 0), sigma).reshape(n, h, w, c)


def _tall(faces: np.ndarray) -> np.ndarray:
    """The batch as one tall image, so one OpenCV call converts every face."""
    n, h, w, c = faces.shape
    return faces.reshape(n * h, w, c)


def ink(images: np.ndarray) -> np.ndarray:
    """Strong colour or darkness, whatever the hue, of n BGR images h x w: one tall image n*h x w."""
    hsv = cv2.cvtColor(_tall(images), cv2.COLOR_BGR2HSV)
    return cv2.max(hsv[..., 1], cv2.bitwise_not(hsv[..., 2]))


SHAPE_PARTS = ("glyph", "index", "whole")


def shape_features(faces: np.ndarray, parts: tuple[bool, bool, bool] = (True, True, True)) -> np.ndarray:
    """What the printed value looks like, whatever its colour. One row per face, three parts
    (SHAPE_PARTS, each of unit length; :func:`part_slices` tells where each is):

    - ``glyph``: the learned description (``card_glyphs``) of the ink in the middle of the card,
      cut out, centred and scaled to a fixed box (a large printed value, the central pips or
      picture), so imprecise corners do not move it;
    - ``index``: the two corners where playing cards print their index, added so that a card
      upside down gives the same;
    - ``whole``: the whole card at half resolution, softened (layout, pictures, back pattern).

    Ink is strong colour or darkness, whatever the hue; which parts matter depends on the deck,
    and enrolment weighs them (see card_model). A part not asked for in ``parts`` is left zero.
    """
    n, h, w, _ = faces.shape
    tall = ink(faces)
    cards = tall.reshape(n, h, w)
    out = np.zeros((n, part_slices()[-1].stop), np.float32)
    glyph, index, whole = part_slices()
    if parts[0]:
        out[:, glyph] = unit_rows(glyph_vectors(value_crops(faces)))
    if parts[1]:
        iw, ih = INDEX_SIZE
        corners = np.concatenate([cards[:, :ih, :iw], cards[:, h - ih:, w - iw:][:, ::-1, ::-1]])
        both = hog(corners.astype(np.float32))
        out[:, index] = unit_rows(both[:n] + both[n:])
    if parts[2]:
        # Soften fine print (back patterns, paper texture) that sharp and blurred photos show
        # differently; the layout of the card is far coarser.
        half = cv2.GaussianBlur(cv2.resize(tall, (w // 2, n * h // 2), interpolation=cv2.INTER_AREA), (5, 5), 0.8)
        out[:, whole] = unit_rows(hog(half.reshape(n, h // 2, w // 2).astype(np.float32)))
    return out


@lru_cache(maxsize=1)
def part_slices() -> list[slice]:
    """Where each of SHAPE_PARTS lies in a row of :func:`shape_features`."""
    sizes = [EMBEDDING, _hog_size(INDEX_SIZE), _hog_size((CARD_SIZE[0] // 2, CARD_SIZE[1] // 2))]
    ends = np.cumsum(sizes)
    return [slice(int(e - s), int(e)) for s, e in zip(sizes, ends)]


def _hog_size(size: tuple[int, int]) -> int:
    return (size[0] // _CELL - 1) * (size[1] // _CELL - 1) * 4 * _BINS


def value_crops(faces: np.ndarray) -> np.ndarray:
    """The glyph network's input for each rectified face (n x h x w x 3): n x 40 x 32, 0-255, see
    :func:`_value_crop`. Read from the faces' darkness, not their ink: a camera's colour is coarser
    than its brightness (a Bayer filter, JPEG's half-resolution chroma), and the value of a small
    card, told from its colour, blurs into a blob (an 8 becomes a 0); its darkness keeps the holes
    and strokes."""
    n, h, w, _ = faces.shape
    dark = cv2.bitwise_not(cv2.cvtColor(_tall(faces), cv2.COLOR_BGR2GRAY)).reshape(n, h, w)
    return np.stack([_value_crop(card) for card in dark])


MARGIN = 0.3  # of the value's box, around it


def _value_crop(card: np.ndarray) -> np.ndarray:
    """The shades of the card's darkness in its middle, in the box around what is printed there
    without touching the edge of the middle (the value, pips or picture; all the middle when
    nothing is) grown by MARGIN, above the paper around it and scaled to its darkest, centred in the network's
    INPUT_SIZE box. Shades, not a thresholded mask: a small, soft value's mask fills the holes of
    an 8 or a 6, which its shades still show."""
    h, w = card.shape
    middle = card[h * 2 // 9:h * 7 // 9, w // 6:w * 5 // 6]
    _, mask = cv2.threshold(middle, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    mh, mw = mask.shape
    x, y, bw, bh, area = (stats[:, i] for i in range(5))
    inside = (x > 0) & (y > 0) & (x + bw < mw) & (y + bh < mh) & (area >= 4)
    inside[0] = False
    if inside.any():
        # with a margin: faint marks beside the value (a 6's or 9's underline, a minus sign, the
        # thin 1 of a 10) fall under Otsu's level on a small card, and tell values apart
        x0, y0, x1, y1 = x[inside].min(), y[inside].min(), (x + bw)[inside].max(), (y + bh)[inside].max()
        m = round(MARGIN * max(x1 - x0, y1 - y0)) + 1
        x0, y0, x1, y1 = max(x0 - m, 0), max(y0 - m, 0), min(x1 + m, mw), min(y1 + m, mh)
    else:
        x0, y0, x1, y1 = 0, 0, mw, mh
    crop = middle[y0:y1, x0:x1].astype(np.float32) - masked_median(middle, cv2.bitwise_not(mask))
    crop = np.clip(crop * (255.0 / max(float(crop.max()), 8.0)), 0, 255)
    gh, gw = crop.shape
    s = min(INPUT_SIZE[0] / gw, INPUT_SIZE[1] / gh)
    nw, nh = max(1, round(gw * s)), max(1, round(gh * s))
    ox, oy = (INPUT_SIZE[0] - nw) // 2, (INPUT_SIZE[1] - nh) // 2
    out = np.zeros((INPUT_SIZE[1], INPUT_SIZE[0]), np.float32)
    out[oy:oy + nh, ox:ox + nw] = cv2.resize(crop, (nw, nh), interpolation=cv2.INTER_AREA)
    return out


def hog(images: np.ndarray) -> np.ndarray:
    """Histograms of oriented gradients of a batch of equal-size images (n x h x w): unsigned
    directions in 9 bins per 8x8 cell, blocks of 2x2 cells normalised (L2, clipped at 0.2,
    renormalised), blocks one cell apart. Works through the batch _BATCH images at a time: its
    temporaries (a dozen arrays of the batch's size) stay a few MB however many images come."""
    if len(images) > _BATCH:
        return np.concatenate([hog(images[i:i + _BATCH]) for i in range(0, len(images), _BATCH)])
    n, h, w = images.shape
    tall = np.ascontiguousarray(images, np.float32).reshape(n * h, w)
    gx = cv2.Sobel(tall, cv2.CV_32F, 1, 0, ksize=1)
    gy = cv2.Sobel(tall, cv2.CV_32F, 0, 1, ksize=1)
    gy.reshape(n, h, w)[:, [0, -1]] = 0   # no gradient across the seams between images
    magnitude, angle = cv2.cartToPolar(gx, gy, angleInDegrees=True)
    # Each pixel votes for the two direction bins (20 degrees wide, 0-180) nearest its angle.
    position = angle * (_BINS / 180) - 0.5                          # 0..2 * _BINS - 0.5
    low = np.floor(position)
    upper = (position - low).reshape(-1)
    low = _BIN_OF[low.astype(np.int32).reshape(-1) + 1]              # -1..2 * _BINS - 1 -> bin
    magnitude = magnitude.reshape(-1)
    ch, cw = h // _CELL, w // _CELL
    per_image = (ch * cw + 1) * _BINS                                 # bins of an image's cells and its spare
    slots = (np.arange(n, dtype=np.int32)[:, None] * per_image + _cell_slots(h, w)).reshape(-1)
    size = n * per_image
    counts = np.bincount(slots + low, magnitude * (1 - upper), size)
    counts += np.bincount(slots + _BIN_OF[low + 2], magnitude * upper, size)
    cells = counts.reshape(n, ch * cw + 1, _BINS)[:, :-1].reshape(n, ch, cw, _BINS).astype(np.float32)
    blocks = np.concatenate([cells[:, :-1, :-1], cells[:, :-1, 1:], cells[:, 1:, :-1], cells[:, 1:, 1:]], axis=3)
    blocks /= np.linalg.norm(blocks, axis=3, keepdims=True) + 1e-3
    blocks = np.minimum(blocks, 0.2)
    blocks /= np.linalg.norm(blocks, axis=3, keepdims=True) + 1e-3
    return blocks.reshape(n, -1)


_BIN_OF = np.arange(-1, 2 * _BINS + 1, dtype=np.int32) % _BINS      # index (k + 1) -> bin of k


@lru_cache(maxsize=8)
def _cell_slots(h: int, w: int) -> np.ndarray:
    """For each pixel of an image h x w, the index of its cell's first histogram bin (pixels past
    the last whole cell go to a spare cell)."""
    ch, cw = h // _CELL, w // _CELL
    rows, cols = np.arange(h)[:, None], np.arange(w)[None, :]
    cell = np.where((rows < ch * _CELL) & (cols < cw * _CELL), rows // _CELL * cw + cols // _CELL, ch * cw)
    slots = (cell * _BINS).astype(np.int32).reshape(-1)
    slots.flags.writeable = False  # shared by every call (cached)
    return slots


def colour_features(faces: np.ndarray) -> np.ndarray:
    """The hue (as a direction: cosine, sine), lightness and colourfulness of each card's most
    colourful pixels (CIE Lab), after white-balancing on its brightest pixels (its paper):
    n x 4, each about -1..1. Glare and dim light change lightness and colourfulness far more
    than hue, and the classifier learns how much each varies."""
    n, h, w, _ = faces.shape
    small = cv2.resize(_tall(faces), (w // 4, n * h // 4), interpolation=cv2.INTER_AREA)
    pixels = small.reshape(n, h // 4, w // 4, 3)[:, _RIM:-_RIM, _RIM:-_RIM].reshape(n, -1, 3)
    k = pixels.shape[1]
    white = np.maximum(np.partition(pixels, int(k * 0.92), axis=1)[:, int(k * 0.92)], 1).astype(np.float32)
    balanced = np.minimum(pixels * (255 / white[:, None, :]), 255).astype(np.uint8)
    lab = cv2.cvtColor(balanced.reshape(n * k, 1, 3), cv2.COLOR_BGR2Lab).reshape(n, k, 3).astype(np.float32)
    lab[..., 1:] -= 128
    chroma = np.abs(lab[..., 1]) + np.abs(lab[..., 2])
    vivid = np.argpartition(chroma, int(k * 0.6), axis=1)[:, int(k * 0.6):]   # the top 40 %
    lightness, a, b = np.take_along_axis(lab, vivid[..., None], axis=1).mean(axis=1).T
    hue = np.arctan2(b, a)
    return np.stack([np.cos(hue), np.sin(hue), lightness / 127.5 - 1, np.hypot(a, b) / 100], axis=1).astype(np.float32)
