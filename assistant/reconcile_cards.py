"""From the Hilo cards the camera saw to what may have happened: ranked candidates, never a decision.

What the camera sees of a Hilo table (``vision.live_cards``) is a card view: each seat's grid
(``shape`` and, for each place, the probability of each label: "red 7", "face-down", "empty")
and the top of the discard, in the words of ``State.table_view()``. The candidates are the legal
ways the table may have come to look so from the position the game is in: the chains of actions
the camera can see, up to the next still table, that is a position that waits for a player (not
for a card to be turned up, and not with a drawn card in a hand). A chain ends at the first such
position where the next player's turn begins; before that, a player's HILO line waits (removed or
not yet) and the setup's reveals each leave the table still.

The cards turned up along a chain (a draw, a swapped or flipped card, the setup and final reveals)
are those the camera reads where the card lands: at the place turned up, on the discard, or for a
drawn card anywhere in the player's grid or on the discard. Decisions the camera cannot see (a HILO
line kept, the youngest named) are entered by touch and end no chain. Each chain weighs its chance
(the rules' chance of each card turned up; each kind of move alike, taking the discard as likely as
drawing, then each of its places alike) times the likelihood of the
reading if it happened; chains that leave the same table are one explanation. A round's last card
turned up or last turn ends the round in the rules at once: its table is ``State.table_after``.
"""
from __future__ import annotations

import heapq
import json
from collections import Counter
from fractions import Fraction
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from engine.core import Action, State
from engine.table import EMPTY, FACE_DOWN, as_lying, likeliest
from engine.hilo.words import place as place_name
from engine.text import Text, listing, tr
from assistant.reconcile import Explanation

CardView = Mapping[str, Any]  # {"players": [{"shape", "cells": [[{label: p}]]}], "discard": {label: p}}
MISREAD = 1e-6      # the likelihood of a label the reader gave no probability to (a deck has ~100)
TOP_LABELS = 3      # labels of a place tried for a card turned up there
LEAST = 0.01        # nor any below this probability
# A face-up card read as another still reads as itself when the reading gives it at least this
# share of the other's probability (a yellow 5 read 0.6-0.9 as a yellow 8 through a game of
# seed 1003 was said, again and again, to have changed while nothing moved).
PLAUSIBLE = 0.05
NEGLIGIBLE = 1e-4   # of the best chain's weight: chains that cannot reach it are not looked for
MAX_EXPANDED = 20000  # partial chains expanded at most, whatever the reading
# phases that are never a still table: a card is being turned up, or is in a hand
WAITING_FOR_CARDS = ("start", "draw", "drawn", "setup-reveal", "swap-reveal", "flip-reveal")


def at_rest(state: State, after: State) -> bool:
    """Whether the table lies still once ``state`` became ``after``: the round is over, or the
    position waits for a player (not for a card to be turned up, nor with a card in a hand)."""
    return after.round_no != state.round_no or after.phase == "over" or after.phase not in WAITING_FOR_CARDS


def still_steps(states: Sequence[State], actions: Sequence[Action]) -> list[tuple[int, int]]:
    """A match's actions the camera sees (``states`` before and after each of ``actions``), cut
    where the table comes to rest: (first, end) index ranges, each what the camera sees happen
    between two still tables. Decisions it cannot see are in none."""
    return cut_steps(states, actions, lambda state, action: isinstance(action, state.game.camera_actions), at_rest)


def cut_steps(states: Sequence[State], actions: Sequence[Action], seen: Callable[[State, Action], bool],
              rests: Callable[[State, State], bool]) -> list[tuple[int, int]]:
    """The (first, end) index ranges of ``actions`` that the camera sees happen between two still
    tables: the actions it sees (``seen(state, action)``), cut after each one whose position
    ``rests(state, after)``; the others are in none."""
    steps, start = [], None
    for index, action in enumerate(actions):
        if not seen(states[index], action):
            continue
        start = index if start is None else start
        if rests(states[index], states[index + 1]):
            steps.append((start, index + 1))
            start = None
    return steps


