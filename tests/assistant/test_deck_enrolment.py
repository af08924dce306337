"""The club's deck learnt on the kiosk, Hilo's and Hold Up's: the pages of cards to lay, each
photographed and checked place by place, the deck learnt from them and then read."""
from collections import Counter

import numpy as np
import pytest

from assistant import settings as settings_mod
from assistant.commands.calibrate_cards import game_cards, holdup_gems
from assistant.commands.print_mat import smallest_mat
from assistant.deck_enrolment import Place, learn, photograph, places, plan_hilo, plan_holdup, table_view
from engine.hilo import DEFAULT_PALETTE, Palette
from engine.table import EMPTY, FACE_DOWN
from vision.cards import CardReader, ReaderParams
from vision.mat import MatLocator
from vision.synth.card_recording import MatFilm
from vision.synth.cards import hilo_table
from vision.synth.holdup_tables import random_table

COLOURS = Palette.parse(DEFAULT_PALETTE).names
PARAMS = ReaderParams()


def test_the_pages_show_every_value_twice_and_every_colour_four_times_then_backs():
    pages = plan_hilo(COLOURS)
    face_up = [label for page in pages[:-1] for label in page.values()]
    assert len(face_up) == len(set(face_up)) == 2 * len(places("hilo")) == 2 * 19  # no card asked for twice
    values, colours = Counter(label.split()[1] for label in face_up), Counter(label.split()[0] for label in face_up)
    assert set(values) == {str(v) for v in range(-1, 12)} and min(values.values()) >= 2
    assert set(colours) == set(COLOURS) and min(colours.values()) >= 4
    assert set(pages[-1].values()) == {FACE_DOWN} and Place("discard") not in pages[-1]
    assert str(Place("grid.1", 2, 0).name()) == "player 2's row 3, column 1"


def film_pages(players, seed, change=lambda page: page):
    film = MatFilm(smallest_mat("hilo", players), seed)
    return [(page, film.noisy(film.table_image(table_view(change(page), "hilo")))) for page in plan_hilo(COLOURS)]


def right_of(reader, scenes):
    """How many cards of the ``(layout, scene)`` tables ``reader`` reads right (the reading nearest
    each card), and how many there are."""
    right, total = 0, 0
    for layout, scene in scenes:
        readings = reader.read(scene.frame, MatLocator(layout).locate(scene.frame), layout)
        for card in scene.cards:
            centre = card.corners.mean(axis=0)
            nearest = min(readings, key=lambda r: np.hypot(*(np.array(r.centre) - centre)))
            right += nearest.label == card.label
            total += 1
    return right, total


@pytest.mark.parametrize("players", [2, 5])
def test_the_deck_learnt_from_the_pages_reads_a_table(players, tmp_path):
    photos = []
    for page, frame in film_pages(players, 11 + players):
        photo = photograph(frame, page, PARAMS, "hilo")
        assert photo.missing == [] and len(photo.boxes) == len(page)
        photos.append(photo)
    model, report = learn(photos, PARAMS, tmp_path / "deck.npz")
    assert (tmp_path / "deck.npz").is_file() and report.missed == []
    assert sum(report.cards.values()) == 2 * 19 + 18 and report.cards[FACE_DOWN] == 18
    layouts = {seed: smallest_mat("hilo", 2 + seed % 2) for seed in (3, 4)}
    tables = [(layout, hilo_table(layout, 900 + seed)) for seed, layout in layouts.items()]
    right, total = right_of(CardReader(model, PARAMS), tables)
    assert right >= 0.95 * total, (right, total)


def test_a_place_without_its_card_is_named_and_no_mat_is_refused():
    gone = Place("grid.0", 1, 1)
    (page, frame), *_ = film_pages(2, 5, lambda page: {**page, gone: EMPTY})
    photo = photograph(frame, page, PARAMS, "hilo")
    assert [(place, card) for place, card, _ in photo.missing] == [(gone, page[gone])]
    assert [str(p) for p in photo.problems()] == [f"no {page[gone]} found at player 1's row 2, column 2: "
                                                  "the place shows the bare mat"]
    with pytest.raises(ValueError, match="no Hilo mat found"):
        photograph(np.full((720, 1280, 3), 90, np.uint8), page, PARAMS, "hilo")


def holdup_settings(tmp_path, deck=None):
    """The settings with the example deck, or with ``deck`` ([stone, value, count] rows) in a --config file."""
    own = None
    if deck is not None:
        own = tmp_path / "deck.toml"
        own.write_text(f"[games.holdup]\ndeck = {deck!r}\n".replace("'", '"'), "utf-8")
    return settings_mod.load(own, env={}, system_file=tmp_path / "none.toml", user_path=tmp_path / "config.toml")


