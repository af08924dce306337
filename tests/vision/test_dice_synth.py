"""The synthetic dice renderer: seeded, truthful about where each die is and what it shows."""
import math

import cv2
import numpy as np
import pytest

from engine.table import EXCAPE_FACES
from vision.synth.clutter import desk_scene
from vision.synth.dice import DICE_COLOURS, MATERIALS, Look, render_scene


def test_same_seed_same_scene_and_different_seed_different_scene():
    a = render_scene(3, count=4, look=Look(noise=5, glare=True))
    b = render_scene(3, count=4, look=Look(noise=5, glare=True))
    c = render_scene(4, count=4, look=Look(noise=5, glare=True))
    assert np.array_equal(a.image, b.image) and a.dice == b.dice
    assert not np.array_equal(a.image, c.image)


def test_every_die_is_drawn_at_its_reported_place_in_its_colour():
    scene = render_scene(11, size=(640, 480), count=6, die_px=50, look=Look(background="felt", shadow=False))
    assert len(scene.dice) == 6
    for die in scene.dice:
        body, _ink = DICE_COLOURS[die.colour]
        # between the centre pip and the corner pips there is bare body colour
        offset = 0.14 * die.size
        a = math.radians(die.angle)
        x, y = round(die.x + offset * math.cos(a)), round(die.y + offset * math.sin(a))
        assert np.abs(scene.image[y, x].astype(int) - body).max() < 40, die


def test_dice_stay_inside_the_frame_and_apart_unless_touching():
    scene = render_scene(5, count=10, die_px=40)
    for i, a in enumerate(scene.dice):
        assert 0 < a.x < 640 and 0 < a.y < 640
        for b in scene.dice[i + 1:]:
            assert math.hypot(a.x - b.x, a.y - b.y) > 40
    touching = render_scene(5, count=6, die_px=40, look=Look(touching=True))
    gaps = [math.hypot(a.x - b.x, a.y - b.y) for a, b in zip(touching.dice[::2], touching.dice[1::2])]
    assert gaps and all(g < 45 for g in gaps)


def test_printed_faces_and_perspective_keep_ground_truth_consistent():
    flat = render_scene(8, count=5, faces=EXCAPE_FACES, look=Look(printed=True, rotation=False))
    tilted = render_scene(8, count=5, faces=EXCAPE_FACES, look=Look(printed=True, rotation=False, perspective=0.3))
    assert [d.face for d in flat.dice] == [d.face for d in tilted.dice]
    assert all(set(d.face) <= set("1234567X") for d in flat.dice)
    # the tilt squeezes the top (or bottom) of the frame: dice there shrink
    assert any(t.size < f.size * 0.95 for f, t in zip(flat.dice, tilted.dice))


def test_unknown_background_is_refused():
    with pytest.raises(ValueError, match="unknown background 'lava'"):
        render_scene(1, look=Look(background="lava"))


def body_pixels(scene, die):
    """The top face's pixels between its pips: a ring at 0.14 of a side from its centre."""
    angles = [math.radians(die.angle) + k * math.pi / 2 for k in range(4)]
    reach = 0.14 * die.size
    return np.array([scene.image[round(die.y + reach * math.sin(a)), round(die.x + reach * math.cos(a))]
                     for a in angles], float)


def test_a_material_changes_how_the_dice_look_and_not_where_they_lie_or_what_they_show():
    scenes = {m: render_scene(21, size=(640, 480), count=6, die_px=60, colours=("white",),
                              look=Look(background="felt", shadow=False, material=m)) for m in MATERIALS}
    assert scenes["translucent"].dice == scenes["marbled"].dice == scenes["opaque"].dice
    for opaque, clear in zip(scenes["opaque"].dice, scenes["translucent"].dice):
        # a white body over dark felt: the felt shows through the translucent one
        assert body_pixels(scenes["translucent"], clear).mean() < body_pixels(scenes["opaque"], opaque).mean() - 40
    # the marbled body varies across the face, the opaque one hardly
    spread = {m: np.mean([np.ptp(body_pixels(scenes[m], d).mean(axis=1)) for d in scenes[m].dice]) for m in MATERIALS}
    assert spread["marbled"] > spread["opaque"] + 10


def test_an_unknown_material_is_refused():
    with pytest.raises(ValueError, match="unknown dice material 'glass'"):
        render_scene(1, look=Look(material="glass"))


def test_a_desk_without_dice_is_seeded_and_holds_printed_things():
    a, b, c = desk_scene(21), desk_scene(21), desk_scene(22, size=(320, 240))
    assert np.array_equal(a, b) and a.shape == (480, 640, 3) and c.shape == (240, 320, 3)
    # printed things: sharp dark-light edges over much of the frame, not a bare table
    edges = [np.count_nonzero(cv2.Canny(cv2.cvtColor(desk_scene(s), cv2.COLOR_BGR2GRAY), 60, 150)) for s in range(5)]
    assert min(edges) > 0.01 * 640 * 480, edges
