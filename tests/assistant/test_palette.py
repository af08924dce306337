"""The players' colours tell apart at a glance, on a 12 px pawn too: measured as the distance of
two colours in CIE L*a*b* (about 2.3 is the least a person sees; 35 and more, two other colours)."""
import itertools
import math

from assistant.screens import palette


def lab(rgba):
    def linear(c):
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = map(linear, rgba[:3])
    x, y, z = ((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b,
               (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883)

    def f(t):
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def distance(first, second):
    return math.dist(lab(palette.colour(first)), lab(palette.colour(second)))


def test_red_and_orange_pawns_look_different():
    assert distance("red", "orange") >= 50


def test_no_two_player_colours_are_close():
    closest = min(itertools.combinations(palette.PLAYER_COLOURS, 2), key=lambda pair: distance(*pair))
    assert distance(*closest) >= 35, closest
