"""From what the camera saw to what may have happened: ranked candidates, never a decision.

A roll adds its dice to those lying on the table: after an outcome the camera should see the
dice of the position it was rolled in (``State.table_view()``, every "dice" list in it) and the
roll's own faces. (Not those of the position after it: when a roll ends a turn or a round at
once, an Excape X on a re-roll or the last roll of a round of the roll-off, the engine moves on
while the dice still lie where they fell.)

The candidates are the legal ways the reading may have come about:
- at a roll, each outcome;
- where a player decides, a re-roll (a decision straight after which the dice are rolled, and
  the same player moves again: Excape's ``again``, Hold Up's ``reroll``) and each outcome of it;
  the camera sees the new dice, not the decision.
Each weighs its exact chance (re-rolls alike among themselves) times the likelihood of the dice
read if it happened. A roll throws its dice: dice the camera saw lie still, where and as they
lay, were not rolled, so a chain explains a reading only if it leaves at least as many dice
lying (a die knocked to another face beside one that stayed is no roll of two dice). Chains
that leave the same table, dice in any order, are one explanation: Excape's ``roll 2 X`` and
``roll X 2`` look alike, and the rules treat them alike. A reading that shows the table's dice,
or some of them (the others picked up), is nothing new: no candidate.
"""
from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterator, Mapping, Sequence

from engine.core import Action, State

MIN_SHARE = 0.01  # candidates below this share of the weight are not worth showing

Reading = Sequence[Mapping[str, float]]  # each die read: face -> probability


@dataclass(frozen=True)
class Explanation:
    """One way the table came to look as read: ``chains`` of actions that leave it alike (the
    first is the one to apply), their share of the weight of every explanation, and how well the
    table they leave fits the reading (``fit``: its likelihood over that of the reading's own
    likeliest table; 1 where every place is as read, and for dice, whose chains leave the dice
    read)."""

    chains: tuple[tuple[Action, ...], ...]
    share: float
    fit: float = 1.0

    @property
    def actions(self) -> tuple[Action, ...]:
        return self.chains[0]

    def __str__(self) -> str:
        return "; ".join(map(str, self.actions))


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


def table_dice(state: State) -> list[str]:
    """The faces of the dice ``state`` has on the table."""
    return dice_in(state.table_view())


def rolled_faces(action: Action) -> list[str] | None:
    """The faces a roll shows, from its notation (``roll F F ...`` in every dice game, see
    docs/notation.md); None for any other action."""
    verb, *faces = str(action).split()
    return faces if verb == "roll" else None


def roll_line(faces: Sequence[str]) -> str:
    """The notation of a roll showing ``faces``."""
    return " ".join(["roll", *faces])


def faces_read(seen: Reading) -> list[str]:
    """The most probable face of each die read."""
    return [max(die, key=die.__getitem__) for die in seen]


def new_dice(state: State, seen: Reading) -> list[str]:
    """The faces read beyond the dice the table shows (most probable faces), sorted."""
    return sorted((Counter(faces_read(seen)) - Counter(table_dice(state))).elements())


def nothing_new(state: State, seen: Reading) -> bool:
    """The reading shows the table's dice, or some of them: nothing was rolled."""
    return not new_dice(state, seen)


EXACT_UP_TO = 8  # dice paired exactly up to this many; beyond, greedily (a full Excape ladder)


def likelihood(seen: Reading, faces: Sequence[str]) -> float:
    """P(the dice read | the table shows ``faces``): the mean, over the ways of pairing the dice
    read with the faces (dice have no order on the table), of the product of each read die's
    probability for its face; 0 when the counts differ. Beyond EXACT_UP_TO dice, the best
    pairing (found greedily) stands in for the mean."""
    if len(seen) != len(faces):
        return 0.0
    if len(faces) > EXACT_UP_TO:
        return _greedy(seen, faces)
    sums = {0: 1.0}  # faces used (bit mask) -> sum of the products over the pairings of the first dice read
    for die in seen:
        step: dict[int, float] = defaultdict(float)
        for used, product in sums.items():
            for index, face in enumerate(faces):
                if not used >> index & 1 and die.get(face, 0.0) > 0:
                    step[used | 1 << index] += product * die[face]
        sums = step
    return sum(sums.values()) / math.factorial(len(faces))


