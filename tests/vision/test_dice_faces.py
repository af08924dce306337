"""Printed dice faces (Excape 1-7 and X) and picture faces (a skull, an emblem) learnt from a few photos, then read."""
import functools
import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from dice_support import dice_settings, reader
from engine.table import EXCAPE_FACES
from vision.dice import DiceReader
from vision.dice_faces import REACH, SHARPNESS, SQUARE, EnrolledFaces, EnrolledFacesError, face_square, face_squares
from vision.dice_patches import PATCH_SIDE, pyramid
from vision.synth.dice import PICTURES, Look, render_scene

PRINTED = Look(printed=True, background="felt")


def photos_of(face, seed):
    """Two enrolment photos of dice all showing ``face``."""
    return [render_scene(seed + k, count=2, die_px=48, faces=(face,), colours=("white", "red", "blue"), look=PRINTED)
            .image for k in range(2)]


@functools.lru_cache(maxsize=1)
def enrolled() -> EnrolledFaces:
    return reader().enrol_faces({face: photos_of(face, 500 + 10 * i) for i, face in enumerate(EXCAPE_FACES)})


def test_enrolment_learns_every_face_from_every_die():
    assert enrolled().faces == EXCAPE_FACES
    assert enrolled().counts() == {face: 4 for face in EXCAPE_FACES}


@pytest.mark.parametrize("seed", range(601, 611))
def test_enrolled_faces_read_a_new_scene(seed):
    # the networks sometimes size a printed die by its symbol alone (half its side) or too large;
    # the reader matches enrolled faces at a few sizes around the found one
    base = reader()
    read = DiceReader(base.detector, base.checker, base.face_network, base.palette, enrolled=enrolled())
    scene = render_scene(seed, count=6, die_px=48, faces=EXCAPE_FACES, colours=("white", "red", "blue", "yellow"),
                         look=PRINTED)
    readings = read.read(scene.image)
    assert len(readings) == len(scene.dice)
    for die in scene.dice:
        near = min(readings, key=lambda r: math.hypot(r.x - die.x, r.y - die.y))
        assert set(near.faces) == set(EXCAPE_FACES)
        assert near.face == die.face, (near.faces, die)


def test_save_and_load_round_trip(tmp_path):
    path = tmp_path / "state" / "dice-faces.npz"
    enrolled().save(path)
    again = EnrolledFaces.load(path)
    assert again.faces == enrolled().faces and np.array_equal(again.vectors, enrolled().vectors)
    assert not list(path.parent.glob("*.partial"))


def test_missing_or_corrupt_file_is_named(tmp_path):
    with pytest.raises(EnrolledFacesError, match="calibrate dice-faces"):
        DiceReader.from_settings(dice_settings(faces="enrolled"), tmp_path)
    (tmp_path / "dice-faces.npz").write_bytes(b"garbage")
    with pytest.raises(EnrolledFacesError, match="not an enrolled-faces file"):
        EnrolledFaces.load(tmp_path / "dice-faces.npz")
    np.savez(tmp_path / "odd.npz", faces=np.array(["1"]), vectors=np.zeros((4, 3)), labels=np.zeros(4))
    with pytest.raises(EnrolledFacesError, match="inconsistent"):
        EnrolledFaces.load(tmp_path / "odd.npz")


def test_photo_without_a_die_is_named():
    empty = render_scene(700, count=0).image
    with pytest.raises(ValueError, match="face 7: no die found in photo 1"):
        reader().enrol_faces({"7": [empty], "X": photos_of("X", 710)})


