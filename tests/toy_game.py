"""A tiny dice game (Pig to 10, two players, four turns each) that proves the engine core.

Each turn: roll a die (chance). A 1 loses the turn's points and passes the turn; otherwise the
player banks the turn's points or rolls again (at most three rolls a turn).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from engine.text import tr
from engine.core import (CHANCE, TERMINAL, Action, Game, ParseError, State, field_of, require,
                         sorted_actions)

GOAL, TURNS, MAX_ROLLS = 10, 4, 3


@dataclass(frozen=True)
class Roll(Action):
    face: int

    def __str__(self) -> str:
        return f"roll {self.face}"


@dataclass(frozen=True)
class Decide(Action):
    again: bool

    def __str__(self) -> str:
        return "again" if self.again else "bank"


@dataclass(frozen=True)
class ToyOptions:
    goal: int = GOAL


class ToyState(State):
    def __init__(self, game, scores=(0, 0), player=0, pending=0, rolls=0, turns=0, rolling=True):
        self.game, self.scores, self.player = game, tuple(scores), player
        self.pending, self.rolls, self.turns, self.rolling = pending, rolls, turns, rolling

    def _over(self) -> bool:
        return max(self.scores) >= self.game.options.goal or self.turns >= TURNS * 2

    def current_player(self) -> int:
        if self._over():
            return TERMINAL
        return CHANCE if self.rolling else self.player

    def legal_actions(self):
        player = self.current_player()
        if player == TERMINAL:
            return ()
        if player == CHANCE:
            return sorted_actions(Roll(f) for f in range(1, 7))
        return sorted_actions([Decide(False)] + ([Decide(True)] if self.rolls < MAX_ROLLS else []))

    def chance_outcomes(self):
        return tuple((a, Fraction(1, 6)) for a in self.legal_actions()) if self.is_chance_node() else ()

    def explain_illegal(self, action) -> str:
        if self.is_legal(action):
            return ""
        if self.is_terminal():
            return tr("the game is over")
        if isinstance(action, Roll):
            return "the player must decide first" if not self.rolling else "a die shows 1 to 6"
        if self.rolling:
            return "roll the die first"
        return "three rolls already: bank now"

    def _apply(self, action):
        if isinstance(action, Roll):
            if action.face == 1:
                return self._next_turn(self.scores)
            return ToyState(self.game, self.scores, self.player, self.pending + action.face,
                            self.rolls + 1, self.turns, rolling=False)
        if action.again:
            return ToyState(self.game, self.scores, self.player, self.pending, self.rolls, self.turns, True)
        scores = list(self.scores)
        scores[self.player] += self.pending
        return self._next_turn(tuple(scores))

    def _next_turn(self, scores):
        return ToyState(self.game, scores, 1 - self.player, 0, 0, self.turns + 1, True)

    def returns(self):
        return tuple(float(s) for s in self.scores)

    def to_dict(self):
        return {"scores": list(self.scores), "player": self.player, "pending": self.pending,
                "rolls": self.rolls, "turns": self.turns, "rolling": self.rolling}


class ToyGame(Game):
    id, title, min_players, max_players = "toy", "Toy Pig", 2, 2
    Options = ToyOptions
    max_game_length = TURNS * 2 * (2 * MAX_ROLLS + 1)

    def new_initial_state(self):
        return ToyState(self)

    def parse_action(self, text):
        words = text.split()
        if words == ["again"] or words == ["bank"]:
            return Decide(words == ["again"])
        if len(words) == 2 and words[0] == "roll" and words[1].isdigit():
            return Roll(int(words[1]))
        raise ParseError(f"toy: cannot read {text!r} (expected 'roll N', 'again' or 'bank')")

    def state_from_dict(self, data):
        scores = field_of(data, "scores", list)
        require(len(scores) == 2 and all(isinstance(s, int) and s >= 0 for s in scores),
                "scores", "two whole numbers >= 0")
        player = field_of(data, "player", int)
        require(player in (0, 1), "player", "0 or 1")
        return ToyState(self, scores, player, field_of(data, "pending", int), field_of(data, "rolls", int),
                        field_of(data, "turns", int), field_of(data, "rolling", bool))
