"""Cards found on the mat, by zone and place: what ``vision.live_cards`` makes the card view of
(the same keys and words as ``State.table_view()``, see ``engine/table.py``) and
``assistant.hilo_photos`` a finished table of.

Each card belongs to the zone that contains its centre on the mat (within ``margin`` mm); a card
in no zone is none of the mat's.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

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


def pile_top_reading(cards: list[tuple[CardReading, tuple[float, float]]], zone: Zone) -> CardReading | None:
    """The visible card of a pile: the most certain one nearest the zone's centre, or None."""
    if not cards:
        return None
    return min(cards, key=lambda rc: (-round(rc[0].certainty, 1), np.hypot(rc[1][0] - zone.x, rc[1][1] - zone.y)))[0]


def row_readings(cards: list[tuple[CardReading, tuple[float, float]]], zone: Zone) -> list[CardReading]:
    """The readings of a row zone from its player's left to right."""
    return [r for r, centre in sorted(cards, key=lambda rc: zone.to_local(rc[1])[0])]
