"""The card end of the live loop: a card read in a place becomes the probability of each label."""
import numpy as np
import pytest

from vision import live_cards
from vision.cards import CardReading
from engine.table import likeliest
from vision.live_cards import averaged, calibrated, label_probabilities


def reading(face_down=0.1, colours=None, values=None):
    return CardReading(np.zeros((4, 2)), face_down, colours or {"red": 0.9, "blue": 0.1},
                       values or {"7": 0.8, "1": 0.2})


def test_a_place_gives_each_label_its_colour_times_value_and_its_back_its_own(monkeypatch):
    monkeypatch.setattr(live_cards, "TEMPERATURE", 1.0)
    labels = label_probabilities(reading())
    assert labels == pytest.approx({"face-down": 0.1, "red 7": 0.648, "red 1": 0.162, "blue 7": 0.072,
                                    "blue 1": 0.018})
    assert label_probabilities(None) == {"empty": 1.0}


def test_only_the_decks_cards_are_labels_where_its_colours_and_values_do_not_pair_freely(monkeypatch):
    monkeypatch.setattr(live_cards, "TEMPERATURE", 1.0)
    gv_card = reading(0.0, {"diamond": 0.6, "gv": 0.4}, {"G": 0.7, "6": 0.3})  # Hold Up prints no "diamond G"
    assert max(label_probabilities(gv_card), key=label_probabilities(gv_card).get) == "diamond G"
    labels = label_probabilities(gv_card, {"diamond 6", "gv G", "gv V"})
    assert labels == pytest.approx({"gv G": 0.28 / 0.46, "diamond 6": 0.18 / 0.46})


def test_the_temperature_sharpens_and_the_unlikely_labels_are_left_out(monkeypatch):
    monkeypatch.setattr(live_cards, "TEMPERATURE", 0.5)
    labels = label_probabilities(reading())
    assert list(labels)[0] == "red 7" and labels["red 7"] > 0.9
    assert sum(labels.values()) == pytest.approx(1.0) and all(p >= live_cards.LEAST for p in labels.values())


def test_a_calibrated_reading_keeps_its_likeliest_and_is_surer(monkeypatch):
    monkeypatch.setattr(live_cards, "TEMPERATURE", 0.5)
    raw = reading(0.2, {"red": 0.6, "blue": 0.4}, {"7": 0.5, "1": 0.3, "4": 0.2})
    sharp = calibrated(raw)
    assert sharp.face_down == pytest.approx(0.04 / 0.68)
    assert sharp.colours == pytest.approx({"red": 0.36 / 0.52, "blue": 0.16 / 0.52})
    assert sharp.values == pytest.approx({"7": 0.25 / 0.38, "1": 0.09 / 0.38, "4": 0.04 / 0.38})
    raw = reading(0.2, {"red": 0.6, "blue": 0.4}, {"7": 0.6, "1": 0.4})
    sharp = calibrated(raw)
    labels = label_probabilities(raw)  # the labels of a place are the calibrated reading's
    assert labels["blue 1"] == pytest.approx((1 - sharp.face_down) * sharp.colours["blue"] * sharp.values["1"],
                                             abs=1e-6)
    assert labels["face-down"] == pytest.approx(sharp.face_down, abs=1e-6)


def test_readings_that_agree_are_averaged_place_by_place():
    one = {"players": [{"shape": [1, 1], "cells": [[{"red 7": 0.8, "red 1": 0.2}]]}], "discard": {"empty": 1.0}}
    two = {"players": [{"shape": [1, 1], "cells": [[{"red 7": 0.6, "blue 7": 0.4}]]}], "discard": {"empty": 1.0}}
    mean = averaged([one, two])
    assert mean["players"][0]["cells"][0][0] == pytest.approx({"red 7": 0.7, "red 1": 0.1, "blue 7": 0.2})
    assert likeliest(mean) == likeliest(one) == {"players": [{"shape": [1, 1], "cells": [["red 7"]]}], "discard": "empty"}
