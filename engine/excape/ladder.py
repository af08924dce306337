"""The ladder: rungs 0 to 5, where kept combinations wait to move their owners' pawns.

The ladder is held per seat (``placed[seat]`` is that colour's Placement, or None when its dice
are in hand), so a colour can never be on two rungs. Rungs 1-5 hold one combination each, rung 0
any number.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from engine.excape.dice import Roll
from engine.excape.words import seat_label
from engine.table import EMPTY
from engine.text import Text, tr

TOP_RUNG = 5
RUNGS = tuple(range(TOP_RUNG + 1))

Ladder = Sequence["Placement | None"]


@dataclass(frozen=True)
class Placement:
    rung: int
    roll: Roll


def occupant(placed: Ladder, rung: int) -> int | None:
    """The seat whose dice are on ``rung`` (meaningful for rungs 1-5, which hold one each)."""
    for seat, placement in enumerate(placed):
        if placement is not None and placement.rung == rung:
            return seat
    return None


def is_guarded(roll: Roll, options) -> bool:
    """A double X under the double-X variant: it clears the ladder and only a double X moves it."""
    return options.double_x_variant and roll.is_double_x


def can_place(placed: Ladder, rung: int, roll: Roll, options) -> bool:
    return _blocker(placed, rung, roll, options) is None


def placement_problem(placed: Ladder, rung: int, roll: Roll, options) -> Text | str:
    """Why ``roll`` cannot go on ``rung`` now ("" when it can)."""
    blocker = _blocker(placed, rung, roll, options)
    if blocker is None:
        return ""
    if blocker == "no such rung":
        return tr("the ladder has rungs 0 to 5, not {rung}", rung=rung)
    holder = occupant(placed, rung)
    if holder is not None:
        return tr("rung {rung} holds {owner}'s {value}: choose an empty rung or rung 0",
                  rung=rung, owner=seat_label(holder), value=placed[holder].roll.value)
    return tr("rung {lower} holds {owner}'s {held}, higher than your {value}: with the house rule 'must beat lower rungs' your dice cannot go above it",
              lower=placed[blocker].rung, owner=seat_label(blocker), held=placed[blocker].roll.value, value=roll.value)


def _blocker(placed: Ladder, rung: int, roll: Roll, options) -> int | str | None:
    """None when ``roll`` may go on ``rung``; otherwise "no such rung", or the seat whose dice
    are in the way (on that rung, or below it under the must-beat-lower-rungs house rule).
    Legal moves are listed from this without building the sentences."""
    if rung not in RUNGS:
        return "no such rung"
    if rung == 0:
        return None
    guarded = is_guarded(roll, options)
    for seat, placement in enumerate(placed):
        if placement is None:
            continue
        if placement.rung == rung:
            return seat
        if (options.must_beat_lower_rungs and not guarded and 0 < placement.rung < rung
                and placement.roll.value > roll.value):
            return seat
    return None


def dislodged_by(placed: Ladder, seat: int, rung: int, roll: Roll, options) -> tuple[int, ...]:
    """The seats whose dice go back to their owners when ``seat`` puts ``roll`` on ``rung``:
    every opponent combination on a higher rung with an equal or lower value (the whole ladder
    for a double X under the variant, which only another double X can dislodge)."""
    if is_guarded(roll, options):
        return tuple(s for s, p in enumerate(placed) if p is not None and s != seat)
    return tuple(
        s for s, p in enumerate(placed)
        if p is not None and s != seat and p.rung > rung and p.roll.value <= roll.value
        and not is_guarded(p.roll, options)
    )


def place(placed: Ladder, seat: int, rung: int, roll: Roll, options) -> tuple[Placement | None, ...]:
    """The ladder after ``seat`` puts ``roll`` on ``rung`` and dislodges what it beats."""
    returned = set(dislodged_by(placed, seat, rung, roll, options))
    return tuple(
        Placement(rung, roll) if s == seat else (None if s in returned else p)
        for s, p in enumerate(placed)
    )


def rung_view(placed: Ladder) -> dict[str, object]:
    """JSON-ready rungs: "0" -> list of {owner, dice}; "1".."5" -> {owner, dice} or "empty"."""
    view: dict[str, object] = {"0": [{"owner": s, "dice": p.roll.faces()}
                                     for s, p in enumerate(placed) if p is not None and p.rung == 0]}
    for rung in RUNGS[1:]:
        holder = occupant(placed, rung)
        view[str(rung)] = EMPTY if holder is None else {"owner": holder, "dice": placed[holder].roll.faces()}
    return view
