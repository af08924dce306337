"""Exact risk figures and advice for the player deciding to keep the roll or roll again.

``risk(state)`` states facts, as exact fractions: the chance the next roll busts, the chance it
beats the value showing, the pawn movement it brings on average, and for each legal rung the
movement it is worth and what it dislodges now. Whether the dice survive until the player's next
turn depends on the opponents' choices and is not computed.

``advise(state)`` ranks the legal actions with a small, stated model in pawn spaces:
- place on rung k: k x (1 - t)^(opponents) + (rungs of the dislodged combinations) / opponents,
  where t is the chance that one opponent's roll ties or beats the combination (as if each
  opponent rolled once and then placed below it), and the second term is the advance the field
  loses on average;
- roll again: the exact expectation over the 36 rolls of that roll's pawn movement (an X moves
  back and ends the turn, a double moves forward, reaching the exit is worth the whole track)
  plus the best placement of the new roll under the same model.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from engine.core import Advice, RulesError
from engine.excape import ladder
from engine.excape.actions import Again, Place
from engine.excape.dice import ALL_ROLLS, ROLL_PROBABILITY, Roll
from engine.excape.state import DECIDE, ExcapeState
from engine.excape.words import chance_text, seat_label
from engine.text import listing, tr


@dataclass(frozen=True)
class Dislodged:
    seat: int
    rung: int
    value: int


@dataclass(frozen=True)
class PlacementRisk:
    rung: int
    movement: int  # spaces the pawn moves at the player's next turn if the dice are still there
    dislodges: tuple[Dislodged, ...]  # opponent combinations returned now
    tied_or_beaten: Fraction  # chance that one roll of one opponent ties or beats this combination


@dataclass(frozen=True)
class Risk:
    seat: int
    roll_number: int
    value: int  # the combination showing
    bust: Fraction  # the next roll shows at least one X: the turn ends, back one space per X
    double_x: Fraction  # the next roll is X-X: back two spaces
    improve: Fraction  # the next roll shows no X and a higher value
    again_movement: Fraction  # pawn movement of one more roll on average (doubles, X; START floor)
    placements: tuple[PlacementRisk, ...]  # each legal rung, lowest first

    def to_dict(self) -> dict:
        """JSON-ready, each chance as its exact fraction and its percentage."""
        return {
            "seat": self.seat, "roll_number": self.roll_number, "value": self.value,
            "bust": _chance(self.bust), "double_x": _chance(self.double_x), "improve": _chance(self.improve),
            "again_movement": str(self.again_movement),
            "placements": [{"rung": p.rung, "movement": p.movement,
                            "dislodges": [{"seat": d.seat, "rung": d.rung, "value": d.value} for d in p.dislodges],
                            "tied_or_beaten": _chance(p.tied_or_beaten)} for p in self.placements],
        }


def _chance(chance: Fraction) -> dict:
    return {"fraction": f"{chance.numerator}/{chance.denominator}", "percent": round(float(chance) * 100, 1)}


def risk(state: ExcapeState) -> Risk:
    """The figures for the player deciding now; RulesError if no one is deciding."""
    if state.phase != DECIDE:
        raise RulesError(tr("the risk figures are for a player who has rolled and is deciding"))
    roll = state.roll
    return Risk(
        seat=state.seat,
        roll_number=state.rolls,
        value=roll.value,
        bust=ROLL_PROBABILITY * sum(r.x_count > 0 for r in ALL_ROLLS),
        double_x=ROLL_PROBABILITY * sum(r.is_double_x for r in ALL_ROLLS),
        improve=ROLL_PROBABILITY * sum(not r.x_count and r.value > roll.value for r in ALL_ROLLS),
        again_movement=ROLL_PROBABILITY * sum(_roll_movement(state, r) for r in ALL_ROLLS),
        placements=tuple(_placement(state, action.rung, roll)
                         for action in state.legal_actions() if isinstance(action, Place)),
    )


def advise(state: ExcapeState) -> list[Advice]:
    """The legal actions of the player deciding, best first (empty when no one is deciding)."""
    if state.phase != DECIDE:
        return []
    figures = risk(state)
    opponents = state.game.num_players - 1
    advice = [Advice(Again(), _again_value(state, opponents), tr(
        "roll again: {bust} chance of an X (turn over, back one space per X), {improve} chance of beating {value}; pawn movement from doubles and X: {movement} on average",
        bust=chance_text(figures.bust), improve=chance_text(figures.improve), value=figures.value,
        movement=_spaces_text(figures.again_movement)))]
    for option in figures.placements:
        advice.append(Advice(Place(option.rung), _place_value(state, option.rung, state.roll, opponents),
                             _place_text(option, figures.value)))
    advice.sort(key=lambda a: (-a.value, a.action.sort_key()))
    return advice


def _roll_movement(state: ExcapeState, roll: Roll) -> int:
    """Pawn movement of ``roll`` as the next roll of this turn (never behind START or past the exit)."""
    pawn = state.pawns[state.seat]
    if roll.x_count:
        return -min(roll.x_count, pawn)
    return min(roll.double_move, state.track_length - pawn)


def _placement(state: ExcapeState, rung: int, roll: Roll) -> PlacementRisk:
    options = state.game.options
    seats = ladder.dislodged_by(state.placed, state.seat, rung, roll, options)
    dislodges = tuple(Dislodged(s, state.placed[s].rung, state.placed[s].roll.value) for s in seats)
    return PlacementRisk(rung, rung, dislodges, _tied_or_beaten(roll, options))


@lru_cache(maxsize=None)
def _tied_or_beaten(roll: Roll, options) -> Fraction:
    return ROLL_PROBABILITY * sum(_threatens(other, roll, options) for other in ALL_ROLLS)


def _threatens(other: Roll, mine: Roll, options) -> bool:
    """Would ``other``, placed below ``mine``, dislodge it?"""
    if ladder.is_guarded(other, options):
        return True
    return not ladder.is_guarded(mine, options) and other.value >= mine.value


@lru_cache(maxsize=None)
def _kept_share(roll: Roll, options, opponents: int) -> Fraction:
    """(1 - t)^opponents: no opponent's single roll ties or beats ``roll``."""
    return (1 - _tied_or_beaten(roll, options)) ** opponents


