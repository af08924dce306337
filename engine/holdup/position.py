"""Reading a Hold Up 4D6 position (``HoldUpState.to_dict()``) back, refusing inconsistent ones
with the field named: every card of the deck must be somewhere exactly once."""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from engine.core import field_of, require
from engine.holdup.deck import Gem
from engine.holdup.rules import DICE, GV_CARDS, MAX_ROLLS, OPENING_PER_ROW, ROWS, flip_choices
from engine.holdup.scoring import piles_before_steals
from engine.holdup.state import PHASES, HoldUpState


def state_from_dict(game, data: Mapping[str, Any]) -> HoldUpState:
    require(isinstance(data, Mapping), "state", f"expected an object, got {type(data).__name__}")
    n = game.num_players
    phase = field_of(data, "phase", str)
    require(phase in PHASES, "phase", f"expected one of {', '.join(PHASES)}, got {phase!r}")
    seat = _bounded(data, "seat", 0, n - 1)
    turn = _bounded(data, "turn", 0, game.max_game_length)
    rolls = _bounded(data, "rolls", 0, MAX_ROLLS)
    short_row = _bounded(data, "short_row", 0, ROWS)
    to_place = _bounded(data, "to_place", 0, DICE)
    dice = field_of(data, "dice", list)
    require(len(dice) <= DICE and all(type(d) is int and 1 <= d <= 6 for d in dice), "dice",
            f"at most {DICE} faces from 1 to 6, got {dice!r}")
    dice = tuple(dice)
    require(list(dice) == sorted(dice), "dice", "faces are listed in increasing order")

    rows = field_of(data, "rows", list)
    require(len(rows) == ROWS, "rows", f"expected {ROWS} rows, got {len(rows)}")
    rows = tuple(_cards(game, row, f"rows[{i}]") for i, row in enumerate(rows))
    piles = field_of(data, "piles", list)
    require(len(piles) == n, "piles", f"expected one pile per player ({n}), got {len(piles)}")
    piles = tuple(_cards(game, pile, f"piles[{i}]") for i, pile in enumerate(piles))
    gv = field_of(data, "gv", list)
    require(len(gv) == n and all(isinstance(f, str) and len(f) == GV_CARDS and set(f) <= {"G", "V"} for f in gv),
            "gv", f"expected {n} strings of {GV_CARDS} letters G or V, got {gv!r}")
    removed = _cards(game, field_of(data, "removed", list), "removed")
    held = data.get("held")
    held = None if held is None else _card(game, held, "held")
    last_card_by = data.get("last_card_by")
    require(last_card_by is None or (type(last_card_by) is int and 0 <= last_card_by < n), "last_card_by",
            f"a seat from 0 to {n - 1} or null, got {last_card_by!r}")
    draw = _draw_pile(game, field_of(data, "draw_pile", list))
    steals = _steals(game, field_of(data, "steals", list), n)

    _check_conservation(game, rows, piles, removed, held, draw)
    if game.options.pile_sorted:
        for i, pile in enumerate(piles):
            require(all(a.value <= b.value for a, b in zip(pile, pile[1:])), f"piles[{i}]",
                    "not ordered by value, highest on top (option pile_sorted)")
    state = HoldUpState(game, phase=phase, seat=seat, turn=turn, rows=rows, draw=draw, piles=piles,
                        gv=tuple(gv), removed=removed, dice=dice, rolls=rolls, short_row=short_row,
                        to_place=to_place, held=held, last_card_by=last_card_by, steals=steals)
    _check_phase(game, state)
    return state


def _bounded(data: Mapping[str, Any], name: str, low: int, high: int) -> int:
    value = field_of(data, name, int)
    require(low <= value <= high, name, f"expected {low} to {high}, got {value}")
    return value


def _card(game, text: Any, field: str) -> Gem:
    require(isinstance(text, str), field, f"a card is written 'stone value', got {text!r}")
    stone, _, value = text.rpartition(" ")
    require(value.lstrip("-").isdigit(), field, f"a card is written 'stone value', got {text!r}")
    gem = Gem(stone, int(value))
    require(gem in game.gem_index, field, f"{text!r} is not a card of this deck")
    return gem


def _cards(game, items: Any, field: str) -> tuple[Gem, ...]:
    require(isinstance(items, list), field, f"expected a list of cards, got {items!r}")
    return tuple(_card(game, item, f"{field}[{i}]") for i, item in enumerate(items))


def _draw_pile(game, rows: list) -> tuple[int, ...]:
    counts = [0] * len(game.gems)
    for i, row in enumerate(rows):
        field = f"draw_pile[{i}]"
        require(isinstance(row, list) and len(row) == 3 and type(row[2]) is int and row[2] >= 1, field,
                f"expected [stone, value, count >= 1], got {row!r}")
        gem = _card(game, f"{row[0]} {row[1]}", field)
        require(not counts[game.gem_index[gem]], field, f"{gem} is listed twice")
        counts[game.gem_index[gem]] = row[2]
    return tuple(counts)


