"""Hilo cards and the deck's palette.

104 cards: 8 colours x 13 values (-1..11), every (colour, value) pair exactly once. Inside the
engine a card is an int id ``colour_index * 13 + value + 1``; the palette gives the colours their
names ("red 7", as the camera reports them) and initials ("R7", as players write them).
"""
from __future__ import annotations

import re
from functools import lru_cache

MIN_VALUE, MAX_VALUE = -1, 11
VALUES_PER_COLOUR = MAX_VALUE - MIN_VALUE + 1
NUM_COLOURS = 8
DECK_SIZE = NUM_COLOURS * VALUES_PER_COLOUR
DECK = tuple(range(DECK_SIZE))

# Grid cells hold a card id or one of these markers.
HIDDEN = -1  # a face-down card: its identity is unknown until it is turned up
GAP = -2     # the hole a removed diagonal leaves until the player slides the cards together

DEFAULT_PALETTE = "red:R, orange:O, yellow:Y, lime:L, green:G, blue:B, purple:P, pink:K"

_CODE = re.compile(r"^([A-Za-z]+)(-?[0-9]{1,9})$")  # ASCII digits: int() reads "٣" but not "²"


def card_id(colour: int, value: int) -> int:
    return colour * VALUES_PER_COLOUR + value - MIN_VALUE


def colour_of(card: int) -> int:
    return card // VALUES_PER_COLOUR


def value_of(card: int) -> int:
    return card % VALUES_PER_COLOUR + MIN_VALUE


class Palette:
    """The deck's eight colour names and the initials players write them with."""

    def __init__(self, names: tuple[str, ...], initials: tuple[str, ...]):
        self.names = names
        self.initials = initials
        self._by_name = {n.lower(): i for i, n in enumerate(names)}
        self._by_initial = {s.upper(): i for i, s in enumerate(initials)}
        self._names = tuple(f"{names[colour_of(card)]} {value_of(card)}" for card in DECK)
        self._codes = tuple(f"{initials[colour_of(card)]}{value_of(card)}" for card in DECK)
        self._by_card_name = {name.lower(): card for card, name in enumerate(self._names)}
        self._by_code = {code.upper(): card for card, code in enumerate(self._codes)}

    @staticmethod
    @lru_cache(maxsize=None)
    def parse(text: str) -> "Palette":
        """Read ``"red:R, orange:O, ..."``; ValueError naming the bad entry."""
        entries = [e.strip() for e in text.split(",")]
        if len(entries) != NUM_COLOURS:
            raise ValueError(f"palette: expected {NUM_COLOURS} colours as name:initial, got {len(entries)} in {text!r}")
        names, initials = [], []
        for entry in entries:
            name, sep, initial = (part.strip() for part in entry.partition(":"))
            if not sep or not re.fullmatch(r"[^\W\d_]+( [^\W\d_]+)*", name) or not re.fullmatch(r"[A-Za-z]+", initial):
                raise ValueError(f"palette: {entry!r} is not name:initial (a colour name in letters, "
                                 f"an initial of one or more letters)")
            names.append(name)
            initials.append(initial)
        for kind, items in (("colour name", names), ("initial", initials)):
            folded = [i.lower() for i in items]
            twice = next((i for i in items if folded.count(i.lower()) > 1), None)
            if twice is not None:
                raise ValueError(f"palette: the {kind} {twice!r} is used twice")
        return Palette(tuple(names), tuple(initials))

    def colour_index(self, name: str) -> int | None:
        return self._by_name.get(name.lower())

    def name(self, card: int) -> str:
        """"red 7": the table vocabulary (engine.table.Card)."""
        return self._names[card]

    def code(self, card: int) -> str:
        """"R7": the short form players write."""
        return self._codes[card]

    def read_name(self, text: str) -> int:
        """The card called ``"red 7"``; ValueError naming what is wrong."""
        card = self._by_card_name.get(text.strip().lower())
        if card is not None:
            return card
        colour, _, value = text.strip().rpartition(" ")
        index = self.colour_index(colour.strip())
        if index is None or not re.fullmatch(r"-?[0-9]{1,9}", value):
            raise ValueError(f"{text!r} is not a card (expected a colour of {self.listing()} and a value)")
        return self._card(index, int(value), text)

    def read_code(self, text: str) -> int:
        """The card written ``"R7"`` or ``"R-1"``; ValueError naming what is wrong."""
        card = self._by_code.get(text.strip().upper())
        if card is not None:
            return card
        match = _CODE.match(text.strip())
        index = self._by_initial.get(match.group(1).upper()) if match else None
        if index is None:
            raise ValueError(f"{text!r} is not a card (expected a colour initial of "
                             f"{', '.join(self.initials)} and a value, such as R7 or B-1)")
        return self._card(index, int(match.group(2)), text)

    def _card(self, colour: int, value: int, text: str) -> int:
        if not MIN_VALUE <= value <= MAX_VALUE:
            raise ValueError(f"{text!r}: card values run from {MIN_VALUE} to {MAX_VALUE}")
        return card_id(colour, value)

    def listing(self) -> str:
        return ", ".join(self.names)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Palette) and (self.names, self.initials) == (other.names, other.initials)

    def __hash__(self) -> int:
        return hash((self.names, self.initials))
