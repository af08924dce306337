"""The empty table learnt for the mounted camera: its print is not read as dice, dice on it are."""
import logging
import math
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from assistant.commands.print_mat import mat_layout, zone_names
from dice_support import dice_settings, reader
from vision.dice import DiceReader
from vision.dice_background import BackgroundError, TableBackground
from vision.mat import marker_bits
from vision.synth.cards import Photo, mat_photo
from vision.synth.dice import render_scene

COLOURS = ("white", "black", "red", "green", "blue", "yellow", "purple", "orange")
LIGHTS = (0.8, 0.9, 1.0)  # the empty table learnt under these lights (gain) ...
LATER = 1.05              # ... and seen later under this one


def learnt_reader(frames, state_dir) -> DiceReader:
    """The default reader with the empty table learnt from ``frames``, as the app builds it."""
    TableBackground.from_frames(frames).save(state_dir / "dice-background.png")
    return DiceReader.from_settings(dice_settings(), state_dir)


def found(scene, readings) -> list:
    """For each die of the scene, whether a reading lies on it with its face."""
    return [any(math.hypot(r.x - d.x, r.y - d.y) < 0.2 * d.size and r.face == d.face for r in readings)
            for d in scene.dice]


def test_what_the_empty_mat_shows_is_not_read_as_dice_once_learnt(tmp_path):
    layout = mat_layout("hilo", "A2", 3)
    frames = [mat_photo(layout, 1, Photo(light=(g, g)), zone_names(layout))[0] for g in (*LIGHTS, LATER)]
    empty = frames[-1]
    assert len(reader().read(empty)) >= 2, "premise: markers and lettering of the mat pass for dice"
    learnt = learnt_reader(frames[:-1], tmp_path)
    assert learnt.read(empty) == []
    for seed in (51, 56):
        scene = render_scene(seed, count=8, die_px=36, colours=COLOURS, backdrop=empty)
        # premise: some dice lie on the mat's print (a marker, a line, a name), not on its plain felt
        assert any(printed_under(learnt.background, die) for die in scene.dice), seed
        readings = learnt.read(scene.image)
        assert all(found(scene, readings)) and len(readings) == len(scene.dice) == 8, (seed, readings)


def printed_under(background: TableBackground, die) -> bool:
    half = int(die.size / 2)
    return background.grey[int(die.y) - half:int(die.y) + half, int(die.x) - half:int(die.x) + half].std() > 40


def marker_field(size=(640, 480), cell=6) -> np.ndarray:
    """A table printed all over with ArUco markers, ``cell`` px per marker cell."""
    tiles = [np.kron(marker_bits("DICT_4X4_50", k), np.ones((cell, cell))) for k in range(12)]
    side = tiles[0].shape[0] + cell
    grey = np.full((size[1], size[0]), 200, np.uint8)
    for n, (y, x) in enumerate((y, x) for y in range(4, size[1] - side, side) for x in range(4, size[0] - side, side)):
        grey[y:y + side - cell, x:x + side - cell] = np.where(tiles[n % len(tiles)], 235, 25)
    return cv2.cvtColor(cv2.GaussianBlur(grey, (0, 0), 0.8), cv2.COLOR_GRAY2BGR)


def test_a_moved_camera_or_a_new_light_still_matches_the_empty_table():
    field = marker_field()
    background = TableBackground.from_frames([field])
    grey = cv2.cvtColor(field, cv2.COLOR_BGR2GRAY)
    moved = np.roll(grey, (3, -2), axis=(0, 1))
    dimmer = (grey * 0.6 + 20).astype(np.uint8)
    for frame in (moved, dimmer):
        assert background.likeness(frame, 200, 150, 40) > 0.95
    assert background.likeness(np.roll(grey, 30, axis=1), 200, 150, 40) < 0.5  # another place entirely


def test_the_median_forgets_a_hand_passing_through_one_frame():
    field = marker_field()
    hand = field.copy()
    cv2.circle(hand, (300, 200), 80, (90, 120, 170), -1)
    background = TableBackground.from_frames([field, hand, field])
    assert np.array_equal(background.grey, cv2.cvtColor(field, cv2.COLOR_BGR2GRAY))


def reading_at(x, y, side=40):
    return SimpleNamespace(x=x, y=y, box=((x, y), (side, side), 0.0))


def test_frames_of_another_size_keep_every_die_and_say_why_once(caplog):
    background = TableBackground.from_frames([marker_field()])
    other = cv2.resize(marker_field(), (800, 600))
    readings = [reading_at(200, 150)]
    with caplog.at_level(logging.WARNING, logger="vision.dice_background"):
        assert background.keep(other, readings) == readings
        assert background.keep(other, readings) == readings
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 1 and "640x480" in warnings[0] and "800x600" in warnings[0]
    assert background.keep(marker_field(), readings) == []  # the learnt size: this place is the empty table


def test_empty_table_frames_of_different_sizes_are_refused():
    with pytest.raises(BackgroundError, match="frame 2 is 800x600, the first is 640x480"):
        TableBackground.from_frames([marker_field(), marker_field((800, 600))])
    with pytest.raises(BackgroundError, match="no frames"):
        TableBackground.from_frames([])


def test_a_corrupt_background_file_is_named_with_the_fix(tmp_path):
    (tmp_path / "dice-background.png").write_bytes(b"not a png")
    with pytest.raises(BackgroundError, match=r"dice-background\.png.*calibrate dice-background"):
        DiceReader.from_settings(dice_settings(), tmp_path)
    assert DiceReader.from_settings(dice_settings(), tmp_path, empty_table=False).background is None


def test_saving_replaces_the_file_whole(tmp_path):
    path = tmp_path / "state" / "dice-background.png"
    TableBackground.from_frames([marker_field()]).save(path)
    first = TableBackground.load(path).grey
    TableBackground.from_frames([marker_field((320, 240))]).save(path)
    assert TableBackground.load(path).grey.shape == (240, 320) != first.shape
    assert [p.name for p in path.parent.iterdir()] == ["dice-background.png"]
