"""The evaluation's one-to-one matching of detections to labelled boxes."""
from vision.evaluate import Box, Found, match


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
