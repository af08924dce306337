"""Synthetic photos of filled score sheets, to train the digit reader and to measure it.

The printed sheet is rendered from its drawing (``vision.sheet_print``), filled in a writer's hand
(``vision.synth.handwriting``), dirtied (smudges, specks, the back of the sheet showing through),
then photographed: laid on a table at any angle, tilted, lit unevenly with a shadow, blurred as a
phone or a webcam blurs, noisy and JPEG-compressed. Everything follows from the seeds.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Mapping

import cv2
import numpy as np

from vision.mat_print import render
from vision.sheet_layout import SheetLayout
from vision.sheet_print import sheet_drawing
from vision.synth.handwriting import Writer, write_digit, write_strokes

PX_PER_MM = 8.0          # the paper before it is photographed
FRAME = (1280, 960)      # width, height of the photos
TEXTS = {"title": "Splitter", "seat": "Seat", "footer": "Print at 100 %"}


@dataclass(frozen=True)
class SheetPhoto:
    image: np.ndarray                     # BGR photo
    values: Mapping[tuple[int, int], int]  # what is written in each cell: 1..6, or 0 for nothing
    seat: int | None                      # the seat box crossed
    to_frame: np.ndarray                  # homography from sheet mm to photo pixels


@lru_cache(maxsize=8)
def blank_sheet(layout: SheetLayout) -> np.ndarray:
    image = render(sheet_drawing(layout, TEXTS), layout.size, PX_PER_MM)
    image.flags.writeable = False
    return image


def sheet_photo(layout: SheetLayout, seed: int, writer_seed: int,
                values: Mapping[tuple[int, int], int] | None = None,
                doubles: Mapping[tuple[int, int], tuple[int, int]] | None = None,
                seat: int | None = -1, blur: float | None = None) -> SheetPhoto:
    """A photo of ``layout``'s sheet filled by writer ``writer_seed``. ``values`` (by default every
    cell 1..6 at random) may hold 0 for a cell left empty; ``doubles`` writes two digits in a cell;
    ``seat`` is the seat box crossed (-1: one at random, None: none); ``blur`` a Gaussian sigma in
    photo pixels (default: drawn at random, as is everything else)."""
    rng = np.random.default_rng([seed, 23])
    writer = Writer.from_seed(writer_seed)
    if values is None:
        values = {xy: int(rng.integers(1, 7)) for xy, _ in layout.cells}
    if seat == -1:
        seat = int(rng.integers(1, len(layout.seats) + 1))
    paper = blank_sheet(layout).copy()
    show_through(paper, rng)
    for (x, y), _ in layout.cells:
        left, top, right, bottom = (v * PX_PER_MM for v in layout.cell_box(x, y))
        centre = np.array([(left + right) / 2, (top + bottom) / 2]) + rng.normal(0, 0.5, 2).clip(-1.2, 1.2) * PX_PER_MM
        if doubles and (x, y) in doubles:
            small = replace(writer, height_mm=min(writer.height_mm, 4.5))
            for digit, dx in zip(doubles[(x, y)], (-0.26, 0.26)):
                write_digit(paper, digit, (centre[0] + dx * layout.cell_mm * PX_PER_MM, centre[1]), PX_PER_MM,
                            small, rng)
        elif values.get((x, y)):
            write_digit(paper, values[(x, y)], tuple(centre), PX_PER_MM, writer, rng)
    if seat is not None:
        cross(paper, layout.seats[seat - 1], writer, rng)
    dirty(paper, rng)
    image, to_frame = photograph(paper, layout.size, rng, blur)
    return SheetPhoto(image, dict(values), seat, to_frame)


def cross(paper: np.ndarray, box, writer: Writer, rng: np.random.Generator) -> None:
    """A player's X in a seat box."""
    s = box.size * PX_PER_MM
    c = np.array([box.x * PX_PER_MM + s / 2, box.y * PX_PER_MM + s / 2]) + rng.normal(0, 0.06 * s, 2)
    half = s * rng.uniform(0.3, 0.5)
    strokes = [np.array([c - half, c + half]), np.array([c + (half, -half), c + (-half, half)])]
    write_strokes(paper, [st + rng.normal(0, 0.05 * s, st.shape) for st in strokes],
                  writer.stroke_mm * PX_PER_MM, writer.pen, writer.pressure)


def show_through(paper: np.ndarray, rng: np.random.Generator) -> None:
    """The grid printed on the back of thin paper, faintly, mirrored and a little off."""
    if rng.random() < 0.5:
        return
    back = cv2.flip(paper, 1).astype(np.float32)
    shift = np.float32([[1, 0, rng.normal(0, 20)], [0, 1, rng.normal(0, 20)]])
    back = cv2.warpAffine(back, shift, paper.shape[1::-1], borderValue=(255, 255, 255))
    darkness = (1 - back / 255) * rng.uniform(0.05, 0.15)
    paper[:] = (paper * (1 - darkness)).astype(np.uint8)


