"""Frames in, still observations of the cards on a play mat out: the card end of the live loop.

``CardWatcher`` takes the frames one by one. Only still frames are read (``StillnessGate``): the
play mat is found by its markers (the last pose found is kept while a hand hides them), its cards
read (``CardReader``) and laid out by zone (``vision.layout``) into a card view, every place with
the probability of each label ("red 7", "ruby 5", "gv G", "face-down", "empty"), in the words of
``State.table_view()``: for Hilo each seat's grid and the discard; for Hold Up the three rows, the
draw pile, each seat's GV cards and the top of its pile; and the cards lying off every place. A
still frame where ``HAND_PLACES`` places show neither a card read nor the bare mat (a hand held
still over the grid, the drawn card in it) is no table at rest; where fewer do, each is read once
more as a card lying at that place (``CardReader.read_places``: a card whose outline the detection
lost). A view is reported once, when ``agree`` readings in a row of the same still period show the
same likeliest cards (their probabilities averaged), and not again while the table shows them.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any, Collection, Mapping, Sequence

import numpy as np

from engine.table import EMPTY, FACE_DOWN, is_place, likeliest
from vision.cards import CardReader, CardReading
from vision.layout import cards_by_zone, grid_places, pile_top_reading, row_readings
from vision.mat import MatLayout, MatPose, bare_colour, find_mat, shows_bare_mat
from vision.stillness import StillnessGate

HOLDUP_ROWS = (1, 2, 3)  # the rows of a Hold Up table, the bottom one first
LEAST = 0.001   # labels less likely than this are left out of a place
MOST_LABELS = 6  # and at most this many are kept, the likeliest
# The enrolled classifiers read cards less surely than they are right: each label's probability
# is raised to 1 / TEMPERATURE (vision/training/fit_card_temperature.py on the 28,729 places of ten
# filmed rounds of two to six players: 0.050 with the glyph network that read the cards' ink, 1 of
# them read as another card, 90 % interval 0.043-0.055; the network that reads their darkness read
# none wrong, and the fit went to its floor, 0.003, which says only that a sharper reading fits:
# the cautious 0.05 is kept).
TEMPERATURE = 0.05
# A hand held over the mat hides more card places than a card the reader missed: a palm is larger
# than two places (synthetic held cards hid 4 to 9 places, still tables at most 2 unread).
HAND_PLACES = 3


@dataclass(frozen=True)
class CardObservation:
    """The cards of a settled table: read at frame ``frame``, still since ``still_since``."""

    frame: int
    still_since: int
    view: dict[str, Any]


def calibrated(reading: CardReading) -> CardReading:
    """The reading as sure as the reader is right: its back's, colours' and values' probabilities
    each raised to 1 / TEMPERATURE and renormalised (the labels' joint probabilities then are those
    of the joint raised so: the power of a product is the product of the powers)."""
    def sharpened(p: Mapping[str, float]) -> dict[str, float]:
        powered = {k: v ** (1 / TEMPERATURE) for k, v in p.items()}
        total = sum(powered.values())
        return {k: v / total for k, v in powered.items()} if total > 0 else dict(p)
    back = sharpened({FACE_DOWN: reading.face_down, "up": 1.0 - reading.face_down})[FACE_DOWN]
    return replace(reading, face_down=back, colours=sharpened(reading.colours), values=sharpened(reading.values))


def label_probabilities(reading: CardReading | None, cards: Collection[str] | None = None) -> dict[str, float]:
    """The probability of each label of the card read in a place (``empty`` where none was), the
    reading ``calibrated``; of the deck's ``cards`` only, when given (colour and value are read
    apart: Hold Up prints no "diamond G")."""
    if reading is None:
        return {EMPTY: 1.0}
    reading = calibrated(reading)
    found = {FACE_DOWN: reading.face_down}
    for colour, pc in reading.colours.items():
        for value, pv in reading.values.items():
            label = f"{colour} {value}" if colour else value
            if cards is None or label in cards:
                found[label] = (1 - reading.face_down) * pc * pv
    total = sum(found.values()) or 1.0
    kept = sorted(((label, p / total) for label, p in found.items() if p >= LEAST * total),
                  key=lambda item: -item[1])[:MOST_LABELS]
    kept_total = sum(p for _, p in kept) or 1.0
    return {label: round(p / kept_total, 6) for label, p in kept}


def off_places(unplaced: Sequence[CardReading], pose: MatPose, layout: MatLayout) -> list[str]:
    """For each card lying on the mat but in none of its zones, the zone it lies nearest (its id,
    sorted): a card pushed off its place, which its place no longer shows."""
    if not unplaced:
        return []
    centres = pose.to_mm(np.array([r.centre for r in unplaced]))
    places = [zone for zone in layout.zones if zone.kind != "dice"]
    return sorted(min(places, key=lambda zone: np.hypot(x - zone.x, y - zone.y)).id for x, y in centres
                  if 0 <= x <= layout.size[0] and 0 <= y <= layout.size[1])


def hilo_card_view(readings: Sequence[CardReading], pose: MatPose, layout: MatLayout) -> dict[str, Any]:
    """Each seat's grid (``shape`` and per place the label probabilities), the discard's top, and
    the cards off their places (``off_places``)."""
    placed, unplaced = cards_by_zone(readings, pose, layout)
    players = []
    for zone in sorted((z for z in layout.zones if z.kind == "grid"), key=lambda z: z.seat):
        places = grid_places(zone, placed[zone.id])
        players.append({"shape": [len(places), len(places[0]) if places else 0],
                        "cells": [[label_probabilities(reading) for reading in row] for row in places]})
    discard = layout.zone("discard")
    return {"players": players, "discard": label_probabilities(pile_top_reading(placed[discard.id], discard)),
            "off": off_places(unplaced, pose, layout)}


def holdup_card_view(readings: Sequence[CardReading], pose: MatPose, layout: MatLayout,
                     cards: Collection[str] | None = None) -> dict[str, Any]:
    """The rows (row 1 first) and each seat's GV cards, left to right, the draw pile and each
    seat's pile top, every place with its label probabilities (among ``cards``, when given); how
    many places each row prints (a longer row piles its last cards on its last place); and the
    cards off their places (``off_places``)."""
    placed, unplaced = cards_by_zone(readings, pose, layout)

    def in_row(zone_id: str) -> list[dict[str, float]]:
        return [label_probabilities(reading, cards) for reading in row_readings(placed[zone_id], layout.zone(zone_id))]

    def top(zone_id: str) -> dict[str, float]:
        return label_probabilities(pile_top_reading(placed[zone_id], layout.zone(zone_id)), cards)

    seats = sorted({zone.seat for zone in layout.zones if zone.seat is not None})
    return {"rows": [in_row(f"row.{number}") for number in HOLDUP_ROWS],
            "draw_pile": {FACE_DOWN: 1.0} if placed["draw"] else {EMPTY: 1.0},
            "players": [{"gv": in_row(f"gv.{seat}"), "pile_top": top(f"pile.{seat}")} for seat in seats],
            "row_places": row_places(layout),
            "off": off_places(unplaced, pose, layout)}


def row_places(layout: MatLayout) -> list[int]:
    """How many places each Hold Up row of the mat prints, row 1 first."""
    return [layout.zone(f"row.{number}").cols for number in HOLDUP_ROWS]


def card_view(readings: Sequence[CardReading], pose: MatPose, layout: MatLayout,
              cards: Collection[str] | None = None) -> dict[str, Any]:
    """The card view of the mat's game, told by the zones it prints (Hilo's grids, Hold Up's
    rows; of the deck's ``cards`` only, when given: Hold Up's); KeyError for a mat without cards."""
    kinds = {zone.kind for zone in layout.zones}
    if "grid" in kinds:
        return hilo_card_view(readings, pose, layout)
    if "row" in kinds:
        return holdup_card_view(readings, pose, layout, cards)
    raise KeyError(f"{layout.game} has no cards to lay out")


def hidden_places(image: np.ndarray, pose: MatPose, layout: MatLayout,
                  readings: Sequence[CardReading]) -> list[np.ndarray]:
    """The card places of the mat (a card's corners there, frame pixels) that show neither a card
    read nor the bare mat: something lies over them (a hand, a card held up over the grid, a card
    the reading missed)."""
    centres = pose.to_mm(np.array([r.centre for r in readings])) if readings else np.empty((0, 2))
    unread = [(zone, cell) for zone in layout.zones if zone.kind in ("grid", "pile", "row") for cell in zone.cells()
              if not np.any(np.hypot(*(centres - (cell.x, cell.y)).T) < min(zone.card) / 2)]
    if not unread:  # every place holds a card read (the bare mat's colour is not needed)
        return []
    colour = bare_colour(image, pose, layout)
    return [pose.to_px(zone.card_corners(cell)) for zone, cell in unread
            if not shows_bare_mat(image, pose.to_px(zone.card_corners(cell, 0.5)), colour)]


class CardWatcher:
    def __init__(self, reader: CardReader, layouts: Sequence[MatLayout], gate: StillnessGate, agree: int = 2,
                 cards: Collection[str] | None = None):
        self.reader = reader
        self.cards = cards  # the deck's labels, where not every colour has every value
        self.layouts = list(layouts)
        self.gate = gate
        self.agree = agree
        self.mat: tuple[MatPose, MatLayout] | None = None  # the last found
        self._still_since = 0
        self._run: list[dict[str, Any]] = []  # this still period's readings that agree, so far
        self._reported: dict[str, Any] | None = None
        self.readings: tuple[CardReading, ...] = ()  # the cards of the last still frame read (none while moving)
        self.read_ms = 0.0  # how long that read took

    @property
    def settled(self) -> bool:
        """This still period's cards are agreed (reported, or the same as reported before)."""
        return len(self._run) >= self.agree

    def feed(self, index: int, image: np.ndarray) -> CardObservation | None:
        """Take frame ``index``; the observation the first time a still table's cards are settled."""
        still = self.gate.update(image)
        if self.gate.motion > self.gate.moving_fraction:
            self._still_since, self._run, self.readings = index, [], ()
        if not still or self.settled:
            return None
        found = find_mat(image, self.layouts)
        if found is not None:
            self.mat = found
        if self.mat is None:
            return None
        pose, layout = self.mat
        start = time.perf_counter()
        readings = self.reader.read(image, pose, layout)
        hidden = hidden_places(image, pose, layout, readings)
        if len(hidden) >= HAND_PLACES:  # a hand held still over the mat
            self._run, self.readings = [], tuple(readings)
            return None
        readings = readings + self.reader.read_places(image, hidden)  # a card whose outline was lost
        view = card_view(readings, pose, layout, self.cards)
        self.readings, self.read_ms = tuple(readings), (time.perf_counter() - start) * 1000
        if self._run and likeliest(self._run[-1]) != likeliest(view):
            self._run = []
        self._run.append(view)
        if len(self._run) < self.agree or likeliest(view) == self._reported:
            return None
        self._reported = likeliest(view)
        return CardObservation(index, self._still_since, averaged(self._run))


def averaged(views: Sequence[Any]) -> Any:
    """Views of the same cards (the same places) with each place's label probabilities averaged."""
    first = views[0]
    if is_place(first):
        labels = {label for place in views for label in place}
        return {label: sum(place.get(label, 0.0) for place in views) / len(views) for label in labels}
    if isinstance(first, Mapping):
        return {key: averaged([view[key] for view in views]) for key in first}
    if isinstance(first, list) and all(len(view) == len(first) for view in views):
        return [averaged([view[k] for view in views]) for k in range(len(first))]
    return first
