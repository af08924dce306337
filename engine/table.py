"""The physical-table vocabulary shared by the engines and the vision pipeline.

Vision reports what it sees in these terms; the engines describe what the camera should see
(``State.table_view()``) in the same terms, so the two can be compared.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

# Faces a die can show. Standard dice: "1".."6". Excape dice also show "7" and "X".
STANDARD_FACES = ("1", "2", "3", "4", "5", "6")
EXCAPE_FACES = ("1", "2", "3", "4", "5", "6", "7", "X")


@dataclass(frozen=True)
class Die:
    """One die seen on the table: its top face and its body colour (a palette name, or "")."""

    face: str
    colour: str = ""


@dataclass(frozen=True)
class Card:
    """One card seen face up: a colour or stone type (palette name) and a printed value.

    Hilo: colour is one of the eight palette colours, value -1..11. Hold Up: colour is the stone
    type, value its points; a GV card is Card("gv", "G") or Card("gv", "V").
    """

    colour: str
    value: str


FACE_DOWN = "face-down"  # a card seen from its back
EMPTY = "empty"          # a place where a card could be and none is


def likeliest(view: Any) -> Any:
    """A card view as the camera reads it (each place: label -> probability; Hilo's grids and
    discard, Hold Up's rows, GV cards and piles), with the likeliest label in each place: a table
    view. Anything else in it (a grid's shape) is kept as it is."""
    if is_place(view):
        return max(view, key=view.get) if view else EMPTY
    if isinstance(view, Mapping):
        return {key: likeliest(value) for key, value in view.items()}
    if isinstance(view, list):
        return [likeliest(item) for item in view]
    return view


def as_lying(view: Any, table: Any, plausible: float) -> Any:
    """``likeliest(view)``, except where a place's likeliest label is a face-up card and the
    reading gives the face-up card that ``table`` (the table as the game has it) lays there at
    least ``plausible`` times its probability: that place reads as the card lying there. No move
    turns one face-up card into another and leaves the rest of the table as it was, so a card
    read less surely than usual has not changed for that; a card turned over, taken away or laid
    down still has."""
    if is_place(view):
        best = likeliest(view)
        face_up = isinstance(table, str) and {best, table}.isdisjoint((FACE_DOWN, EMPTY))
        return table if face_up and view.get(table, 0.0) >= plausible * view[best] else best
    if isinstance(view, Mapping) and isinstance(table, Mapping):
        return {key: as_lying(value, table.get(key), plausible) for key, value in view.items()}
    if isinstance(view, list) and isinstance(table, list) and len(view) == len(table):
        return [as_lying(item, lying, plausible) for item, lying in zip(view, table)]
    return likeliest(view)


def is_place(node: Any) -> bool:
    """Whether ``node`` of a card view is one place read: label -> probability."""
    return isinstance(node, Mapping) and all(isinstance(p, float) for p in node.values())
