"""Frames one by one -> an observation per settled still table, with the frame it was still since."""
import math
from pathlib import Path

import numpy as np
import pytest

from assistant import settings
from assistant.commands.print_mat import mat_layout
from dice_support import reader
from vision.dice import DiceReader, DieReading
from vision.live import (DIE_SIDE_MM, SIDE_SAMPLES, SIDE_SLACK, TableWatcher, dice_zones, die_sides, lying_still,
                         on_the_mat, same_dice)
from vision.mat import MatPose
from vision.stillness import StableReader, StillnessGate
from vision.synth.dice import Look, render_scene
from vision.synth.recording import DICE_SETS, DIE_MM, DIE_PX, Film, LyingDie, enrolment_images, smallest_mat

TABLE = render_scene(31, size=(240, 180), count=2, look=Look(background="wood")).image


def die(x, face, y=90.0, angle=0.0):
    faces = {f: (0.95 if f == face else 0.01) for f in "123456"}
    return DieReading(x, y, ((x, y), (30.0, 30.0), angle), faces, 0.99, "white")


def hand(image, step):
    """The table with a hand-sized block over part of it."""
    frame = image.copy()
    frame[20:120, 30 * step:30 * step + 80] = (60, 90, 140)
    return frame


class Scripted:
    """A reader that answers the readings given for each frame it is asked about, and counts them."""

    def __init__(self, answers):
        self.answers, self.calls = answers, []

    def __call__(self, frame):
        self.calls.append(frame)
        return self.answers(len(self.calls))


def watcher(reader):
    return TableWatcher(StableReader(reader, StillnessGate(still_frames=2), votes=3, agree=3))


def test_a_still_table_is_observed_once_with_its_latency_and_read_only_when_still():
    reader = Scripted(lambda call: [die(60, "3"), die(150, "5")])
    watch = watcher(reader)
    frames = [hand(TABLE, 0), hand(TABLE, 1), *[TABLE] * 8]
    found = [(i, watch.feed(i, f)) for i, f in enumerate(frames)]
    [(index, observation)] = [(i, o) for i, o in found if o is not None]
    # frame 2 is the first of the still table; still after 2 unmoving frames (4), then 3 agreeing reads
    assert (index, observation.frame, observation.still_since) == (6, 6, 2)
    assert [d.face for d in observation.dice] == ["3", "5"]
    assert observation.faces()[0]["3"] == 0.95
    assert len(reader.calls) == 3  # the moving frames and the settled table are not read


def test_dice_where_they_lay_after_a_hand_passed_are_not_observed_again_but_rolled_ones_are():
    readings = iter([[die(60, "3"), die(150, "5")]] * 3 + [[die(61, "3"), die(149, "5")]] * 3
                    + [[die(100, "3"), die(150, "5")]] * 3)
    watch = watcher(lambda frame: next(readings))
    frames = [*[TABLE] * 6, hand(TABLE, 2), *[TABLE] * 6, hand(TABLE, 3), *[TABLE] * 6]
    observed, tables = [], []
    for i, frame in enumerate(frames):
        if (o := watch.feed(i, frame)) is not None:
            observed.append(o)
        if watch.settled:
            tables.append(watch.table)
    assert [o.frame for o in observed] == [4, 18]  # the hand at frame 6 moved nothing; the one at 13 did
    assert observed[1].still_since == 14
    # the table settled after the hand passed is kept too (the camera view shows it)
    assert [t.frame for t in tables] == [4, 11, 18] and [d.x for d in tables[1].dice] == [61, 149]


def test_a_die_lies_still_in_its_place_with_its_face_and_colour_turned_the_same_way():
    before = (die(60, "3"), die(150, "5", angle=88.0))
    assert lying_still(before, [die(154, "5", angle=3.0), die(55, "3")]) == 2  # within a quarter die, in any order
    assert lying_still(before, [die(60, "3", angle=20.0), die(150, "5")]) == 1  # the 3 turned: thrown
    assert lying_still(before, [die(60, "3"), die(160, "5")]) == 1  # a third of a die away: thrown
    assert same_dice(before, (die(60, "3", angle=20.0), die(160, "5")))  # or put back by a hand
    assert not same_dice(before, (die(60, "3"), die(170, "5")))
    assert lying_still(before, [die(60, "3"), die(150, "6")]) == 1  # the 5 turned: not the die that lay
    assert lying_still(before, [die(60, "3"), die(180, "5")]) == 1
    assert lying_still(before, [die(60, "3")]) == 1
    assert lying_still(before, [die(60, "3"), die(61, "3")]) == 1  # one die lay there, not two
    assert lying_still((), [die(60, "3")]) == 0


