"""Synthetic card designs: every kind renders, seeded; the alpha is the card's outline."""
import re
from dataclasses import replace

import numpy as np
import pytest

from vision.synth.card_designs import (ASPECT_RANGE, BORDERS, DESIGN_KINDS, deck, random_design, render_back,
                                       render_face)


def _design(kind: str, seed: int = 0, **changes):
    return replace(random_design(np.random.default_rng(seed), kinds=(kind,)), **changes)


def _renders(design, px_per_mm: float, seed: int = 0):
    rng = np.random.default_rng(seed)
    return [render_face(design, deck(design)[-1], px_per_mm, rng), render_back(design, px_per_mm, rng)]


@pytest.mark.parametrize("kind", DESIGN_KINDS)
@pytest.mark.parametrize("px_per_mm", (2.5, 6.0))
def test_face_and_back_are_the_card_in_portrait_with_its_rounded_outline(kind, px_per_mm):
    design = _design(kind, corner_radius_mm=3.0)
    w, h = (round(v * px_per_mm) for v in design.size_mm)
    r = 3.0 * px_per_mm
    centre_distance = np.hypot(*np.meshgrid(np.arange(8) + 0.5 - r, np.arange(8) + 0.5 - r))
    for image, alpha in _renders(design, px_per_mm):
        assert image.shape == (h, w, 3) and image.dtype == np.uint8
        assert alpha.shape == (h, w) and alpha.dtype == np.uint8
        assert alpha[h // 2, w // 2] == 255 and alpha[h // 2, 0] == 255 and alpha[0, w // 2] == 255
        for corner in (alpha[:8, :8], alpha[:8, ::-1][:, :8], alpha[::-1][:8, :8], alpha[::-1, ::-1][:8, :8]):
            assert corner[0, 0] == 0
            assert (corner[centre_distance > r + 0.75] == 0).all()
            assert (corner[centre_distance < r - 0.75] == 255).all()


def test_square_corners_cover_every_pixel():
    _, alpha = render_face(_design("poker", corner_radius_mm=0.0), "spades A", 4.0, np.random.default_rng(0))
    assert (alpha == 255).all()


@pytest.mark.parametrize("kind", DESIGN_KINDS)
def test_the_same_seed_prints_the_same_pixels(kind):
    design = _design(kind, seed=3)
    for (a, alpha_a), (b, alpha_b) in zip(_renders(design, 4.0, seed=9), _renders(design, 4.0, seed=9)):
        assert np.array_equal(a, b) and np.array_equal(alpha_a, alpha_b)


@pytest.mark.parametrize("kind", DESIGN_KINDS)
def test_every_face_differs_from_the_others(kind):
    design = _design(kind, seed=4, misregistration_mm=0.0)
    labels = deck(design)[:: max(1, len(deck(design)) // 12)]
    faces = [render_face(design, label, 3.0, np.random.default_rng(0))[0] for label in labels]
    for i in range(len(faces)):
        for j in range(i):
            assert not np.array_equal(faces[i], faces[j]), (labels[i], labels[j])


@pytest.mark.parametrize("border", ("white", "black"))
def test_the_rim_reaches_the_cut(border):
    design = _design("hilo", border=border, border_mm=3.0)
    image, _ = render_face(design, deck(design)[0], 4.0, np.random.default_rng(0))
    rim = design.paper if border == "white" else design.key
    h, w = image.shape[:2]
    for y, x in ((h // 2, 0), (h // 2, w - 1), (0, w // 2), (h - 1, w // 2)):
        assert tuple(int(v) for v in image[y, x]) == rim


@pytest.mark.parametrize("seed", range(12))
def test_deck_labels_are_unique_colour_value_pairs(seed):
    design = random_design(np.random.default_rng(seed))
    labels = deck(design)
    assert len(labels) == len(set(labels)) >= 20
    assert all(re.fullmatch(r"[a-z]+ [-+]?[0-9a-zA-Z]+", label) for label in labels), labels


def test_a_label_outside_the_deck_is_refused():
    with pytest.raises(ValueError, match="not a face"):
        render_face(_design("poker"), "red 7", 4.0, np.random.default_rng(0))


def test_random_designs_cover_every_kind_and_border_in_card_proportions():
    rng = np.random.default_rng(0)
    designs = [random_design(rng) for _ in range(200)]
    assert {d.kind for d in designs} == set(DESIGN_KINDS)
    assert {d.border for d in designs} == set(BORDERS)
    for d in designs:
        w, h = d.size_mm
        assert ASPECT_RANGE[0] <= h / w <= ASPECT_RANGE[1], d.size_mm
        assert 0 <= d.corner_radius_mm <= 5
        assert (d.border_mm == 0) == (d.border == "none")
    assert {random_design(rng, kinds=("gem",)).kind for _ in range(10)} == {"gem"}
