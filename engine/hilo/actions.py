"""Hilo actions and their one-line notation (see docs/notation.md).

Rows, columns and players count from 1 in the notation ("take r1c3", "reveal p2 r2c2") and
from 0 inside the dataclasses, as everywhere else in the engine.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core import Action, ParseError
from engine.hilo.cards import Palette
from engine.hilo.grid import DIAGONALS, SLIDES, Line
from engine.numbers import whole


class HiloAction(Action):
    """Base of the Hilo actions: a cheap sort key (the fields are plain ints and strings)."""

    def sort_key(self) -> tuple:
        return (type(self).__name__, *self.__dict__.values())


@dataclass(frozen=True)
class Seen(HiloAction):
    """Chance: the card that was just turned up (discard start, drawn card, revealed grid card)."""

    colour: str
    value: int

    def __str__(self) -> str:
        return f"card {self.colour} {self.value}"


@dataclass(frozen=True)
class Reveal(HiloAction):
    """Round setup: the player at ``seat`` turns up the grid card at (row, col)."""

    seat: int
    row: int
    col: int

    def __str__(self) -> str:
        return f"reveal p{self.seat + 1} {_cell(self.row, self.col)}"


@dataclass(frozen=True)
class Youngest(HiloAction):
    """Round setup, tie for first player: the table names the youngest tied player."""

    seat: int

    def __str__(self) -> str:
        return f"youngest p{self.seat + 1}"


@dataclass(frozen=True)
class Take(HiloAction):
    """A: swap the top discard with the grid card at (row, col)."""

    row: int
    col: int

    def __str__(self) -> str:
        return f"take {_cell(self.row, self.col)}"


@dataclass(frozen=True)
class Draw(HiloAction):
    """B: draw the top card of the draw pile."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True)
class Place(HiloAction):
    """B1: swap the drawn card with the grid card at (row, col)."""

    row: int
    col: int

    def __str__(self) -> str:
        return f"place {_cell(self.row, self.col)}"


@dataclass(frozen=True)
class Flip(HiloAction):
    """B2: discard the drawn card and turn up the face-down grid card at (row, col)."""

    row: int
    col: int

    def __str__(self) -> str:
        return f"flip {_cell(self.row, self.col)}"


@dataclass(frozen=True)
class Remove(HiloAction):
    """Remove the HILO ``line`` (kind "row", "col", "diag" or "anti"; index from 0)."""

    kind: str
    index: int = 0

    @property
    def line(self) -> Line:
        return Line(self.kind, self.index)

    def __str__(self) -> str:
        return f"remove {self.line.notation()}"


@dataclass(frozen=True)
class Keep(HiloAction):
    """Decline to remove the HILO (only when removal is optional)."""

    def __str__(self) -> str:
        return "keep"


@dataclass(frozen=True)
class Slide(HiloAction):
    """After a diagonal: close the gap "vertical" (2 rows of 3) or "horizontal" (3 rows of 2)."""

    direction: str

    def __str__(self) -> str:
        return f"slide {self.direction}"


def _cell(row: int, col: int) -> str:
    return f"r{row + 1}c{col + 1}"


_PATTERNS = (
    (re.compile(r"^card (.+)$"), "card"),
    (re.compile(r"^reveal p(\d+) r(\d+)c(\d+)$"), Reveal),
    (re.compile(r"^youngest p(\d+)$"), Youngest),
    (re.compile(r"^take r(\d+)c(\d+)$"), Take),
    (re.compile(r"^draw$"), Draw),
    (re.compile(r"^place r(\d+)c(\d+)$"), Place),
    (re.compile(r"^flip r(\d+)c(\d+)$"), Flip),
    (re.compile(r"^remove (row|col) (\d+)$"), Remove),
    (re.compile(r"^remove (diag|anti)$"), Remove),
    (re.compile(r"^keep$"), Keep),
    (re.compile(f"^slide ({'|'.join(SLIDES)})$"), Slide),
)

EXPECTED = ("card <colour> <value>, reveal pN rRcC, youngest pN, take rRcC, draw, place rRcC, "
            "flip rRcC, remove row N | col N | diag | anti, keep, slide vertical | horizontal")


def parse_action(text: str, palette: Palette) -> Action:
    """Read one line of Hilo notation; ParseError naming what is wrong."""
    if not isinstance(text, str):
        raise ParseError(f"hilo: an action is a line of text, not {text!r}")
    line = " ".join(text.split())
    for pattern, kind in _PATTERNS:
        match = pattern.match(line)
        if not match:
            continue
        if kind == "card":
            return _parse_card(match.group(1), palette)
        if kind is Remove and match.group(1) in DIAGONALS:
            return Remove(match.group(1))
        if kind is Remove:
            return Remove(match.group(1), _count(match.group(2), text))
        if kind is Slide:
            return Slide(match.group(1))
        return kind(*(_count(group, text) for group in match.groups()))
    raise ParseError(f"hilo: cannot read {text!r} (expected one of: {EXPECTED})")


def _count(digits: str, text: str) -> int:
    number = whole(digits)
    if number is None:
        raise ParseError(f"hilo: {text!r}: {digits!r} is not a number")
    if number < 1:
        raise ParseError(f"hilo: {text!r}: players, rows and columns count from 1")
    return number - 1


def _parse_card(words: str, palette: Palette) -> Seen:
    """"red 7" (the table's words) or "R7" (the initials)."""
    try:
        card = palette.read_name(words) if " " in words else palette.read_code(words)
    except ValueError as exc:
        raise ParseError(f"hilo: {exc}") from None
    colour, _, value = palette.name(card).rpartition(" ")
    return Seen(colour, int(value))
