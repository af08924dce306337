"""The decisions of an Excape turn and the notation of every action.

Notation, one action a line: ``roll A B`` (die A's face, then die B's; either order is read),
``again`` (roll again), ``place R`` (keep the roll on rung R, 0 to 5).
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.core import Action, ParseError
from engine.excape.dice import roll_from_faces
from engine.excape.ladder import RUNGS
from engine.numbers import whole


@dataclass(frozen=True)
class Again(Action):
    """Roll both dice again instead of keeping the roll."""

    def __str__(self) -> str:
        return "again"


@dataclass(frozen=True)
class Place(Action):
    """Keep the roll: put the dice on ``rung`` (an empty rung 1-5, or rung 0)."""

    rung: int

    def __str__(self) -> str:
        return f"place {self.rung}"


def parse_action(text: str) -> Action:
    words = text.split()
    keyword = words[0].lower() if words else ""
    if keyword == "again" and len(words) == 1:
        return Again()
    if keyword == "place" and len(words) == 2:
        rung = whole(words[1])
        if rung not in RUNGS:
            raise ParseError(f"excape: {text!r}: the rung must be a number from 0 to 5")
        return Place(rung)
    if keyword == "roll" and len(words) == 3:
        try:
            return roll_from_faces(words[1], words[2])
        except ParseError as exc:
            raise ParseError(f"excape: {text!r}: {exc}") from None
    raise ParseError(f"excape: cannot read {text!r} (expected 'roll A B', 'again' or 'place RUNG')")
