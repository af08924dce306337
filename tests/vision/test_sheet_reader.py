"""Reading photos of filled Splitter sheets: every cell and the seat, or a message naming what is wrong."""
import cv2
import numpy as np
import pytest

from assistant.splitter_sheets import sheet_reader, splitter_sheet
from vision.sheet import SheetCutter, SheetNotFound, SheetUnreadable, cleaned, count_marks
from vision.sheet_digits import BOX, CLASSES, INK_SHARE, DigitModel, DigitModelError, digit_box
from vision.synth.sheets import FRAME, sheet_photo

TEST_WRITER = 2_000_000  # the bench's writers: never seen in training


def test_a_filled_sheet_is_read_cell_by_cell_with_its_seat():
    photo = sheet_photo(splitter_sheet("B"), 7, TEST_WRITER + 7, blur=0.6)
    read = sheet_reader("B").read(photo.image)
    assert len(read.cells) == 44
    wrong = [(c.x, c.y, c.digit, photo.values[(c.x, c.y)]) for c in read.cells if c.digit != photo.values[(c.x, c.y)]]
    assert not wrong
    assert read.seat == photo.seat
    probabilities = read.cells[0].to_dict()["probabilities"]
    assert list(probabilities) == ["empty", *CLASSES] and sum(probabilities.values()) == pytest.approx(1, abs=1e-3)


def test_an_empty_cell_and_two_digits_in_one_cell_are_told_apart():
    layout = splitter_sheet("A")
    values = {xy: 3 for xy, _ in layout.cells}
    values[(2, 0)] = values[(5, 0)] = 0
    photo = sheet_photo(layout, 3, TEST_WRITER + 3, values, doubles={(1, 1): (2, 5)}, seat=None, blur=0.5)
    read = sheet_reader("A").read(photo.image)
    cells = {(c.x, c.y): c for c in read.cells}
    assert cells[(2, 0)].best == "empty" and cells[(2, 0)].digit is None
    assert cells[(1, 1)].marks == 2 and cells[(1, 1)].digit is None
    assert cells[(3, 3)].digit == 3
    assert {(c.x, c.y) for c in read.unsure(0.97)} >= {(2, 0), (5, 0), (1, 1)}
    assert read.seat is None


def test_a_photo_of_the_other_pad_or_of_no_sheet_is_named():
    photo = sheet_photo(splitter_sheet("B"), 1, TEST_WRITER + 1, blur=0.5)
    with pytest.raises(SheetNotFound, match="this is a pad B sheet, not pad A"):
        sheet_reader("A").read(photo.image)
    table = np.full((FRAME[1], FRAME[0], 3), 120, np.uint8)
    with pytest.raises(SheetNotFound, match=r"no pad A sheet found: 0 of its 4 markers seen \(none\)"):
        sheet_reader("A").read(table)


def test_a_blurred_photo_is_refused_not_guessed():
    photo = sheet_photo(splitter_sheet("A"), 2, TEST_WRITER + 2, blur=3.5)
    with pytest.raises((SheetUnreadable, SheetNotFound), match="blurred|in focus"):
        sheet_reader("A").read(photo.image)


def test_ink_keeps_faint_stroke_ends_and_drops_specks():
    patch = np.zeros((20, 20), np.float32)
    patch[2:18, 9:11] = np.linspace(0.5, 0.2, 16)[:, None]  # a stroke fading out
    patch[3, 3] = 0.9                                          # a speck
    ink = cleaned(patch, 0.3, 4)
    assert ink[2:18, 9:11].all() and not ink[3, 3]


def test_two_marks_apart_count_two_a_digit_of_two_strokes_one():
    ink = np.zeros((50, 50), np.uint8)
    ink[10:40, 10:14] = 1
    assert count_marks(ink, 6.0) == 1
    ink[10:14, 8:30] = 1  # a bar over it (a 5's top, a 7's): still one mark
    assert count_marks(ink, 6.0) == 1
    ink[10:40, 34:38] = 1
    assert count_marks(ink, 6.0) == 2
    ink[20:22, 14:34] = 1  # joined by a stroke: one blob, one mark
    assert count_marks(ink, 6.0) == 1


def test_a_digit_is_brought_to_a_box_of_standard_size_and_stroke():
    thin, thick = np.zeros((60, 40), np.uint8), np.zeros((180, 120), np.uint8)
    cv2.line(thin, (20, 5), (20, 55), 1, 2)
    cv2.line(thick, (60, 15), (60, 165), 1, 19)
    boxes = [digit_box(thin), digit_box(thick)]
    for box in boxes:
        # the share of ink, to a pixel either side of a whole stroke's length
        assert box.shape == (BOX, BOX) and abs(box.sum() - INK_SHARE * BOX * BOX) <= 2 * BOX
        assert box[:, :8].sum() == 0 and box[:, -8:].sum() == 0  # a 1 stays narrow and centred
    assert np.sum(boxes[0] != boxes[1]) < 0.05 * BOX * BOX  # a pen and a felt tip look alike
    assert not digit_box(np.zeros((20, 20), np.uint8)).any()


def test_the_digit_network_reads_a_batch_as_it_reads_each_digit():
    layout = splitter_sheet("A")
    photo = sheet_photo(layout, 11, TEST_WRITER + 11, blur=0.5)
    boxes = np.stack([digit_box(ink) for ink in SheetCutter(layout).cut(photo.image).cells])
    model = DigitModel.load()
    together = model.probabilities(boxes)
    alone = np.vstack([model.probabilities(box[None]) for box in boxes])
    assert together.shape == (44, len(CLASSES)) and np.allclose(together, alone, atol=1e-5)
    assert np.allclose(together.sum(axis=1), 1)


def test_a_broken_model_file_is_named(tmp_path):
    bad = tmp_path / "digits.onnx"
    bad.write_bytes(b"not a model")
    with pytest.raises(DigitModelError, match="not a digit model"):
        DigitModel.load(str(bad))
