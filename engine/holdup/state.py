"""A Hold Up 4D6 position and the rules that move it on.

Phases: "deal" (chance: the six opening cards), then for each turn "roll" (chance: the dice),
"decide" (keep or roll again), "flip" (choose the GV cards for one or two 4s), "draw" (chance:
the card a 5 or 6 brings) and "place" (choose its row); at the end "steal" (G G G takes a card)
and "over". Choices with a single possibility (the fourth roll is kept, three 4s flip all three
GV cards, a thief with one possible victim) are made at once.
"""
from __future__ import annotations

import bisect
import itertools
import random
from fractions import Fraction
from functools import lru_cache
from typing import Any, Sequence

from engine.core import CHANCE, TERMINAL, Action, Outcome, State, rank_winners, sorted_actions
from engine.holdup import views
from engine.holdup.actions import ACTION_TYPES, Draw, Flip, Keep, Place, Reroll, Roll, Steal
from engine.holdup.board import HoldUpBoard, build_board
from engine.holdup.deck import Gem
from engine.holdup.rules import (DICE, GV_CARDS, MAX_ROLLS, OPENING_PER_ROW, ROWS, add_to_pile,
                                 flip_choices, flip_gv, plan_keep, roll_outcomes, sub_rolls)
from engine.holdup.scoring import breakdown, piles_before_steals
from engine.text import tr

PHASES = ("deal", "roll", "decide", "flip", "draw", "place", "steal", "over")
_CHANCE_PHASES = ("deal", "roll", "draw")
_NOT_COMPUTED = {"_legal": None, "_legal_frozen": None, "_not_now_text": None}
_PHASES_OF = {Draw: ("deal", "draw"), Roll: ("roll",), Keep: ("decide",), Reroll: ("decide",),
              Flip: ("flip",), Place: ("place",), Steal: ("steal",)}


@lru_cache(maxsize=None)
def _roll_actions(count: int) -> tuple[Roll, ...]:
    """The Roll outcomes of ``count`` dice, in the order of ``roll_outcomes(count)``, which is
    also their sorted order."""
    return tuple(Roll(faces) for faces, _ in roll_outcomes(count))


@lru_cache(maxsize=None)
def _roll_set(count: int) -> frozenset:
    return frozenset(_roll_actions(count))


@lru_cache(maxsize=None)
def _roll_cumulative(count: int) -> tuple[int, ...]:
    """Running totals of the ordered outcomes behind ``roll_outcomes(count)`` (out of 6**count)."""
    return tuple(itertools.accumulate(int(p * 6 ** count) for _, p in roll_outcomes(count)))


