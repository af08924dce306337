"""Drawing score sheets at true scale, several to a page, with the mats' primitives.

A sheet is the mat drawing of its markers (``vision.mat_print.mat_drawing`` of ``layout.mat()``)
plus its cells, their coordinates, the seat boxes and a title. Stars and hearts are drawn light
so that ink written over them stays darker than they are; the reader subtracts the blank
drawing (:func:`sheet_drawing` with no texts) from what it sees.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Mapping, Sequence

import numpy as np

from vision.mat_print import Label, Outline, Shape, mat_drawing
from vision.sheet_layout import SheetLayout

CELL_LINE = (110, 110, 110)
LIGHT = (210, 210, 210)   # stars, hearts: much lighter than any pen
NUMBERS = (150, 150, 150)
LINE_MM = 0.35


def sheet_drawing(layout: SheetLayout, texts: Mapping[str, str] | None = None) -> list[Shape]:
    """One sheet with its top-left corner at (0, 0). ``texts`` (in the players' language):
    "title", "seat" (printed above the seat boxes) and "footer"; left out when missing."""
    texts = texts or {}
    shapes = mat_drawing(layout.mat())
    size = layout.cell_mm
    for (x, y), kind in layout.cells:
        left, top, right, bottom = layout.cell_box(x, y)
        shapes.append(Outline(((left, top), (right, top), (right, bottom), (left, bottom)), CELL_LINE, LINE_MM))
        centre = ((left + right) / 2, (top + bottom) / 2)
        if kind == "star":
            shapes.append(Outline(star(centre, size * 0.44), LIGHT, LINE_MM))
        elif kind == "heart":
            shapes.append(Outline(heart(centre, size * 0.4), LIGHT, LINE_MM))
    numbers = size * 0.2
    columns = {x for (x, _), _ in layout.cells}
    rows = {y for (_, y), _ in layout.cells}
    gx, gy = layout.grid
    shapes += [Label(gx + (x + 0.5) * size, gy - numbers, str(x), numbers, NUMBERS) for x in sorted(columns)]
    shapes += [Label(gx - numbers, gy + (y + 0.5) * size, str(y), numbers, NUMBERS) for y in sorted(rows)]
    for box in layout.seats:
        s = box.size
        shapes.append(Outline(((box.x, box.y), (box.x + s, box.y), (box.x + s, box.y + s), (box.x, box.y + s)),
                              CELL_LINE, LINE_MM))
        shapes.append(Label(box.x + s / 2, box.y + s + s * 0.45, str(box.seat), s * 0.4, NUMBERS))
    if texts.get("seat"):
        first, last = layout.seats[0], layout.seats[-1]
        shapes.append(Label((first.x + last.x + last.size) / 2, first.y - first.size * 0.5, texts["seat"],
                            first.size * 0.45, CELL_LINE))
    tx, ty, tsize = layout.title
    if texts.get("title"):
        shapes.append(Label(tx, ty, texts["title"], tsize, (0, 0, 0)))
    if texts.get("footer"):
        bottom = layout.markers[-1]
        shapes.append(Label(layout.size[0] / 2, bottom.y + bottom.size / 2, texts["footer"], 1.8, NUMBERS))
    return shapes


def page_drawing(layout: SheetLayout, count: int, texts: Mapping[str, str] | None = None) -> list[Shape]:
    """``count`` sheets on one page, row by row, with dashed cut lines between them."""
    columns, rows = layout.per_page()
    if not 1 <= count <= columns * rows:
        raise ValueError(f"a page holds 1 to {columns * rows} sheets, not {count}")
    sheet = sheet_drawing(layout, texts)
    w, h = layout.size
    shapes: list[Shape] = []
    for n in range(count):
        shapes += translated(sheet, (n % columns) * w, (n // columns) * h)
    used_rows = (count + columns - 1) // columns
    for c in range(1, min(count, columns)):
        shapes += dashes((c * w, 0.0), (c * w, used_rows * h))
    for r in range(1, used_rows + 1):
        if r * h < layout.page[1] - 0.01:
            shapes += dashes((0.0, r * h), (min(count, columns) * w, r * h))
    return shapes


def translated(shapes: Sequence[Shape], dx: float, dy: float) -> list[Shape]:
    out: list[Shape] = []
    for shape in shapes:
        if isinstance(shape, Outline):
            out.append(replace(shape, points=tuple((x + dx, y + dy) for x, y in shape.points)))
        else:
            out.append(replace(shape, x=shape.x + dx, y=shape.y + dy))
    return out


def dashes(start: tuple[float, float], end: tuple[float, float], dash: float = 3.0) -> list[Shape]:
    """A dashed cut line."""
    a, b = np.asarray(start), np.asarray(end)
    length = float(np.hypot(*(b - a)))
    out: list[Shape] = []
    for t in np.arange(0.0, length, 2 * dash):
        p, q = a + (b - a) * t / length, a + (b - a) * min(t + dash, length) / length
        out.append(Outline(((float(p[0]), float(p[1])), (float(q[0]), float(q[1]))), NUMBERS, 0.2, closed=False))
    return out


def star(centre: tuple[float, float], radius: float) -> tuple[tuple[float, float], ...]:
    """A five-pointed star, point up."""
    angles = np.deg2rad(-90 + 36 * np.arange(10))
    radii = np.where(np.arange(10) % 2, radius * 0.45, radius)
    return tuple((float(centre[0] + r * np.cos(a)), float(centre[1] + r * np.sin(a))) for a, r in zip(angles, radii))


def heart(centre: tuple[float, float], radius: float) -> tuple[tuple[float, float], ...]:
    """The classic heart curve, about ``radius`` from the centre to its edge."""
    t = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    x = 16 * np.sin(t) ** 3
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t)) - 2.5
    scale = radius / 16
    return tuple((float(centre[0] + a * scale), float(centre[1] + b * scale)) for a, b in zip(x, y))