# the example deck (each value has four gems), and a small one whose gems show again on later pages
@pytest.mark.parametrize("deck", [None, [["ruby", 1, 1], ["ruby", 2, 1], ["jade", 1, 2], ["jade", 3, 1],
                                         ["opal", 4, 1], ["opal", 5, 2], ["jade", 6, 1]]])
def test_the_hold_up_pages_show_every_stone_value_and_gv_face_four_times_then_backs(deck, tmp_path):
    settings = holdup_settings(tmp_path, deck)
    gems, cards = holdup_gems(settings), game_cards(settings, "holdup")
    *face_up, backs = plan_holdup(gems)
    spots = places("holdup")
    for page in face_up:
        on_page = [label for label in page.values() if not label.startswith("gv ")]
        assert len(on_page) == len(set(on_page)) and set(page.values()) <= cards  # no gem twice, each a deck card
        assert set(page) <= set(spots)
        gv_faces = Counter(label for place, label in page.items() if place.zone.startswith("gv."))
        assert sum(gv_faces.values()) == 9 and set(gv_faces) == {"gv G", "gv V"}
    shown = [label.split() for page in face_up for label in page.values()]
    stones, values = Counter(stone for stone, _ in shown), Counter(value for _, value in shown)
    assert set(stones) == {gem.split()[0] for gem in gems} | {"gv"} and min(stones.values()) >= 4
    assert set(values) == {gem.split()[1] for gem in gems} | {"G", "V"} and min(values.values()) >= 4
    assert set(backs.values()) == {FACE_DOWN} and len(backs) == min(25, len(gems))
    assert {place.zone for place in backs} <= {"row.1", "row.2", "row.3", "draw"}
    if deck is None:  # every gem shown: each value has only four
        assert [len(page) for page in face_up] == [27 + 9, 9 + 9] and len(backs) == 25
    else:
        assert len(face_up) >= 4  # the five values of one or two gems each: shown on four pages at least


def test_a_hold_up_page_photographed_finds_every_card_and_names_a_place_left_empty(tmp_path):
    page, *_ = plan_holdup(holdup_gems(holdup_settings(tmp_path)))
    film = MatFilm(smallest_mat("holdup", 5), 7)
    frame = film.noisy(film.scene(table_view(page, "holdup")).frame)
    photo = photograph(frame, page, PARAMS, "holdup")
    assert photo.missing == [] and len(photo.boxes) == len(page) == 36
    gone = [Place("row.2", 0, 2), Place("gv.1", 0, 1), Place("pile.2")]
    frame = film.noisy(film.scene(table_view({p: label for p, label in page.items() if p not in gone}, "holdup")).frame)
    photo = photograph(frame, page, PARAMS, "holdup")
    assert [place for place, _, _ in photo.missing] == [Place("row.2", 0, 2), Place("gv.1", 0, 1), Place("pile.2")]
    assert [str(p) for p in photo.problems()] == [
        f"no {page[gone[0]]} found at row 2, place 3: the place shows the bare mat",
        f"no GV {page[gone[1]][-1]} found at player 2's GV cards, place 2: the place shows the bare mat",
        f"no {page[gone[2]]} found at player 3's pile: the place shows the bare mat"]
    with pytest.raises(ValueError, match="no Hold Up 4D6 mat found"):
        photograph(film.noisy(MatFilm(smallest_mat("hilo", 2), 7).table_image(table_view({}, "hilo"))), page,
                   PARAMS, "holdup")


def test_the_hold_up_deck_learnt_from_its_pages_reads_tables_in_play(tmp_path):
    film, photos = MatFilm(smallest_mat("holdup", 5), 3), []
    for page in plan_holdup(holdup_gems(holdup_settings(tmp_path))):
        photo = photograph(film.noisy(film.scene(table_view(page, "holdup")).frame), page, PARAMS, "holdup")
        assert photo.missing == []
        photos.append(photo)
    model, report = learn(photos, PARAMS, tmp_path / "cards-holdup.npz")
    assert report.missed == [] and sum(report.cards.values()) == 36 + 2 * 9 + 25 and report.cards[FACE_DOWN] == 25
    tables = [random_table(players, 40 + players)[::2] for players in (3, 5)]
    right, total = right_of(CardReader(model, PARAMS), tables)
    assert total > 20 and right >= 0.95 * total, (right, total)
