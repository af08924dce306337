"""Splitter's paper sheets: the shipped sheet layout with the engine's pads.

The geometry is ``config/sheets/splitter.toml``; the cells, stars and hearts are
``engine.splitter.PADS``, so a printed sheet is always the pad the engine scores.
"""
from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources

from engine.splitter import PADS, Pad
from engine.splitter.pads import xy
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

