"""Scoring a finished Hilo round from one photo of its play mat (`score hilo --photo IMAGE`).

The mat, and so its layout, is known from its markers; each grid zone is a seat (seat 0 is the
mat's "Player 1"). A place of the mat that shows neither a card read nor the bare mat is read
once more as a card lying there, as the live loop does (``live_cards.hidden_places``). A grid
place that cannot be read (a card face down, a reading less sure than ``SURE``, a card not of the
palette, one card read in two places, a place inside the grid where no card was found, a card
beside the grid's places), a grid of no Hilo shape or with no card is listed in ``unread``, and
then the round is not scored: ``sums``, ``scores``, ``doubled`` and ``removed`` are null rather
than a guess.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping

import cv2
import numpy as np

from assistant.commands.print_mat import all_mat_layouts
from engine.hilo import grid as g
from engine.hilo import Palette
from engine.hilo.score_file import format_score, score_grids
from engine.text import Text, tr
from vision.cards import CardReader, CardReading
from vision.layout import cards_by_zone, grid_places
from vision.live_cards import calibrated, hidden_places
from vision.mat import MatLayout, Zone, find_mat

# Least sureness (see ``sureness``) of a card that is scored, on the readings calibrated as the live
# loop's are (``live_cards.calibrated``). On 100 synthetic finished tables (bench/score_hilo_photos.py)
# 2 of 3,047 cards were read wrong, 1 of them under 0.8, and none read right was under it.
SURE = 0.8
FACE_DOWN_CODE = "??"
# A card's value read unsure on a card narrower than this in the photo (pixels) is at the reader's
# limit: the cards of the five- and six-player mat in a 1280x720 frame are 50-60 px wide, and 18 to
# 20 of 20 such tables of each are scored right; in a 1920x1080 photo, 19 to 20 of 20
# (bench/score_hilo_photos.py --size).
SMALL_CARD_PX = 70


def sureness(reading: CardReading) -> float:
    """The probability that the (calibrated) reading is what it says: a card, face down or up, and
    for a face up card the likeliest colour and value."""
    if reading.is_face_down:
        return reading.certainty * reading.face_down
    colour = max(reading.colours.values()) if reading.colours else 1.0
    value = max(reading.values.values()) if reading.values else 1.0
    return reading.certainty * (1.0 - reading.face_down) * colour * value


def score_photo(path: str, reader: Callable[[], CardReader], palette: Palette,
                ended_by: int | None = None) -> dict[str, Any]:
    """``score_text``'s result for the round in the photo at ``path``, with ``grids`` (per seat,
    rows of "R7", "??" face down, null where not read), ``cards`` (every card read: ``card``,
    ``zone``, ``seat``, ``row``, ``column``, ``sureness``) and ``unread`` (``seat``, ``row``,
    ``column``, ``why``; row and column null for the whole grid). ``reader`` is called once
    the mat is found. ValueError for an unreadable image, no Hilo mat, or a seat not on it."""
    image = cv2.imread(str(path))
    if image is None:
        raise ValueError(f"{path}: not a readable image")
    found = find_mat(image, [layout for layout in all_mat_layouts() if layout.game == "hilo"])
    if found is None:
        raise ValueError(f"{path}: no Hilo play mat found (too few of its markers show)")
    pose, layout = found
    cards_reader = reader()
    readings = cards_reader.read(image, pose, layout)
    # a card whose outline the detection lost is read at its place, as the live loop does
    readings += cards_reader.read_places(image, hidden_places(image, pose, layout, readings))
    placed, unplaced = cards_by_zone(one_of_each([calibrated(r) for r in readings]), pose, layout)
    zones = seats_at_table(layout, placed)
    if ended_by is not None and not 0 <= ended_by < len(zones):
        raise ValueError(f"--ended-by {ended_by}: the seats at this table are 0 to {len(zones) - 1}")
    names = [tr("Player {n}", n=z.seat + 1) for z in zones]
    cards: list[dict[str, Any]] = []
    unread: list[dict[str, Any]] = []
    grids: list[list[list[_Place]]] = []
    for zone in zones:
        grid = [[_place(zone.seat, r, c, reading, palette) for c, reading in enumerate(row)]
                for r, row in enumerate(grid_places(zone, placed[zone.id]))]
        grids.append(grid)
        shape = (len(grid), len(grid[0]) if grid else 0)
        if not grid:  # possible after three HILOs, but far likelier a grid the reader did not see
            unread.append(_unread(zone.seat, None, None, tr("no card found in the grid; a player left with no card "
                                                            "is scored from a round file")))
        elif shape not in g.SHAPES:
            unread.append(_unread(zone.seat, None, None, tr("{rows}x{cols} cards is no Hilo grid: a card was not seen",
                                                            rows=shape[0], cols=shape[1])))
        cards += [_card(p.reading, palette, zone.id, zone.seat, p) for row in grid for p in row
                  if p.reading is not None]
        in_place = {id(p.reading) for row in grid for p in row}
        for reading in (r for r, _ in placed[zone.id] if id(r) not in in_place):
            cards.append(_card(reading, palette, zone.id, zone.seat))
            unread.append(_unread(zone.seat, None, None, tr("a card read as {card} lies beside the grid's places",
                                                            card=cards[-1]["card"])))
    every = [p for grid in grids for row in grid for p in row]
    _mark_read_twice(every, palette)
    unread += [_unread(p.seat, p.row, p.column, p.why) for p in every if p.why is not None]
    unread.sort(key=lambda u: (u["seat"], u["row"] is not None, u["row"] or 0, u["column"] or 0))
    for zone in (z for z in layout.zones if z.kind != "grid"):
        cards += [_card(reading, palette, zone.id) for reading, _ in placed[zone.id]]
    cards += [_card(reading, palette) for reading in unplaced]
    if unread:
        result = {"names": names, "sums": None, "scores": None, "trigger": ended_by, "doubled": None,
                  "removed": None}
    else:
        result = score_grids(names, [tuple(tuple(p.card for p in row) for row in grid) for grid in grids],
                             ended_by, palette)
    result.update(grids=[[[p.code(palette) for p in row] for row in grid] for grid in grids], cards=cards,
                  unread=unread)
    return result


def seats_at_table(layout: MatLayout, placed: Mapping[str, list]) -> list[Zone]:
    """The grids of the players at the table, by seat: a mat printed for several numbers of
    players (five or six) has its last seats empty when fewer play."""
    zones = sorted((z for z in layout.zones if z.kind == "grid"), key=lambda z: z.seat)
    fewest = min(layout.serves, default=len(zones))
    while len(zones) > fewest and not placed[zones[-1].id]:
        zones.pop()
    return zones


def one_of_each(readings: list[CardReading]) -> list[CardReading]:
    """The readings, each face-up card's colour and value narrowed by the others: every card of a
    Hilo deck exists once, so the chance that this card is k is its own reading's, times the
    chance that no other card shows k (each other card's own chance of k, taken as independent).
    A card read unsure between a 5 and an 8 whose 8 lies surely elsewhere becomes a sure 5; two
    cards read surely as one card both become unsure."""
    cards = [r for r in readings if not r.is_face_down and r.colours and r.values]
    joints = [{(c, v): r.certainty * (1 - r.face_down) * pc * pv for c, pc in r.colours.items()
               for v, pv in r.values.items()} for r in cards]
    nowhere: dict[tuple[str, str], float] = {}  # the chance that no card shows k
    for joint in joints:
        for k, p in joint.items():
            nowhere[k] = nowhere.get(k, 1.0) * (1.0 - p)
    narrowed = {}
    for reading, joint in zip(cards, joints):
        # no other card shows k: nowhere[k] without this card's own factor (near 1 - p = 0, 0)
        weights = {k: p * (nowhere[k] / (1.0 - p) if p < 1.0 - 1e-9 else 1.0) for k, p in joint.items()}
        total = sum(weights.values())
        if total <= 0:
            continue
        colours = {c: sum(w for (fc, _), w in weights.items() if fc == c) / total for c in reading.colours}
        values = {v: sum(w for (_, fv), w in weights.items() if fv == v) / total for v in reading.values}
        narrowed[id(reading)] = replace(reading, colours=colours, values=values)
    return [narrowed.get(id(r), r) for r in readings]


@dataclass
class _Place:
    """One place of a seat's grid: the reading there (None: no card found), the palette's card it
    shows (None when face down, not found or of no colour of the palette), and why it is not
    read (None when it is)."""

    seat: int
    row: int
    column: int
    reading: CardReading | None
    card: int | None
    why: str | None

    def code(self, palette: Palette) -> str | None:
        if self.reading is not None and self.reading.is_face_down:
            return FACE_DOWN_CODE
        return palette.code(self.card) if self.why is None else None


def _place(seat: int, row: int, column: int, reading: CardReading | None, palette: Palette) -> _Place:
    card = _identify(reading, palette) if reading is not None else None
    return _Place(seat, row, column, reading, card, _why_unread(reading, card, palette))


def _identify(reading: CardReading, palette: Palette) -> int | None:
    if reading.is_face_down:
        return None
    try:
        return palette.read_name(reading.label)
    except ValueError:
        return None


def _mark_read_twice(places: list[_Place], palette: Palette) -> None:
    """Every card exists once: a card read surely in several places is not read in any."""
    count = Counter(p.card for p in places if p.why is None)
    for p in places:
        if p.why is None and count[p.card] > 1:
            p.why = tr("{card} is read in {count} places; every card exists once", card=palette.code(p.card),
                       count=count[p.card])


def _why_unread(reading: CardReading | None, card: int | None, palette: Palette) -> str | None:
    if reading is None:
        return tr("no card found here")
    if reading.is_face_down:
        return tr("the card is face down; turn every card up before scoring")
    if card is None:
        return tr("read as {label}, which is no card of the palette ({colours})", label=reading.label,
                  colours=palette.listing())
    sure = sureness(reading)
    if sure < SURE:
        percent, width = round(100 * sure), float(np.linalg.norm(reading.corners[1] - reading.corners[0]))
        if width < SMALL_CARD_PX:
            return tr("unsure: read as {card} ({percent} % sure); the card is {width} px wide in the photo: a closer "
                      "or larger photo reads it surely", card=palette.code(card), percent=percent, width=round(width))
        return tr("unsure: read as {card} ({percent} % sure)", card=palette.code(card), percent=percent)
    return None


def _card(reading: CardReading, palette: Palette, zone: str | None = None, seat: int | None = None,
          place: _Place | None = None) -> dict[str, Any]:
    card = _identify(reading, palette)
    shown = FACE_DOWN_CODE if reading.is_face_down else reading.label if card is None else palette.code(card)
    return {"card": shown, "zone": zone, "seat": seat, "row": place.row if place else None,
            "column": place.column if place else None, "sureness": round(sureness(reading), 3)}


def _unread(seat: int, row: int | None, column: int | None, why: str) -> dict[str, Any]:
    return {"seat": seat, "row": row, "column": column, "why": why}


def unread_lines(result: dict[str, Any]) -> list[Text]:
    """One line per entry of ``unread``, for people: "Player 2, row 1 column 3: ..."."""
    lines = []
    for entry in result["unread"]:
        name = result["names"][entry["seat"]]
        where = name if entry["row"] is None else tr("{name}, row {row} column {column}", name=name,
                                                     row=entry["row"] + 1, column=entry["column"] + 1)
        lines.append(tr("{place}: {why}", place=where, why=entry["why"]))
    return lines


def format_photo_score(result: dict[str, Any]) -> str:
    """Each seat's grid as read, then the scores or that the round is not scored."""
    lines = [f"{name}: " + " / ".join(" ".join(code or "--" for code in row) for row in grid)
             for name, grid in zip(result["names"], result["grids"])]
    if result["scores"] is None:
        lines.append(str(tr("not scored: {n} places could not be read", n=len(result["unread"]))))
    else:
        lines.append(format_score(result))
    return "\n".join(lines)