def chains(state: State, seen: CardView) -> Iterator[tuple[tuple[Action, ...], dict[str, Any], float, float]]:
    """The legal ways the table may have changed now, up to the next still table: the actions,
    the table they leave, their chance and the reading's likelihood there; the weightiest
    (chance times likelihood) first as far as the search can tell. Best first: a partial chain's
    bound is its chance times the probability of each card turned up so far where it lands,
    which no longer chain exceeds; the search stops when no
    partial chain can reach ``NEGLIGIBLE`` of the best found (the final reveal of six grids would
    otherwise try every reading of every card)."""
    heap = [(-1.0, 0, state, (), Fraction(1))]
    tie, best, expanded = 1, 0.0, 0
    while heap and expanded < MAX_EXPANDED:
        bound, _, position, actions, chance = heapq.heappop(heap)
        if -bound < NEGLIGIBLE * best:
            break
        expanded += 1
        for action, weight, fit in _moves(position, seen, actions):
            after, chained, odds = position.apply(action), actions + (action,), chance * weight
            ends = after.round_no != state.round_no or after.phase in ("over", "turn")
            if ends or at_rest(position, after):
                view = position.table_after(action) if ends else after.table_view()
                fit = likelihood(seen, view)
                best = max(best, float(odds) * fit)
                yield chained, view, float(odds), fit
            if not ends:  # no chain goes past the round's end or the next turn's start
                heapq.heappush(heap, (bound * fit * float(weight), tie, after, chained, odds))
                tie += 1


def _moves(state: State, seen: CardView, before: tuple[Action, ...]) -> list[tuple[Action, Fraction, float]]:
    """The actions worth trying now, with their chance and how well the reading fits them so
    far: the cards turned up that the reading shows where they land (with that probability); the
    decisions the camera sees (a reveal or flip only of a place seen face up, the setup's reveals
    in one order: they may happen in any)."""
    if state.is_chance_node():
        names = {state.game.palette.name(state.card_for(action)): (action, Fraction(p))
                 for action, p in state.chance_outcomes()}
        fits: dict[str, float] = {}
        for place in _landing(state, seen):
            for label in top_labels(place):
                fits[label] = max(fits.get(label, 0.0), place[label])
        return [(*names[label], fits[label]) for label in sorted(fits) if label in names]
    legal = state.legal_actions()
    kinds = Counter(type(action) for action in legal)
    last_reveal = next((a for a in reversed(before) if type(a).__name__ == "Reveal"), None)
    moves = []
    for action in legal:
        if not isinstance(action, state.game.camera_actions):
            continue
        if type(action).__name__ in ("Reveal", "Flip"):
            seat = getattr(action, "seat", state.current_player())
            if _place(seen, seat, action.row, action.col).get(FACE_DOWN, 0.0) > 0.5:
                continue
            if last_reveal is not None and action.sort_key() <= last_reveal.sort_key():
                continue
        moves.append((action, Fraction(1, len(kinds) * kinds[type(action)]), 1.0))
    return moves


def _landing(state: State, seen: CardView) -> list[Mapping[str, float]]:
    """Where the camera sees the card being turned up: its place, the discard, or (drawn) any
    place of the player's grid and the discard."""
    phase = state.phase
    if phase in ("start", "swap-reveal"):
        return [seen["discard"]]
    if phase == "draw":
        grid = _grid(seen, state.player)  # the player who drew (a chance node has no current player)
        return [seen["discard"], *(place for row in grid for place in row)]
    seat, row, col = state.pending
    return [_place(seen, seat, row, col)]


def _grid(seen: CardView, seat: int) -> list[list[Mapping[str, float]]]:
    players = seen["players"]
    return players[seat]["cells"] if seat < len(players) else []


def _place(seen: CardView, seat: int, row: int, col: int) -> Mapping[str, float]:
    grid = _grid(seen, seat)
    return grid[row][col] if row < len(grid) and col < len(grid[row]) else {}


def top_labels(place: Mapping[str, float]) -> list[str]:
    """The labels worth trying for a card turned up at ``place``: its likeliest few, none unlikely."""
    return [label for label, p in sorted(place.items(), key=lambda item: -item[1])[:TOP_LABELS] if p >= LEAST]


def likelihood(seen: CardView, view: Mapping[str, Any]) -> float:
    """P(the reading | the table is ``view``): each place's probability of the card the view
    puts there (at least ``MISREAD``), a grid of another shape counting every place misread."""
    total = max(seen["discard"].get(view["discard"], 0.0), MISREAD)
    for grid, expected in zip(seen["players"], view["players"]):
        if list(grid["shape"]) != list(expected["shape"]):
            total *= MISREAD ** max(len(expected["cells"]) * len(expected["cells"][0] if expected["cells"] else 0), 1)
            continue
        for row, labels in zip(grid["cells"], expected["cells"]):
            for place, label in zip(row, labels):
                total *= max(place.get(label, 0.0), MISREAD)
    return total


def seats_in_play(state: State, seen: CardView) -> CardView:
    """``seen`` without the places of the mat's seats beyond the game's players (a mat for five
    or six players, played by five: the sixth seat's place is not read). Any card view that
    lists its ``players``, seat by seat: Hilo's, Hold Up's."""
    return {**seen, "players": list(seen["players"][:state.game.num_players])}


