"""Naming a die's body colour from the configured palette."""
import numpy as np
import pytest

from vision.dice_colours import Palette
from vision.dice_patches import PATCH_CONTEXT, PATCH_SIDE

PALETTE = Palette.parse(["white #e6e6e2", "black #2e2e30", "red #b82a2a", "green #2e8c46", "blue #2a4aa8",
                         "yellow #e2cf2e"])


def die_patch(body_bgr, pips_bgr=None, pips=6):
    """A reader patch with a die of ``body_bgr`` in the middle, with dark or light pips."""
    square = np.full((PATCH_SIDE, PATCH_SIDE, 3), (120, 120, 120), np.uint8)
    side = PATCH_SIDE / PATCH_CONTEXT
    lo, hi = int(PATCH_SIDE / 2 - side / 2), int(PATCH_SIDE / 2 + side / 2)
    square[lo:hi, lo:hi] = body_bgr
    if pips_bgr is not None:
        for k in range(pips):
            x = int(PATCH_SIDE / 2 + (-1 if k % 2 else 1) * 0.27 * side)
            y = int(PATCH_SIDE / 2 + (k // 2 - 1) * 0.27 * side)
            square[y - 3:y + 3, x - 3:x + 3] = pips_bgr
    return square


@pytest.mark.parametrize("body,pips,expected", [
    ((228, 228, 230), (20, 20, 20), "white"),
    ((40, 40, 40), (240, 240, 240), "black"),
    ((45, 40, 190), (240, 240, 240), "red"),
    ((75, 150, 40), (40, 220, 230), "green"),
    ((170, 80, 40), (240, 240, 240), "blue"),
    ((50, 210, 225), (20, 20, 20), "yellow"),
])
def test_body_colour_is_named_despite_pips(body, pips, expected):
    assert PALETTE.name(die_patch(body, pips)) == expected


def test_a_printed_symbol_covering_the_middle_of_the_face_leaves_the_body_colour():
    patch = die_patch((75, 150, 40))  # green
    middle, side = PATCH_SIDE // 2, PATCH_SIDE / PATCH_CONTEXT
    half = int(0.3 * side)
    patch[middle - half:middle + half, middle - half:middle + half] = (40, 220, 230)  # a bold yellow 6 and its line
    assert PALETTE.name(patch) == "green"


def test_a_colour_halfway_between_two_of_the_palette_is_not_named():
    red, blue = np.array((42, 42, 184)), np.array((168, 74, 42))
    assert PALETTE.name(die_patch(tuple(int(c) for c in (red + blue) / 2), (240, 240, 240))) == ""
    assert PALETTE.name(die_patch(tuple(int(c) for c in 0.8 * red + 0.2 * blue), (240, 240, 240))) == "red"


def test_dimmer_light_keeps_the_name():
    dim = tuple(int(c * 0.6) for c in (45, 40, 190))
    assert PALETTE.name(die_patch(dim, (200, 200, 200))) == "red"


def test_empty_palette_names_nothing():
    assert Palette.parse([]).name(die_patch((200, 200, 200))) == ""


@pytest.mark.parametrize("entries,message", [
    (["red"], "'red' is not"),
    (["red #12345"], "'red #12345' is not"),
    (["red #ff0000", "red #ee0000"], "different"),
])
def test_malformed_palette_is_named(entries, message):
    with pytest.raises(ValueError, match=message):
        Palette.parse(entries)