def test_a_die_whose_colour_was_unsure_once_is_still_the_die_that_lay_there():
    from dataclasses import replace

    before = (replace(die(60, "3"), colour="blue"), replace(die(150, "5"), colour=""))
    now = [replace(die(60, "3"), colour=""), replace(die(150, "5"), colour="purple")]
    assert lying_still(before, now) == 2  # unnamed (unsure) is any colour
    assert lying_still(before, [replace(die(60, "3"), colour="purple")]) == 0  # named otherwise: another die


def test_a_die_knocked_is_observed_with_the_die_that_lay_still_and_a_die_put_back_is_not():
    rolled, knocked = [die(60, "3"), die(150, "5")], [die(60, "3"), die(152, "6")]
    thrown = [die(100, "3"), die(200, "5")]
    readings = iter([rolled] * 3 + [knocked] * 3 + [rolled] * 3 + [thrown] * 3)
    watch = watcher(lambda frame: next(readings))
    frames = [*[TABLE] * 6, hand(TABLE, 2), *[TABLE] * 6, hand(TABLE, 3), *[TABLE] * 6, hand(TABLE, 1), *[TABLE] * 6]
    observed = [o for i, f in enumerate(frames) if (o := watch.feed(i, f)) is not None]
    # the 5 knocked to a 6 beside the 3 that stayed; put back as it lay: nothing; then a roll
    assert [o.frame for o in observed] == [4, 11, 25]
    assert [lying_still(a.dice, b.dice) for a, b in zip(observed, observed[1:])] == [1, 0]


def test_built_from_the_default_settings_it_reads_a_rendered_table():
    nowhere = Path("/nonexistent")
    loaded = settings.load(env={}, system_file=nowhere, user_path=nowhere)
    watch = TableWatcher.from_settings(loaded.section("vision.dice"), loaded.section("vision.stillness"))
    scene = render_scene(7, size=(320, 240), count=2, die_px=36, colours=("white",), look=Look(background="wood"))
    rng = np.random.default_rng(0)
    frames = [np.clip(scene.image + rng.normal(0, 2, scene.image.shape), 0, 255).astype(np.uint8) for _ in range(10)]
    observed = [o for i, f in enumerate(frames) if (o := watch.feed(i, f)) is not None]
    assert len(observed) == 1
    assert sorted(d.face for d in observed[0].dice) == sorted(d.face for d in scene.dice)


def mat_at(scale):
    """Excape's A3 mat seen from above at ``scale`` px a mm, its corner at the frame's."""
    pose = MatPose(np.diag([1 / scale, 1 / scale, 1.0]), 0.0, (16, 17, 18, 19), ())
    return pose, mat_layout("excape", "A3", 3)


def test_on_a_mat_each_die_is_placed_in_the_zone_it_lies_in():
    pose, layout = mat_at(2.0)
    rung3, roll = layout.zone("ladder.3"), layout.zone("roll")
    dice = [die(2 * rung3.x, "4", y=2 * rung3.y),
            die(2 * (rung3.x + rung3.w / 2 + 4), "3", y=2 * rung3.y),  # across its edge: still rung 3's
            die(2 * roll.x, "5", y=2 * roll.y),
            die(2 * 250.0, "6", y=2 * 20.0)]  # by the track: in no dice zone
    assert dice_zones((pose, layout), dice) == ("ladder.3", "ladder.3", "roll", None)