class HoldUpState(State):
    """Immutable; ``draw`` holds the count left of each of ``game.gems`` (the pile's order is
    unknown, so each draw is a chance outcome weighted by those counts)."""

    def __init__(self, game, *, phase: str, seat: int, turn: int, rows, draw, piles, gv, removed,
                 dice=(), rolls: int = 0, short_row: int = 0, to_place: int = 0,
                 held: Gem | None = None, last_card_by: int | None = None, steals=(), taken=None):
        self.game = game
        self.phase, self.seat, self.turn = phase, seat, turn
        self.rows: tuple[tuple[Gem, ...], ...] = rows
        self.draw: tuple[int, ...] = draw
        self.piles: tuple[tuple[Gem, ...], ...] = piles   # bottom card first
        self.gv: tuple[str, ...] = gv                      # e.g. "VGV", GV card 1 first
        self.removed: tuple[Gem, ...] = removed            # lost to four 4s, out of the game
        self.dice: tuple[int, ...] = dice                  # rolled this turn (kept ones while rolling)
        self.rolls = rolls
        self.short_row = short_row                         # the row that made this turn's capture fail
        self.to_place = to_place                           # 5s and 6s still to resolve
        self.held = held                                   # the drawn card waiting for its row
        self.last_card_by = last_card_by
        self.steals: tuple[tuple[int, int, Gem], ...] = steals  # (taker, victim, card) at the end
        # (seat, the cards taken from each row) by the last keep that captured, until the next roll:
        # the cards may lie in their rows until the player picks them up (a fourth roll keeps by itself)
        self.taken: tuple[int, tuple[tuple[Gem, ...], ...]] | None = taken
        # computed on first use (the state never changes)
        self._legal: tuple[Action, ...] | None = None
        self._legal_frozen: frozenset | None = None
        self._not_now_text: str | None = None

    @classmethod
    def initial(cls, game) -> "HoldUpState":
        n = game.num_players
        return cls(game, phase="deal", seat=0, turn=0, rows=((),) * ROWS,
                   draw=tuple(game.deck_counts), piles=((),) * n, gv=("V" * GV_CARDS,) * n, removed=())

    def _replace(self, **changes: Any) -> "HoldUpState":
        new = object.__new__(HoldUpState)
        new.__dict__ = {**self.__dict__, **changes, **_NOT_COMPUTED}
        return new

    # --- the protocol --------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        return CHANCE if self.phase in _CHANCE_PHASES else self.seat

    def legal_actions(self) -> tuple[Action, ...]:
        if self._legal is None:
            if self.phase == "roll":  # the most frequent list, built sorted once
                self._legal = _roll_actions(DICE - len(self.dice))
            else:
                self._legal = sorted_actions(self._list_actions())
        return self._legal

    def _list_actions(self):
        if self.phase in ("deal", "draw"):
            return (Draw(*gem) for gem, count in zip(self.game.gems, self.draw) if count)
        if self.phase == "decide":
            rerolls = sub_rolls(self.dice) if self.game.options.keep_dice_between_rolls else ()
            return (Keep(), Reroll(), *(Reroll(faces) for faces in rerolls))
        if self.phase == "flip":
            return (Flip(cards) for cards in flip_choices(self.dice.count(4)))
        if self.phase == "place":
            return (Place(row) for row in range(1, ROWS + 1))
        if self.phase == "steal":
            return (Steal(victim) for victim in self.victims(self.seat))
        return ()

    def is_legal(self, action: Action) -> bool:
        try:
            return action in self._legal_set()
        except TypeError:  # an unhashable, hand-made action is never legal
            return False

    def _legal_set(self) -> frozenset:
        legal = self._legal_frozen
        if legal is None:
            if self.phase == "roll":
                legal = _roll_set(DICE - len(self.dice))
            else:
                legal = frozenset(self.legal_actions())
            self._legal_frozen = legal
        return legal

    def chance_outcomes(self) -> tuple[tuple[Action, Fraction], ...]:
        if self.phase in ("deal", "draw"):
            total = self.draw_total()
            return tuple((Draw(*gem), Fraction(count, total))
                         for gem, count in zip(self.game.gems, self.draw) if count)
        if self.phase == "roll":
            count = DICE - len(self.dice)
            return tuple((action, p) for action, (_, p) in zip(_roll_actions(count), roll_outcomes(count)))
        return ()

    def sample_chance(self, rng: random.Random) -> Action:
        """The same pick as ``State.sample_chance`` (the first outcome whose cumulative
        probability exceeds ``rng.random()``, compared exactly), on integer weights instead of
        Fractions: simulations draw thousands of outcomes."""
        if self.phase == "roll":
            count = DICE - len(self.dice)
            actions, cumulative = _roll_actions(count), _roll_cumulative(count)
        else:
            held = [(Draw(*gem), count) for gem, count in zip(self.game.gems, self.draw) if count]
            actions, cumulative = [a for a, _ in held], list(itertools.accumulate(c for _, c in held))
        numerator, denominator = rng.random().as_integer_ratio()
        index = bisect.bisect_right(cumulative, numerator * cumulative[-1] // denominator)
        return actions[min(index, len(actions) - 1)]

    def returns(self) -> tuple[float, ...]:
        return tuple(float(score["total"]) for score in self.scores())

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        scores = self.returns()
        return Outcome(tr("the draw pile is used up and the round is complete"), rank_winners(scores), scores)

    # --- derived facts -------------------------------------------------------------------------

    def draw_total(self) -> int:
        return sum(self.draw)

    def victims(self, thief: int) -> tuple[int, ...]:
        """The players a G G G thief may take a card from: the others with a card in their pile."""
        return tuple(seat for seat, pile in enumerate(self.piles) if seat != thief and pile)

    def scores(self) -> list[dict]:
        """Each player's score breakdown (running totals before the end, then the final ones)."""
        options = self.game.options
        set_piles = (self.piles if options.steal_before_set_bonus or not self.steals
                     else piles_before_steals(self.piles, self.steals))
        return [breakdown(pile, self.gv[seat], self.last_card_by == seat, options.set_bonus_per_type,
                          set_piles[seat])
                for seat, pile in enumerate(self.piles)]

    # --- moving on -----------------------------------------------------------------------------

    def _apply(self, action: Action) -> "HoldUpState":
        if isinstance(action, Draw):
            return self._drawn(Gem(action.stone, action.value))
        if isinstance(action, Roll):
            dice = tuple(sorted(self.dice + action.faces))
            rolled = self._replace(phase="decide", dice=dice, rolls=self.rolls + 1, taken=None)
            return rolled._keep() if rolled.rolls == MAX_ROLLS else rolled
        if isinstance(action, Keep):
            return self._keep()
        if isinstance(action, Reroll):
            kept = list(self.dice)
            for face in action.faces:
                kept.remove(face)
            return self._replace(phase="roll", dice=tuple(kept) if action.faces else ())
        if isinstance(action, Flip):
            return self._flipped(action.cards)._fives()
        if isinstance(action, Place):
            return self._placed(action.row)
        if isinstance(action, Steal):
            return self._stolen(self.seat, action.victim)._next_thief(self.seat + 1)
        raise TypeError(f"not a Hold Up action: {action!r}")

    def _take_from_draw(self, gem: Gem) -> tuple[int, ...]:
        draw = list(self.draw)
        draw[self.game.gem_index[gem]] -= 1
        return tuple(draw)

    def _drawn(self, gem: Gem) -> "HoldUpState":
        draw = self._take_from_draw(gem)
        if self.phase == "draw":
            return self._replace(phase="place", draw=draw, held=gem)
        row = next(r for r, cards in enumerate(self.rows) if len(cards) < OPENING_PER_ROW)
        rows = self._with_card(row, gem)
        if all(len(cards) == OPENING_PER_ROW for cards in rows):
            return self._replace(phase="roll", draw=draw, rows=rows, turn=1)
        return self._replace(draw=draw, rows=rows)

    def _with_card(self, row_index: int, gem: Gem) -> tuple[tuple[Gem, ...], ...]:
        return tuple(cards + (gem,) if r == row_index else cards for r, cards in enumerate(self.rows))

    def _keep(self) -> "HoldUpState":
        plan = plan_keep(self.rows, self.dice)
        piles = self._with_pile(self.seat, add_to_pile(self.piles[self.seat], plan.captured,
                                                        self.game.options.pile_sorted))
        taken = None if not plan.captured else (
            self.seat, tuple(cards[len(left):] for cards, left in zip(self.rows, plan.rows)))
        state = self._replace(rows=plan.rows, piles=piles, short_row=plan.short_row, to_place=plan.fives, taken=taken)
        if plan.fours_resolved and plan.fours < DICE:
            choices = flip_choices(plan.fours)
            if len(choices) > 1:
                return state._replace(phase="flip")
            return state._flipped(choices[0])._fives()
        if plan.fours == DICE:
            return state._lose_top()._fives()
        return state._fives()

    def _with_pile(self, seat: int, pile: tuple[Gem, ...]) -> tuple[tuple[Gem, ...], ...]:
        return tuple(pile if s == seat else p for s, p in enumerate(self.piles))

    def _flipped(self, cards: tuple[int, ...]) -> "HoldUpState":
        gv = tuple(flip_gv(faces, cards) if s == self.seat else faces for s, faces in enumerate(self.gv))
        return self._replace(gv=gv)

    def _lose_top(self) -> "HoldUpState":
        pile = self.piles[self.seat]
        if not pile:
            return self
        lost = pile[-1]
        state = self._replace(piles=self._with_pile(self.seat, pile[:-1]))
        if self.game.options.lost_card == "draw_pile" and self.draw_total():
            draw = list(self.draw)
            draw[self.game.gem_index[lost]] += 1
            return state._replace(draw=tuple(draw))
        return state._replace(removed=self.removed + (lost,))

    def _fives(self) -> "HoldUpState":
        """Resolve the next 5 or 6, or end the turn when none is left or the pile is used up."""
        if self.to_place and self.draw_total():
            return self._replace(phase="draw")
        return self._end_turn()

    def _placed(self, row: int) -> "HoldUpState":
        last = self.seat if not self.draw_total() else self.last_card_by
        return self._replace(rows=self._with_card(row - 1, self.held), held=None,
                             to_place=self.to_place - 1, last_card_by=last)._fives()

    def _end_turn(self) -> "HoldUpState":
        following = (self.seat + 1) % self.game.num_players
        ended = self._replace(dice=(), rolls=0, short_row=0, to_place=0)
        if self.last_card_by is not None and (following == 0 or not self.game.options.complete_round):
            return ended._next_thief(0)
        return ended._replace(phase="roll", seat=following, turn=self.turn + 1)

    def _next_thief(self, first: int) -> "HoldUpState":
        """End of game: G G G players take a card in turn order, from ``first`` on."""
        state = self
        for thief in range(first, self.game.num_players):
            if state.gv[thief] != "G" * GV_CARDS:
                continue
            victims = state.victims(thief)
            if len(victims) > 1:
                return state._replace(phase="steal", seat=thief)
            if victims:
                state = state._stolen(thief, victims[0])
        return state._replace(phase="over", seat=0)

    def _stolen(self, thief: int, victim: int) -> "HoldUpState":
        card = self.piles[victim][-1]
        piles = list(self.piles)
        piles[victim] = piles[victim][:-1]
        piles[thief] = add_to_pile(piles[thief], (card,), self.game.options.pile_sorted)
        return self._replace(piles=tuple(piles), steals=self.steals + ((thief, victim, card),))

    # --- refereeing ----------------------------------------------------------------------------

    def explain_illegal(self, action: Action) -> str:
        if self.is_legal(action):
            return ""
        if self.phase == "over":
            return tr("the game is over")
        if not isinstance(action, ACTION_TYPES):
            return tr("that is not a Hold Up 4D6 action")
        reason = self._wrong_time(action) if not self._fits_phase(action) else self._wrong_choice(action)
        return reason or tr("that action is not allowed now")

    def _fits_phase(self, action: Action) -> bool:
        return self.phase in _PHASES_OF[type(action)]

    def _wrong_time(self, action: Action) -> str:
        if isinstance(action, Steal):
            return tr("cards are taken with G G G only at the end of the game")
        if isinstance(action, Flip) and self.short_row:
            return tr("the 4s are not resolved this turn: row {row} had fewer cards than dice showing {row}",
                      row=self.short_row)
        if isinstance(action, (Keep, Reroll)) and self.phase in ("flip", "draw", "place"):
            return tr("the dice are already kept this turn; {now}", now=self._now())
        return self._not_now()

    def _not_now(self) -> str:
        # Cached: the same state is asked about many actions of other phases.
        if self._not_now_text is None:
            self._not_now_text = tr("not now: {now}", now=self._now())
        return self._not_now_text

    def _now(self) -> str:
        player = self.seat + 1
        if self.phase == "deal":
            return tr("the opening rows are being dealt, the next card is drawn")
        if self.phase == "roll":
            return tr("player {player} rolls {count} dice", player=player, count=DICE - len(self.dice))
        if self.phase == "decide":
            return tr("player {player} keeps the dice or rolls again", player=player)
        if self.phase == "flip":
            return tr("player {player} chooses the GV cards to flip", player=player)
        if self.phase == "draw":
            return tr("a card is drawn from the draw pile")
        if self.phase == "place":
            return tr("player {player} places {card} at the end of a row", player=player, card=str(self.held))
        return tr("player {player} chooses whose top card to take", player=player)

    def _wrong_choice(self, action: Action) -> str:
        if isinstance(action, Draw):
            gem = Gem(action.stone, action.value)
            if gem not in self.game.gem_index:
                return tr("{card} is not a card of this deck", card=str(gem))
            return tr("no {card} is left in the draw pile", card=str(gem))
        if isinstance(action, Roll):
            bad = [face for face in action.faces if face not in range(1, 7)]
            if bad:
                return tr("a die shows 1 to 6, not {face}", face=bad[0])
            return tr("{count} dice are rolled now, not {given}", count=DICE - len(self.dice),
                      given=len(action.faces))
        if isinstance(action, Reroll):
            return self._wrong_reroll(action.faces)
        if isinstance(action, Flip):
            return self._wrong_flip(action.cards)
        if isinstance(action, Place):
            return tr("rows are numbered 1 (bottom) to 3 (top)")
        if isinstance(action, Steal):
            if action.victim == self.seat:
                return tr("you cannot take a card from your own pile")
            if not 0 <= action.victim < self.game.num_players:
                return tr("there is no player {player}", player=action.victim + 1)
            return tr("player {player} has no card to take", player=action.victim + 1)
        return ""

    def _wrong_reroll(self, faces: tuple[int, ...]) -> str:
        if not self.game.options.keep_dice_between_rolls:
            return tr("all four dice are rolled again: dice are not kept between rolls")
        if len(faces) >= DICE:
            return tr("to roll all four dice again, reroll without naming dice")
        return tr("no dice show {faces} to roll again", faces=" ".join(map(str, faces)))

    def _wrong_flip(self, cards: tuple[int, ...]) -> str:
        fours = self.dice.count(4)
        if any(card not in range(1, GV_CARDS + 1) for card in cards):
            return tr("GV cards are numbered 1 to 3")
        if len(set(cards)) != len(cards):
            return tr("flip different GV cards, each one at most once")
        if fours == 1:
            return tr("one 4 was rolled: flip exactly one GV card")
        return tr("{count} 4s were rolled: flip exactly {count} different GV cards", count=fours)

    # --- reports -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        name = self.game.gem_names
        return {
            "phase": self.phase, "seat": self.seat, "turn": self.turn, "rolls": self.rolls,
            "dice": list(self.dice),
            "rows": [[name[gem] for gem in cards] for cards in self.rows],
            "draw_pile": [[gem.stone, gem.value, count] for gem, count in zip(self.game.gems, self.draw) if count],
            "piles": [[name[gem] for gem in pile] for pile in self.piles],
            "gv": list(self.gv),
            "removed": [name[gem] for gem in self.removed],
            "short_row": self.short_row, "to_place": self.to_place,
            "held": None if self.held is None else name[self.held],
            "last_card_by": self.last_card_by,
            "steals": [[thief, victim, name[gem]] for thief, victim, gem in self.steals],
        }

    def table_view(self) -> dict[str, Any]:
        return views.table_view(self)

    def summary(self) -> dict[str, Any]:
        return views.summary(self)

    def describe(self, names: Sequence[str]) -> str:
        return views.describe(self, names)

    def board(self) -> HoldUpBoard:
        return build_board(self)
