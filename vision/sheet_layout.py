"""A paper score sheet: its cells, ArUco markers and seat field, in millimetres.

The geometry is data (``config/sheets/<game>.toml``, one table for all the pads of a game, each pad
with its own marker ids); which frame positions are cells, and which of them carry a star or a
heart, is given by the game (``cells``), so the printed sheet and the rules cannot disagree.
The sheet is located like a mat: :meth:`SheetLayout.mat` is the sheet as a mat of no zones.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from vision.mat import MatLayout, Marker

CELL_KINDS = ("cell", "star", "heart")
READ_KEYS = ("px_per_mm", "max_reprojection_px", "inner_margin_mm", "ink", "faint_ink", "speck_mm2", "empty_mm2",
             "sure", "min_sharpness")
WHITE = [255, 255, 255]


class SheetLayoutError(ValueError):
    """A sheet layout file is inconsistent, or has no such pad."""


@dataclass(frozen=True)
class SeatBox:
    seat: int  # from 1, as the players count
    x: float   # top-left corner, mm
    y: float
    size: float


@dataclass(frozen=True)
class SheetLayout:
    """One pad's sheet. ``cells`` maps (x, y) frame positions to "cell", "star" or "heart", in
    reading order; ``other_pads`` maps every other pad of the game to its sheet's marker ids."""

    game: str
    pad: str
    size: tuple[float, float]
    page: tuple[float, float]
    cell_mm: float
    grid: tuple[float, float]
    cells: tuple[tuple[tuple[int, int], str], ...]
    dictionary: str
    markers: tuple[Marker, ...]
    title: tuple[float, float, float]
    seats: tuple[SeatBox, ...]
    read: Mapping[str, float] = field(hash=False)
    other_pads: Mapping[str, tuple[int, ...]] = field(hash=False)

    def cell_box(self, x: int, y: int) -> tuple[float, float, float, float]:
        """The square of frame position (x, y): left, top, right, bottom in mm."""
        left, top = self.grid[0] + x * self.cell_mm, self.grid[1] + y * self.cell_mm
        return left, top, left + self.cell_mm, top + self.cell_mm

    def per_page(self) -> tuple[int, int]:
        """Columns and rows of sheets on a page."""
        return int(self.page[0] // self.size[0]), int(self.page[1] // self.size[1])

    def mat(self) -> MatLayout:
        """The sheet as a white mat with its four markers and no zones (to draw and locate it)."""
        return MatLayout(self.game, f"pad {self.pad} sheet", 1, self.size, (0.0, 0.0), self.dictionary,
                         self.markers, (), {"background": WHITE, "paper_margin_mm": 0.0})


def sheet_layout(data: Mapping[str, Any], pad: str, cells: Mapping[tuple[int, int], str],
                 source: str = "sheet") -> SheetLayout:
    """Check one sheet file's data and build the layout of ``pad`` with the game's ``cells``."""
    pads = data.get("pads", {})
    if pad not in pads:
        raise SheetLayoutError(f"{source}: no sheet for pad {pad!r}; pads: {', '.join(sorted(pads)) or 'none'}")
    try:
        size = _pair(data["sheet_mm"])
        page = _pair(data["page_mm"])
        cell_mm = float(data["cell_mm"])
        grid = _pair(data["grid_mm"])
        marker_mm = float(data["marker_mm"])
        corners = [_pair(at) for at in data["marker_at"]]
        title = tuple(float(v) for v in data["title_mm"])
        seat = data["seat"]
        seats = tuple(SeatBox(n + 1, float(seat["x"]) + n * (float(seat["box"]) + float(seat["gap"])),
                              float(seat["y"]), float(seat["box"])) for n in range(int(seat["seats"])))
        read = {key: float(data["read"][key]) for key in READ_KEYS}
        ids = {name: tuple(int(i) for i in entry["markers"]) for name, entry in pads.items()}
    except (KeyError, TypeError, ValueError) as exc:
        raise SheetLayoutError(f"{source}: missing or malformed {exc}") from None
    if len(corners) != 4 or any(len(m) != 4 for m in ids.values()) or len(title) != 3:
        raise SheetLayoutError(f"{source}: a sheet has four markers (marker_at and each pad's markers) "
                               "and a title of x, y and size")
    all_ids = [i for m in ids.values() for i in m]
    if len(set(all_ids)) != len(all_ids):
        raise SheetLayoutError(f"{source}: the pads' sheets need marker ids of their own")
    if page[0] < size[0] or page[1] < size[1]:
        raise SheetLayoutError(f"{source}: a {size[0]:g} x {size[1]:g} mm sheet does not fit the page")
    wrong = sorted({kind for kind in cells.values() if kind not in CELL_KINDS})
    if wrong:
        raise SheetLayoutError(f"{source}: cell kinds are {', '.join(CELL_KINDS)}, not {', '.join(wrong)}")
    markers = tuple(Marker(i, x, y, marker_mm) for i, (x, y) in zip(ids[pad], corners))
    layout = SheetLayout(str(data.get("game", "")), pad, size, page, cell_mm, grid,
                         tuple(sorted(cells.items(), key=lambda item: (item[0][1], item[0][0]))),
                         str(data.get("dictionary", "DICT_4X4_50")), markers, title, seats, read,
                         {name: m for name, m in ids.items() if name != pad})
    _check_fits(layout, source)
    return layout


def _pair(value: Any) -> tuple[float, float]:
    a, b = (float(v) for v in value)
    return a, b


def _check_fits(layout: SheetLayout, source: str) -> None:
    """The markers, the cells and the seat boxes lie on the sheet and do not overlap."""
    boxes = [(f"marker {m.id}", (m.x, m.y, m.x + m.size, m.y + m.size)) for m in layout.markers]
    boxes += [(f"cell ({x},{y})", layout.cell_box(x, y)) for (x, y), _ in layout.cells]
    boxes += [(f"seat box {s.seat}", (s.x, s.y, s.x + s.size, s.y + s.size)) for s in layout.seats]
    width, height = layout.size
    for name, (x0, y0, x1, y1) in boxes:
        if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
            raise SheetLayoutError(f"{source}: {name} lies off the {width:g} x {height:g} mm sheet")
    for i, (a, ba) in enumerate(boxes):
        for b, bb in boxes[i + 1:]:
            if min(ba[2], bb[2]) - max(ba[0], bb[0]) > 0.01 and min(ba[3], bb[3]) - max(ba[1], bb[1]) > 0.01:
                raise SheetLayoutError(f"{source}: {a} overlaps {b}")
