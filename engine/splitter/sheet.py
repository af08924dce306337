"""A player's sheet entered as a whole (touch, camera, a text file or a saved position).

A grid is 7 rows of 8 whole numbers, exactly as the pad is drawn: 0 where the pad has no cell,
0 in an empty cell, 1..6 in a filled one. Checked values are kept as a tuple of 56 numbers by
position (see ``pads``). Every error names the row and the column, counted from 0 like (x, y).
In saved positions each row is a string of 8 digits ("00166100").
"""
from __future__ import annotations

from typing import Any, Sequence

from engine.core import RulesError
from engine.text import Text, tr
from engine.splitter.pads import HEIGHT, WIDTH, Pad, position


class SheetError(RulesError):
    """A sheet does not fit its pad; the message names the first wrong row and column."""


def _where(x: int, y: int) -> Text:
    return tr("row {y}, column {x}", x=x, y=y)


def _not_a_number(word: Any, x: int, y: int) -> SheetError:
    return SheetError(tr("{where}: {word!r} is not a whole number", where=_where(x, y), word=word))


def read_grid_text(text: str) -> list[list[int]]:
    """The grid written in ``text``: 7 non-blank lines of 8 whitespace-separated numbers."""
    grid = []
    for y, words in enumerate(line.split() for line in text.splitlines() if line.strip()):
        row = []
        for x, word in enumerate(words):
            try:
                row.append(int(word))
            except ValueError:
                raise _not_a_number(word, x, y) from None
        grid.append(row)
    return grid


def grid_from_rows(rows: Any) -> list[Any]:
    """A grid from row strings of digits (as saved in positions); other entries are left as they are."""
    if not isinstance(rows, list):
        return rows
    grid = []
    for y, row in enumerate(rows):
        if isinstance(row, str):
            if not (row.isascii() and row.isdigit()):
                x = next(x for x, char in enumerate(row) if char not in "0123456789")
                raise _not_a_number(row[x], x, y)
            row = list(map(int, row))
        grid.append(row)
    return grid


def rows_from_values(values: Sequence[int]) -> list[str]:
    """The inverse of ``grid_from_rows(values_from_grid(...))``: 7 strings of 8 digits."""
    return ["".join(map(str, values[y * WIDTH:(y + 1) * WIDTH])) for y in range(HEIGHT)]


def values_from_grid(grid: Any, pad: Pad, complete: bool) -> tuple[int, ...]:
    """Check ``grid`` against ``pad`` and return the values by position (0 = empty or no cell).

    ``complete`` sheets have a number in every cell; others may have empty mirrored pairs.
    """
    if not isinstance(grid, (list, tuple)) or len(grid) != HEIGHT:
        count = len(grid) if isinstance(grid, (list, tuple)) else 0
        raise SheetError(tr("a sheet has {height} rows of {width} numbers, this one has {count} rows",
                            height=HEIGHT, width=WIDTH, count=count))
    values: list[int] = []
    for y, row in enumerate(grid):
        if not isinstance(row, (list, tuple)) or len(row) != WIDTH:
            count = len(row) if isinstance(row, (list, tuple)) else 0
            raise SheetError(tr("row {y} has {count} numbers, a sheet row has {width}",
                                y=y, count=count, width=WIDTH))
        values.extend(row)
    if not _fits(values, pad, complete):
        for pos, value in enumerate(values):  # name the first wrong cell
            is_cell = pad.is_cell(pos)
            if type(value) is not int or not (1 <= value <= 6 if is_cell and complete else
                                               0 <= value <= 6 if is_cell else value == 0):
                raise _cell_error(value, pos % WIDTH, pos // WIDTH, pad)
    for left, right in pad.pairs:
        if (values[left] == 0) != (values[right] == 0):
            x, y = left % WIDTH, left // WIDTH
            raise SheetError(tr("row {y}, columns {x} and {mirror_x}: a mirrored pair is filled together, "
                                "but only one of the two cells holds a number", y=y, x=x, mirror_x=WIDTH - 1 - x))
    return tuple(values)


def _fits(values: list, pad: Pad, complete: bool) -> bool:
    """Whether every value is right for its position (checked at C speed, errors found after)."""
    if set(map(type, values)) != {int} or not set(values) <= _NUMBERS:
        return False
    if any(pad.non_cell_values(values)):
        return False
    return not complete or 0 not in pad.cell_values(values)


_NUMBERS = frozenset(range(7))


def _cell_error(value: Any, x: int, y: int, pad: Pad) -> SheetError:
    """Why ``value`` cannot be at (x, y) of ``pad``."""
    if type(value) is not int:
        return _not_a_number(value, x, y)
    if not pad.is_cell(position(x, y)):
        return SheetError(tr("{where}: pad {pad} has no cell there, so it must be 0, not {value}",
                             where=_where(x, y), pad=pad.name, value=value))
    if value == 0:
        return SheetError(tr("{where}: the cell is empty (0), but a finished sheet has 1 to 6 in every cell",
                             where=_where(x, y)))
    return SheetError(tr("{where}: a cell holds 1 to 6 (0 when empty), not {value}", where=_where(x, y), value=value))
