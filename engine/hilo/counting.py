"""Card counting: what an unseen card can be, given every card seen so far.

Every face-down grid card is equally likely to be any card nobody has seen (nobody looked at
them), so one distribution serves them all. The top of the draw pile follows the same one while
the pile is the dealt one; after a reshuffle it is one of the reshuffled discards.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from engine.hilo import grid as g
from engine.hilo.cards import HIDDEN, MAX_VALUE, MIN_VALUE, Palette, colour_of, value_of


@dataclass(frozen=True)
class Distribution:
    """Equally likely card identities (ids) of one unseen card."""

    cards: tuple[int, ...]
    palette: Palette

    def probability(self, colour: str | None = None, value: int | None = None) -> Fraction:
        """P(the card has this colour and/or value); 0 when there is no card to count."""
        if not self.cards:
            return Fraction(0)
        index = None if colour is None else self.palette.colour_index(colour)
        hits = sum(1 for card in self.cards
                   if (colour is None or colour_of(card) == index) and (value is None or value_of(card) == value))
        return Fraction(hits, len(self.cards))

    def colours(self) -> dict[str, Fraction]:
        """P(colour) for each colour of the palette."""
        counts = Counter(colour_of(card) for card in self.cards)
        size = len(self.cards) or 1
        return {name: Fraction(counts[i], size) for i, name in enumerate(self.palette.names)}

    def values(self) -> dict[int, Fraction]:
        """P(value) for each value -1..11."""
        counts = Counter(value_of(card) for card in self.cards)
        size = len(self.cards) or 1
        return {value: Fraction(counts[value], size) for value in range(MIN_VALUE, MAX_VALUE + 1)}

    def total(self) -> int:
        return sum(value_of(card) for card in self.cards)

    def mean(self) -> Fraction:
        """The expected value (0 when there is no card to count)."""
        return Fraction(self.total(), len(self.cards)) if self.cards else Fraction(0)

    def names(self) -> list[str]:
        return [self.palette.name(card) for card in self.cards]


@dataclass(frozen=True)
class CardCount:
    face_down: Distribution  # any face-down grid card
    next_draw: Distribution  # the card the next draw would show (empty when nobody can draw)
    grids: tuple[g.Grid, ...]

    def expected_positions(self, seat: int) -> dict[tuple[int, int], Fraction]:
        """The expected value of each face-down position of ``seat``'s grid."""
        mean = self.face_down.mean()
        return {(r, c): mean for r, c, cell in g.cells(self.grids[seat]) if cell == HIDDEN}

    def expected_score(self, seat: int) -> Fraction:
        """The expected total of ``seat``'s grid: face-up cards plus the face-down ones' expectation."""
        grid = self.grids[seat]
        return g.known_sum(grid) + g.hidden_count(grid) * self.face_down.mean()

    def to_dict(self) -> dict:
        """JSON-ready: distributions as floats, the exact figures being Fractions in the API."""
        def rounded(table):
            return {str(k): round(float(p), 4) for k, p in table.items()}
        return {
            "unseen": len(self.face_down.cards),
            "face_down_mean": round(float(self.face_down.mean()), 3),
            "face_down_colours": rounded(self.face_down.colours()),
            "face_down_values": rounded(self.face_down.values()),
            "next_draw_mean": round(float(self.next_draw.mean()), 3),
            "expected_scores": [round(float(self.expected_score(s)), 2) for s in range(len(self.grids))],
        }


def count_cards(state) -> CardCount:
    palette = state.game.palette
    return CardCount(Distribution(state.unseen(), palette), Distribution(state.next_draw_cards(), palette),
                     state.grids)
