"""Stillness gate and vote: read only when nothing moves, report a settled reading once."""
import numpy as np
import pytest

from vision.dice import DieReading
from vision.stillness import StableReader, StillnessGate, consensus
from vision.synth.dice import Look, render_scene

SCENE = render_scene(21, count=4, look=Look(background="wood"))


def noisy(image, seed, sigma=4.0):
    rng = np.random.default_rng(seed)
    return np.clip(image + rng.normal(0, sigma, image.shape), 0, 255).astype(np.uint8)


def rolled(seed):
    """The same table with the dice somewhere else."""
    return render_scene(seed, count=4, look=Look(background="wood")).image


def test_still_only_after_enough_unchanged_frames_despite_sensor_noise():
    gate = StillnessGate(still_frames=3)
    answers = [gate.update(noisy(SCENE.image, i)) for i in range(5)]
    assert answers == [False, False, False, True, True]


def test_moving_dice_are_never_still_and_the_count_restarts():
    gate = StillnessGate(still_frames=2)
    frames = [SCENE.image, SCENE.image, SCENE.image, rolled(22), rolled(23), rolled(23), rolled(23)]
    assert [gate.update(f) for f in frames] == [False, False, True, False, False, False, True]
    assert gate.motion == 0.0


def test_a_hand_over_part_of_the_table_is_motion():
    gate = StillnessGate(still_frames=1)
    gate.update(SCENE.image)
    hand = SCENE.image.copy()
    hand[200:300, 0:120] = (120, 150, 200)
    assert gate.update(hand) is False and gate.motion > 0.002


def reading(x, face, colour="red", p=0.9):
    rest = (1 - p) / 5
    faces = {f: (p if f == face else rest) for f in "123456"}
    return DieReading(x, 100.0, ((x, 100.0), (40.0, 40.0), 0.0), faces, 0.99, colour)


def test_consensus_needs_enough_agreeing_frames_and_averages_them():
    frames = [[reading(100, "3"), reading(200, "5")], [reading(101, "3", p=0.7), reading(199, "5")],
              [reading(100, "3")]]  # the 5 unseen
    assert consensus(frames, agree=3) is None
    settled = consensus(frames, agree=2)
    assert [d.face for d in settled] == ["3", "5"]
    assert settled[0].faces["3"] == pytest.approx(0.8)


def test_a_still_die_read_as_two_faces_is_one_die_its_faces_averaged():
    """A die lying still keeps its face: a reader unsure between a 4 and a 5 flickers between them,
    and the reading reports that doubt rather than waiting for frames that agree."""
    frames = [[reading(100, face, p=0.55), reading(200, "1")] for face in "45454"]
    settled = consensus(frames, agree=4)
    assert len(settled) == 2 and settled[1].face == "1"
    assert settled[0].faces["4"] == pytest.approx((3 * 0.55 + 2 * 0.09) / 5)
    assert settled[0].faces["5"] == pytest.approx((2 * 0.55 + 3 * 0.09) / 5)
    assert settled[0].face == "4"


def test_consensus_needs_each_die_in_the_same_place():
    # the third frame reads the 3 as a 3, but most of a side away: the reader placed it elsewhere
    placed, elsewhere = [reading(100, "3"), reading(200, "5")], [reading(130, "3", p=0.5), reading(200, "5")]
    assert consensus([placed, placed, elsewhere], agree=3) is None
    settled = consensus([placed, elsewhere, placed, placed], agree=3)
    assert settled[0].x == 100 and settled[0].faces["3"] == pytest.approx(0.9)
    # a still die read a little off from frame to frame still agrees
    jittered = [[reading(100 + dx, "3"), reading(200 - dx, "5")] for dx in (0, 5, -8)]
    assert [d.face for d in consensus(jittered, agree=3)] == ["3", "5"]


def test_consensus_pairs_alike_dice_by_place_and_reports_the_latest_of_the_most_shared():
    first = [reading(100, "3", p=0.9), reading(200, "3", p=0.6)]
    second = [reading(201, "3", p=0.8), reading(101, "3", p=0.7)]
    settled = consensus([first, second], agree=2)
    assert [d.x for d in settled] == [201, 101]
    assert settled[0].faces["3"] == pytest.approx(0.7) and settled[1].faces["3"] == pytest.approx(0.8)
    # a die more is other dice
    assert consensus([first, first + [reading(300, "6")]], agree=2) is None