def test_correlation_ignores_which_of_ink_and_body_is_darker_and_shifts_within_reach():
    side = SQUARE + 2 * REACH
    seven = np.zeros((side, side), np.float32)
    seven[13:27, 19:22] = 1
    seven[13:16, 13:27] = 1
    seven = cv2.GaussianBlur(seven, (0, 0), 1.0)  # as a camera sees print
    cross = np.eye(side, dtype=np.float32) + np.fliplr(np.eye(side, dtype=np.float32))
    faces = EnrolledFaces.from_samples({"7": [seven], "X": [cross]})
    shifted_negative = 1 - np.roll(seven, (1, -2), axis=(0, 1))
    assert faces.probabilities(shifted_negative)["7"] > 0.99
    assert faces.probabilities(np.rot90(cross))["X"] > 0.99
    # a die seen at an angle: its top face lies beside the centre of its outline
    beside = np.roll(seven, (REACH - 1, 1 - REACH), axis=(0, 1))
    assert faces.scores(beside)[0] > 0.99 and faces.probabilities(beside)["7"] > 0.99


def test_a_file_enrolled_when_the_sharpness_was_fitted_at_enrolment_still_loads(tmp_path):
    """Those files also held a "sharpness": the scale is now the one fitted on game frames."""
    np.savez(tmp_path / "old.npz", faces=np.array(enrolled().faces), vectors=enrolled().vectors,
             labels=enrolled().labels, sharpness=np.float64(45.5))
    old = EnrolledFaces.load(tmp_path / "old.npz")
    assert old.faces == enrolled().faces and np.array_equal(old.vectors, enrolled().vectors)


def test_faces_enrolled_at_another_size_ask_for_a_new_enrolment(tmp_path):
    np.savez(tmp_path / "small.npz", faces=np.array(["7", "X"]), vectors=np.ones((8, 20 * 20), np.float32),
             labels=np.repeat([0, 1], 4))
    with pytest.raises(EnrolledFacesError, match=f"enrolled at 20 px by an older version \\(now {SQUARE} px\\); "
                                                 "run `table-assistant calibrate dice-faces` again"):
        EnrolledFaces.load(tmp_path / "small.npz")


def test_probabilities_follow_the_fitted_scale_on_the_correlation_gap():
    side = SQUARE + 2 * REACH
    rng = np.random.default_rng(5)
    bar = np.zeros((side, side), np.float32)
    bar[4:24, 12:16] = 1
    faint = bar + 0.5 * np.eye(side, dtype=np.float32)
    faces = EnrolledFaces.from_samples({"I": [bar], "Y": [faint]})
    seen = bar + rng.normal(0, 0.3, bar.shape).astype(np.float32)
    scores, probabilities = faces.scores(seen), faces.probabilities(seen)
    assert probabilities["I"] > probabilities["Y"] > 0
    assert probabilities["I"] / probabilities["Y"] == pytest.approx(math.exp(SHARPNESS * (scores[0] - scores[1])),
                                                                    rel=0.02)


def test_a_die_found_a_little_too_small_is_read_at_the_size_that_matches_its_face():
    def patch(size):
        """A reader patch of a die printed with fine rings, ``size`` times as large as usual."""
        middle = (PATCH_SIDE - 1) / 2
        radius = np.hypot(*np.mgrid[:PATCH_SIDE, :PATCH_SIDE] - middle) / size
        grey = (128 + 100 * np.cos(radius * 1.5)).astype(np.uint8)
        return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)

    faces = EnrolledFaces.from_samples({"rings": [face_square(patch(1.0), 0.0)]})
    larger = patch(1.06)  # its side found 6 % short: the face looks 6 % too large
    assert faces.scores(face_square(larger, 0.0))[0] < 0.9
    assert faces.scores(face_squares(larger, 0.0))[0] > 0.97


