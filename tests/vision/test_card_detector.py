"""The learned card detector: decoding its maps, fitting corners to the outline, and the shipped
network on synthetic scenes of every design that it was not trained on."""
import cv2
import numpy as np
import pytest

from engine.table import FACE_DOWN
from vision.card_detector import CORNER_UNIT, STRIDE, CardDetector, _one_each, _peaks, clockwise, snap
from vision.synth.card_designs import deck, random_design
from vision.synth.card_scenes import detector_scene


def test_corners_are_put_clockwise_from_the_top_left():
    square = np.float32([[10, 10], [50, 10], [50, 70], [10, 70]])
    for k in range(4):
        assert np.array_equal(clockwise(np.roll(square, k, axis=0)[::-1]), square)


def maps_with(cards, shape=(2, 10, 12)):
    """Network maps with one peak per (cell x, cell y, corners, face down)."""
    maps = np.full((10, *shape[1:]), -8.0, np.float32)
    for x, y, corners, down in cards:
        maps[1 if down else 0, y, x] = 4.0
        centre = (np.array([x, y]) + 0.5) * STRIDE
        maps[2:, y, x] = ((corners - centre) / CORNER_UNIT).reshape(-1)
    return maps


def test_a_peak_is_a_card_and_two_peaks_of_one_outline_are_one_card():
    card = np.float32([[8, 8], [24, 8], [24, 32], [8, 32]])
    other = card + (24, 0)
    found = _one_each(_peaks(maps_with([(4, 5, card, False), (5, 5, card + 1, False), (9, 5, other, True)]), 0.3))
    assert len(found) == 2
    (a, _, down_a), (b, _, down_b) = sorted(found, key=lambda f: f[0][0, 0])
    assert np.allclose(a, card, atol=1.01) and down_a < 0.5
    assert np.allclose(b, other) and down_b > 0.5


def test_nothing_above_the_threshold_is_no_card():
    assert _peaks(np.full((10, 8, 8), -8.0, np.float32), 0.3) == []


def test_sides_are_moved_onto_the_cards_outline():
    image = np.full((120, 160), 40, np.uint8)
    cv2.rectangle(image, (40, 30), (100, 100), 220, -1)
    gray = cv2.GaussianBlur(image, (0, 0), 1.0)
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3, scale=0.25)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3, scale=0.25)
    truth = np.float32([[39.5, 29.5], [100.5, 29.5], [100.5, 100.5], [39.5, 100.5]])
    rough = truth + np.float32([[2, -1], [-2, 2], [1, -2], [-1, 1]])
    moved = snap(rough[None], gx, gy, reach=3.0)[0]
    assert np.abs(moved - truth).max() <= 1.0 < np.abs(rough - truth).max()


def test_a_missing_network_file_is_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="card detector model not found: .*nothing.onnx"):
        CardDetector(tmp_path / "nothing.onnx")


def _iou(a, b):
    inter = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))[0]
    union = cv2.contourArea(a.astype(np.float32)) + cv2.contourArea(b.astype(np.float32)) - inter
    return inter / union


def test_the_shipped_detector_finds_most_cards_of_unseen_designs():
    """Scenes of seeds never used in training (they start at 0 and 10,000,000), every design and
    layout. A guard against a worse network, not the target: measured with the network shipped,
    0.89 of the cards found (outline overlapping the truth by half), 0.95 of those on the right
    side, 0.43 false cards a scene; the piles, where corners lie under other cards, are most of the
    misses. The goal is 0.995, 0.995 and none."""
    detector = CardDetector()
    truth = found = right_side = false = 0
    for seed in range(20_000_000, 20_000_060):
        scene = detector_scene(seed, (640, 448))
        cards = detector.find(scene.frame)
        truth += len(scene.cards)
        used = set()
        for card in scene.cards:
            best = max(range(len(cards)), key=lambda i: _iou(cards[i].corners, card.corners), default=None)
            if best is not None and best not in used and _iou(cards[best].corners, card.corners) > 0.5:
                used.add(best)
                found += 1
                right_side += (cards[best].face_down > 0.5) == (card.label == FACE_DOWN)
        false += len(cards) - len(used)
    assert found / truth >= 0.85 and right_side / found >= 0.92 and false / 60 <= 0.6, (truth, found, right_side, false)


def test_a_card_over_half_the_photo_is_one_whole_card_not_its_index_corners():
    """One card a photo, 25-70 % of its width, as a deck is photographed to be enrolled: the
    network takes in such a card whole at half the size. Measured with the network shipped: 31 of
    40 outlined whole (overlapping the truth by three quarters), 32 alone; before the half-size
    look and the context of its last stage, 10 and 21 (an index corner was the card)."""
    detector = CardDetector()
    whole = alone = 0
    for seed in range(22_000_000, 22_000_040):
        rng = np.random.default_rng(seed)
        design = random_design(rng)
        label = FACE_DOWN if seed % 5 == 0 else str(rng.choice(deck(design)))
        scene = detector_scene(seed, (1280, 960), design=design, label=label)
        cards = detector.find(scene.frame)
        whole += max((_iou(c.corners, scene.cards[0].corners) for c in cards), default=0) > 0.75
        alone += len(cards) == 1
    assert whole >= 28 and alone >= 28, (whole, alone)
