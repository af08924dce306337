"""A club's deck learnt on the kiosk, Hilo's or Hold Up's: the cards to lay on the game's mat,
page by page, each page photographed and checked place by place, then the deck learnt from every
page.

A page names a card for each place it fills (``Place``: a zone of the mat and its cell), among
the zones every printed mat of the game has, in lines as the screen shows them (``LINES``): Hilo's
first two grids and its discard; Hold Up's three rows, its draw pile and the GV cards and pile of
the three seats of its smallest mat. Colour and value are learnt apart (``vision.card_model``), so
the face-up pages need not show every card: Hilo's two show every value at least twice and every
colour at least four times; Hold Up's show every stone and every value at least four times (a gem
again on a later page where the deck has too few of a kind) and each GV face at least four times.
A last page shows card backs. No card shows twice on a page: a real deck has each card once.

A photo is checked at once: a place where no card is found is named with why, so the players lay
it right and photograph the page again. The deck is learnt once every page is kept, saved where
``calibrate cards`` saves that game's deck, and read from the next table on.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from assistant.commands.print_mat import all_mat_layouts
from engine.hilo.cards import MAX_VALUE, MIN_VALUE
from engine.hilo.words import place as cell_name
from engine.registry import game_class
from engine.table import EMPTY, FACE_DOWN
from engine.text import Text, tr
from vision.card_model import CardModel
from vision.cards import EnrolReport, ReaderParams, enrol, unfound
from vision.evaluate import Box
from vision.live_cards import HOLDUP_ROWS
from vision.mat import MatLayout, MatPose, Zone, bare_colour, find_mat, shows_bare_mat

HILO_SEATS = (0, 1)  # the grids a page fills (every Hilo mat has them)
HOLDUP_SEATS = (0, 1, 2)  # the seats every Hold Up mat prints (its smallest is for three players)
# The zones a page fills, in lines as the screen shows them (Hold Up's as on its mat: row 3 far).
LINES = {
    "hilo": ((*(f"grid.{seat}" for seat in HILO_SEATS), "discard"),),
    "holdup": (("row.3", "draw"), ("row.2",), ("row.1",),
               tuple(zone for seat in HOLDUP_SEATS for zone in (f"gv.{seat}", f"pile.{seat}"))),
}
FACE_UP_PAGES = 2  # Hilo's
SHOWN = 4  # the times Hold Up's pages show each stone, each value and each GV face
GV_FACES = ("gv G", "gv V")  # a GV card's two faces, as the camera names them


@dataclass(frozen=True)
class Place:
    """A card place of the mat: a zone ("grid.N", "discard"; "row.N", "gv.N", "pile.N", "draw")
    and its cell (row and column 0 for a zone of one place)."""

    zone: str
    row: int = 0
    col: int = 0

    def name(self) -> Text:
        kind, _, number = self.zone.partition(".")
        if kind == "grid":
            return tr("player {number}'s {cell}", number=int(number) + 1, cell=cell_name(self.row, self.col))
        if kind == "row":
            return tr("row {row}, place {place}", row=int(number), place=self.col + 1)
        if kind == "gv":
            return tr("player {number}'s GV cards, place {place}", number=int(number) + 1, place=self.col + 1)
        if kind == "pile":
            return tr("player {number}'s pile", number=int(number) + 1)
        if kind == "draw":
            return tr("the draw pile")
        return tr("the discard")


def card_words(label: str) -> Text:
    """A card of the page as the screens say it: "red 7", "ruby 5" (the colour or stone
    translated), "GV G", or a card back."""
    if label == FACE_DOWN:
        return tr("card back")
    colour, value = label.split(" ", 1)
    if colour == "gv":
        return tr("GV {face}", face=value)
    return tr("{colour} {value}", colour=Text(colour, {}), value=value)


def mat(game: str) -> MatLayout:
    """The shipped mat of ``game`` whose zones give the pages' places (``LINES``)."""
    return next(layout for layout in all_mat_layouts() if layout.game == game)


def lines(game: str) -> list[list[Zone]]:
    """The zones of ``game``'s pages, in lines as the screen shows them."""
    layout = mat(game)
    return [[layout.zone(zone_id) for zone_id in line] for line in LINES[game]]


def places(game: str) -> list[Place]:
    """Every place of ``game``'s pages, line by line, each zone's cells row by row."""
    return [Place(zone.id, cell.row, cell.col) for line in lines(game) for zone in line for cell in zone.cells()]


