"""Pieces of the sentences the Excape engine shows players.

Seats appear as ``tr("player {number}", number=seat + 1)`` so the application can put the
player's name in their place.
"""
from __future__ import annotations

from fractions import Fraction

from engine.text import Text, tr


def seat_label(seat: int) -> Text:
    return tr("player {number}", number=seat + 1)


def percent(chance: Fraction) -> str:
    """A probability as a percentage with one decimal: 11/36 -> "30.6%"."""
    return f"{float(chance) * 100:.1f}%"


def chance_text(chance: Fraction) -> str:
    """An exact probability and its percentage: "11/36 (30.6%)"."""
    return f"{chance.numerator}/{chance.denominator} ({percent(chance)})"
