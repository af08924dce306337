"""The card reader on real photographs of playing cards (../shared/datasets/cards-playing):
enrolled from photos of single cards, then reading other photos of single cards."""
from pathlib import Path

import pytest

from vision.cards import CardReader, enrol, labelled_photos
from vision.evaluate import Found, evaluate, load_image, match, read_labels

DATASET = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "cards-playing"

pytestmark = pytest.mark.skipif(not (DATASET / "labels.csv").is_file(),
                                reason=f"the development photos are not at {DATASET}")


def single_card_photos():
    """Photos showing one card, by rank, in file order."""
    by_rank: dict[str, list[str]] = {}
    for name, boxes in read_labels(DATASET).items():
        if len(boxes) == 1:
            by_rank.setdefault(boxes[0].label, []).append(name)
    return by_rank


@pytest.fixture(scope="module")
def reader():
    by_rank = single_card_photos()
    enrol_names = [n for names in by_rank.values() for n in names[0:16:2]]   # 8 photos per rank
    model, report = enrol(labelled_photos(DATASET, enrol_names))
    assert set(model.value_classes()) == set(by_rank)
    return CardReader(model)


def test_single_cards_are_read_after_enrolling_others(reader):
    by_rank = single_card_photos()
    judged = [n for names in by_rank.values() for n in names[1:8:4]]         # 2 others per rank
    result = evaluate(DATASET, lambda image: [Found(*r.anchor, r.label) for r in reader.read(image)],
                      images=judged)
    assert result["objects"] == len(judged) == 12
    assert result["recall"] >= 11 / 12
    assert result["accuracy"] >= 10 / 12


# Photos of two or three cards fanned or overlapping: a card partly under another is found by
# its index corner.
FANS = ["IMG_2603.JPG", "IMG_2671.JPG", "IMG_2674.JPG", "IMG_2687.JPG", "IMG_2617.JPG", "IMG_2620.JPG",
        "IMG_2629.JPG"]


def test_cards_partly_under_others_are_found(reader):
    result = evaluate(DATASET, lambda image: [Found(*r.anchor, r.label) for r in reader.read(image)],
                      images=FANS)
    objects = sum(len(read_labels(DATASET)[n]) for n in FANS)
    assert result["objects"] == objects
    # Enrolled from single cards only, the index of a card under another is read less surely: of
    # these 16 cards, the ten of IMG_2603 and one queen of IMG_2671 were not found when last measured.
    assert result["recall"] >= (objects - 2) / objects
    assert result["false_positives"] <= 1


def test_a_card_found_by_its_closed_outline_alone(reader):
    # The jack at the lower left lies half in shadow, its right edge against white paper: no
    # brightness level outlines it, but its outline is one closed edge.
    result = evaluate(DATASET, lambda image: [Found(*r.anchor, r.label) for r in reader.read(image)],
                      images=["cam_image47.jpg"])
    assert result["objects"] == 4 and result["detected"] == 4 and result["false_positives"] == 0


def test_a_card_under_another_is_read_by_the_index_beside_that_cards_edge(reader):
    # The ten at the top, cut off by the photo's edge, shows only its lower index, whose corner
    # touches the jack's upper edge (a twentieth of a card's width outside the jack's outline).
    readings = reader.read(load_image(DATASET, "IMG_2609.JPG"))
    pairs, extra = match([Found(*r.anchor, r.label) for r in readings], read_labels(DATASET)["IMG_2609.JPG"])
    assert sorted(f.label for _, f in pairs) == ["ace", "jack", "king", "ten"] and extra == 0
    assert all(box.label == found.label for box, found in pairs)


def test_cards_on_cream_paper_are_found(reader):
    # The jack lying across at the lower left is barely brighter than the cream paper under it:
    # only a brightness level between the two, cut along the image's edges, outlines its corners.
    readings = reader.read(load_image(DATASET, "IMG_2579.JPG"))
    pairs, extra = match([Found(*r.anchor, r.label) for r in readings], read_labels(DATASET)["IMG_2579.JPG"])
    assert len(pairs) == 4 and extra == 0
    assert all(box.label == found.label for box, found in pairs)