def dirty(paper: np.ndarray, rng: np.random.Generator) -> None:
    """Smudges (wide and faint) and specks (small and dark)."""
    h, w = paper.shape[:2]
    shade = np.zeros((h, w), np.float32)
    for _ in range(int(rng.integers(0, 5))):
        centre = (int(rng.integers(w)), int(rng.integers(h)))
        axes = tuple(int(v) for v in rng.uniform(1, 5, 2) * PX_PER_MM)
        cv2.ellipse(shade, centre, axes, float(rng.uniform(0, 180)), 0, 360, float(rng.uniform(0.05, 0.2)), -1)
    shade = cv2.GaussianBlur(shade, (0, 0), 1.5 * PX_PER_MM)
    for _ in range(int(rng.integers(0, 8))):
        centre = (int(rng.integers(w)), int(rng.integers(h)))
        cv2.circle(shade, centre, int(rng.uniform(0.1, 0.3) * PX_PER_MM), 0.7, -1, cv2.LINE_AA)
    paper[:] = (paper * (1 - shade[..., None])).astype(np.uint8)


def photograph(paper: np.ndarray, size_mm: tuple[float, float], rng: np.random.Generator,
               blur: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The sheet laid on a table and photographed; the photo and the mm -> pixel homography."""
    fw, fh = FRAME
    w, h = size_mm
    scale = rng.uniform(3.8, 5.0)  # px per mm: the whole sheet fits the frame at any angle
    angle = rng.uniform(0, 2 * np.pi)
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) - (w / 2, h / 2)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    placed = corners @ rot.T * scale
    placed += rng.normal(0, 0.035 * h * scale, placed.shape)  # tilt: perspective
    span = placed.max(axis=0) - placed.min(axis=0)
    room = np.maximum(np.array([fw, fh]) - span - 8, 0)
    placed += -placed.min(axis=0) + 4 + rng.uniform(0, 1, 2) * room
    to_frame = cv2.getPerspectiveTransform(corners.astype(np.float32) + np.float32([w / 2, h / 2]),
                                           placed.astype(np.float32))
    from_paper = to_frame @ np.diag([1 / PX_PER_MM, 1 / PX_PER_MM, 1.0])
    soft = cv2.GaussianBlur(paper, (0, 0), 0.4 * PX_PER_MM / scale)  # against aliasing
    tint = np.array(rng.uniform(0.9, 1.0, 3), np.float32)
    sheet = cv2.warpPerspective(soft, from_paper, FRAME, flags=cv2.INTER_LINEAR).astype(np.float32) * tint
    mask = cv2.warpPerspective(np.ones(paper.shape[:2], np.float32), from_paper, FRAME, flags=cv2.INTER_LINEAR)
    image = table(rng) * (1 - mask[..., None]) + sheet * mask[..., None]
    image *= lighting(rng)[..., None]
    sigma = rng.choice([rng.uniform(0.2, 1.4), rng.uniform(1.4, 2.0)], p=[0.85, 0.15]) if blur is None else blur
    if sigma > 0:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    if rng.random() < 0.25:
        image = cv2.filter2D(image, -1, motion_kernel(rng))
    image += rng.normal(0, rng.uniform(1, 6), image.shape).astype(np.float32)
    image = np.clip(image, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(55, 96))])
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR), to_frame


def table(rng: np.random.Generator) -> np.ndarray:
    """A table top: a colour with blotches and grain."""
    fw, fh = FRAME
    base = rng.uniform(40, 200, 3).astype(np.float32)
    blotch = cv2.resize(rng.normal(0, 18, (6, 8, 3)).astype(np.float32), FRAME, interpolation=cv2.INTER_CUBIC)
    grain = rng.normal(0, 6, (fh, fw, 1)).astype(np.float32)
    return np.clip(base + blotch + grain, 0, 255)


def lighting(rng: np.random.Generator) -> np.ndarray:
    """Light falling off across the frame, and sometimes the shadow of a hand or a head."""
    fw, fh = FRAME
    yy, xx = np.mgrid[0:fh, 0:fw].astype(np.float32)
    gx, gy = rng.uniform(-0.25, 0.25, 2)
    gain = 1.0 + gx * (xx / fw - 0.5) + gy * (yy / fh - 0.5)
    gain *= rng.uniform(0.75, 1.1)
    if rng.random() < 0.5:
        a = rng.uniform(0, 2 * np.pi)
        side = (xx - rng.uniform(0, fw)) * np.cos(a) + (yy - rng.uniform(0, fh)) * np.sin(a)
        width = rng.uniform(10, 80)
        depth = rng.uniform(0.2, 0.45)
        gain *= 1 - depth / (1 + np.exp(-side / width))
    return gain


def motion_kernel(rng: np.random.Generator) -> np.ndarray:
    """A short straight smear: the camera or the sheet moved."""
    length = int(rng.integers(3, 7))
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1
    centre = ((length - 1) / 2, (length - 1) / 2)
    kernel = cv2.warpAffine(kernel, cv2.getRotationMatrix2D(centre, float(rng.uniform(0, 180)), 1.0),
                            (length, length))
    return kernel / kernel.sum()

