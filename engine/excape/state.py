"""An Excape position: pawns on the track, dice on the ladder, and where the turn stands.

Phases: ``rolloff`` (everyone rolls to choose who starts; the tied highest roll again), ``roll``
(the player to move is about to roll, ``rolls`` made so far this turn), ``decide`` (the roll is
showing: roll again or place it), ``over`` (a pawn reached the exit). The advance at the start of
a turn has no decision in it, so it is applied as the previous turn ends.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

from engine.core import CHANCE, TERMINAL, Outcome, State
from engine.excape import ladder
from engine.excape.actions import Again, Place
from engine.excape.dice import ALL_ROLLS, ROLL_PROBABILITY, Roll
from engine.excape.words import seat_label
from engine.text import Text, listing, tr

ROLLOFF, ROLL, DECIDE, OVER = "rolloff", "roll", "decide", "over"
PHASES = (ROLLOFF, ROLL, DECIDE, OVER)
_CHANCE_OUTCOMES = tuple((roll, ROLL_PROBABILITY) for roll in ALL_ROLLS)
_FIXED_LEGAL = {ROLLOFF: (ALL_ROLLS, frozenset(ALL_ROLLS)), ROLL: (ALL_ROLLS, frozenset(ALL_ROLLS)),
                OVER: ((), frozenset())}


@dataclass(frozen=True)
class RollOff:
    """A round of the roll to choose the first player: who rolls, and their rolls so far."""

    group: tuple[int, ...]
    rolls: tuple[Roll, ...]


@dataclass(frozen=True)
class Bust:
    """How the previous turn ended when an X showed after the first roll."""

    seat: int
    roll: Roll
    roll_number: int


class ExcapeState(State):
    """Immutable; ``placed[seat]`` is where that colour's dice are on the ladder (None: in hand)."""

    def __init__(self, game, *, phase: str, seat: int, pawns: Sequence[int],
                 placed: Sequence[ladder.Placement | None], rolls: int = 0, roll: Roll | None = None,
                 rolloff: RollOff | None = None, bust: Bust | None = None):
        self.game = game
        self.phase = phase
        self.seat = seat  # whose turn it is; in the roll-off, who rolls next; once over, the winner
        self.pawns = tuple(pawns)  # 0 = START, track_length = the exit
        self.placed = tuple(placed)
        self.rolls = rolls  # rolls made this turn
        self.roll = roll  # the roll showing (decide, or the double that won)
        self.rolloff = rolloff
        self.bust = bust
        # (legal actions, the same as a set): fixed at chance nodes and once over, made on demand
        # when a player decides.
        self._legal: tuple[tuple, frozenset] | None = _FIXED_LEGAL.get(phase)
        self._reasons: dict = {}

    def _with(self, **changes: Any) -> "ExcapeState":
        fields = dict(phase=self.phase, seat=self.seat, pawns=self.pawns, placed=self.placed,
                      rolls=self.rolls, roll=self.roll, rolloff=self.rolloff, bust=self.bust)
        fields.update(changes)
        return ExcapeState(self.game, **fields)

    @property
    def track_length(self) -> int:
        return self.game.options.track_length

    @property
    def winner(self) -> int | None:
        return self.seat if self.phase == OVER else None

    # --- the rules --------------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        return self.seat if self.phase == DECIDE else CHANCE

    def legal_actions(self) -> tuple:
        return (self._legal or self._decision_legal())[0]

    def is_legal(self, action) -> bool:
        return action in (self._legal or self._decision_legal())[1]  # a set: asked for every reading

    def _decision_legal(self) -> tuple[tuple, frozenset]:
        # Built in sort order (Again, then Place by rung), which the invariant suite checks.
        options = self.game.options
        actions = (Again(), *(Place(r) for r in ladder.RUNGS if ladder.can_place(self.placed, r, self.roll, options)))
        self._legal = (actions, frozenset(actions))
        return self._legal

    def chance_outcomes(self) -> tuple[tuple[Roll, Fraction], ...]:
        return _CHANCE_OUTCOMES if self.phase in (ROLLOFF, ROLL) else ()

    def sample_chance(self, rng: random.Random) -> Roll:
        """The same pick as ``State.sample_chance`` (all 36 rolls are equally likely), in exact
        integer arithmetic instead of Fractions: the index is floor(point x 36)."""
        point = int(rng.random() * 2**53)  # random() is a whole multiple of 2**-53
        return ALL_ROLLS[point * len(ALL_ROLLS) >> 53]

    def _apply(self, action) -> "ExcapeState":
        if self.phase == ROLLOFF:
            return self._after_rolloff_roll(action)
        if self.phase == ROLL:
            return self._after_roll(action)
        if isinstance(action, Again):
            return self._with(phase=ROLL, roll=None)
        placed = ladder.place(self.placed, self.seat, action.rung, self.roll, self.game.options)
        return self._next_turn(self.pawns, placed, bust=None)

    def _after_rolloff_roll(self, roll: Roll) -> "ExcapeState":
        group, rolls = self.rolloff.group, self.rolloff.rolls + (roll,)
        if len(rolls) < len(group):
            return self._with(seat=group[len(rolls)], rolloff=RollOff(group, rolls))
        best = max(r.value for r in rolls)
        tied = tuple(seat for seat, r in zip(group, rolls) if r.value == best)
        if len(tied) > 1:
            return self._with(seat=tied[0], rolloff=RollOff(tied, ()))
        return self._with(phase=ROLL, seat=tied[0], rolloff=None)

    def _after_roll(self, roll: Roll) -> "ExcapeState":
        number = self.rolls + 1
        pawns = list(self.pawns)
        if number >= 2 and roll.x_count:  # the exemption covers the first roll only
            pawns[self.seat] = max(0, pawns[self.seat] - roll.x_count)
            return self._next_turn(pawns, self.placed, Bust(self.seat, roll, number))
        pawns[self.seat] = min(self.track_length, pawns[self.seat] + roll.double_move)
        phase = OVER if pawns[self.seat] == self.track_length else DECIDE
        return self._with(phase=phase, pawns=pawns, rolls=number, roll=roll, bust=None)

    def _next_turn(self, pawns, placed, bust: Bust | None) -> "ExcapeState":
        """Pass the turn clockwise; the next player takes their dice back from the ladder and
        advances by the rung number (0 for rung 0), winning if that reaches the exit."""
        seat = (self.seat + 1) % self.game.num_players
        pawns, placed = list(pawns), list(placed)
        if placed[seat] is not None:
            pawns[seat] = min(self.track_length, pawns[seat] + placed[seat].rung)
            placed[seat] = None
        if pawns[seat] == self.track_length:
            return ExcapeState(self.game, phase=OVER, seat=seat, pawns=pawns, placed=placed)
        return ExcapeState(self.game, phase=ROLL, seat=seat, pawns=pawns, placed=placed, bust=bust)

    def explain_illegal(self, action) -> str:
        if self.is_legal(action):
            return ""
        if action not in self._reasons:  # a refused action is usually explained twice: asked, then applied
            self._reasons[action] = self._reason(action)
        return self._reasons[action]

    def _reason(self, action) -> str:
        if not isinstance(action, (Roll, Again, Place)):
            return tr("that is not an Excape action")
        if self.phase == OVER:
            return tr("the game is over: {winner} reached the exit", winner=seat_label(self.seat))
        player = seat_label(self.seat)
        if isinstance(action, Roll):
            return action.problem() or tr(
                "{player} has rolled {value} and must first choose: roll again or place it on the ladder",
                player=player, value=self.roll.value)
        if self.phase == ROLLOFF:
            return tr("the players are still rolling to choose who starts: {player} rolls next", player=player)
        if self.phase == ROLL:
            if isinstance(action, Place) and self.bust is not None:
                return tr("{player} rolled {faces} on roll {number}: a combination with X can only be kept from the first roll, so that turn ended and the pawn moved back one space per X",
                          player=seat_label(self.bust.seat), faces=listing(self.bust.roll.faces()),
                          number=self.bust.roll_number)
            return tr("{player} must roll the dice first", player=player)
        return ladder.placement_problem(self.placed, action.rung, self.roll, self.game.options)

    def returns(self) -> tuple[float, ...]:
        """Pawn positions (START = 0); the winner's pawn is at the exit."""
        return tuple(float(p) for p in self.pawns)

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        return Outcome("reached the exit", (self.seat,), self.returns())

    def board(self):
        from engine.excape.board import build_board  # the board module reads this one's phases
        return build_board(self)

    # --- reports ----------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "seat": self.seat,
            "pawns": list(self.pawns),
            "ladder": [None if p is None else {"rung": p.rung, "dice": [p.roll.a, p.roll.b]} for p in self.placed],
            "rolls": self.rolls,
            "roll": None if self.roll is None else self.roll.faces(),
            "rolloff": self._rolloff_dict(),
            "bust": self._bust_dict(),
        }

    def _rolloff_dict(self) -> dict[str, list] | None:
        if self.rolloff is None:
            return None
        return {"group": list(self.rolloff.group), "rolls": [r.faces() for r in self.rolloff.rolls]}

    def _bust_dict(self) -> dict[str, Any] | None:
        if self.bust is None:
            return None
        return {"seat": self.bust.seat, "dice": self.bust.roll.faces(), "roll_number": self.bust.roll_number}

    def _on_ladder(self) -> list[tuple[int, ladder.Placement]]:
        return [(seat, p) for seat, p in enumerate(self.placed) if p is not None]

    def _showing(self) -> list[tuple[int, Roll]]:
        """Dice lying rolled on the table: the roll-off round so far, or the roll being decided."""
        if self.rolloff is not None:
            return list(zip(self.rolloff.group, self.rolloff.rolls))
        return [] if self.roll is None else [(self.seat, self.roll)]

    def table_view(self) -> dict[str, Any]:
        """Pawn positions (0 = START, track_length = exit), each rung's dice with their owner,
        the seats whose dice are off the ladder, and the dice showing a roll."""
        return {
            "track_length": self.track_length,
            "pawns": list(self.pawns),
            "ladder": ladder.rung_view(self.placed),
            "in_hand": [seat for seat, p in enumerate(self.placed) if p is None],
            "showing": [{"owner": seat, "dice": roll.faces()} for seat, roll in self._showing()],
        }

    def table_after(self, action) -> dict[str, Any]:
        """A roll that ends a turn or the roll-off at once (an X on a re-roll, the last roll of a
        round of the roll-off) still lies where it fell, beside the dice that lay there when it was
        thrown: those and it, showing, with the pawns as the rules moved them."""
        after = self.apply(action)
        if not self.is_chance_node() or (after.seat, after.roll) == (self.seat, action) or (
                after.rolloff is not None and after.rolloff.rolls[-1:] == (action,)):
            return after.table_view()
        view = self.table_view()
        view["showing"].append({"owner": self.seat, "dice": action.faces()})
        return view | {"pawns": list(after.pawns)}

    def summary(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "turn": None if self.phase == OVER else self.seat,
            "rolls": self.rolls,
            "roll": None if self.roll is None else self.roll.faces(),
            "value": None if self.roll is None else self.roll.value,
            "track_length": self.track_length,
            "pawns": list(self.pawns),
            "ladder": ladder.rung_view(self.placed),
            "winner": self.winner,
            "rolloff": self._rolloff_dict(),
            "last_bust": self._bust_dict(),
        }

    def describe(self, names: Sequence[str]) -> str:
        lines = [self._status_line(names)]
        if self.bust is not None:
            lines.append(tr("{player} rolled {faces} on roll {number}: turn over, back one space per X",
                            player=names[self.bust.seat], faces=listing(self.bust.roll.faces()),
                            number=self.bust.roll_number))
        spots = [tr("{player} at START", player=names[s]) if p == 0 else tr("{player} on {space}", player=names[s], space=p)
                 for s, p in enumerate(self.pawns)]
        lines.append(tr("Pawns (the exit is {exit}): {pawns}", exit=self.track_length, pawns=listing(spots)))
        rungs = [tr("rung {rung}: {player}'s {value}", rung=p.rung, player=names[s], value=p.roll.value)
                 for s, p in sorted(self._on_ladder(), key=lambda sp: -sp[1].rung)]
        lines.append(tr("Ladder: {rungs}", rungs=listing(rungs)) if rungs else tr("Ladder: empty"))
        return "\n".join(lines)

    def _status_line(self, names: Sequence[str]) -> Text:
        player = names[self.seat]
        if self.phase == OVER:
            return tr("{player} reached the exit and wins", player=player)
        if self.phase == ROLLOFF:
            rolled = [tr("{player} rolled {value}", player=names[s], value=r.value) for s, r in self._showing()]
            if rolled:
                return tr("Choosing who starts ({rolled}): {player} rolls", rolled=listing(rolled), player=player)
            if len(self.rolloff.group) < len(self.pawns):
                return tr("Tie for the highest roll: {players} roll again, {player} first",
                          players=listing([names[s] for s in self.rolloff.group]), player=player)
            return tr("Choosing who starts: {player} rolls", player=player)
        if self.phase == ROLL:
            if self.rolls == 0:
                return tr("{player}'s turn: first roll (an X counts 0)", player=player)
            return tr("{player}'s turn: roll {number} (an X ends the turn)", player=player, number=self.rolls + 1)
        if self.roll.double_move:
            return tr("{player} rolled {faces} (value {value}) on roll {number}, and the double moved the pawn {spaces} at once: roll again or place it",
                      player=player, faces=listing(self.roll.faces()), value=self.roll.value, number=self.rolls,
                      spaces=self.roll.double_move)
        return tr("{player} rolled {faces} (value {value}) on roll {number}: roll again or place it",
                  player=player, faces=listing(self.roll.faces()), value=self.roll.value, number=self.rolls)
