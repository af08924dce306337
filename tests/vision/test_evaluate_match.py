"""The evaluation's one-to-one matching of detections to labelled boxes, its views of the
photos, and how it reads labels and loads a photo that its EXIF orientation turns."""
import struct

import cv2
import numpy as np
import pytest

from vision.evaluate import (Box, DatasetError, Found, cut_out, enlarged_middle, load_image, match, quarter_turned,
                             read_labels, reduced_to_middle)


def test_each_box_takes_the_nearest_detection_inside_it():
    boxes = [Box(0, 0, 10, 10, "a"), Box(20, 0, 30, 10, "b")]
    found = [Found(9, 5, "x"), Found(5, 5, "a"), Found(25, 5, "b"), Found(50, 50, "far")]
    pairs, extra = match(found, boxes)
    assert [(b.label, f.label) for b, f in pairs] == [("a", "a"), ("b", "b")]
    assert extra == 2


def test_a_detection_inside_two_boxes_goes_where_it_leaves_no_box_empty():
    # the shared detection is nearer the second box's centre, but the first box holds it too,
    # and only the second box holds the other detection
    first, second = Box(0, 0, 100, 100, "ace"), Box(60, 60, 160, 160, "king")
    shared, only_second = Found(90, 90, "ace"), Found(140, 100, "king")
    pairs, extra = match([shared, only_second], [first, second])
    assert sorted((b.label, f.label) for b, f in pairs) == [("ace", "ace"), ("king", "king")]
    assert extra == 0


def test_a_longer_chain_of_overlapping_boxes_is_matched_in_full():
    boxes = [Box(0, 0, 10, 10, "1"), Box(5, 0, 15, 10, "2"), Box(10, 0, 20, 10, "3")]
    found = [Found(4, 5, "1"), Found(8, 5, "2"), Found(11, 5, "3")]
    pairs, extra = match(found, boxes)
    assert len(pairs) == 3 and extra == 0
    assert all(b.contains(f.x, f.y) for b, f in pairs)


def test_enlarged_middle_doubles_the_boxes_inside_and_refuses_a_cut_one():
    image = np.zeros((400, 600, 3), np.uint8)
    image[150:170, 200:220] = 255  # the die of the first box, in the middle half (x 150-450, y 100-300)
    inside, outside = Box(200, 150, 220, 170, "5"), Box(10, 10, 30, 30, "2")
    enlarged, boxes = enlarged_middle(image, [inside, outside])
    assert enlarged.shape == image.shape
    assert boxes == [Box(100, 100, 140, 140, "5")]
    assert enlarged[120, 120].tolist() == [255, 255, 255] and enlarged[90, 90].tolist() == [0, 0, 0]
    assert enlarged_middle(image, [Box(140, 150, 160, 170, "3")]) is None  # across the cut


def test_reduced_to_middle_halves_the_photo_and_its_boxes_in_a_frame_of_its_median_colour():
    image = np.full((400, 600, 3), 90, np.uint8)
    image[100:140, 200:240] = 255  # a die in its box
    reduced, boxes = reduced_to_middle(image, [Box(200, 100, 240, 140, "4")])
    assert reduced.shape == image.shape
    assert boxes == [Box(250, 150, 270, 170, "4")]
    assert reduced[160, 260].tolist() == [255, 255, 255]
    assert reduced[10, 10].tolist() == [90, 90, 90] and reduced[120, 200].tolist() == [90, 90, 90]


def test_quarter_turned_turns_the_photo_and_its_boxes_clockwise():
    image = np.zeros((400, 600, 3), np.uint8)
    image[100:140, 200:260] = 255  # a die in its box, near the top
    turned, boxes = quarter_turned(image, [Box(200, 100, 259, 139, "2")])
    assert turned.shape == (600, 400, 3)
    assert boxes == [Box(260, 200, 299, 259, "2")]  # the top edge is now the right one
    assert turned[200:260, 260:300].min() == 255 and turned[:, :260].max() == 0


def test_cut_out_is_a_square_around_the_box_centre_cut_where_the_image_ends():
    image = np.arange(100 * 80 * 3, dtype=np.int32).reshape(100, 80, 3)
    box = Box(20, 30, 40, 46, "6")                      # 20 wide, 16 high, centred at (30, 38)
    assert np.array_equal(cut_out(image, box), image[28:48, 20:40])
    assert np.array_equal(cut_out(image, box, margin=1.5), image[23:53, 15:45])
    assert cut_out(image, Box(70, 0, 80, 10, "1"), margin=2).shape == (15, 15, 3)  # 20 x 20, less the borders


def _with_orientation(jpeg: bytes, orientation: int) -> bytes:
    """The JPEG with an EXIF segment holding only its orientation tag (as a phone writes it)."""
    tiff = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 1) \
        + struct.pack("<HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack("<I", 0)
    app1 = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + jpeg[2:]


@pytest.fixture
def turned_by_exif(tmp_path):
    """A 300 x 200 photo, bright at its left, stored with orientation 6: viewers turn it a
    quarter clockwise (200 x 300, bright at the top)."""
    image = np.zeros((200, 300, 3), np.uint8)
    image[:, :100] = 255
    jpeg = cv2.imencode(".jpg", image)[1].tobytes()
    (tmp_path / "p.jpg").write_bytes(_with_orientation(jpeg, 6))
    return tmp_path


def test_a_photo_is_loaded_as_a_viewer_shows_it_when_its_boxes_fit_that(turned_by_exif):
    image = load_image(turned_by_exif, "p.jpg", [Box(10, 10, 190, 90, "ace")])
    assert image.shape[:2] == (300, 200) and image[:100].mean() > 200 and image[150:].mean() < 50


def test_a_photo_whose_boxes_fit_only_as_stored_is_loaded_as_stored(turned_by_exif):
    image = load_image(turned_by_exif, "p.jpg", [Box(150, 20, 280, 180, "king")])  # x beyond 200
    assert image.shape[:2] == (200, 300) and image[:, :100].mean() > 200


def test_labels_saved_by_a_spreadsheet_are_read(tmp_path):
    # a byte-order mark before the first column's name, spaces around the names, numbers as decimals
    (tmp_path / "labels.csv").write_bytes("filename, xmin, ymin, xmax, ymax, label\n"
                                          "a.jpg,1,2,30,40, 5.0\na.jpg,5,5,9,9,-1\nb.jpg,1,1,2,2,red 3\n"
                                          .encode("utf-8-sig"))
    assert read_labels(tmp_path) == {"a.jpg": [Box(1, 2, 30, 40, "5"), Box(5, 5, 9, 9, "-1")],
                                     "b.jpg": [Box(1, 1, 2, 2, "red 3")]}


def test_labels_without_a_box_column_name_it(tmp_path):
    (tmp_path / "labels.csv").write_text("filename,xmin,ymin,xmax,label\na.jpg,1,2,30,5\n")
    with pytest.raises(DatasetError, match="missing columns ymax"):
        read_labels(tmp_path)
