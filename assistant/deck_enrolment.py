"""The club's Hilo deck learnt on the kiosk: the cards to lay on the mat, page by page, each page
photographed and checked place by place, then the deck learnt from every page.

A page names a card for each place of the mat's first two grids and its discard (19 places, on
every Hilo mat). Two pages of face-up cards show every value at least twice and every colour
at least four times, which is enough, as colour and value are learnt apart
(``vision.card_model``); a third page shows card backs in the two grids. A photo is checked at
once: a place where no card is found is named with why, so the players lay it right and
photograph the page again. The deck is learnt once every page is kept, saved where ``calibrate
cards`` saves it, and read from the next table on.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from assistant.commands.print_mat import all_mat_layouts
from engine.hilo.cards import MAX_VALUE, MIN_VALUE
from engine.hilo.words import colour_name, place as cell_name
from engine.table import EMPTY, FACE_DOWN
from engine.text import Text, tr
from vision.card_model import CardModel
from vision.cards import EnrolReport, ReaderParams, enrol, unfound
from vision.evaluate import Box
from vision.mat import MatLayout, MatPose, bare_colour, find_mat, shows_bare_mat

SEATS = (0, 1)  # the grids a page fills (every Hilo mat has them)
FACE_UP_PAGES = 2


@dataclass(frozen=True)
class Place:
    """A card place of the mat: a grid's cell (``zone`` "grid.N") or the discard (row and column 0)."""

    zone: str
    row: int = 0
    col: int = 0

    def name(self) -> Text:
        if self.zone == "discard":
            return tr("the discard")
        return tr("player {number}'s {cell}", number=int(self.zone.split(".")[1]) + 1,
                  cell=cell_name(self.row, self.col))


def card_words(label: str) -> Text:
    """A card of the page as the screens say it ("red 7", its colour translated)."""
    colour, value = label.split(" ", 1)
    return tr("{colour} {value}", colour=colour_name(colour), value=value)


PLACES = tuple([Place(f"grid.{seat}", r, c) for seat in SEATS for r in range(3) for c in range(3)]
               + [Place("discard")])


def plan(colours: Sequence[str]) -> list[dict[Place, str]]:
    """The pages: each place's card ("red 7", or "face-down"; places not named stay empty).
    Card k of the face-up pages is colour k mod 8 and value k mod 13 (-1 to 11): no card twice."""
    values = range(MIN_VALUE, MAX_VALUE + 1)
    cards = [f"{colours[k % len(colours)]} {values[k % len(values)]}" for k in range(FACE_UP_PAGES * len(PLACES))]
    pages = [dict(zip(PLACES, cards[k * len(PLACES):(k + 1) * len(PLACES)])) for k in range(FACE_UP_PAGES)]
    return pages + [{place: FACE_DOWN for place in PLACES if place.zone != "discard"}]


def table_view(page: dict[Place, str]) -> dict[str, Any]:
    """A page as a Hilo table view (``State.table_view()``'s words): what the mat shows once laid."""
    grids = [{"shape": [3, 3], "cells": [[page.get(Place(f"grid.{seat}", r, c), EMPTY) for c in range(3)]
                                         for r in range(3)]} for seat in SEATS]
    return {"players": grids, "discard": page.get(Place("discard"), EMPTY), "draw_pile": 0}


@dataclass
class PagePhoto:
    """A page photographed: the frame, each laid card's box in it, and the places where no card
    was found (with why)."""

    frame: np.ndarray
    boxes: list[Box]
    missing: list[tuple[Place, str, str]] = field(default_factory=list)  # place, card, why

    def problems(self) -> list[Text]:
        return [tr("no {card} found at {place}: {why}", card=card_words(card) if card != FACE_DOWN else tr("card back"),
                   place=place.name(), why=tr(why))
                for place, card, why in self.missing]


def photograph(frame: np.ndarray, page: dict[Place, str], params: ReaderParams) -> PagePhoto:
    """The page laid on the mat in ``frame``, checked; ValueError when no Hilo mat shows."""
    found = find_mat(frame, [layout for layout in all_mat_layouts() if layout.game == "hilo"])
    if found is None:
        raise ValueError("no Hilo mat found (too few of its markers show)")
    pose, layout = found
    bare = bare_colour(frame, pose, layout)
    laid: dict[int, tuple[Place, Box]] = {}  # id(box) -> its place and box
    missing = []
    for place, card in page.items():
        # an empty place is said here: its printed outline would pass for the card below
        if shows_bare_mat(frame, place_corners(pose, layout, place, part=0.5), bare):
            missing.append((place, card, "the place shows the bare mat"))
            continue
        corners = place_corners(pose, layout, place)
        (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
        box = Box(float(x0), float(y0), float(x1), float(y1), card)
        laid[id(box)] = (place, box)
    boxes = [box for _, box in laid.values()]
    missing += [(laid[id(box)][0], box.label, why) for box, why in unfound(frame, boxes, params)]
    missing.sort(key=lambda m: PLACES.index(m[0]))
    return PagePhoto(frame, boxes, missing)


def place_corners(pose: MatPose, layout: MatLayout, place: Place, part: float = 1.0) -> np.ndarray:
    """The frame's corners of a card lying square on ``place`` (``part``: of its middle part that size)."""
    zone = layout.zone(place.zone)
    cell = next(c for c in zone.cells() if (c.row, c.col) == (place.row, place.col))
    return pose.to_px(zone.card_corners(cell, part))


def learn(photos: Sequence[PagePhoto], params: ReaderParams, path) -> tuple[CardModel, EnrolReport]:
    """The deck learnt from the pages kept, saved at ``path``."""
    model, report = enrol([(photo.frame, photo.boxes) for photo in photos], params)
    model.save(path)
    return model, report
