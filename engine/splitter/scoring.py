"""Splitter scoring: groups of touching equal numbers, stars, the pad B heart bonus.

``breakdown`` explains a sheet group by group for a player checking their paper; ``mask_score``
is the same total computed from bit masks only, for the advisor's playouts.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from engine.text import Text, tr
from engine.splitter.pads import NOT_FIRST_COLUMN, NOT_LAST_COLUMN, PADS, WIDTH, Pad, adjacent, xy
from engine.splitter.sheet import SheetError, read_grid_text, values_from_grid

HEARTS_BONUS = 5


def component(seed: int, allowed: int) -> int:
    """The positions of ``allowed`` connected orthogonally to the positions of ``seed``."""
    group = seed
    while True:  # pads.adjacent() inlined: this is the playouts' inner loop
        grown = (group | ((group << 1) & NOT_FIRST_COLUMN) | ((group >> 1) & NOT_LAST_COLUMN)
                 | (group << WIDTH) | (group >> WIDTH)) & allowed
        if grown == group:
            return group
        group = grown


def number_masks(values: Sequence[int]) -> list[int]:
    """``masks[n]``: the positions holding number n (index 0 unused)."""
    masks = [0] * 7
    for pos, value in enumerate(values):
        if value:
            masks[value] |= 1 << pos
    return masks


def hearts_bonus(values: Sequence[int], pad: Pad) -> int:
    """Pad B: 5 when the three heart cells hold the same number (stars do not double it)."""
    if not pad.hearts or not values[pad.hearts[0]]:
        return 0
    return HEARTS_BONUS if len({values[h] for h in pad.hearts}) == 1 else 0


def mask_score(masks: Sequence[int], pad: Pad) -> int:
    """The groups' points of a sheet given as number masks (without the heart bonus)."""
    ones = masks[1]
    lone = ones & ~adjacent(ones)
    total = lone.bit_count() + (lone & pad.star_mask).bit_count()
    for number in range(2, 7):
        rest = masks[number]
        while rest:
            group = component(rest & -rest, rest)
            rest ^= group
            if group.bit_count() == number:
                total += number * 2 if group & pad.star_mask else number
    return total


def score(values: Sequence[int], pad: Pad) -> int:
    """The total of a sheet (a running total while cells are still empty)."""
    return mask_score(number_masks(values), pad) + hearts_bonus(values, pad)


@dataclass(frozen=True)
class Group:
    """A maximal set of orthogonally touching cells holding the same number."""

    number: int
    cells: tuple[int, ...]  # positions, in reading order
    star: bool              # holds a star cell

    @property
    def points(self) -> int:
        if len(self.cells) != self.number:
            return 0
        return self.number * 2 if self.star else self.number


@dataclass(frozen=True)
class Breakdown:
    """Every group of a sheet (scoring or not), by number then reading order, and the bonus."""

    groups: tuple[Group, ...]
    hearts_bonus: int

    @property
    def total(self) -> int:
        return sum(g.points for g in self.groups) + self.hearts_bonus

    def to_dict(self) -> dict[str, Any]:
        """The JSON report: ``points`` is 0 for a group that does not score."""
        return {
            "total": self.total,
            "groups": [{"number": g.number, "cells": [list(xy(p)) for p in g.cells],
                        "points": g.points, "star": g.star} for g in self.groups],
            "hearts_bonus": self.hearts_bonus,
        }


def breakdown(values: Sequence[int], pad: Pad) -> Breakdown:
    groups = []
    for number, mask in enumerate(number_masks(values)):
        rest = mask
        while rest:
            group = component(rest & -rest, rest)
            rest ^= group
            cells = tuple(p for p in range(group.bit_length()) if group >> p & 1)
            groups.append(Group(number, cells, bool(group & pad.star_mask)))
    return Breakdown(tuple(groups), hearts_bonus(values, pad))


def score_text(text: str, pad: str) -> dict[str, Any]:
    """Score a finished sheet written as 7 lines of 8 numbers (0 where ``pad`` has no cell)."""
    if pad not in PADS:
        raise SheetError(tr("there is no pad {pad}; the pads are {pads}", pad=pad, pads=", ".join(PADS)))
    values = values_from_grid(read_grid_text(text), PADS[pad], complete=True)
    return breakdown(values, PADS[pad]).to_dict()


def group_line(number: int, count: int, points: int, star: bool, cells: str) -> Text:
    """One line of the breakdown: what a group scores, or why it scores nothing."""
    if points:
        if number == 1:
            return tr("a lone 1 on a star at {cells}: 2 × 1 = 2 points", cells=cells) if star \
                else tr("a lone 1 at {cells}: 1 point", cells=cells)
        if star:
            return tr("{number} touching {number}s with a star at {cells}: 2 × {number} = {points} points",
                      number=number, cells=cells, points=points)
        return tr("{number} touching {number}s at {cells}: {points} points", number=number, cells=cells,
                  points=points)
    if number == 1:
        return tr("{count} touching 1s at {cells}: nothing, a 1 scores only alone", count=count, cells=cells)
    what = tr("a lone {number}", number=number) if count == 1 else \
        tr("{count} touching {number}s", count=count, number=number)
    return tr("{what} at {cells}: nothing, {number}s score only as exactly {number} touching",
              what=what, cells=cells, number=number)


def format_score(result: dict[str, Any]) -> str:
    """The breakdown of ``score_text`` for a person: scoring groups, the others and why, total."""
    lines = []
    for scoring in (True, False):
        for g in result["groups"]:
            if bool(g["points"]) == scoring:
                cells = " ".join(f"({x},{y})" for x, y in g["cells"])
                lines.append(group_line(g["number"], len(g["cells"]), g["points"], g["star"], cells))
    if result["hearts_bonus"]:
        lines.append(tr("the three hearts hold the same number: +{bonus} points", bonus=result["hearts_bonus"]))
    lines.append(tr("total: {total} points", total=result["total"]))
    return "\n".join(lines)
