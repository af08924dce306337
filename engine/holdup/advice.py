"""Advice for the player to move, best first, with exact expected values.

Points are the player's own running total (cards, VVV, sets, the last-card malus) plus, while
their GV cards show G G G, the best top card they could take at the end.
- keep / re-roll: keeping is worth what the dice capture now (4s flipped greedily); re-rolling is
  worth the exact mean, over every outcome of the next roll (1,296 for four dice), of keeping it.
- flip / steal: the points after the choice.
- place: minus what the next player would capture on average with one roll from the rows left.
"""
from __future__ import annotations

from fractions import Fraction

from engine.core import Advice
from engine.holdup.actions import Keep, Place, Reroll, Roll
from engine.holdup.preview import join, keep_consequences, preview
from engine.holdup.rules import BONUS, DICE, GV_CARDS, plan_keep, roll_outcomes
from engine.text import tr


def advise(state) -> list[Advice]:
    """The legal actions of the player to move, best first (empty at chance nodes and the end)."""
    if state.current_player() < 0:
        return []
    if state.phase == "decide":
        advice = _dice_advice(state)
    elif state.phase == "place":
        advice = [_placement(state, action) for action in state.legal_actions()]
    else:  # flip, steal: compare the positions they lead to
        advice = [_choice(state, action) for action in state.legal_actions()]
    return sorted(advice, key=lambda a: (-a.value, a.action.sort_key()))


def points(state, seat: int) -> int:
    """The seat's running total, plus the best top card G G G could take at the end, minus the
    -10 it is sure to get when its pending 5s and 6s will place the draw pile's last card."""
    total = state.scores()[seat]["total"]
    if state.phase not in ("steal", "over") and state.gv[seat] == "G" * GV_CARDS:
        total += max((pile[-1].value for s, pile in enumerate(state.piles) if s != seat and pile), default=0)
    if (state.phase == "draw" and state.seat == seat and state.last_card_by is None
            and state.draw_total() <= state.to_place):
        total -= BONUS
    return total


def _choice(state, action) -> Advice:
    gain = points(state.apply(action), state.seat) - points(state, state.seat)
    return Advice(action, Fraction(gain), tr("{points} points for you: {what}", points=_signed(gain),
                                             what=preview(state, action)))


def _dice_advice(state) -> list[Advice]:
    seat = state.seat
    now = points(state, seat)
    kept_values: dict[tuple[int, ...], int] = {}

    def keep_value(dice: tuple[int, ...], rolled) -> int:
        """Points gained by keeping ``dice``; ``rolled()`` makes the state right after they were rolled."""
        if dice not in kept_values:
            after = rolled()
            after = after.apply(Keep()) if after.phase == "decide" else after  # roll 4 is kept at once
            if after.phase == "flip":
                after = max((after.apply(flip) for flip in after.legal_actions()), key=lambda s: points(s, seat))
            kept_values[dice] = points(after, seat) - now
        return kept_values[dice]

    advice = []
    for action in state.legal_actions():
        if isinstance(action, Keep):
            value = Fraction(keep_value(state.dice, lambda: state))
            text = tr("keeping is worth {points} points to you: {consequences}", points=_signed(value),
                      consequences=join(keep_consequences(state, state.dice)))
        else:
            rolling = state.apply(action)
            count = DICE - len(rolling.dice)
            value = sum(p * keep_value(tuple(sorted(rolling.dice + faces)), lambda f=faces: rolling.apply(Roll(f)))
                        for faces, p in roll_outcomes(count))
            text = _reroll_text(action, value, 6 ** count)
        advice.append(Advice(action, value, text))
    return advice


def _reroll_text(action: Reroll, value: Fraction, outcomes: int):
    if not action.faces:
        return tr("rolling all four dice again is worth {points} points to you on average over the {outcomes}"
                  " outcomes, keeping that roll", points=_signed(value), outcomes=f"{outcomes:,}")
    return tr("rolling {faces} again is worth {points} points to you on average over the {outcomes} outcomes,"
              " keeping that roll", faces=" ".join(map(str, action.faces)), points=_signed(value),
              outcomes=f"{outcomes:,}")


def _placement(state, action: Place) -> Advice:
    rows = state.apply(action).rows
    exposed = sum(p * sum(gem.value for gem in plan_keep(rows, dice).captured)
                  for dice, p in roll_outcomes(DICE))
    return Advice(action, -exposed, tr("{placed}: the next player would capture {points} points on average"
                                       " with one roll", placed=preview(state, action), points=_number(exposed)))


def _signed(value) -> str:
    return f"{int(value):+d}" if value == int(value) else f"{float(value):+.2f}"


def _number(value) -> str:
    return f"{int(value)}" if value == int(value) else f"{float(value):.2f}"
