"""The two Splitter score pads: which frame positions are cells, stars and hearts.

A position (x, y) of the 8 x 7 frame is numbered ``y * 8 + x``. Bit masks use the same
numbering, so all the cells of a sheet holding one number fit in one int and a group grows by
shifting (``adjacent``); lists indexed by position have 56 entries, unused where there is no cell.
"""
from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Sequence

WIDTH, HEIGHT = 8, 7
POSITIONS = WIDTH * HEIGHT

# Layouts exactly as drawn in the rules: "." no cell, "o" cell, "*" star cell, "h" heart cell.
_DRAWINGS = {
    "A": """
        . . o o o o . .
        . o o o o o o .
        o o o o o o o o
        * o o o o o o *
        o o o o o o o o
        . o o o o o o .
        . . o o o o . .
    """,
    "B": """
        o o o . . o h o
        o o o o o o o o
        . h o o o o o .
        . o o . . o o .
        . o o o h o o .
        o o o o o o o o
        o * o . . o * o
    """,
}

NOT_FIRST_COLUMN = sum(1 << p for p in range(POSITIONS) if p % WIDTH != 0)
NOT_LAST_COLUMN = sum(1 << p for p in range(POSITIONS) if p % WIDTH != WIDTH - 1)


def position(x: int, y: int) -> int:
    return y * WIDTH + x


def xy(pos: int) -> tuple[int, int]:
    return pos % WIDTH, pos // WIDTH


def mirror(pos: int) -> int:
    """The cell on the other side of the centre line, in the same row."""
    return pos - pos % WIDTH + WIDTH - 1 - pos % WIDTH


def adjacent(mask: int) -> int:
    """The positions orthogonally next to a position of ``mask`` (may leave the pad)."""
    return ((mask << 1) & NOT_FIRST_COLUMN) | ((mask >> 1) & NOT_LAST_COLUMN) | (mask << WIDTH) | (mask >> WIDTH)


@dataclass(frozen=True)
class Pad:
    """One score pad. ``pairs`` are (left, right) positions of each mirrored pair, top to bottom."""

    name: str
    cells: tuple[int, ...]
    non_cells: tuple[int, ...]
    stars: tuple[int, ...]
    hearts: tuple[int, ...]
    pairs: tuple[tuple[int, int], ...]
    cell_mask: int
    star_mask: int
    neighbour_masks: tuple[int, ...]  # by position: the neighbouring cells as a bit mask

    def is_cell(self, pos: int) -> bool:
        return 0 <= pos < POSITIONS and bool(self.cell_mask >> pos & 1)

    def cell_values(self, values: Sequence[int]) -> tuple[int, ...]:
        """The values of a sheet's cells, in reading order."""
        return itemgetter(*self.cells)(values)

    def non_cell_values(self, values: Sequence[int]) -> tuple[int, ...]:
        """The values at the frame positions that are not cells (all 0 on a sheet that fits)."""
        return itemgetter(*self.non_cells)(values)


def _build(name: str, drawing: str) -> Pad:
    rows = [line.split() for line in drawing.strip().splitlines()]
    assert len(rows) == HEIGHT and all(len(r) == WIDTH for r in rows), name
    marks = {position(x, y): mark for y, row in enumerate(rows) for x, mark in enumerate(row)}
    cells = tuple(p for p in range(POSITIONS) if marks[p] != ".")
    cell_mask = sum(1 << p for p in cells)
    assert all(marks[mirror(p)] != "." for p in cells), f"pad {name} is not mirror-symmetric"
    neighbour_masks = tuple(adjacent(1 << p) & cell_mask if p in cells else 0
                            for p in range(POSITIONS))
    stars = tuple(p for p in cells if marks[p] == "*")
    assert not any(marks[p] == marks[mirror(p)] == "h" for p in cells), f"pad {name}: a pair of hearts"
    return Pad(
        name=name,
        cells=cells,
        non_cells=tuple(p for p in range(POSITIONS) if p not in cells),
        stars=stars,
        hearts=tuple(p for p in cells if marks[p] == "h"),
        pairs=tuple((p, mirror(p)) for p in cells if p % WIDTH < WIDTH // 2),
        cell_mask=cell_mask,
        star_mask=sum(1 << p for p in stars),
        neighbour_masks=neighbour_masks,
    )


PADS = {name: _build(name, drawing) for name, drawing in _DRAWINGS.items()}
