"""From what the camera saw to the chance outcomes it may be: ranked candidates, never a decision.

At a dice roll every legal outcome is a candidate. Its weight is its own probability (the
engine's exact chance) times the likelihood of the dice seen if it happened: the dice it leaves
on the table (``State.table_view()`` after it, every "dice" list in it) matched one to one with
the dice read, each read die giving a probability to each face. The players confirm one of the
best candidates by touch; a reading that fits no outcome suggests nothing.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Sequence

from engine.core import Action, State

MIN_SHARE = 0.01  # candidates below this share of the weight are not worth showing


@dataclass(frozen=True)
class Candidate:
    action: Action
    probability: float  # of the candidates, given the reading and the chances of the outcomes


def dice_in(view: Any) -> list[str]:
    """Every die face listed under a "dice" key of a table view, at any depth."""
    found: list[str] = []
    if isinstance(view, Mapping):
        for key, value in view.items():
            if key == "dice" and isinstance(value, list):
                found.extend(str(face) for face in value)
            else:
                found.extend(dice_in(value))
    elif isinstance(view, list):
        for item in view:
            found.extend(dice_in(item))
    return found


EXACT_UP_TO = 8  # dice paired exactly up to this many; beyond, greedily (a full Excape ladder)


def likelihood(seen: Sequence[Mapping[str, float]], faces: Sequence[str]) -> float:
    """P(the dice read | the table shows ``faces``) for the best one-to-one pairing of read dice
    and faces (dice have no order on the table); 0 when the counts differ."""
    if len(seen) != len(faces):
        return 0.0
    if len(faces) > EXACT_UP_TO:
        return _greedy(seen, faces)
    best = {0: 1.0}  # faces used (bit mask) -> best product for the first dice read
    for die in seen:
        step: dict[int, float] = {}
        for used, product in best.items():
            for index, face in enumerate(faces):
                if not used >> index & 1 and die.get(face, 0.0) > 0:
                    key = used | 1 << index
                    step[key] = max(step.get(key, 0.0), product * die[face])
        best = step
    return max(best.values(), default=0.0)


def _greedy(seen: Sequence[Mapping[str, float]], faces: Sequence[str]) -> float:
    pairs = sorted(((die.get(face, 0.0), d, f) for d, die in enumerate(seen) for f, face in enumerate(faces)),
                   reverse=True)
    product, dice, used = 1.0, set(), set()
    for p, d, f in pairs:
        if d not in dice and f not in used:
            product *= p
            dice.add(d)
            used.add(f)
    return product


def rank_dice(state: State, seen: Sequence[Mapping[str, float]], limit: int = 2) -> list[Candidate]:
    """The chance outcomes of ``state`` that best explain the dice ``seen`` (face -> probability
    for each die read), most probable first; [] when none does or it is not a chance node."""
    weights: list[tuple[Action, float]] = []
    for action, chance in state.chance_outcomes():
        faces = dice_in(state.apply(action).table_view())
        weight = float(Fraction(chance)) * likelihood(seen, faces)
        if weight > 0:
            weights.append((action, weight))
    total = sum(weight for _, weight in weights)
    ranked = sorted(weights, key=lambda pair: (-pair[1], pair[0].sort_key()))
    return [Candidate(action, weight / total) for action, weight in ranked[:limit] if weight / total >= MIN_SHARE]
