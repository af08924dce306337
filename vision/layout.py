"""From cards found on the mat to the engines' table views (the same keys and words as
``State.table_view()``, see ``engine/table.py``), so the two can be compared.

Each card belongs to the zone that contains its centre on the mat (within ``margin`` mm); a card
in no zone is listed as ``unplaced``. Card labels are the reader's: ``"<colour> <value>"`` with
the enrolled names, or ``face-down``.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from engine.table import EMPTY, FACE_DOWN
from vision.cards import CardReading
from vision.mat import MatLayout, MatPose, Zone

MARGIN_MM = 12.0  # a card may stick out of its zone by this much


def cards_by_zone(readings: Sequence[CardReading], pose: MatPose, layout: MatLayout,
                  margin: float = MARGIN_MM) -> tuple[dict[str, list[tuple[CardReading, tuple[float, float]]]], list]:
    """Readings grouped by zone id, each with its centre in mm; and the readings in no zone."""
    placed: dict[str, list] = {z.id: [] for z in layout.zones}
    unplaced = []
    if not readings:
        return placed, unplaced
    centres = pose.to_mm(np.array([r.centre for r in readings]))
    for reading, (x, y) in zip(readings, centres):
        zone = layout.zone_at((x, y), margin)
        if zone is None:
            unplaced.append(reading)
        else:
            placed[zone.id].append((reading, (float(x), float(y))))
    return placed, unplaced


def grid_cells(zone: Zone, cards: list[tuple[CardReading, tuple[float, float]]]) -> dict[str, Any]:
    """A Hilo grid as its player sees it: ``shape`` [rows, cols] and ``cells`` (see
    ``grid_places``); a place inside the grid with no card is ``empty``."""
    places = grid_places(zone, cards)
    return {"shape": [len(places), len(places[0]) if places else 0],
            "cells": [[EMPTY if r is None else r.label for r in row] for row in places]}


def grid_places(zone: Zone, cards: list[tuple[CardReading, tuple[float, float]]]) -> list[list[CardReading | None]]:
    """The readings of a Hilo grid by place, rows from its player's far side and columns left to
    right as they see them. Each card takes its nearest printed place (nearest pairs first); rows
    and columns with no card are closed up, as players slide the cards together; a place inside
    the grid with no card is None."""
    cells = zone.cells()
    pairs = sorted((np.hypot(x - c.x, y - c.y), i, k)
                   for i, (_, (x, y)) in enumerate(cards) for k, c in enumerate(cells))
    taken: dict[int, CardReading] = {}
    used: set[int] = set()
    for _, i, k in pairs:
        if i not in used and k not in taken:
            taken[k] = cards[i][0]
            used.add(i)
    rows = sorted({cells[k].row for k in taken})
    cols = sorted({cells[k].col for k in taken})
    grid: list[list[CardReading | None]] = [[None] * len(cols) for _ in rows]
    for k, reading in taken.items():
        grid[rows.index(cells[k].row)][cols.index(cells[k].col)] = reading
    return grid


def pile_top(cards: list[tuple[CardReading, tuple[float, float]]], zone: Zone) -> str:
    """The label of a pile's visible card, or ``empty``."""
    top = pile_top_reading(cards, zone)
    return EMPTY if top is None else top.label


def pile_top_reading(cards: list[tuple[CardReading, tuple[float, float]]], zone: Zone) -> CardReading | None:
    """The visible card of a pile: the most certain one nearest the zone's centre, or None."""
    if not cards:
        return None
    return min(cards, key=lambda rc: (-round(rc[0].certainty, 1), np.hypot(rc[1][0] - zone.x, rc[1][1] - zone.y)))[0]


def in_order(cards: list[tuple[CardReading, tuple[float, float]]], zone: Zone) -> list[str]:
    """The cards of a row zone from its player's left to right."""
    return [r.label for r, centre in sorted(cards, key=lambda rc: zone.to_local(rc[1])[0])]


def hilo_view(readings: Sequence[CardReading], pose: MatPose, layout: MatLayout) -> dict[str, Any]:
    """``{"players": [{"shape", "cells"}...], "discard", "draw_pile", "unplaced"}`` as seen."""
    placed, unplaced = cards_by_zone(readings, pose, layout)
    grids = sorted((z for z in layout.zones if z.kind == "grid"), key=lambda z: z.seat)
    return {
        "players": [grid_cells(z, placed[z.id]) for z in grids],
        "discard": _pile(layout, placed, "discard"),
        "draw_pile": FACE_DOWN if _pile(layout, placed, "draw") != EMPTY else EMPTY,
        "unplaced": [r.label for r in unplaced],
    }


def holdup_view(readings: Sequence[CardReading], pose: MatPose, layout: MatLayout) -> dict[str, Any]:
    """``{"rows": [row 1, row 2, row 3], "draw_pile", "players": [{"gv", "pile_top"}...],
    "unplaced"}`` as seen; rows and GV cards left to right."""
    placed, unplaced = cards_by_zone(readings, pose, layout)
    rows = sorted((z for z in layout.zones if z.id.startswith("row.")), key=lambda z: int(z.id.split(".")[1]))
    seats = sorted({z.seat for z in layout.zones if z.seat is not None})
    return {
        "rows": [in_order(placed[z.id], z) for z in rows],
        "draw_pile": FACE_DOWN if _pile(layout, placed, "draw") != EMPTY else EMPTY,
        "players": [{"gv": in_order(placed[f"gv.{s}"], layout.zone(f"gv.{s}")),
                     "pile_top": _pile(layout, placed, f"pile.{s}")} for s in seats],
        "unplaced": [r.label for r in unplaced],
    }


def _pile(layout: MatLayout, placed, zone_id: str) -> str:
    return pile_top(placed[zone_id], layout.zone(zone_id))


def table_view(readings: Sequence[CardReading], pose: MatPose, layout: MatLayout) -> dict[str, Any]:
    """The card part of the table view for the layout's game, chosen by the kinds of zones its
    mat prints (card grids: Hilo's view; card rows: Hold Up's); KeyError for a mat without cards."""
    kinds = {zone.kind for zone in layout.zones}
    if "grid" in kinds:
        return hilo_view(readings, pose, layout)
    if "row" in kinds:
        return holdup_view(readings, pose, layout)
    raise KeyError(f"{layout.game} has no cards to lay out")
