"""A player's grid: its shape, its lines, HILO detection, removal and the closing of gaps.

A grid is a tuple of rows, each a tuple of cells (a card id, HIDDEN or GAP). The grid always
closes up after a removal, so the only shapes are 3x3, 2x3, 3x2, 1x3, 3x1 and empty.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator

from engine.hilo.cards import GAP, HIDDEN, colour_of, value_of

Grid = tuple[tuple[int, ...], ...]
Cell = tuple[int, int]

GRID_CARDS = 9  # dealt to each player, face down, as a 3x3 grid
SHAPES = ((3, 3), (2, 3), (3, 2), (1, 3), (3, 1), (0, 0))
VERTICAL, HORIZONTAL = "vertical", "horizontal"
SLIDES = (VERTICAL, HORIZONTAL)
DIAGONALS = ("diag", "anti")


@dataclass(frozen=True, order=True)
class Line:
    """A line of three cells: ("row", i), ("col", j), ("diag", 0) top-left to bottom-right, or
    ("anti", 0) top-right to bottom-left. Indices count from 0."""

    kind: str
    index: int = 0

    def notation(self) -> str:
        return self.kind if self.kind in DIAGONALS else f"{self.kind} {self.index + 1}"

    @property
    def is_diagonal(self) -> bool:
        return self.kind in DIAGONALS


def shape_problem(rows: list) -> str | None:
    """Why a list of rows (read from a file) is not a possible grid shape, or None."""
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        return "expected a list of rows of cards"
    dims = (len(rows), len(rows[0]) if rows else 0)
    if dims not in SHAPES or any(len(row) != dims[1] for row in rows):
        return f"a grid is 3x3, 2x3, 3x2, 1x3, 3x1 or empty, not rows of {[len(row) for row in rows]} cards"
    return None


def full_grid(rows: int = 3, cols: int = 3, cell: int = HIDDEN) -> Grid:
    return tuple((cell,) * cols for _ in range(rows))


def shape(grid: Grid) -> tuple[int, int]:
    return (len(grid), len(grid[0])) if grid else (0, 0)


def cells(grid: Grid) -> Iterator[tuple[int, int, int]]:
    """(row, col, cell) for every cell, row by row."""
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            yield r, c, cell


def hidden_count(grid: Grid) -> int:
    return sum(row.count(HIDDEN) for row in grid)


def known_sum(grid: Grid) -> int:
    """The total of the face-up cards."""
    return sum(value_of(cell) for row in grid for cell in row if cell >= 0)


def face_up_count(grid: Grid) -> int:
    return sum(1 for row in grid for cell in row if cell >= 0)


def with_cell(grid: Grid, row: int, col: int, cell: int) -> Grid:
    line = grid[row]
    return grid[:row] + (line[:col] + (cell,) + line[col + 1:],) + grid[row + 1:]


@lru_cache(maxsize=None)
def lines_of(dims: tuple[int, int]) -> tuple[tuple[Line, tuple[Cell, ...]], ...]:
    """The lines of a grid shape with their cells (rule: 3x3 has 8, 2x3 its rows, 3x2 its columns)."""
    rows, cols = dims
    found: list[tuple[Line, tuple[Cell, ...]]] = []
    if cols == 3:
        found += [(Line("row", r), tuple((r, c) for c in range(3))) for r in range(rows)]
    if rows == 3:
        found += [(Line("col", c), tuple((r, c) for r in range(3))) for c in range(cols)]
    if dims == (3, 3):
        found += [(Line("diag"), ((0, 0), (1, 1), (2, 2))), (Line("anti"), ((0, 2), (1, 1), (2, 0)))]
    return tuple(found)


def line_cells(grid: Grid, line: Line) -> tuple[Cell, ...] | None:
    """The cells of ``line`` in this grid, None when the grid has no such line."""
    for candidate, where in lines_of(shape(grid)):
        if candidate == line:
            return where
    return None


def hilo_lines(grid: Grid) -> tuple[Line, ...]:
    """Lines whose three cards are face up and of one colour (face-down cards never count)."""
    found = []
    for line, where in lines_of(shape(grid)):
        a, b, c = (grid[r][col] for r, col in where)
        if a >= 0 and b >= 0 and c >= 0 and colour_of(a) == colour_of(b) == colour_of(c):
            found.append(line)
    return tuple(found)


def remove_line(grid: Grid, line: Line) -> tuple[Grid, tuple[int, ...]]:
    """Take the line's cards out: a row or column closes up at once; a diagonal leaves GAPs for
    ``slide``. Returns the grid and the removed cards in discard order (lowest value last, on top)."""
    where = line_cells(grid, line)
    removed = tuple(sorted((grid[r][c] for r, c in where), key=value_of, reverse=True))
    if line.kind == "row":
        return grid[:line.index] + grid[line.index + 1:], removed
    if line.kind == "col":
        narrowed = tuple(row[:line.index] + row[line.index + 1:] for row in grid)
        return (narrowed if narrowed[0] else ()), removed
    for r, c in where:
        grid = with_cell(grid, r, c, GAP)
    return grid, removed


def has_gaps(grid: Grid) -> bool:
    return any(GAP in row for row in grid)


def slide(grid: Grid, direction: str) -> Grid:
    """Close the gaps a diagonal left: vertical -> each column closes up (2 rows x 3 columns);
    horizontal -> each row closes up (3 rows x 2 columns)."""
    if direction == HORIZONTAL:
        return tuple(tuple(cell for cell in row if cell != GAP) for row in grid)
    columns = [[row[c] for row in grid if row[c] != GAP] for c in range(len(grid[0]))]
    return tuple(tuple(column[r] for column in columns) for r in range(len(columns[0])))


@dataclass(frozen=True)
class Removal:
    """One HILO taken out: the line, the slide that followed (diagonals only) and the cards."""

    line: Line
    slide: str | None
    cards: tuple[int, ...]


def best_removals(grid: Grid) -> tuple[int, tuple[Removal, ...], Grid]:
    """The removals (line choices, slides, cascades) that leave the lowest total of face-up
    cards; among equal totals, the one removing most. Returns (total, removals, final grid)."""
    lines = hilo_lines(grid)
    if not lines:
        return known_sum(grid), (), grid
    best = None
    for line in lines:
        opened, removed = remove_line(grid, line)
        for direction in (SLIDES if line.is_diagonal else (None,)):
            after = slide(opened, direction) if direction else opened
            total, rest, final = best_removals(after)
            steps = (Removal(line, direction, removed),) + rest
            if best is None or (total, -len(steps)) < (best[0], -len(best[1])):
                best = (total, steps, final)
    return best
