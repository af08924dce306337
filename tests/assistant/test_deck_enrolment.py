"""The club's Hilo deck learnt on the kiosk: the pages of cards to lay, each photographed and
checked place by place, the deck learnt from them and then read."""
from collections import Counter

import numpy as np
import pytest

from assistant.commands.print_mat import smallest_mat
from assistant.deck_enrolment import PLACES, Place, learn, photograph, plan, table_view
from engine.hilo import DEFAULT_PALETTE, Palette
from engine.table import EMPTY, FACE_DOWN
from vision.cards import CardReader, ReaderParams
from vision.mat import MatLocator
from vision.synth.card_recording import MatFilm
from vision.synth.cards import hilo_table

COLOURS = Palette.parse(DEFAULT_PALETTE).names
PARAMS = ReaderParams()


def test_the_pages_show_every_value_twice_and_every_colour_four_times_then_backs():
    pages = plan(COLOURS)
    face_up = [label for page in pages[:-1] for label in page.values()]
    assert len(face_up) == len(set(face_up)) == 2 * len(PLACES)  # no card asked for twice
    values, colours = Counter(label.split()[1] for label in face_up), Counter(label.split()[0] for label in face_up)
    assert set(values) == {str(v) for v in range(-1, 12)} and min(values.values()) >= 2
    assert set(colours) == set(COLOURS) and min(colours.values()) >= 4
    assert set(pages[-1].values()) == {FACE_DOWN} and Place("discard") not in pages[-1]
    assert str(Place("grid.1", 2, 0).name()) == "player 2's row 3, column 1"


def film_pages(players, seed, change=lambda page: page):
    film = MatFilm(smallest_mat("hilo", players), seed)
    return [(page, film.noisy(film.table_image(table_view(change(page))))) for page in plan(COLOURS)]


@pytest.mark.parametrize("players", [2, 5])
def test_the_deck_learnt_from_the_pages_reads_a_table(players, tmp_path):
    photos = []
    for page, frame in film_pages(players, 11 + players):
        photo = photograph(frame, page, PARAMS)
        assert photo.missing == [] and len(photo.boxes) == len(page)
        photos.append(photo)
    model, report = learn(photos, PARAMS, tmp_path / "deck.npz")
    assert (tmp_path / "deck.npz").is_file() and report.missed == []
    assert sum(report.cards.values()) == 2 * 19 + 18 and report.cards[FACE_DOWN] == 18
    reader, right, total = CardReader(model, PARAMS), 0, 0
    for seed in (3, 4):
        layout = smallest_mat("hilo", 2 + seed % 2)
        scene = hilo_table(layout, 900 + seed)
        readings = reader.read(scene.frame, MatLocator(layout).locate(scene.frame), layout)
        for card in scene.cards:
            centre = card.corners.mean(axis=0)
            nearest = min(readings, key=lambda r: np.hypot(*(np.array(r.centre) - centre)))
            right += nearest.label == card.label
            total += 1
    assert right >= 0.95 * total, (right, total)


def test_a_place_without_its_card_is_named_and_no_mat_is_refused():
    gone = Place("grid.0", 1, 1)
    (page, frame), *_ = film_pages(2, 5, lambda page: {**page, gone: EMPTY})
    photo = photograph(frame, page, PARAMS)
    assert [(place, card) for place, card, _ in photo.missing] == [(gone, page[gone])]
    assert [str(p) for p in photo.problems()] == [f"no {page[gone]} found at player 1's row 2, column 2: "
                                                  "the place shows the bare mat"]
    with pytest.raises(ValueError, match="no Hilo mat found"):
        photograph(np.full((720, 1280, 3), 90, np.uint8), page, PARAMS)
