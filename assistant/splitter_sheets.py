"""Splitter's paper sheets: the shipped sheet layout with the engine's pads, and scoring a photo.

The geometry is ``config/sheets/splitter.toml``; the cells, stars and hearts are
``engine.splitter.PADS``, so a printed sheet is always the pad the engine scores.
"""
from __future__ import annotations

import tomllib
from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from typing import Any

import cv2
import numpy as np

from engine.match import Match
from engine.splitter import PADS, Pad, Place, Roll, SplitterState, breakdown, format_score
from engine.splitter.pads import POSITIONS, position, xy
from engine.splitter.sheet import rows_from_values
from engine.text import tr
from vision.sheet import SheetNotFound, SheetReader, SheetUnreadable
from vision.sheet_layout import SheetLayout, sheet_layout

SHEET_FILE = resources.files("assistant.defaults") / "sheets" / "splitter.toml"


def pad_cells(pad: Pad) -> dict[tuple[int, int], str]:
    """The pad's cells by (x, y): "star", "heart" or "cell"."""
    return {xy(p): "star" if p in pad.stars else "heart" if p in pad.hearts else "cell"
            for p in pad.cells}


@lru_cache(maxsize=None)
def splitter_sheet(pad: str) -> SheetLayout:
    if pad not in PADS:
        raise ValueError(f"there is no pad {pad}; the pads are {', '.join(PADS)}")
    try:
        data = tomllib.loads(SHEET_FILE.read_text("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{SHEET_FILE}: not valid TOML: {exc}") from None
    return sheet_layout(data, pad, pad_cells(PADS[pad]), str(SHEET_FILE))


@lru_cache(maxsize=None)
def sheet_reader(pad: str) -> SheetReader:
    return SheetReader(splitter_sheet(pad))


def score_photo(path: str, pad: str, match: str | None = None) -> dict[str, Any]:
    """``score_text``'s result for the sheet in a photo, with each cell read and how sure, the
    cells read unsurely (``unsure``: (x, y) to check on the paper) and the seat crossed; with a
    saved ``match`` file, the cells its rolls do not explain (``unexplained``). A cell that is
    empty or holds two digits is a ValueError naming it."""
    image = cv2.imread(str(path))
    if image is None:
        raise ValueError(f"{path}: not a readable image")
    try:
        read = sheet_reader(pad).read(image)
    except (SheetNotFound, SheetUnreadable) as exc:
        raise ValueError(f"{path}: {exc}") from None
    wrong = [f"({c.x},{c.y}) {'holds two digits' if c.marks >= 2 else 'is empty'}"
             for c in read.cells if c.digit is None]
    if wrong:
        raise ValueError(f"{path}: cannot score the sheet, cell {'; cell '.join(wrong)}")
    values = [0] * POSITIONS
    for c in read.cells:
        values[position(c.x, c.y)] = c.digit
    result = breakdown(values, PADS[pad]).to_dict()
    sure = splitter_sheet(pad).read["sure"]
    result.update(pad=pad, seat=read.seat, rows=rows_from_values(values), cells=[c.to_dict() for c in read.cells],
                  unsure=[[c.x, c.y] for c in read.unsure(sure)])
    if match is not None:
        result["unexplained"] = [list(cell) for cell in unexplained_cells(values, PADS[pad], match_rolls(match))]
    return result


@dataclass(frozen=True)
class SheetReview:
    """A sheet read by the kiosk's camera, as the players check it before it counts: ``values``
    by (x, y) (0 where no single digit was read), the cells read unsurely or not at all
    (``unsure``, until a player sets them), and ``seat``, the seat box crossed (from 1; None
    when not one)."""

    pad: str
    values: dict[tuple[int, int], int]
    unsure: frozenset[tuple[int, int]]
    seat: int | None

    @classmethod
    def of_image(cls, image: np.ndarray, pad: str) -> "SheetReview":
        """The sheet in a camera frame; ValueError saying why none can be read (none in view,
        another pad's, too blurred)."""
        try:
            read = sheet_reader(pad).read(image)
        except (SheetNotFound, SheetUnreadable) as exc:
            raise ValueError(str(exc)) from None
        unsure = {(c.x, c.y) for c in read.unsure(splitter_sheet(pad).read["sure"])}
        return cls(pad, {(c.x, c.y): c.digit or 0 for c in read.cells}, frozenset(unsure), read.seat)

    def set(self, cell: tuple[int, int], digit: int) -> "SheetReview":
        """The players' reading of ``cell``: no longer unsure."""
        return replace(self, values={**self.values, cell: digit}, unsure=self.unsure - {cell})

    def total(self) -> int:
        return breakdown(self._positions(), PADS[self.pad]).total

    def _positions(self) -> list[int]:
        values = [0] * POSITIONS
        for (x, y), digit in self.values.items():
            values[position(x, y)] = digit
        return values

    def unexplained(self, rolls: list[Roll]) -> list[tuple[int, int]]:
        """The cells of the pairs the game's rolls do not explain (``unexplained_cells``)."""
        return unexplained_cells(self._positions(), PADS[self.pad], rolls)

    def placements(self, state: SplitterState, seat: int) -> tuple[list[Place], list[tuple[int, int]]]:
        """``seat``'s placements of this sheet on the pairs still empty on the kiosk, and the
        cells already entered there that the paper contradicts."""
        kept, places, differ = state.sheets[seat], [], []
        for left, right in state.pad.pairs:
            (x, y), mirror = xy(left), xy(right)
            here, there = self.values[(x, y)], self.values[mirror]
            if not kept[left]:
                places.append(Place(seat, x, y, here, there))
            elif (kept[left], kept[right]) != (here, there):
                differ += [(x, y), mirror]
        return places, differ


def match_rolls(path: str) -> list[Roll]:
    """The rolls of a saved Splitter match."""
    kept = Match.load(path)
    if kept.game.id != "splitter":
        raise ValueError(f"{path} is a {kept.game.id} match, not splitter")
    return [action for action in kept.history if isinstance(action, Roll)]


def unexplained_cells(values: list[int], pad: Pad, rolls: list[Roll]) -> list[tuple[int, int]]:
    """The cells of the mirrored pairs that no roll of the game explains: each roll fills one
    pair with its two numbers, so where the sheet holds more pairs of two numbers than the game
    rolled them, every such pair is flagged (the paper tells which one is wrong)."""
    rolled = Counter((r.low, r.high) for r in rolls)
    pairs = defaultdict(list)
    for left, right in pad.pairs:
        pairs[tuple(sorted((values[left], values[right])))].append((left, right))
    flagged = [p for numbers, held in pairs.items() if len(held) > rolled[numbers] for pair in held for p in pair]
    return [xy(p) for p in sorted(flagged)]


def format_photo_score(result: dict[str, Any]) -> str:
    """``format_score`` of a photo's sheet, after the sheet as read and the cells to check."""
    lines = [" ".join(row) for row in result["rows"]]
    cells = {(c["x"], c["y"]): c for c in result["cells"]}
    for x, y in result["unsure"]:
        c = cells[(x, y)]
        lines.append(str(tr("unsure: cell ({x},{y}) read as {digit} ({percent} % sure): check it on the paper",
                            x=x, y=y, digit=c["read"], percent=round(100 * c["sureness"]))))
    if result.get("unexplained"):
        cells = " ".join(f"({x},{y})" for x, y in result["unexplained"])
        lines.append(str(tr("no roll of the game explains the cells {cells}: check them on the paper", cells=cells)))
    if result["seat"] is None:
        lines.append(str(tr("no single seat box is crossed")))
    else:
        lines.append(str(tr("seat {seat}", seat=result["seat"])))
    return "\n".join(lines + [format_score(result)])