def nothing_new(state: State, seen: CardView) -> bool:
    """The reading shows the table as it is: each place's likeliest card the one lying there, or
    a face-up card read as another but not unlikely (``PLAUSIBLE``)."""
    table = _table(state)
    return as_lying(seen, table, PLAUSIBLE) == table


def _table(state: State) -> dict[str, Any]:
    """What the card camera should see of ``state``: each grid's shape and cards, the discard."""
    view = state.table_view()
    return {"players": [{"shape": list(p["shape"]), "cells": p["cells"]} for p in view["players"]],
            "discard": view["discard"]}


def explain(state: State, seen: CardView) -> list[Explanation]:
    """Every legal chain that explains the cards ``seen``, grouped by the table it leaves, most
    probable first; [] when the reading shows nothing new, or no chain explains it unless two
    cards or more were misread or missed (its likelihood under ``MISREAD`` squared of that of the
    reading's own likeliest table), or better than the table as it lies."""
    if nothing_new(state, seen):
        return []
    return explanations(chains(state, seen), likelihood(seen, likeliest(seen)), likelihood(seen, _table(state)))


def explanations(found: Iterable[tuple[tuple[Action, ...], Any, float, float]], as_read: float,
                 standing: float) -> list[Explanation]:
    """Chains (their actions, the table they leave, chance and likelihood) grouped by the table
    they leave, most probable first, each group's fit its likelihood over ``as_read`` (that of the
    reading's own likeliest table); [] when none explains the reading unless two cards or more
    were misread or missed (a likelihood under ``MISREAD`` squared of ``as_read``). A table that
    fits the reading no better than the table as it lies (likelihood ``standing``) explains
    nothing: two cards swapped in a row that the dice capture from read as unlike the capture as
    unlike the row, and were offered as the capture (seed 3288)."""
    groups: dict[str, list] = {}  # the table left -> [chains, weight, likelihood]
    for actions, view, chance, fit in found:
        if fit <= standing:
            continue
        group = groups.setdefault(json.dumps(view, sort_keys=True), [[], 0.0, fit])
        group[0].append(actions)
        group[1] += chance * fit
    total = sum(weight for _, weight, _ in groups.values())
    if total <= 0 or max(fit for _, _, fit in groups.values()) < MISREAD ** 2 * as_read:
        return []
    ranked = sorted(groups.values(), key=lambda g: (-g[1], [tuple(a.sort_key() for a in c) for c in g[0]]))
    return [Explanation(tuple(alike), weight / total, fit / as_read) for alike, weight, fit in ranked]


def why_unexplained(state: State, seen: CardView) -> Text | str:
    """What the reading shows that no move explains: two cards of a grid that changed places,
    places of a grid that lost their card, or else every place whose card changed."""
    view = _table(state)
    read = as_lying(seen, view, PLAUSIBLE)
    changed, moved = [], []
    if read["discard"] != view["discard"]:
        changed.append(tr("the discard ({card})", card=read["discard"]))
    for seat, (grid, now) in enumerate(zip(view["players"], read["players"])):
        who = tr("player {number}", number=seat + 1)
        if list(grid["shape"]) != list(now["shape"]):
            changed.append(tr("{player}'s grid ({rows} x {columns})", player=who, rows=now["shape"][0],
                              columns=now["shape"][1]))
            continue
        places = [(r, c, before, after) for r, (was, row) in enumerate(zip(grid["cells"], now["cells"]))
                  for c, (before, after) in enumerate(zip(was, row)) if before != after]
        changed += [tr("{player}'s row {row}, column {column} ({card})", player=who, row=r + 1, column=c + 1,
                       card=after) for r, c, _, after in places]
        moved.append((who, places))
    swaps = [(who, places) for who, places in moved if len(places) == 2 and places[0][2:] == places[1][:1:-1]]
    if len(changed) == 2 and swaps:
        who, ((r1, c1, _, _), (r2, c2, _, _)) = swaps[0]
        return tr("{player} swapped two cards of their grid ({first} and {second}): only one card moves in a turn",
                  player=who, first=place_name(r1, c1), second=place_name(r2, c2))
    gone = [tr("{player}'s row {row}, column {column}", player=who, row=r + 1, column=c + 1)
            for who, places in moved for r, c, _, after in places if after == EMPTY]
    if gone and len(gone) == len(changed):  # a card pushed off its place, or off the mat
        return tr("no card lies at {places}: lay it back in its place", places=listing(gone))
    return tr("{places} changed, and no move of Hilo explains it", places=listing(changed))
