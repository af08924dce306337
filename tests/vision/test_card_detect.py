import cv2
import numpy as np

from vision import card_detect
from vision.card_detect import DetectParams, find_quads

# The detection of cards on a located mat: brighter than their surroundings only (vision.cards).
ON_A_MAT = DetectParams(white_levels=(), canny=(0, 0), min_area=0.01, max_area=0.05)


def card_at_the_mat_edge() -> tuple[np.ndarray, np.ndarray]:
    """A white-rimmed card on green felt whose bottom rim touches the mat's white paper margin
    (wood below it): the frame and the card's corners."""
    frame = np.full((720, 1280, 3), (40, 95, 45), np.uint8)
    x0, y0, x1, y1 = 600, 400, 720, 580
    frame[y1:y1 + 10] = 235          # the paper margin, as white as the rim
    frame[y1 + 10:] = (120, 170, 200)  # the table
    cv2.rectangle(frame, (x0, y0), (x1 - 1, y1 - 1), (235, 235, 235), -1)
    cv2.rectangle(frame, (x0 + 6, y0 + 6), (x1 - 7, y1 - 7), (150, 60, 30), -1)
    return cv2.GaussianBlur(frame, (3, 3), 0), np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def test_a_card_against_a_white_margin_is_found_at_its_size():
    """Its panel is grown to its edge by the rim width of its other sides, not to the margin's end."""
    frame, corners = card_at_the_mat_edge()
    found = [q.corners for q in find_quads(frame, ON_A_MAT, select=False)]
    assert any(np.abs(q - corners).max() <= 4 for q in found), found


def test_without_an_even_rim_the_grown_card_runs_on_to_the_margin(monkeypatch):
    monkeypatch.setattr(card_detect, "RIM_SPREAD", 1e9)  # every side grown to its own outer edge
    frame, corners = card_at_the_mat_edge()
    assert not any(np.abs(q.corners - corners).max() <= 4 for q in find_quads(frame, ON_A_MAT, select=False))


def test_an_outline_snapped_from_its_place_keeps_the_cards_size_against_a_white_margin():
    """The card lies 4 px above its place: its top edge shows, its bottom edge (white rim on the
    white paper margin) does not; the paper's edge 6 px below the place is no card edge."""
    frame, corners = card_at_the_mat_edge()
    place = corners + np.float32([0, 4])
    snapped = card_detect.snap_outlines(frame, place[None])[0]
    assert np.abs(snapped - corners).max() <= 2, snapped