def _greedy(seen: Reading, faces: Sequence[str]) -> float:
    return math.prod(seen[d].get(faces[f], 0.0) for d, f in greedy_pairs(seen, faces))


def greedy_pairs(seen: Reading, faces: Sequence[str]) -> list[tuple[int, int]]:
    """(die read, face) index pairs, the likeliest pair first, each die and face used once."""
    ranked = sorted(((die.get(face, 0.0), d, f) for d, die in enumerate(seen) for f, face in enumerate(faces)),
                    reverse=True)
    dice, used, pairs = set(), set(), []
    for _, d, f in ranked:
        if d not in dice and f not in used:
            dice.add(d)
            used.add(f)
            pairs.append((d, f))
    return pairs


@dataclass(frozen=True)
class Chain:
    """A way the dice may change now: ``actions`` (a re-roll first, if any, then the outcome),
    their chance, the dice lying before the roll, the roll's faces, and the position after."""

    actions: tuple[Action, ...]
    chance: Fraction
    lying: list[str]
    rolled: list[str]
    after: State


def chains(state: State) -> Iterator[Chain]:
    """Every legal way the dice may change now: an outcome of this roll, or a re-roll and an
    outcome of it."""
    if state.is_chance_node():
        yield from _rolls(state, (), Fraction(1))
        return
    rerolls = [decision for decision in state.legal_actions() if _is_reroll(state, decision)]
    for decision in rerolls:
        yield from _rolls(state.apply(decision), (decision,), Fraction(1, len(rerolls)))


def _rolls(state: State, before: tuple[Action, ...], prior: Fraction) -> Iterator[Chain]:
    lying = table_dice(state)
    for outcome, chance in state.chance_outcomes():
        faces = rolled_faces(outcome)
        if faces is not None:
            yield Chain(before + (outcome,), prior * Fraction(chance), lying, faces, state.apply(outcome))


def _is_reroll(state: State, decision: Action) -> bool:
    after = state.apply(decision)
    player = state.acting_player(decision)
    return after.is_chance_node() and any(
        rolled_faces(outcome) is not None and after.apply(outcome).current_player() == player
        for outcome, _ in after.chance_outcomes())


def explain(state: State, seen: Reading, stayed: int = 0) -> list[Explanation]:
    """Every legal chain that explains the dice ``seen``, of which ``stayed`` lay still since the
    camera last saw them, grouped by the table it leaves, most probable first; [] when none does
    or the reading shows nothing new."""
    if nothing_new(state, seen):
        return []
    groups: dict[tuple, list] = {}  # the table left -> [chains, weight]
    for chain in chains(state):
        if len(chain.lying) < stayed:
            continue
        faces = chain.lying + chain.rolled
        weight = float(chain.chance) * likelihood(seen, faces)
        if weight > 0:
            key = (_sorted_dice(chain.after.table_view()), tuple(sorted(faces)))
            group = groups.setdefault(key, [[], 0.0])
            group[0].append(chain.actions)
            group[1] += weight
    total = sum(weight for _, weight in groups.values())
    ranked = sorted(groups.values(), key=lambda g: (-g[1], tuple(a.sort_key() for a in g[0][0])))
    return [Explanation(tuple(found), weight / total) for found, weight in ranked]


def _sorted_dice(view: Any) -> str:
    """A table view as text, every "dice" list sorted: the table whatever die shows which face."""
    def sort(node: Any) -> Any:
        if isinstance(node, Mapping):
            return {k: sorted(map(str, v)) if k == "dice" and isinstance(v, list) else sort(v) for k, v in node.items()}
        return [sort(item) for item in node] if isinstance(node, list) else node
    return json.dumps(sort(view), sort_keys=True, default=str)
