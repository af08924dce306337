"""From the Hold Up cards the camera saw to what may have happened: ranked candidates, never a decision.

What the camera sees of a Hold Up table is a card view: the three rows (row 1, the bottom one,
first; each row's cards left to right, as many as were read), the draw pile and each player's
three GV cards and pile top, each place giving the probability of each label, in the words of
``HoldUpState.table_view()`` without the dice (the dice camera's) and the card in a hand; and,
when the mat is known, how many places each of its rows prints (``row_places``). A row longer than
the mat's places is laid with its last cards piled on its last place, so that row shows its first
cards and, on the last place, its right end (``table``). The
candidates are the legal ways the table may have come to look so from the position the game is
in: the chains of card moves, up to the end of the turn. The card camera sees the dice kept (their
captures leave the rows for the player's pile, four 4s take the pile's top), the GV cards flipped,
each 5 or 6's card drawn and placed at the right end of a row, and while dealing the six opening
cards; rolls are the dice camera's, in no chain. A player may pause wherever the table lies still
(not with a drawn card in hand, nor before the dice are kept): after the captures, after the
flips, before each draw. Each such position a chain reaches is a candidate, unless it leaves the
table as it lies (dice kept that capture nothing: the camera sees nothing, and the player may yet
roll again), and a chain stops at the turn's end. The cards a keep captured may lie in their rows
until the player takes them (a fourth roll keeps its dice at once): up to the next roll, the table
with them there is the table as it lies too (``tables``).

A card drawn is one the reading shows where it may land, at the right end of a row. Each chain
weighs its chance (the rules' chance of each card drawn; the flips a player may choose alike, and
the three rows) times the likelihood of the reading if it happened; chains that leave the same
table (two cards drawn and placed in either order) are one explanation.
"""
from __future__ import annotations

import heapq
import math
from fractions import Fraction
from typing import Any, Iterator, Mapping, Sequence

from engine.core import Action, State
from engine.holdup.actions import Draw, Flip, Keep, Place
from engine.holdup.deck import Gem
from engine.holdup.rules import plan_keep
from engine.table import EMPTY, as_lying, likeliest
from engine.text import Text, listing, tr
from assistant.reconcile import Explanation
from assistant.reconcile_cards import (MAX_EXPANDED, MISREAD, NEGLIGIBLE, PLAUSIBLE, cut_steps, explanations,
                                      top_labels)
from assistant.reconcile_cards import seats_in_play  # noqa: F401 (Hold Up's view lists its players too)

# {"rows": [[{label: p}]], "draw_pile": {label: p}, "players": [{"gv": [{label: p}] * 3, "pile_top": {label: p}}],
#  "row_places": [places] * 3 (optional)}
HoldUpView = Mapping[str, Any]
CARD_MOVES = (Keep, Flip, Draw, Place)  # the moves whose consequences the card camera sees
UNSETTLED = ("decide", "place")  # the dice not yet kept, or a drawn card in hand: the table is not still
# where a turn's card moves end: they reach a roll only at the next turn
TURN_ENDS = ("roll", "over", "steal")


def at_rest(state: State) -> bool:
    """Whether the table can lie still at ``state``: no card in a hand, and the dice kept."""
    return state.phase not in UNSETTLED


def still_steps(states: Sequence[State], actions: Sequence[Action]) -> list[tuple[int, int]]:
    """A match's card moves (``states`` before and after each of ``actions``), cut where the table
    comes to rest: (first, end) index ranges, each what the card camera sees happen between two
    still tables. Rolls and re-rolls are in none. Dice kept that leave the table as it was (no
    capture, 4s not yet flipped) are seen with the moves that follow them at once, or not at all."""
    steps, unseen = [], None  # unseen: a step that left the table as it was
    for first, end in cut_steps(states, actions, lambda _, action: isinstance(action, CARD_MOVES),
                                lambda _, after: at_rest(after)):
        first = unseen[0] if unseen and unseen[1] == first else first
        unseen = (first, end) if table(states[first]) == table(states[end]) else None
        if not unseen:
            steps.append((first, end))
    return steps


