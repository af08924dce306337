"""The gem (PP) deck: cards, the spec's example deck, and the validator for a deck given as data.

A deck is a list of ``[stone, value, count]`` rows. It arrives as an option (from the settings
layers, e.g. ``config/holdup-example-deck.toml``); this module never reads files.
"""
from __future__ import annotations

import re
from typing import Any, Mapping, NamedTuple

from engine.core import OptionError

MIN_CARDS = 7  # six for the opening rows and at least one to draw
MAX_VALUE = 99
MAX_COUNT = 99
_STONE = re.compile(r"[^\W\d_][\w-]*")  # one word: the notation reads "draw ruby 7"


class Gem(NamedTuple):
    """One PP card: its stone type and point value."""

    stone: str
    value: int

    def __str__(self) -> str:
        return f"{self.stone} {self.value}"


# The spec's example box ([decision: example only]): 4 stone types x values 1..9, one of each.
EXAMPLE_STONES = ("diamond", "ruby", "emerald", "sapphire")
EXAMPLE_DECK = tuple((stone, value, 1) for stone in EXAMPLE_STONES for value in range(1, 10))


def parse_deck(rows: Any) -> tuple[tuple[str, int, int], ...]:
    """Validate ``[stone, value, count]`` rows; OptionError naming the first bad row (1-based)."""
    if not isinstance(rows, (list, tuple)):
        raise OptionError(f"holdup: the deck must be a list of [stone, value, count] rows, got {rows!r}")
    seen: dict[tuple[str, int], int] = {}
    deck = []
    for number, row in enumerate(rows, start=1):
        where = f"holdup: deck row {number} {_show(row)}"
        if not isinstance(row, (list, tuple)) or len(row) != 3:
            raise OptionError(f"{where}: expected [stone, value, count]")
        stone, value, count = row
        if not isinstance(stone, str) or not _STONE.fullmatch(stone):
            raise OptionError(f"{where}: the stone type must be one word of letters, digits, '-' or '_'")
        if not _is_int(value) or not 0 <= value <= MAX_VALUE:
            raise OptionError(f"{where}: the value must be a whole number from 0 to {MAX_VALUE}")
        if not _is_int(count) or not 1 <= count <= MAX_COUNT:
            raise OptionError(f"{where}: the count must be a whole number from 1 to {MAX_COUNT}")
        if (stone, value) in seen:
            raise OptionError(f"{where}: {stone} {value} is already in row {seen[stone, value]};"
                              " give one row with the total count")
        seen[stone, value] = number
        deck.append((stone, value, count))
    total = sum(count for _, _, count in deck)
    if total < MIN_CARDS:
        raise OptionError(f"holdup: the deck has {total} cards; it needs at least {MIN_CARDS}"
                          " (6 for the opening rows and one to draw)")
    return tuple(deck)


def deck_from_config(data: Mapping[str, Any]) -> tuple[tuple[str, int, int], ...]:
    """The deck of a parsed deck file (TOML with ``[games.holdup] deck = [...]``), validated."""
    node: Any = data
    for key in ("games", "holdup", "deck"):
        if not isinstance(node, Mapping) or key not in node:
            raise OptionError("holdup: a deck file needs a [games.holdup] table with a 'deck' list")
        node = node[key]
    return parse_deck(node)


def deck_gems(deck: tuple[tuple[str, int, int], ...]) -> dict[Gem, int]:
    """Each distinct card of a validated deck with its count."""
    return {Gem(stone, value): count for stone, value, count in deck}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _show(row: Any) -> str:
    text = repr(row)
    return text if len(text) <= 40 else text[:37] + "..."
