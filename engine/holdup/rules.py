"""The fixed numbers of Hold Up 4D6 and the pure rule steps shared by the state, preview and advice."""
from __future__ import annotations

import bisect
import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from engine.holdup.deck import Gem

MIN_PLAYERS, MAX_PLAYERS = 3, 5
ROWS = 3              # row 1 is the bottom row, row 3 the top one
OPENING_PER_ROW = 2   # the opening deal: 3 rows of 2
GV_CARDS = 3
DICE = 4
MAX_ROLLS = 4
BONUS = 10            # VVV, each stone set, and the malus for placing the last card
SET_SIZE = 4          # cards of one stone type that make a set
FACES = range(1, 7)

Rows = tuple[tuple[Gem, ...], ...]


@lru_cache(maxsize=None)
def roll_outcomes(count: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every result of rolling ``count`` dice as sorted faces, with its exact probability
    (the 126 results of four dice stand for their 1,296 ordered outcomes)."""
    outcomes = []
    for faces in itertools.combinations_with_replacement(FACES, count):
        orderings = math.factorial(count)
        for face in set(faces):
            orderings //= math.factorial(faces.count(face))
        outcomes.append((faces, Fraction(orderings, 6 ** count)))
    return tuple(outcomes)


@dataclass(frozen=True)
class KeepPlan:
    """What keeping ``dice`` does to the rows, before any choice of the player."""

    dice: tuple[int, ...]
    short_row: int                 # 0, or the row with fewer cards than dice aimed at it
    captured: tuple[Gem, ...]      # taken row 1 to 3, rightmost first (empty when short)
    rows: Rows                     # the rows after the captures
    fours: int                     # 4s rolled
    fives: int                     # 5s and 6s rolled

    @property
    def fours_resolved(self) -> bool:
        return self.fours > 0 and not self.short_row

    def aimed_at(self, row: int) -> int:
        return self.dice.count(row)


def plan_keep(rows: Rows, dice: tuple[int, ...]) -> KeepPlan:
    """Captures with the all-or-nothing rule: if any row holds fewer cards than the dice showing
    its number, nothing is captured anywhere (and the 4s are not resolved)."""
    fours, fives = dice.count(4), sum(1 for d in dice if d >= 5)
    short = next((row for row in range(1, ROWS + 1) if dice.count(row) > len(rows[row - 1])), 0)
    if short:
        return KeepPlan(dice, short, (), rows, fours, fives)
    captured: list[Gem] = []
    after = []
    for row, cards in enumerate(rows, start=1):
        taken = dice.count(row)
        captured.extend(reversed(cards[len(cards) - taken:]))
        after.append(cards[:len(cards) - taken])
    return KeepPlan(dice, 0, tuple(captured), tuple(after), fours, fives)


def add_to_pile(pile: tuple[Gem, ...], cards: tuple[Gem, ...], sorted_pile: bool) -> tuple[Gem, ...]:
    """The pile (bottom first) with ``cards`` added, the strongest on top.

    sorted_pile: the whole pile stays ordered by value; a new card goes above older cards of
    the same value. Otherwise the new cards go on top, ordered among themselves.
    """
    incoming = sorted(cards, key=lambda gem: gem.value)
    if not sorted_pile:
        return pile + tuple(incoming)
    result = list(pile)
    for gem in incoming:
        values = [g.value for g in result]
        result.insert(bisect.bisect_right(values, gem.value), gem)
    return tuple(result)


def flip_gv(faces: str, cards: tuple[int, ...]) -> str:
    """GV faces (e.g. "VVG") after turning over the cards at positions ``cards`` (1-based)."""
    turned = {"G": "V", "V": "G"}
    return "".join(turned[face] if position in cards else face for position, face in enumerate(faces, start=1))


def flip_choices(fours: int) -> tuple[tuple[int, ...], ...]:
    """The sets of different GV cards a player may turn over for ``fours`` 4s."""
    return tuple(itertools.combinations(range(1, GV_CARDS + 1), fours))


def sub_rolls(dice: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The distinct non-empty proper subsets (as sorted faces) of the dice that may be rolled
    again when dice are kept between rolls."""
    return tuple(sorted({combo for size in range(1, len(dice)) for combo in itertools.combinations(dice, size)}))