def _place_value(state: ExcapeState, rung: int, roll: Roll, opponents: int) -> Fraction:
    options = state.game.options
    returned = ladder.dislodged_by(state.placed, state.seat, rung, roll, options)
    lost = sum(state.placed[s].rung for s in returned)
    return rung * _kept_share(roll, options, opponents) + Fraction(lost, opponents)


def _again_value(state: ExcapeState, opponents: int) -> Fraction:
    options, pawn = state.game.options, state.pawns[state.seat]
    total = Fraction(0)
    for roll in ALL_ROLLS:
        movement = _roll_movement(state, roll)
        if roll.x_count:
            total += movement
        elif pawn + movement >= state.track_length:
            total += state.track_length
        else:
            total += movement + max(_place_value(state, rung, roll, opponents) for rung in ladder.RUNGS
                                    if ladder.can_place(state.placed, rung, roll, options))
    return total * ROLL_PROBABILITY


def _place_text(option: PlacementRisk, value: int):
    if option.rung == 0:
        text = tr("rung 0: no move at your next turn")
    else:
        text = tr("rung {rung}: moves you {rung} at your next turn if your {value} is still there; one opponent roll ties or beats it with chance {chance}",
                  rung=option.rung, value=value, chance=chance_text(option.tied_or_beaten))
    if not option.dislodges:
        return text
    returned = [tr("{owner}'s {value} on rung {rung}", owner=seat_label(d.seat), value=d.value, rung=d.rung)
                for d in option.dislodges]
    return tr("{placement}; dislodges {returned}", placement=text, returned=listing(returned))


def _spaces_text(spaces: Fraction) -> str:
    """A signed exact number of spaces and its decimal: "-1/6 (-0.17)"."""
    return f"{spaces} ({float(spaces):+.2f})"
