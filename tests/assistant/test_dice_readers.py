"""The dice reader follows the game on the table: Excape's printed dice against the enrolled
faces, the other games' pips; a reader that cannot be built names why, each time it is asked."""
import numpy as np
import pytest

from assistant.dice_readers import DiceReaders
from dice_support import dice_settings
from engine import registry
from vision.dice import DiceReaderError
from vision.dice_background import TableBackground
from vision.dice_faces import REACH, SQUARE, EnrolledFaces


def test_each_game_has_the_reader_of_its_dice(tmp_path):
    assert registry.game_class("excape").printed_dice
    assert not any(registry.game_class(game).printed_dice for game in ("splitter", "holdup", "hilo"))
    readers = DiceReaders(dice_settings(), tmp_path)
    pips = readers.reader(printed=False)
    assert pips.enrolled is None and readers.reader(printed=False) is pips  # built once
    for _ in range(2):  # asked again, the same reason
        with pytest.raises(DiceReaderError, match="calibrate dice-faces"):
            readers.reader(printed=True)
    side = SQUARE + 2 * REACH
    faces = EnrolledFaces.from_samples({"7": [np.eye(side, dtype=np.float32)],
                                        "X": [np.fliplr(np.eye(side, dtype=np.float32))]})
    faces.save(tmp_path / "enrolled" / "dice-faces.npz")
    readers = DiceReaders(dice_settings(), tmp_path / "enrolled")
    assert readers.reader(printed=True).enrolled.faces == ("7", "X")
    assert readers.reader(printed=False).enrolled is None
    always = DiceReaders(dice_settings(faces="enrolled"), tmp_path / "enrolled")
    assert always.reader(printed=False).enrolled is not None
    never = DiceReaders(dice_settings(faces="pips"), tmp_path)
    assert never.reader(printed=True).enrolled is None


def test_the_empty_table_learnt_reaches_every_reader(tmp_path):
    np.savez(tmp_path / "dice-faces.npz")  # not read: no printed dice asked for yet
    readers = DiceReaders(dice_settings(), tmp_path)
    pips = readers.reader(printed=False)
    assert readers.background is None
    grey = np.full((48, 64, 3), 120, np.uint8)
    readers.background = TableBackground.from_frames([grey] * 3)
    assert pips.background is readers.background
    side = SQUARE + 2 * REACH
    EnrolledFaces.from_samples({"7": [np.eye(side, dtype=np.float32)], "X": [np.ones((side, side), np.float32)]}) \
        .save(tmp_path / "dice-faces.npz")
    assert readers.reader(printed=True).background is readers.background  # built later, given it too