def test_a_printed_die_found_by_its_symbol_alone_is_read_again_at_the_size_of_the_others():
    # on a table of its own colour, the networks may find only a die's numeral: a die of the
    # numeral's size and ink colour, which would make the roll one die too many of that colour
    base = reader()
    read = DiceReader(base.detector, base.checker, base.face_network, base.palette, enrolled=enrolled())
    scene = render_scene(605, count=4, die_px=48, faces=EXCAPE_FACES, colours=("red", "blue"), look=PRINTED)
    found = read._read(scene.image)
    assert sorted((r.face, r.colour) for r, _ in found) == sorted((d.face, d.colour) for d in scene.dice)
    symbol, square = found[0]
    truth = symbol.face, symbol.colour
    found[0] = (replace(symbol, box=(symbol.box[0], (12.0, 12.0), symbol.box[2]), colour="yellow",
                        faces={face: float(face == "4") for face in EXCAPE_FACES}), square)
    part = replace(found[1][0], x=found[1][0].x + 10, box=(found[1][0].box[0], (11.0, 11.0), 0.0))
    grown = read._symbols_grown(pyramid(scene.image, 72), [*found, (part, square)])
    assert len(grown) == len(found)  # a symbol within another die is a part of it
    again = grown[0][0]
    assert (again.face, again.colour) == truth
    assert 0.75 * 48 < again.box[1][0] < 1.3 * 48
    assert [r for r, _ in grown[1:]] == [r for r, _ in found[1:]]


def test_a_printed_die_found_a_fifth_too_small_is_read_at_its_own_size():
    # the networks' side of a printed die errs by up to a fifth or so; at a wrong size a broad
    # face (a 2) may match a numeral (a 1) better than its own, so the sizes tried lie close
    base = reader()
    read = DiceReader(base.detector, base.checker, base.face_network, base.palette, enrolled=enrolled())
    scene = render_scene(607, count=4, die_px=48, faces=EXCAPE_FACES, colours=("red", "white"), look=PRINTED)
    levels = pyramid(scene.image, 72)
    for die, _ in read._read(scene.image):
        side = die.box[1][0]
        for found in (side / 1.2, side * 0.9, side * 1.15):
            assert read._printed_size(levels, np.array([die.x, die.y, found]))[2] == pytest.approx(side, rel=0.1)


PICTURE_SET = ("skull", "2", "3", "4", "5", "emblem")  # dice printing a skull for the one, an emblem for the six


@functools.lru_cache(maxsize=1)
def enrolled_pictures() -> EnrolledFaces:
    """Every face of the picture dice enrolled from three photos of two dice each."""
    photos = {PICTURES.get(face, face): [
        render_scene(900 + 10 * i + k, count=2, die_px=48, faces=(face,), colours=("white", "red", "blue"),
                     look=Look(background="wood")).image for k in range(3)] for i, face in enumerate(PICTURE_SET)}
    return reader().enrol_faces(photos)


@pytest.mark.parametrize("seed", (951, 953, 954, 955, 960))
def test_dice_printing_pictures_are_read_once_their_faces_are_enrolled(seed):
    scene = render_scene(seed, count=6, die_px=44, faces=("skull", "emblem", "3", "4"),
                         colours=("white", "red", "blue", "green"), look=Look(background="felt"))
    truth = [PICTURES.get(die.face, die.face) for die in scene.dice]
    pictured = [k for k, die in enumerate(scene.dice) if die.face in PICTURES]
    assert {"1", "6"} <= set(truth)

    def faces_read(read: DiceReader) -> list[str | None]:
        """Each die's face as read (None where no reading lies within 0.3 of its side)."""
        readings = read.read(scene.image)
        near = [min(readings, key=lambda r: math.hypot(r.x - die.x, r.y - die.y), default=None) for die in scene.dice]
        return [r.face if r is not None and math.hypot(r.x - die.x, r.y - die.y) < 0.3 * die.size else None
                for r, die in zip(near, scene.dice)]

    base = reader()
    alone = faces_read(base)
    assert all(alone[k] is not None for k in range(len(truth)))
    # the pip networks take a skull or an emblem for pips
    assert any(alone[k] != truth[k] for k in pictured), alone
    assert faces_read(DiceReader(base.detector, base.checker, base.face_network, base.palette,
                                 enrolled=enrolled_pictures())) == truth
