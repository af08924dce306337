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
from vision.dice_background import SAME, BackgroundError, TableBackground
from vision.mat import marker_bits
from vision.synth.cards import Photo, mat_mask, mat_photo, moved_view
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
    assert reader().read(empty), "premise: markers or lettering of the mat pass for dice"
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
    moved = np.roll(grey, (12, -8), axis=(0, 1))  # within half a 40-px die's side
    dimmer = (grey * 0.6 + 20).astype(np.uint8)
    for frame in (moved, dimmer):
        assert background.likeness(frame, 200, 150, 40) > 0.95
    assert background.likeness(np.roll(grey, 30, axis=1), 200, 150, 40) < SAME  # another place entirely


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


def to_px(mm_to_px, points_mm) -> np.ndarray:
    return cv2.perspectiveTransform(np.float64(points_mm).reshape(-1, 1, 2), mm_to_px).reshape(-1, 2)


@pytest.fixture(scope="module")
def hilo_mat():
    """A three-player Hilo mat seen by a fixed camera: the table learnt from three frames, a
    later frame with 8 dice on it, the mat's outline in that frame (a mask), and its layout and
    mm -> px homography."""
    layout = mat_layout("hilo", "A2", 3)
    shots = [mat_photo(layout, 2, Photo(light=(g, g)), zone_names(layout)) for g in (*LIGHTS, LATER)]
    background = TableBackground.from_frames([frame for frame, _ in shots[:-1]])
    frame, mm_to_px = shots[-1]
    mask = mat_mask(layout, mm_to_px, frame.shape)
    scene = render_scene(7, count=8, die_px=36, colours=COLOURS, backdrop=frame)
    return SimpleNamespace(background=background, frame=scene.image, mask=mask, layout=layout, mm_to_px=mm_to_px)


def test_the_learnt_table_fits_while_the_camera_and_the_mat_stay(hilo_mat):
    fit = hilo_mat.background.fit(hilo_mat.frame)
    assert not fit.stale and fit.in_place >= 50 and fit.moved <= 1, fit
    # a camera shaken by a pixel or two still fits
    assert not hilo_mat.background.fit(moved_view(hilo_mat.frame, 2, -1)).stale
    # a sleeve over half the table hides its places: they are neither in place nor moved
    sleeve = hilo_mat.frame.copy()
    sleeve[:, :640] = (90, 120, 170)
    hidden = hilo_mat.background.fit(sleeve)
    assert hidden.in_place <= 0.7 * fit.in_place and hidden.moved == 0, hidden


def test_a_moved_camera_or_a_pushed_mat_is_told(hilo_mat):
    moves = {"camera moved 16 px": moved_view(hilo_mat.frame, 16, 10),
             "camera turned 2 degrees": moved_view(hilo_mat.frame, 0, 0, 2.0),
             "mat pushed 32 px": moved_view(hilo_mat.frame, 32, -16, only=hilo_mat.mask),
             "mat turned 3 degrees": moved_view(hilo_mat.frame, 0, 0, 3.0, only=hilo_mat.mask)}
    for what, frame in moves.items():
        fit = hilo_mat.background.fit(frame)
        assert fit.stale and not fit.other_size, (what, fit)
    other = hilo_mat.background.fit(cv2.resize(hilo_mat.frame, (640, 360)))
    assert other.stale and other.other_size


def test_cards_dealt_on_the_mat_do_not_pass_for_a_moved_mat_nor_for_its_print(hilo_mat):
    frame = hilo_mat.frame.copy()
    cw, ch = hilo_mat.layout.card
    dealt = 0
    for zone in hilo_mat.layout.zones:
        for cell in zone.cells():
            corners = [zone.to_sheet(zone.to_local((cell.x, cell.y)) + np.array(p) * (cw / 2, ch / 2))
                       for p in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
            quad = to_px(hilo_mat.mm_to_px, corners).astype(np.int32)
            face_down = dealt % 2
            cv2.fillConvexPoly(frame, quad, (150, 60, 40) if face_down else (235, 235, 240))  # plain backs
            if not face_down:
                middle = tuple(int(v) for v in quad.mean(axis=0))
                cv2.putText(frame, str(dealt % 12 - 1), middle, cv2.FONT_HERSHEY_SIMPLEX, 0.8, (40, 40, 200), 2)
            dealt += 1
    fit = hilo_mat.background.fit(frame)
    covered = hilo_mat.background.fit(hilo_mat.frame).in_place - fit.in_place
    # the cards hide much of the mat's print; a plain back is not taken for it (it would match anything)
    assert dealt >= 20 and covered >= 20, (dealt, covered)
    assert not fit.stale, fit


def test_a_table_with_nothing_on_it_is_never_said_to_have_moved():
    plain = np.full((360, 640, 3), (60, 110, 70), np.uint8)
    background = TableBackground.from_frames([plain])
    fit = background.fit(moved_view(marker_field((640, 360)), 20, 0))
    assert (fit.in_place, fit.moved, fit.stale) == (0, 0, False)