def _steals(game, rows: list, n: int) -> tuple[tuple[int, int, Gem], ...]:
    steals = []
    for i, row in enumerate(rows):
        field = f"steals[{i}]"
        require(isinstance(row, list) and len(row) == 3 and all(type(s) is int and 0 <= s < n for s in row[:2])
                and row[0] != row[1], field, f"expected [thief seat, victim seat, card], got {row!r}")
        steals.append((row[0], row[1], _card(game, row[2], field)))
    return tuple(steals)


def _check_conservation(game, rows, piles, removed, held, draw) -> None:
    seen = Counter(gem for cards in (*rows, *piles, removed) for gem in cards)
    if held is not None:
        seen[held] += 1
    for gem, in_deck, in_draw in zip(game.gems, game.deck_counts, draw):
        found = seen[gem] + in_draw
        require(found == in_deck, "cards",
                f"{found} x {gem} in rows, piles, removed, held and draw pile, but the deck has {in_deck}")


def _check_phase(game, state: HoldUpState) -> None:
    """The fields that must agree with the phase (the first disagreement is named)."""
    phase, dice = state.phase, state.dice
    dealing = phase == "deal"
    in_turn = phase in ("roll", "decide", "flip", "draw", "place")
    drawn_empty = state.draw_total() == 0
    require(dealing == (state.turn == 0), "turn", "0 exactly while the opening rows are dealt")
    if dealing:
        dealt = sum(len(cards) for cards in state.rows)
        expected = tuple(min(OPENING_PER_ROW, max(0, dealt - OPENING_PER_ROW * r)) for r in range(ROWS))
        require(dealt < ROWS * OPENING_PER_ROW and tuple(map(len, state.rows)) == expected, "rows",
                "the opening deal fills row 1, then 2, then 3, two cards each")
        require(not any(state.piles) and not state.removed and set(state.gv) == {"V" * GV_CARDS}, "piles",
                "no card is captured and no GV card flipped before the first turn")
        require(state.seat == 0, "seat", "the first player (0) starts")
    require((phase == "place") == (state.held is not None), "held", "a drawn card is held exactly while it is placed")
    require(state.to_place == 0 or phase in ("flip", "draw", "place"), "to_place",
            "5s and 6s are left to resolve only during the turn's flips, draws and placements")
    require(state.to_place > 0 or phase not in ("draw", "place"), "to_place",
            "cards are drawn and placed only for 5s and 6s left to resolve")
    require(state.rolls == 0 or in_turn, "rolls", "0 outside a turn")
    require(not dice or in_turn, "dice", "no dice outside a turn")
    require(not state.short_row or phase in ("draw", "place"), "short_row",
            "a failed capture is remembered only while its 5s and 6s are resolved")
    if phase == "roll":
        require(state.rolls < MAX_ROLLS, "rolls", f"at most {MAX_ROLLS} rolls a turn")
        require(len(dice) < DICE and (not dice or (state.rolls and game.options.keep_dice_between_rolls)), "dice",
                "only dice kept between rolls (option keep_dice_between_rolls) wait while the others are rolled")
    if phase in ("decide", "flip", "draw", "place"):
        require(len(dice) == DICE, "dice", f"all {DICE} dice are on the table in phase {phase!r}")
        require(1 <= state.rolls <= MAX_ROLLS, "rolls", f"1 to {MAX_ROLLS} rolls made in phase {phase!r}")
    if phase == "decide":
        require(state.rolls < MAX_ROLLS, "rolls", f"the roll number {MAX_ROLLS} is kept at once")
    if phase == "flip":
        require(len(flip_choices(dice.count(4))) > 1, "dice", "one or two 4s give a choice of GV cards to flip")
        require(state.to_place == sum(1 for d in dice if d >= 5), "to_place", "every 5 and 6 waits for the flips")
    if phase in ("draw", "place"):
        fives = sum(1 for d in dice if d >= 5)
        require(state.to_place <= fives, "to_place", f"at most the {fives} dice showing 5 or 6")
    if phase == "draw":
        require(not drawn_empty, "draw_pile", "a card is drawn only while the draw pile has cards")
    require(state.last_card_by is None or drawn_empty, "last_card_by",
            "the last card was placed but the draw pile still has cards")
    require(state.last_card_by is not None or not drawn_empty or phase == "place", "last_card_by",
            "the draw pile is empty, so someone placed its last card")
    if phase in ("steal", "over"):
        require(state.last_card_by is not None, "last_card_by", "the game ends only after the last card was placed")
    require(not state.steals or phase in ("steal", "over"), "steals", "cards are taken with G G G only at the end")
    for i, (thief, _, _) in enumerate(state.steals):
        require(state.gv[thief] == "G" * GV_CARDS, f"steals[{i}]", "only a player showing G G G takes a card")
    try:
        piles_before_steals(state.piles, state.steals)
    except ValueError:
        require(False, "steals", "a taken card is not in the pile of the player who took it")
    if phase == "steal":
        require(state.gv[state.seat] == "G" * GV_CARDS and len(state.victims(state.seat)) > 1, "seat",
                "the player choosing a card to take shows G G G and has several players to take from")
    if phase == "over":
        require(state.seat == 0, "seat", "0 once the game is over")
