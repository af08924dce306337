"""Splitter actions and their notation.

``roll 1 4``                              the two dice (chance; written smaller first)
``P2 writes 4 at (2,1) and 1 at (5,1)``   player 2 writes the roll in a mirrored pair
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core import Action, ParseError
from engine.text import tr
from engine.splitter.pads import WIDTH


@dataclass(frozen=True)
class Roll(Action):
    """The two dice, kept smaller first (the dice are alike, so 4 1 and 1 4 are one outcome)."""

    low: int
    high: int

    def __post_init__(self):
        if self.low > self.high:
            low, high = self.high, self.low
            object.__setattr__(self, "low", low)
            object.__setattr__(self, "high", high)

    def __str__(self) -> str:
        return f"roll {self.low} {self.high}"

    def sort_key(self) -> tuple:
        return (0, self.low, self.high)


@dataclass(frozen=True)
class Place(Action):
    """Seat ``player`` writes ``left`` in cell (x, y) of the left half and ``right`` in its mirror.

    Built naming the right-hand cell instead, it is turned round to name the left one.
    """

    player: int
    x: int
    y: int
    left: int
    right: int

    def __post_init__(self):
        if WIDTH // 2 <= self.x < WIDTH:
            mirror_x, left, right = WIDTH - 1 - self.x, self.right, self.left
            object.__setattr__(self, "x", mirror_x)
            object.__setattr__(self, "left", left)
            object.__setattr__(self, "right", right)

    @property
    def mirror_x(self) -> int:
        return WIDTH - 1 - self.x

    def __str__(self) -> str:
        return (f"P{self.player + 1} writes {self.left} at ({self.x},{self.y}) "
                f"and {self.right} at ({self.mirror_x},{self.y})")

    def sort_key(self) -> tuple:
        return (1, self.player, self.y, self.x, self.left, self.right)


# Numbers in ASCII digits, and short: int() refuses "²" and numbers of more than 4,300 digits.
_N = "[0-9]{1,9}"
_ROLL = re.compile(rf"roll\s+({_N})\s+({_N})")
_CELL = rf"({_N})\s+at\s+\(\s*(-?{_N})\s*,\s*(-?{_N})\s*\)"
_PLACE = re.compile(rf"P({_N})\s+writes\s+{_CELL}\s+and\s+{_CELL}")


def parse_action(text: str) -> Action:
    """Read one line of notation; ParseError naming what is wrong."""
    line = text.strip()
    if match := _ROLL.fullmatch(line):
        return Roll(int(match[1]), int(match[2]))
    if match := _PLACE.fullmatch(line):
        seat, first, x, y, second, other_x, other_y = (int(g) for g in match.groups())
        if seat < 1:
            raise ParseError(tr("splitter: players are numbered from P1, not P{seat}", seat=seat))
        if (other_x, other_y) != (WIDTH - 1 - x, y):
            raise ParseError(tr("splitter: ({x2},{y2}) is not the mirror of ({x},{y}): the two numbers go "
                                "in one row, at the same distance from the centre line",
                                x=x, y=y, x2=other_x, y2=other_y))
        return Place(seat - 1, x, y, first, second)
    raise ParseError(tr("splitter: cannot read {text!r}: expected 'roll 1 4' or "
                        "'P1 writes 4 at (2,1) and 1 at (5,1)'", text=text))
