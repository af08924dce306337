"""From what the camera saw to what may have happened: ranked candidates, never a decision.

A roll adds its dice to those lying on the table: after an outcome the camera should see the
dice of the position it was rolled in (``State.table_view()``, every "dice" list in it) and the
roll's own faces, where the table it leaves lays them (``State.table_after``: when a roll ends a
turn or a round at once, an Excape X on a re-roll or the last roll of a round of the roll-off,
the engine moves on while the dice still lie where they fell).

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

On a mat whose zones say where dice lie (Excape's: each rung of the ladder, and the roll), the
reading also says each die's zone, and the dice are paired with the table's in their zones (a die
read in another zone than the table lays it counts ZONE_MISS times less). The camera then also sees
a decision that moves dice into a zone (Excape's ``place 3``: the roll moved onto rung 3), alone or
followed by the next roll, as candidates beside the re-rolls; decisions weigh alike among
themselves. Off such a mat a decision moves nothing the camera can tell apart: it is entered by touch.

Where each seat's dice are of its own colour (Excape's), the dice are paired with the table's by
colour too (a die read of another colour than its owner's counts COLOUR_MISS times less): whose
dice were rolled or moved is then seen, not only their faces.
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
Zones = Sequence[str | None]  # each die read: the mat zone it lies in (None: none); () off a mat
# a die read in another zone than the table lays it: that much less likely (and the explanation's
# fit as low: below camera_policy.SURE_FIT, nothing is applied with a die off its zone)
ZONE_MISS = 0.005
# a die lying on the mat beyond the roll area that the camera does not see (a die the reader misses
# there stays unseen for every roll until it moves: each of those rolls would be refused); the
# roll itself, in the roll area, is read whole
UNSEEN = 0.05
Colours = Sequence[str]  # each die read: its body colour (a palette name, "" unsure: any); () unread
Owners = Sequence[str | None]  # each face of a table: the colour of its owner's dice (None: anyone's)
# a die read of another colour than the owner of the face it is paired with: that much less likely
# (and, as a die off its zone, below camera_policy.SURE_FIT: nothing is applied with it)
COLOUR_MISS = 0.005


@dataclass(frozen=True)
class Explanation:
    """One way the table came to look as read: ``chains`` of actions that leave it alike (the
    first is the one to apply), their share of the weight of every explanation, and how well the
    table they leave fits the reading (``fit``: its likelihood over that of the reading's own
    likeliest table; 1 where every place is as read, and for dice, whose chains leave the dice
    read, except where a die lies off the zone the table lays it in on a mat, or is read of another
    colour than its owner's, at the best pairing: see ZONE_MISS, COLOUR_MISS)."""

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
    return [face for face, _ in zoned_dice(view)]


def table_dice(state: State) -> list[str]:
    """The faces of the dice ``state`` has on the table."""
    return dice_in(state.table_view())


def zoned_dice(view: Any) -> list[tuple[str, str | None]]:
    """(face, zone) of every die listed under a "dice" key of a table view, at any depth: the zone
    of the game's mat (config/mats) that the keys it is listed under name, None where they name none."""
    return [(face, zone) for face, zone, _ in placed_dice(view)]


def placed_dice(view: Any, path: tuple[str, ...] = (),
                owner: int | None = None) -> list[tuple[str, str | None, int | None]]:
    """(face, zone, owner) of every die listed under a "dice" key of a table view, at any depth
    (as ``zoned_dice``), with the seat of the "owner" listed beside it (None where none is)."""
    found: list[tuple[str, str | None, int | None]] = []
    if isinstance(view, Mapping):
        owner = view.get("owner", owner)
        for key, value in view.items():
            if key == "dice" and isinstance(value, list):
                found.extend((str(face), mat_zone(path), owner) for face in value)
            else:
                found.extend(placed_dice(value, path + (str(key),), owner))
    elif isinstance(view, list):
        for item in view:
            found.extend(placed_dice(item, path, owner))
    return found


THROWN = "roll"  # the mat zone where rolls are thrown


def mat_zone(path: tuple[str, ...]) -> str | None:
    """The mat zone where a table view's dice listed under the keys ``path`` lie: a rung of
    Excape's ladder ("ladder", "3": zone "ladder.3"), or a roll showing (``THROWN``)."""
    if len(path) >= 2 and path[0] == "ladder":
        return f"ladder.{path[1]}"
    return THROWN if path[:1] == ("showing",) else None


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


def new_dice(state: State, seen: Reading, zones: Zones = ()) -> list[str]:
    """The faces read beyond the dice the table shows (most probable faces), sorted; with the
    dice's ``zones``, also those read in another zone than the table lays a die of their face."""
    if not zones:
        return sorted((Counter(faces_read(seen)) - Counter(table_dice(state))).elements())
    return sorted(face for face, _ in moved_dice(state, seen, zones))


def moved_dice(state: State, seen: Reading, zones: Zones) -> list[tuple[str, str | None]]:
    """(face, zone) of the dice read (most probable faces) in their ``zones`` where the table
    lays no die of their face (in that zone, or anywhere when it does not say where)."""
    faces = faces_read(seen)
    return [(faces[die], zones[die] if zones else None) for die in unmatched(state, seen, zones)]


def unmatched(state: State, seen: Reading, zones: Zones = (), colours: Colours = (),
              seat_colours: Sequence[str] = ()) -> list[int]:
    """The dice read (most probable faces) that the table lays no die of their face for: in their
    ``zones`` (or anywhere when the table does not say where), or anywhere off a mat (no ``zones``);
    where each seat's dice are of its colour (``seat_colours``), of their ``colours`` too (a colour
    unnamed, or a die of nobody's: any)."""
    def lies(die: int, face: str, table_die: tuple[str, str | None, int | None], exact: bool) -> bool:
        table_face, where, owner = table_die
        zone = zones[die] if zones else None
        colour = colours[die] if colours and seat_colours else ""
        return table_face == face and (where == zone if exact else where is None or not zones) and (
            not colour or owner is None or seat_colours[owner] == colour)

    left, faces = placed_dice(state.table_view()), faces_read(seen)
    moved = []
    # the dice of a named colour first: one unnamed may lie where either does
    for die in sorted(range(len(faces)), key=lambda die: not (colours and seat_colours and colours[die])):
        lying = next((d for d in left if lies(die, faces[die], d, True)), None) or next(
            (d for d in left if lies(die, faces[die], d, False)), None)
        if lying is None:
            moved.append(die)
        else:
            left.remove(lying)
    return sorted(moved)


def nothing_new(state: State, seen: Reading, zones: Zones = ()) -> bool:
    """The reading shows the table's dice, or some of them (in their zones, when ``zones`` says
    where each die lies): nothing was rolled or moved."""
    return not new_dice(state, seen, zones)


EXACT_UP_TO = 8  # dice paired exactly up to this many; beyond, greedily (a full Excape ladder)


def likelihood(seen: Reading, faces: Sequence[str], zones: Zones = (), where: Zones = (), strict: bool = True,
               colours: Colours = (), whose: Owners = (), best: bool = False) -> float:
    """P(the dice read | the table shows ``faces``): the mean, over the ways of pairing the dice
    read with the faces (dice have no order on the table), of the product of each read die's
    probability for its face; 0 when the counts differ. With the dice's ``zones`` and the zone
    ``where`` the table lays each face (None: anywhere), a die paired with a face of another zone
    counts ZONE_MISS times less, and one die lying beyond the roll area may go unseen (UNSEEN).
    With the dice's ``colours`` and the colour of each face's owner (``whose``, None: anyone's),
    a die paired with a face of another colour counts COLOUR_MISS times less. Neither counts when
    ``strict`` is False. With ``best``, the product of the likeliest pairing instead of the mean.
    Beyond EXACT_UP_TO dice, the best pairing (found greedily) stands in for the mean."""
    if zones and where and len(faces) == len(seen) + 1:
        each = [likelihood(seen, [*faces[:j], *faces[j + 1:]], zones, [*where[:j], *where[j + 1:]], strict, colours,
                           [*whose[:j], *whose[j + 1:]], best)
                for j, lies in enumerate(where) if lies not in (None, THROWN)]
        return UNSEEN * (max(each, default=0.0) if best else sum(each))
    if len(seen) != len(faces):
        return 0.0
    odds = _odds(zones, where, colours, whose) if strict else None
    if len(faces) > EXACT_UP_TO:
        return _greedy(seen, faces, odds)
    sums = {0: 1.0}  # faces used (bit mask) -> sum (best: max) of the products over the pairings of the first dice
    for d, die in enumerate(seen):
        step: dict[int, float] = defaultdict(float)
        for used, product in sums.items():
            for index, face in enumerate(faces):
                if not used >> index & 1 and die.get(face, 0.0) > 0:
                    pairing, key = product * die[face] * (odds[d][index] if odds else 1.0), used | 1 << index
                    step[key] = max(step[key], pairing) if best else step[key] + pairing
        sums = step
    return max(sums.values(), default=0.0) if best else sum(sums.values()) / math.factorial(len(faces))


def _odds(zones: Zones, where: Zones, colours: Colours, whose: Owners) -> list[list[float]] | None:
    """For each die read and each face: how much less likely the pairing is for where the die lies
    and its colour (1 where both are the face's, or nothing says: a colour unnamed, a face nobody's)."""
    zoned, coloured = bool(zones and where), bool(colours and whose)
    if not zoned and not coloured:
        return None
    count = len(zones) if zoned else len(colours)
    return [[(ZONE_MISS if zoned and where[f] is not None and where[f] != zones[d] else 1.0) *
             (COLOUR_MISS if coloured and colours[d] and whose[f] not in (None, colours[d]) else 1.0)
             for f in range(len(where) if zoned else len(whose))] for d in range(count)]


def _greedy(seen: Reading, faces: Sequence[str], odds: list[list[float]] | None = None) -> float:
    weights = [[die.get(face, 0.0) * (odds[d][f] if odds else 1.0) for f, face in enumerate(faces)]
               for d, die in enumerate(seen)]
    return math.prod(weights[d][f] for d, f in _greedy_matrix(weights))


def greedy_pairs(seen: Reading, faces: Sequence[str]) -> list[tuple[int, int]]:
    """(die read, face) index pairs, the likeliest pair first, each die and face used once."""
    return _greedy_matrix([[die.get(face, 0.0) for face in faces] for die in seen])


def _greedy_matrix(weights: list[list[float]]) -> list[tuple[int, int]]:
    ranked = sorted(((w, d, f) for d, row in enumerate(weights) for f, w in enumerate(row)), reverse=True)
    dice, used, pairs = set(), set(), []
    for _, d, f in ranked:
        if d not in dice and f not in used:
            dice.add(d)
            used.add(f)
            pairs.append((d, f))
    return pairs


@dataclass(frozen=True)
class Chain:
    """A way the dice may change now: ``actions`` (a re-roll or a decision that moves dice first,
    if any, then the outcome, if any), their chance, the dice lying before the roll, the roll's
    faces, the position after, the mat zone where each die of ``lying + rolled`` lies (None:
    anywhere) and the seat that owns it (None: nobody)."""

    actions: tuple[Action, ...]
    chance: Fraction
    lying: list[str]
    rolled: list[str]
    after: State
    where: tuple[str | None, ...] = ()
    owners: tuple[int | None, ...] = ()


def chains(state: State, moves: bool = False) -> Iterator[Chain]:
    """Every legal way the dice may change now: an outcome of this roll, or a re-roll and an
    outcome of it; with ``moves`` (the camera tells the mat's zones apart), also each decision that
    moves dice into a zone, alone and followed by an outcome of the roll after it."""
    if state.is_chance_node():
        yield from _rolls(state, (), Fraction(1))
        return
    decisions = state.legal_actions()
    rerolls = [decision for decision in decisions if _is_reroll(state, decision)]
    moving = [decision for decision in decisions if decision not in rerolls and moves_dice(state, decision)] \
        if moves else []
    prior = Fraction(1, len(rerolls) + len(moving)) if rerolls or moving else Fraction(0)
    for decision in rerolls:
        yield from _rolls(state.apply(decision), (decision,), prior)
    for decision in moving:
        after = state.apply(decision)
        lying = placed_dice(after.table_view())
        yield Chain((decision,), prior, [face for face, _, _ in lying], [], after, tuple(zone for _, zone, _ in lying),
                    tuple(owner for _, _, owner in lying))
        yield from _rolls(after, (decision,), prior)


def _rolls(state: State, before: tuple[Action, ...], prior: Fraction) -> Iterator[Chain]:
    lying = placed_dice(state.table_view())
    faces_lying = [face for face, _, _ in lying]
    zones_lying, owners_lying = tuple(zone for _, zone, _ in lying), tuple(owner for _, _, owner in lying)
    for outcome, chance in state.chance_outcomes():
        faces = rolled_faces(outcome)
        if faces is not None:
            after = state.apply(outcome)
            thrown = _thrown(lying, faces, state.table_after(outcome))
            yield Chain(before + (outcome,), prior * Fraction(chance), faces_lying, faces, after,
                        zones_lying + tuple(zone for zone, _ in thrown), owners_lying + tuple(o for _, o in thrown))


def _thrown(lying: list[tuple[str, str | None, int | None]], faces: list[str],
            view: Any) -> list[tuple[str | None, int | None]]:
    """(zone, owner) of each die of a roll showing ``faces``: as the table it leaves (``view``, see
    ``State.table_after``) lays dice of those faces beyond those ``lying`` (anywhere, nobody's,
    where it does not show them)."""
    left = list((Counter(placed_dice(view)) - Counter(lying)).elements())
    placed = []
    for face in faces:
        found = next((d for d in left if d[0] == face), None)
        if found is not None:
            left.remove(found)
        placed.append(found[1:] if found else (None, None))
    return placed


def _is_reroll(state: State, decision: Action) -> bool:
    after = state.apply(decision)
    player = state.acting_player(decision)
    return after.is_chance_node() and any(
        rolled_faces(outcome) is not None and after.apply(outcome).current_player() == player
        for outcome, _ in after.chance_outcomes())


def moves_dice(state: State, decision: Action) -> bool:
    """Whether ``decision`` lays dice in a mat zone where the table had none of theirs (Excape's
    ``place 3``: the roll onto rung 3)."""
    def zoned(view: Any) -> Counter:
        return Counter(die for die in zoned_dice(view) if die[1] is not None)
    return bool(zoned(state.apply(decision).table_view()) - zoned(state.table_view()))


def explain(state: State, seen: Reading, stayed: int = 0, zones: Zones = (), colours: Colours = (),
            seat_colours: Sequence[str] = ()) -> list[Explanation]:
    """Every legal chain that explains the dice ``seen``, of which ``stayed`` lay still since the
    last table the game agreed with (and, on a mat whose zones tell where dice lie, each in its ``zones``;
    where each seat's dice are of its own colour, ``seat_colours``, each die of its ``colours``),
    grouped by the table it leaves, most probable first; [] when none does or the reading shows
    nothing new."""
    if nothing_new(state, seen, zones):
        return []
    groups: dict[tuple, list] = {}  # the table left -> [chains, weight, fit]
    for chain in chains(state, moves=bool(zones)):
        if len(chain.lying) < stayed:
            continue
        faces = chain.lying + chain.rolled
        whose = [None if owner is None else seat_colours[owner] for owner in chain.owners] if seat_colours else ()
        weight = float(chain.chance) * likelihood(seen, faces, zones, chain.where, True, colours, whose)
        if weight > 0:
            key = (_sorted_dice(chain.after.table_view()), tuple(sorted(faces)))
            group = groups.setdefault(key, [[], 0.0, 0.0])
            group[0].append(chain.actions)
            group[1] += weight
            # how well its dice lie in their zones and owners' colours, paired at best: 1 where each
            # is read in its own, ZONE_MISS a die off it, COLOUR_MISS one of another colour (the mean
            # over the pairings would also count those that swap dice of one face among zones or owners)
            if zones or whose:
                paired = likelihood(seen, faces, zones, chain.where, True, colours, whose, best=True)
                anywhere = likelihood(seen, faces, zones, chain.where, False, best=True)
                group[2] = max(group[2], paired / anywhere if anywhere > 0 else 1.0)  # (greedy pairings may differ)
            else:
                group[2] = 1.0
    total = sum(weight for _, weight, _ in groups.values())
    ranked = sorted(groups.values(), key=lambda g: (-g[1], tuple(a.sort_key() for a in g[0][0])))
    return [Explanation(tuple(found), weight / total, min(fit, 1.0)) for found, weight, fit in ranked]


def _sorted_dice(view: Any) -> str:
    """A table view as text, every "dice" list sorted: the table whatever die shows which face."""
    def sort(node: Any) -> Any:
        if isinstance(node, Mapping):
            return {k: sorted(map(str, v)) if k == "dice" and isinstance(v, list) else sort(v) for k, v in node.items()}
        return [sort(item) for item in node] if isinstance(node, list) else node
    return json.dumps(sort(view), sort_keys=True, default=str)