def test_on_a_mat_its_print_around_the_dice_zones_is_not_dice():
    pose, layout = mat_at(2.0)
    roll = layout.zone("roll")
    marker = layout.markers[0]
    on_marker = die(2 * (marker.x + marker.size / 2), "6", y=2 * (marker.y + marker.size / 2))
    by_the_track = die(2 * 250.0, "1", y=2 * 20.0)  # a space's number
    real = die(2 * roll.x + 40, "5", y=2 * roll.y)
    assert on_the_mat((pose, layout), [on_marker, by_the_track, real]) == [real]


def test_on_a_mat_a_die_is_of_a_die_s_size_then_of_the_size_of_the_dice_seen_there():
    pose, layout = mat_at(2.0)
    def px(sides):  # the least and most side at one place of the frame
        return tuple(float(v) for v in np.ravel(sides(np.array([[300.0, 200.0]]))))

    assert px(die_sides((pose, layout))) == pytest.approx((2 * DIE_SIDE_MM[0], 2 * DIE_SIDE_MM[1]))
    assert px(die_sides((pose, layout), 16.0)) == pytest.approx((2 * DIE_SIDE_MM[0], 2 * 16.0 * SIDE_SLACK))
    roll = layout.zone("roll")
    asked, rolls = [], [0]

    def reader(frame, area=None, sides=None):  # two dice 30 px wide (15 mm), elsewhere at each roll
        asked.append(sides)
        return [die(2 * roll.x - 100 + 40 * k + 50 * rolls[0], "5", y=2 * roll.y) for k in range(2)]

    watch = watcher(reader)
    for roll_ in range(SIDE_SAMPLES // 2):
        rolls[0] = roll_
        observed = [watch.feed(10 * roll_ + i, frame, mat=(pose, layout))
                    for i, frame in enumerate([hand(TABLE, 1)] + [TABLE] * 5)]
        assert sum(o is not None for o in observed) == 1
        assert px(asked[-1]) == px(die_sides((pose, layout))), "too few dice seen to know their size"
    for i, frame in enumerate([hand(TABLE, 1)] + [TABLE] * 3):
        watch.feed(100 + i, frame, mat=(pose, layout))
    assert px(asked[-1]) == pytest.approx(px(die_sides((pose, layout), 15.0)))
    # another game's mat, its own dice: their size is not known yet
    other = (pose, mat_layout("holdup", "A2", 3))
    for i, frame in enumerate([hand(TABLE, 1)] + [TABLE] * 3):
        watch.feed(200 + i, frame, mat=other)
    assert px(asked[-1]) == px(die_sides(other))


def test_two_touching_dice_in_a_rung_are_read_once_the_dice_s_size_is_known():
    # the reader may take two touching dice, or the rung's outline around them, for one large die
    # surer than of either, which hides both
    mat = smallest_mat("excape", 3)
    film = Film(7, DICE_SETS["excape"], lambda frame: None, mat)
    base = reader()
    enrolled = base.enrol_faces({face: [image] for face, image in enrolment_images(film, 3).items()})
    read = DiceReader(base.detector, base.checker, base.face_network, base.palette, enrolled=enrolled)
    pose = MatPose(np.linalg.inv(film.mm_to_px), 0.0, (), ())
    zone, side = mat.zone("ladder.5"), DIE_PX * film.scale
    middle = film._px((zone.x, zone.y))
    rng = np.random.default_rng(3)
    limits = (None, die_sides((pose, mat), DIE_MM))
    found = [0, 0]
    for _ in range(8):
        dice = []
        for k, face in enumerate(("3", "2")):
            seed = int(rng.integers(2**31))
            x, y = middle + ((k - 0.5) * side * rng.uniform(1.0, 1.12), rng.uniform(-0.2, 0.2) * side)
            dice.append(LyingDie("ladder/5", 0, face, "red", seed, x, y, film.sprite(seed, face, "red")))
        image = np.clip(film.image(dice) * film.light, 0, 255).astype(np.uint8)
        for k, sides in enumerate(limits):
            readings = read.read(image, None, sides)
            found[k] += sum(any(math.hypot(r.x - d.x, r.y - d.y) < side / 2 and r.face == d.face
                                    for r in readings) for d in dice)
    wide, narrow = found
    assert wide <= 14 and narrow == 16, found
