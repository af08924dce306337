"""Whole numbers as the notation writes them: a few ASCII digits.

``str.isdigit`` accepts "²", which ``int`` refuses, and ``int`` refuses more than 4,300 digits
with a ValueError: the parsers read their numbers here, so an unreadable one is a ParseError.
"""
from __future__ import annotations

MAX_DIGITS = 9


def whole(word: str, signed: bool = False) -> int | None:
    """The number ``word`` writes ("-3" too when ``signed``), or None when it writes none."""
    digits = word[1:] if signed and word[:1] == "-" else word
    if 0 < len(digits) <= MAX_DIGITS and digits.isascii() and digits.isdecimal():
        return int(word)
    return None
