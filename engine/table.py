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


def is_place(node: Any) -> bool:
    """Whether ``node`` of a card view is one place read: label -> probability."""
    return isinstance(node, Mapping) and all(isinstance(p, float) for p in node.values())