def table(state: State, row_places: Sequence[int] | None = None) -> dict[str, Any]:
    """What the card camera should see of ``state``: its table view without the dice and the
    card in a hand. With ``row_places`` (the places each row of the mat prints), a longer row
    shows its first cards and, on its last place, the pile of the others: its right end on top."""
    return _seen(state.table_view(), row_places)


def tables(state: State, row_places: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """The tables the card camera may see at ``state``: its ``table``, and while the cards the
    last keep captured may still lie in their rows (``state.taken``: a fourth roll keeps its dice
    at once, and a keep may be entered by touch), the table with them at their rows' right ends
    and the taker's pile as it was before them."""
    view = state.table_view()
    if state.taken is None:
        return [_seen(view, row_places)]
    seat, taken = state.taken
    pile = list(state.piles[seat])
    for gem in (gem for cards in taken for gem in cards):
        del pile[len(pile) - 1 - pile[::-1].index(gem)]
    players = [{**player, "pile_top": str(pile[-1]) if pile else EMPTY} if number == seat else player
               for number, player in enumerate(view["players"])]
    rows = [cards + [str(gem) for gem in more] for cards, more in zip(view["rows"], taken)]
    return [_seen(view, row_places), _seen({**view, "rows": rows, "players": players}, row_places)]


def _seen(view: Mapping[str, Any], row_places: Sequence[int] | None) -> dict[str, Any]:
    """``view`` (a table view's rows, draw pile and players) as the card camera sees it on a mat
    printing ``row_places`` (see ``table``)."""
    rows = view["rows"] if row_places is None else [
        cards if len(cards) <= places else [*cards[:places - 1], cards[-1]]
        for cards, places in zip(view["rows"], row_places)]
    return {"rows": rows, "draw_pile": view["draw_pile"], "players": view["players"]}


def _row_places(seen: HoldUpView) -> Sequence[int] | None:
    return seen.get("row_places")


def _read_as_lying(seen: HoldUpView, now: Mapping[str, Any]) -> dict[str, Any]:
    """The reading's places (not the mat's ``row_places``) as ``engine.table.as_lying`` reads them."""
    return as_lying({key: seen[key] for key in now}, now, PLAUSIBLE)


def chains(state: State, seen: HoldUpView) -> Iterator[tuple[tuple[Action, ...], dict[str, Any], float, float]]:
    """The legal ways the table may have changed now, up to the end of the turn: the actions, the
    table they leave, their chance and the reading's likelihood there; the weightiest (chance
    times likelihood) first as far as the search can tell. A chain that leaves the table as it
    lies is none (dice kept that capture nothing: the camera sees nothing, and the player may
    still roll again). Best first: a partial chain's bound, its chance times ``_bound``, no
    longer chain exceeds; the search stops when no partial chain can reach ``NEGLIGIBLE`` of the
    best found (each 5 or 6 is a card drawn and a row chosen)."""
    heap = [(-1.0, 0, state, (), Fraction(1))]
    tie, best, expanded, lying = 1, 0.0, 0, table(state, _row_places(seen))
    while heap and expanded < MAX_EXPANDED:
        bound, _, position, actions, chance = heapq.heappop(heap)
        if -bound < NEGLIGIBLE * best:
            break
        expanded += 1
        for action, weight in _moves(position, seen):
            after, chained, odds = position.apply(action), actions + (action,), chance * weight
            views = tables(after, _row_places(seen))
            if at_rest(after) and views[0] != lying:
                fit = max(likelihood(seen, view) for view in views)
                best = max(best, float(odds) * fit)
                yield chained, views[0], float(odds), fit
            if after.phase not in TURN_ENDS:
                bound = max(_bound(after, view, seen) for view in views)
                heapq.heappush(heap, (-float(odds) * bound, tie, after, chained, odds))
                tie += 1


def _moves(state: State, seen: HoldUpView) -> list[tuple[Action, Fraction]]:
    """The moves worth trying now, with their chance: the cards drawn that the reading shows at a
    right end of a row (its likeliest labels there); the card moves a player may choose, alike.
    A roll is the dice camera's: no card move."""
    if state.phase == "roll":
        return []
    if state.is_chance_node():
        shown = {label for place in _landing(state, seen) for label in top_labels(place)}
        return [(draw, p) for draw, p in state.chance_outcomes() if str(Gem(draw.stone, draw.value)) in shown]
    chosen = [action for action in state.legal_actions() if isinstance(action, CARD_MOVES)]
    return [(action, Fraction(1, len(chosen))) for action in chosen]


def _landing(state: State, seen: HoldUpView) -> list[Mapping[str, float]]:
    """The places the reading shows where a card drawn now may lie: the right end of each row
    (on a full row of the mat, its last place)."""
    places = _row_places(seen)
    return [_place(seen, row, len(cards) if places is None else min(len(cards), places[row] - 1))
            for row, cards in enumerate(state.rows)]


def _place(seen: HoldUpView, row: int, col: int) -> Mapping[str, float]:
    rows = seen["rows"]
    return rows[row][col] if row < len(rows) and col < len(rows[row]) else {}


def _bound(state: State, view: Mapping[str, Any], seen: HoldUpView) -> float:
    """At least the likelihood of any table a chain from ``state`` leaves. Later moves only add
    cards at the rows' right ends (each row's cards now fit at best as they are read, a row read
    with another number of cards fits less; but the last place of a full row of the mat takes the
    cards added), the pile tops stay, a card in hand lands at best
    where it fits the reading best; the GV cards waiting for a flip and the draw pile (it may
    run out) may yet fit better. ``view``: the table at ``state``."""
    total = 1.0
    row_places = _row_places(seen) or [math.inf] * len(state.rows)
    for places, cards, lying, printed in zip(seen["rows"], view["rows"], state.rows, row_places):
        covered = len(cards) - 1 if len(lying) >= printed else len(cards)  # a card added lies on it
        total *= math.prod(_fits(places[i], card) if i < len(places) else MISREAD
                           for i, card in enumerate(cards[:covered]))
    for seat, (read, player) in enumerate(zip(seen["players"], view["players"])):
        total *= _fits(read["pile_top"], player["pile_top"])
        if not (state.phase == "flip" and seat == state.seat):
            total *= _line(read["gv"], player["gv"])
    if state.held is not None:
        total *= max(_fits(place, str(state.held)) for place in _landing(state, seen))
    return total


def _fits(place: Mapping[str, float], label: str) -> float:
    return max(place.get(label, 0.0), MISREAD)


def _line(places: Sequence[Mapping[str, float]], labels: Sequence[str]) -> float:
    """How a row, or a player's GV cards, read fits ``labels``: each place's fit; when another
    number of cards was read, every place of the longer line misread (a card read where none
    lies is as wrong as one missed)."""
    if len(places) != len(labels):
        return MISREAD ** max(len(places), len(labels))
    return math.prod(_fits(place, label) for place, label in zip(places, labels))


def likelihood(seen: HoldUpView, view: Mapping[str, Any]) -> float:
    """P(the reading | the table is ``view``): each place's probability of the card the view puts
    there (at least ``MISREAD``), a row read with another number of cards counting each misread."""
    total = _fits(seen["draw_pile"], view["draw_pile"])
    for places, labels in zip(seen["rows"], view["rows"]):
        total *= _line(places, labels)
    for read, player in zip(seen["players"], view["players"]):
        total *= _line(read["gv"], player["gv"]) * _fits(read["pile_top"], player["pile_top"])
    return total


def nothing_new(state: State, seen: HoldUpView) -> bool:
    """The reading shows the table as it is (one of ``tables``): each place's likeliest card the
    one lying there, or a face-up card read as another but not unlikely
    (``assistant.reconcile_cards.PLAUSIBLE``)."""
    return any(_read_as_lying(seen, now) == now for now in tables(state, _row_places(seen)))


def explain(state: State, seen: HoldUpView) -> list[Explanation]:
    """Every legal chain that explains the cards ``seen``, grouped by the table it leaves, most
    probable first; [] when the reading shows nothing new, or no chain explains it unless two
    cards or more were misread or missed, or better than the table as it lies
    (``assistant.reconcile_cards.explanations``)."""
    if nothing_new(state, seen):
        return []
    return explanations(chains(state, seen), likelihood(seen, likeliest(seen)),
                        max(likelihood(seen, now) for now in tables(state, _row_places(seen))))


def why_unexplained(state: State, seen: HoldUpView) -> Text | str:
    """What the reading shows that no move explains: cards captured while a row is short of the
    dice showing its number, more cards gone from a row than dice show its number, a row's cards
    in another order; else everything that changed (from the one of ``tables`` the reading fits
    best)."""
    now = max(tables(state, _row_places(seen)), key=lambda lying: likelihood(seen, lying))
    read = _read_as_lying(seen, now)
    lost = {number: len(was) - len(cards) for number, (was, cards) in enumerate(zip(now["rows"], read["rows"]), 1)
            if len(cards) < len(was)}
    short = _short_row(state)
    if short and lost:
        return tr("row {row} has {cards}, {dice}: nothing is captured this turn", row=short,
                  cards=_card_count(len(state.rows[short - 1])), dice=_dice_showing(state.dice.count(short), short))
    too_many = [(number, count) for number, count in lost.items() if count > state.dice.count(number)]
    if state.phase == "decide" and too_many:  # once kept, the dice take nothing more
        number, count = too_many[0]
        return tr("row {row} lost {cards}, but {dice}", row=number, cards=_card_count(count),
                  dice=_dice_showing(state.dice.count(number), number))
    moved = [(number, cards) for number, (was, cards) in enumerate(zip(now["rows"], read["rows"]), 1)
             if was != cards and sorted(was) == sorted(cards)]
    if moved:
        number, cards = moved[0]
        return tr("the cards of row {row} changed places ({cards}): cards leave and join a row only at its right end",
                  row=number, cards=", ".join(cards))
    return tr("{places} changed, and no move of Hold Up explains it", places=listing(_changes(now, read)))


def _short_row(state: State) -> int:
    """The row with fewer cards than the dice showing its number this turn (0: none)."""
    return plan_keep(state.rows, state.dice).short_row if state.phase == "decide" else state.short_row


def _changes(now: Mapping[str, Any], read: Mapping[str, Any]) -> list[Text]:
    """Each part of the table that reads otherwise than it lies, with what was read."""
    changed = [tr("row {row} ({count}: {cards})", row=number, count=_card_count(len(cards)), cards=", ".join(cards))
               if cards else tr("row {row} (empty)", row=number)
               for number, (was, cards) in enumerate(zip(now["rows"], read["rows"]), 1) if was != cards]
    if read["draw_pile"] != now["draw_pile"]:
        changed.append(tr("the draw pile ({card})", card=read["draw_pile"]))
    for seat, (was, player) in enumerate(zip(now["players"], read["players"])):
        who = tr("player {number}", number=seat + 1)
        if player["gv"] != was["gv"]:
            faces = " ".join(label.removeprefix("gv ") for label in player["gv"])
            changed.append(tr("{player}'s GV cards ({faces})", player=who, faces=faces))
        if player["pile_top"] != was["pile_top"]:
            changed.append(tr("{player}'s pile ({card})", player=who, card=player["pile_top"]))
    changed += [tr("{player}'s cards (not read)", player=tr("player {number}", number=seat + 1))
                for seat in range(len(read["players"]), len(now["players"]))]
    return changed


def _card_count(count: int) -> Text:
    if count == 0:
        return tr("no cards")
    return tr("one card") if count == 1 else tr("{count} cards", count=count)


def _dice_showing(count: int, face: int) -> Text:
    if count == 0:
        return tr("no die shows {face}", face=face)
    if count == 1:
        return tr("one die shows {face}", face=face)
    return tr("{count} dice show {face}", count=count, face=face)
