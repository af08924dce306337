"""What the Splitter screen shows of a position: the pad's layout, the roll, who still writes it,
and each sheet with what it scores. Sheets and layouts are laid out by row then column, as drawn."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, ClassVar

from engine.splitter.actions import Roll
from engine.splitter.pads import HEIGHT, PADS, WIDTH, Pad, position, xy
from engine.splitter.scoring import Breakdown, breakdown

if TYPE_CHECKING:
    from engine.splitter.game import SplitterState


@dataclass(frozen=True)
class SplitterSheet:
    rows: tuple[tuple[int, ...], ...]    # rows[y][x]: the number written, 0 for none
    breakdown: Breakdown
    scoring: frozenset[tuple[int, int]]  # (x, y) of the cells in groups that score


@dataclass(frozen=True)
class SplitterBoard:
    WIDTH: ClassVar[int] = WIDTH
    HEIGHT: ClassVar[int] = HEIGHT

    pad: str
    layout: tuple[tuple[str, ...], ...]  # layout[y][x]: "none", "cell", "star" or "heart"
    turn: int                            # turns finished
    roller: int
    roll: Roll | None                    # this turn's dice, None until rolled
    paper: bool                          # the sheets are written on paper, entered after the rolls
    rolls: tuple[Roll, ...]              # on paper: the game's rolls so far (else none)
    waiting: tuple[int, ...]             # the seats still to write the roll (on paper: to enter)
    sheets: tuple[SplitterSheet, ...]
    unwritten: tuple[tuple[Roll, ...], ...]  # on paper: each seat's rolls not on its sheet yet


def build_board(state: SplitterState) -> SplitterBoard:
    pad, seats = state.pad.name, range(len(state.sheets))
    unwritten = tuple(tuple(state.unwritten(seat)) if state.paper else () for seat in seats)
    return SplitterBoard(pad, _layout(pad), state.turn, state.roller(), state.roll, state.paper, state.rolls,
                         state.waiting_for(), tuple(_sheet(values, pad) for values in state.sheets), unwritten)


@lru_cache(maxsize=None)
def _layout(pad_name: str) -> tuple[tuple[str, ...], ...]:
    pad = PADS[pad_name]
    return tuple(tuple(_kind(pad, position(x, y)) for x in range(WIDTH)) for y in range(HEIGHT))


def _kind(pad: Pad, pos: int) -> str:
    if not pad.is_cell(pos):
        return "none"
    return "star" if pos in pad.stars else "heart" if pos in pad.hearts else "cell"


@lru_cache(maxsize=4096)  # one sheet changes per move: the others are found here
def _sheet(values: tuple[int, ...], pad_name: str) -> SplitterSheet:
    result = breakdown(values, PADS[pad_name])
    rows = tuple(values[y * WIDTH:(y + 1) * WIDTH] for y in range(HEIGHT))
    scoring = frozenset(xy(cell) for group in result.groups if group.points for cell in group.cells)
    return SplitterSheet(rows, result, scoring)
