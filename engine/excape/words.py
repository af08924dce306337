"""Pieces of the sentences the Excape engine shows players.

Seats appear as ``tr("player {number}", number=seat + 1)`` so the application can put the
player's name in their place; lists and chances are nested translatable Text.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from engine.text import Text, tr


def seat_label(seat: int) -> Text:
    return tr("player {number}", number=seat + 1)


def listing(items: Sequence[Text | str]) -> Text | str:
    """"a", "a and b", "a, b and c" — every joint stays translatable."""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return tr("{first} and {last}", first=items[0], last=items[1])
    return tr("{first}, {rest}", first=items[0], rest=listing(items[1:]))


def percent(chance: Fraction) -> str:
    """A probability as a percentage with one decimal: 11/36 -> "30.6%"."""
    return f"{float(chance) * 100:.1f}%"


def chance_text(chance: Fraction) -> str:
    """An exact probability and its percentage: "11/36 (30.6%)"."""
    return f"{chance.numerator}/{chance.denominator} ({percent(chance)})"
