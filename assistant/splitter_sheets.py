"""Splitter's paper sheets: the shipped sheet layout with the engine's pads, and scoring a photo.

The geometry is ``config/sheets/splitter.toml``; the cells, stars and hearts are
``engine.splitter.PADS``, so a printed sheet is always the pad the engine scores.
"""
from __future__ import annotations

import tomllib
from collections import Counter, defaultdict
from functools import lru_cache
from importlib import resources
from typing import Any

import cv2

from engine.match import Match
from engine.splitter import PADS, Pad, Roll, breakdown, format_score
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
