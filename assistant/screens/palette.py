"""Colours of the screens: a dark theme readable under club lighting, and the players' colours.

Player and card colour names are the palette names used in configuration and by the camera
(red, orange, yellow, lime, green, blue, purple, pink); unknown names are shown grey.
"""
from __future__ import annotations

BACKGROUND = (0.11, 0.12, 0.14, 1)
PANEL = (0.17, 0.19, 0.22, 1)
RAISED = (0.24, 0.27, 0.31, 1)
TEXT = (0.96, 0.96, 0.94, 1)
DIM = (0.66, 0.69, 0.73, 1)
ACCENT = (0.96, 0.71, 0.16, 1)      # amber: highlights, the best advice, the active seat
GOOD = (0.25, 0.70, 0.45, 1)
BAD = (0.90, 0.30, 0.30, 1)
EXPLAIN = (0.35, 0.60, 0.95, 1)
CARD_BACK = (0.30, 0.24, 0.45, 1)

PLAYER_COLOURS = {
    "red": (0.80, 0.10, 0.16, 1),     # red and orange apart in hue and lightness, pawns side by side too
    "orange": (1.00, 0.55, 0.00, 1),
    "yellow": (0.98, 0.84, 0.20, 1),
    "lime": (0.66, 0.86, 0.30, 1),
    "green": (0.19, 0.62, 0.40, 1),
    "blue": (0.15, 0.52, 0.95, 1),
    "purple": (0.58, 0.35, 0.80, 1),
    "pink": (0.86, 0.35, 0.65, 1),
}
UNKNOWN = (0.55, 0.55, 0.55, 1)
DARK_INK = (0.08, 0.08, 0.08, 1)

# Hold Up's example deck; a club's own stone types get a colour of the players' palette.
STONES = {
    "diamond": (0.82, 0.91, 0.96, 1),
    "ruby": (0.80, 0.12, 0.25, 1),
    "emerald": (0.10, 0.62, 0.38, 1),
    "sapphire": (0.12, 0.35, 0.85, 1),
}


def colour(name: str) -> tuple[float, float, float, float]:
    return PLAYER_COLOURS.get(name, UNKNOWN)


def stone(name: str) -> tuple[float, float, float, float]:
    if name in STONES:
        return STONES[name]
    choices = list(PLAYER_COLOURS.values())
    return choices[sum(map(ord, name)) % len(choices)]


def ink_on(rgba) -> tuple[float, float, float, float]:
    """Dark or light text, whichever reads on a background of colour ``rgba``."""
    red, green, blue = rgba[:3]
    return DARK_INK if 0.299 * red + 0.587 * green + 0.114 * blue > 0.55 else TEXT


def ink(name: str) -> tuple[float, float, float, float]:
    """The text colour that reads on a background of the player colour ``name``."""
    return ink_on(colour(name))


def message_colour(kind: str) -> tuple[float, float, float, float]:
    return {"error": BAD, "explain": EXPLAIN}.get(kind, RAISED)


def next_colour(used: set[str]) -> str:
    """The first palette colour nobody at the table has yet."""
    return next((name for name in PLAYER_COLOURS if name not in used), "")