def plan_hilo(colours: Sequence[str]) -> list[dict[Place, str]]:
    """Hilo's pages: each place's card ("red 7", or "face-down"; places not named stay empty).
    Card k of the face-up pages is colour k mod 8 and value k mod 13 (-1 to 11): no card twice."""
    spots = places("hilo")
    values = range(MIN_VALUE, MAX_VALUE + 1)
    cards = [f"{colours[k % len(colours)]} {values[k % len(values)]}" for k in range(FACE_UP_PAGES * len(spots))]
    pages = [dict(zip(spots, cards[k * len(spots):(k + 1) * len(spots)])) for k in range(FACE_UP_PAGES)]
    return pages + [{place: FACE_DOWN for place in spots if place.zone != "discard"}]


def plan_holdup(gems: Sequence[str]) -> list[dict[Place, str]]:
    """Hold Up's pages for the deck's ``gems`` (each once, "ruby 5"): face-up pages of gems in
    the rows (row 1 first) and on the piles, each one the gem that most stone and value still
    wanting ``SHOWN`` showings need, and the GV cards on alternate faces (turned over on the next
    page); then a page of backs in the rows and on the draw pile (as many as the deck has)."""
    spots = places("holdup")
    rows = [place for number in HOLDUP_ROWS for place in spots if place.zone == f"row.{number}"]
    gem_places = rows + [place for place in spots if place.zone.startswith("pile.")]
    gv_places = [place for place in spots if place.zone.startswith("gv.")]
    shown: Counter = Counter()  # ("stone", ruby), ("value", "5"): its showings so far

    def wanted(gem: str) -> int:
        stone, value = gem.split(" ", 1)
        return max(0, SHOWN - shown["stone", stone]) + max(0, SHOWN - shown["value", value])

    pages: list[dict[Place, str]] = []
    while any(wanted(gem) for gem in gems):
        page: dict[Place, str] = {}
        for place in gem_places:
            gem = max((gem for gem in gems if gem not in page.values()), key=wanted, default=None)
            if gem is None or not wanted(gem):
                break
            page[place] = gem
            stone, value = gem.split(" ", 1)
            shown["stone", stone] += 1
            shown["value", value] += 1
        page.update({place: GV_FACES[(k + len(pages)) % 2] for k, place in enumerate(gv_places)})
        pages.append(page)
    return pages + [{place: FACE_DOWN for place in (rows + [Place("draw")])[:len(gems)]}]


def table_view(page: dict[Place, str], game: str) -> dict[str, Any]:
    """A page as the game's table view (``State.table_view()``'s words): what the mat shows once
    laid."""
    if game == "hilo":
        grids = [{"shape": [3, 3], "cells": [[page.get(Place(f"grid.{seat}", r, c), EMPTY) for c in range(3)]
                                             for r in range(3)]} for seat in HILO_SEATS]
        return {"players": grids, "discard": page.get(Place("discard"), EMPTY), "draw_pile": 0}
    layout = mat(game)

    def line(zone_id: str) -> list[str]:
        return [page.get(Place(zone_id, 0, col), EMPTY) for col in range(layout.zone(zone_id).cols)]

    return {"rows": [line(f"row.{number}") for number in HOLDUP_ROWS], "draw_pile": page.get(Place("draw"), EMPTY),
            "players": [{"gv": line(f"gv.{seat}"), "pile_top": page.get(Place(f"pile.{seat}"), EMPTY)}
                        for seat in HOLDUP_SEATS]}


@dataclass
class PagePhoto:
    """A page photographed: the frame, each laid card's box in it, and the places where no card
    was found (with why)."""

    frame: np.ndarray
    boxes: list[Box]
    missing: list[tuple[Place, str, str]] = field(default_factory=list)  # place, card, why

    def problems(self) -> list[Text]:
        return [tr("no {card} found at {place}: {why}", card=card_words(card), place=place.name(), why=tr(why))
                for place, card, why in self.missing]


def photograph(frame: np.ndarray, page: dict[Place, str], params: ReaderParams, game: str) -> PagePhoto:
    """The page laid on the game's mat in ``frame``, checked; ValueError when no mat of the game
    shows."""
    found = find_mat(frame, [layout for layout in all_mat_layouts() if layout.game == game])
    if found is None:
        raise ValueError(f"no {game_class(game).title} mat found (too few of its markers show)")
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
    order = places(game)
    missing.sort(key=lambda m: order.index(m[0]))
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