def test_a_still_die_read_in_two_colours_is_one_die_of_the_colour_most_frames_name():
    frames = [[reading(100, "3", colour=colour)] for colour in ("purple", "white", "purple", "purple")]
    assert [d.colour for d in consensus(frames, agree=4)] == ["purple"]
    assert [d.colour for d in consensus(frames[:2], agree=2)] == ["white"]  # a tie: the latest
    unsure = [[reading(100, "3", colour=colour)] for colour in ("", "", "purple", "")]
    assert [d.colour for d in consensus(unsure, agree=4)] == ["purple"]  # the frames unsure of it name none
    assert [d.colour for d in consensus(unsure[:2], agree=2)] == [""]


def test_stable_reader_reports_once_per_still_period():
    scripted = iter([[reading(100, "4")]] * 20)
    stable = StableReader(lambda frame: next(scripted), StillnessGate(still_frames=1), votes=3, agree=3)
    still = [SCENE.image] * 6
    answers = [stable.update(f) for f in still]
    # frame 1 primes the gate; frames 2-4 are read; the third agreeing reading is reported
    assert answers[:3] == [None, None, None]
    assert [d.face for d in answers[3]] == ["4"]
    assert answers[4:] == [None, None]
    # the dice are rolled again: after the motion, a new still period reports again
    after = [stable.update(f) for f in [rolled(30), rolled(30), rolled(30), rolled(30), rolled(30)]]
    assert [a is not None for a in after] == [False, False, False, True, False]


def test_stable_reader_waits_while_frames_disagree():
    # a die seen in one frame and not in the next (a glint, a shadow read as a die)
    counts = iter([1, 2, 1, 2, 1, 2, 1, 1, 1, 1])
    stable = StableReader(lambda frame: [reading(100 * (k + 1), "1") for k in range(next(counts))],
                          StillnessGate(still_frames=1), votes=4, agree=4)
    answers = [stable.update(SCENE.image) for _ in range(11)]
    reported = [i for i, a in enumerate(answers) if a is not None]
    assert reported == [10] and len(answers[10]) == 1


@pytest.mark.parametrize("faces, reported, sureness", [
    ("4444444444", 4, 0.99),                   # read surely: reported as soon as four frames agree
    ("4544444444", 7, 0.99),                   # a 5 in one of them: read on until five frames read it surely
    ("4545454444", 10, (7 * 0.99 + 3 * 0.002) / 10),  # never sure: after ten frames, their average
])
def test_a_reading_with_a_doubtful_face_is_read_on_before_it_is_reported(faces, reported, sureness):
    scripted = iter([[reading(100, face, p=0.99), reading(200, "1", p=0.99)] for face in faces])
    stable = StableReader(lambda frame: next(scripted), StillnessGate(still_frames=1), votes=5, agree=4,
                          doubt=0.95, patience=10)
    answers = [stable.update(SCENE.image) for _ in range(len(faces) + 1)]  # the first frame primes the gate
    assert [i for i, a in enumerate(answers) if a is not None] == [reported]
    assert answers[reported][0].faces["4"] == pytest.approx(sureness)


def test_a_reading_doubtful_after_all_its_patience_is_reported_as_most_frames_see_it():
    # too few of the frames read on agree on the dice: the reading reported is that of the last ones
    counts = iter([1, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    stable = StableReader(lambda frame: [reading(100 * (k + 1), "1", p=0.6) for k in range(next(counts))],
                          StillnessGate(still_frames=1), votes=4, agree=4, doubt=0.95, patience=6)
    answers = [stable.update(SCENE.image) for _ in range(12)]
    assert [i for i, a in enumerate(answers) if a is not None] == [7] and len(answers[7]) == 2


def test_built_from_the_default_settings(tmp_path):
    from assistant import settings

    defaults = settings.load(env={}, system_file=tmp_path / "none", user_path=tmp_path / "none")
    stable = StableReader.from_settings(lambda frame: [], defaults.section("vision.stillness"))
    assert stable.agree <= stable._recent.maxlen and stable.gate.still_frames >= 1


def test_bad_vote_settings_are_refused():
    with pytest.raises(ValueError, match="agree"):
        StableReader(lambda f: [], StillnessGate(), votes=3, agree=4)
    with pytest.raises(ValueError, match="patience"):
        StableReader(lambda f: [], StillnessGate(), votes=5, agree=4, patience=4)
