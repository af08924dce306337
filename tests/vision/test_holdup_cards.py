"""Hold Up's cards read from its mat: the synthetic deck enrolled from three photos, tables in play
read place by place, and the dice read only in the mat's dice zone."""
import numpy as np
import pytest

from assistant import settings as settings_mod
from assistant.commands.print_mat import smallest_mat
from engine.table import likeliest
from assistant.commands.calibrate_cards import enrolment_path, reader_params
from vision.card_model import CardModel
from vision.cards import CardReader
from vision.dice import DiceReader
from vision.live import dice_area
from vision.live_cards import card_view
from vision.mat import MatLocator, find_mat
from vision.synth.card_recording import MatFilm, laid_cards
from vision.synth.holdup_recording import DiceInZone
from vision.synth.holdup_tables import random_table, random_view


@pytest.fixture(scope="module")
def reader(holdup_deck):
    """The card reader of the synthetic deck, enrolled from three photos of it on the mat
    (``vision.synth.holdup_tables.enrolment_scenes``)."""
    state, _ = holdup_deck
    settings = settings_mod.load(overrides={"app.state_dir": str(state)})
    return CardReader(CardModel.load(enrolment_path(settings, "holdup")), reader_params(settings))


def test_the_deck_is_enrolled_from_three_photos_of_it_on_the_mat(holdup_deck):
    state, printed = holdup_deck
    assert (state / "cards-holdup.npz").is_file() and not (state / "cards.npz").exists()  # Hilo's deck apart
    assert "colours: diamond x" in printed and "gv x15" in printed and "(9 backs)" in printed
    assert "never shown" not in printed and "not found" not in printed


@pytest.mark.parametrize("players, seed", [(3, 11), (4, 12), (5, 13)])
def test_a_table_in_play_is_read_place_by_place(reader, players, seed):
    layout, view, scene = random_table(players, seed)
    pose = MatLocator(layout).locate(scene.frame)
    readings = reader.read(scene.frame, pose, layout)
    assert len(readings) == len(laid_cards(layout, view))  # every card found, no other
    live = card_view(readings, pose, layout)  # every place with its label probabilities
    assert likeliest(live) == {**view, "row_places": [8, 8, 8], "off": []}  # and no card off its place
    assert min(max(place.values()) for row in live["rows"] for place in row) > 0.5


def test_the_dice_are_read_in_the_dice_zone_only():
    layout = smallest_mat("holdup", 4)
    film = MatFilm(layout, 5)
    dice = DiceInZone(film, 5)
    dice.throw(["2", "3", "5", "6"])
    frame = film.noisy(dice.on(film.table_image(random_view(4, 5))))
    area = dice_area(find_mat(frame, [layout]), frame.shape)
    reader = DiceReader.from_settings(settings_mod.load().section("vision.dice"))
    read = reader.read(frame, area)
    assert sorted(d.face for d in read) == ["2", "3", "5", "6"]
    # each die is placed in the whole frame, where it was thrown
    assert all(min(np.hypot(die.x - x, die.y - y) for _, x, y in dice.lying) < 8 for die in read)
    # no card lies in the area: the cards' numbers are not dice
    rows, cols = area
    centres = [card.corners.mean(axis=0) for card in film.scene(random_view(4, 5)).cards]
    assert not any(cols.start <= x < cols.stop and rows.start <= y < rows.stop for x, y in centres)
    assert dice_area(None, frame.shape) is None
    again = film.noisy(dice.on(film.table_image(random_view(4, 5))))  # the next frame: the mat found again
    assert dice_area(find_mat(again, [layout]), again.shape) == area

