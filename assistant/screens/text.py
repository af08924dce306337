"""Small formatting helpers for screen texts."""
from __future__ import annotations

from fractions import Fraction


def number(value: float | Fraction | int) -> str:
    """A score as players write it: 12, -3, 7.5."""
    if isinstance(value, Fraction) and value.denominator != 1:
        return f"{float(value):.2f}".rstrip("0")
    return str(int(value)) if float(value).is_integer() else f"{float(value):.1f}"


def percent(probability: float | Fraction) -> str:
    """A probability in whole percent, with the exact fraction: 31% (11/36)."""
    if isinstance(probability, Fraction) and probability.denominator != 1:
        return f"{float(probability):.0%} ({probability.numerator}/{probability.denominator})"
    return f"{float(probability):.0%}"


def signed(value: float | Fraction, digits: int = 1) -> str:
    """A change with its sign: +2.5, -1.0, and 0.0 for nothing (never "-0.0")."""
    text = f"{float(value):+.{digits}f}"
    return text[1:] if float(text) == 0 else text
