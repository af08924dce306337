"""The Hilo rules as an immutable state machine (phases in engine.hilo.phases).

Hidden information is kept as at the table: a face-down card is HIDDEN until a chance outcome
turns it up, and every chance outcome is drawn from the cards nobody has seen yet.
"""
from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Callable, Sequence

from engine.core import (CHANCE, SIMULTANEOUS, TERMINAL, Action, IllegalActionError, Outcome, State, rank_winners,
                         sorted_actions)
from engine.text import tr
from engine.hilo import grid as g
from engine.hilo import explain, report, serialize
from engine.hilo import phases as ph
from engine.hilo.actions import Draw, Flip, Keep, Place, Remove, Reveal, Seen, Slide, Take, Youngest
from engine.hilo.board import HiloBoard, build_board
from engine.hilo.cards import DECK, DECK_SIZE, HIDDEN, MAX_VALUE, MIN_VALUE, card_id
from engine.hilo.scoring import END_TOTAL, game_over, round_scores

SETUP_REVEALS = 2  # each player turns up two grid cards before the first turn


class HiloState(State):
    def __init__(self, game, *, round_no: int, totals: Sequence[int], rounds: Sequence = (),
                 phase: str, player: int = 0, grids: Sequence[g.Grid], discard: Sequence[int] = (),
                 fresh: int, recycled: Sequence[int] = (), drawn: int | None = None,
                 pending: tuple[int, int, int] | None = None, trigger: int | None = None,
                 last_turns: int | None = None, declined: Sequence[int], final: bool = False):
        self.game = game
        self.round_no = round_no
        self.totals = tuple(totals)
        self.rounds = tuple(rounds)          # ((scores, trigger), ...) of the finished rounds
        self.phase = phase
        self.player = player                 # the seat on turn (or deciding a HILO)
        self.grids = tuple(grids)
        self.discard = tuple(discard)        # bottom to top
        self.fresh = fresh                   # draw-pile cards never seen (from the deal)
        self.recycled = tuple(sorted(recycled))  # draw-pile cards reshuffled from the discard
        self.drawn = drawn                   # the card in the player's hand after B
        self.pending = pending               # (seat, row, col) being turned up at a reveal
        self.trigger = trigger               # who ended the round
        self.last_turns = last_turns         # turns still to play after the trigger
        self.declined = tuple(declined)      # HILOs each player chose to keep (flagged)
        self.final = final                   # the HILO decisions of the final reveal
        self._cache: dict[str, Any] = {}

    @classmethod
    def new_round(cls, game, round_no: int = 1, totals=None, rounds=(), declined=None) -> "HiloState":
        """104 cards shuffled, nine dealt face down to each player; the discard still to start."""
        n = game.num_players
        return cls(game, round_no=round_no, totals=totals or (0,) * n, rounds=rounds, phase=ph.START,
                   grids=(g.full_grid(),) * n, fresh=DECK_SIZE - g.GRID_CARDS * n,
                   declined=declined or (0,) * n)

    def memo(self, key: str, compute: Callable[[], Any]) -> Any:
        """``compute()``, worked out once for this state (which never changes) and kept under ``key``."""
        cache = self._cache
        if key not in cache:
            cache[key] = compute()
        return cache[key]

    def _replace(self, **changes) -> "HiloState":
        new = object.__new__(HiloState)
        new.__dict__ = {**self.__dict__, **changes, "_cache": {}}
        return new

    # --- what is known ---------------------------------------------------------------------------

    def unseen(self) -> tuple[int, ...]:
        """Cards nobody has seen: the face-down grid cards, the dealt draw pile, and a face-down
        card swapped out and not yet turned up."""
        if "unseen" not in self._cache:
            known = set(self.discard)
            known.update(self.recycled)
            known.update(cell for grid in self.grids for row in grid for cell in row if cell >= 0)
            if self.drawn is not None:
                known.add(self.drawn)
            self._cache["unseen"] = tuple(card for card in DECK if card not in known)
        return self._cache["unseen"]

    def draw_pile_size(self) -> int:
        return self.fresh + len(self.recycled)

    def next_draw_cards(self) -> tuple[int, ...]:
        """The equally likely cards the next draw can show: any unseen card while the pile is the
        dealt one, else one of the reshuffled discards (those an empty pile would be made of)."""
        if self.fresh:
            return self.unseen()
        if self.recycled:
            return self.recycled
        return tuple(sorted(self.discard[:-1])) if self.game.options.reshuffle_discards else ()

    def can_draw(self) -> bool:
        # When the pile is empty the discard holds at least 50 cards (at most 6 x 9 are in the
        # grids), so a reshuffle always makes a new pile.
        return self.draw_pile_size() > 0 or self.game.options.reshuffle_discards

    def tied_for_first(self) -> tuple[int, ...]:
        sums = [g.known_sum(grid) for grid in self.grids]
        return tuple(seat for seat, total in enumerate(sums) if total == max(sums))

    def setup_done(self, seat: int) -> bool:
        return g.face_up_count(self.grids[seat]) >= SETUP_REVEALS

    def card_for(self, action: Action) -> int | None:
        """The card id a Seen action names, None when the deck has no such card."""
        index = self.game.palette.colour_index(action.colour) if isinstance(action.colour, str) else None
        if index is None or isinstance(action.value, bool) or not isinstance(action.value, int) \
                or not MIN_VALUE <= action.value <= MAX_VALUE:
            return None
        return card_id(index, action.value)

    # --- the State protocol ----------------------------------------------------------------------

    def current_player(self) -> int:
        if self.phase in ph.CHANCE_PHASES:
            return CHANCE
        if self.phase in (ph.SETUP, ph.TIE):
            return SIMULTANEOUS
        if self.phase == ph.OVER:
            return TERMINAL
        return self.player

    def acting_player(self, action: Action) -> int:
        if self.phase in (ph.SETUP, ph.TIE) and isinstance(action, (Reveal, Youngest)):
            return action.seat
        return self.current_player()

    def legal_actions(self) -> tuple[Action, ...]:
        return self.memo("legal", self._legal)

    def is_legal(self, action: Action) -> bool:
        return not self.explain_illegal(action)

    def _legal(self) -> tuple[Action, ...]:
        phase = self.phase
        if phase in ph.CHANCE_PHASES:
            return tuple(action for action, _ in self.chance_outcomes())
        grid = self.grids[self.player]
        if phase == ph.SETUP:
            return sorted_actions(Reveal(seat, r, c) for seat in range(len(self.grids)) if not self.setup_done(seat)
                                  for r, c, cell in g.cells(self.grids[seat]) if cell == HIDDEN)
        if phase == ph.TIE:
            return sorted_actions(Youngest(seat) for seat in self.tied_for_first())
        if phase == ph.TURN:
            return sorted_actions([Take(r, c) for r, c, _ in g.cells(grid)] + ([Draw()] if self.can_draw() else []))
        if phase == ph.DRAWN:
            return sorted_actions([Place(r, c) for r, c, _ in g.cells(grid)]
                                  + [Flip(r, c) for r, c, cell in g.cells(grid) if cell == HIDDEN])
        if phase == ph.HILO:
            keep = [Keep()] if self.game.options.optional_removal else []
            return sorted_actions([Remove(line.kind, line.index) for line in g.hilo_lines(grid)] + keep)
        if phase == ph.SLIDE:
            return sorted_actions(Slide(direction) for direction in g.SLIDES)
        return ()

    def chance_outcomes(self) -> tuple[tuple[Action, Fraction], ...]:
        if self.phase not in ph.CHANCE_PHASES:
            return ()
        if "outcomes" not in self._cache:
            cards = set(self.next_draw_cards() if self.phase == ph.DRAW else self.unseen())
            probability = Fraction(1, len(cards))
            self._cache["outcomes"] = tuple((action, probability) for card, action in self.game.seen_actions
                                            if card in cards)
        return self._cache["outcomes"]

    def sample_chance(self, rng: random.Random) -> Action:
        outcomes = self.chance_outcomes()  # all equally likely: one draw of an index is exact
        return outcomes[rng.randrange(len(outcomes))][0]

    def apply(self, action: Action) -> "HiloState":
        reason = self.explain_illegal(action)  # "" exactly when legal: one look-up instead of three
        if reason:
            raise IllegalActionError(action, reason)
        return self._apply(action)

    def explain_illegal(self, action: Action) -> str:
        # The referee is asked about the same actions again and again: every answer is kept, and
        # the legal actions are seeded as "" so a legal one costs a single look-up.
        reasons = self._cache.get("reasons")
        if reasons is None:
            reasons = self._cache["reasons"] = dict.fromkeys(self.legal_actions(), "")
        reason = reasons.get(action)
        if reason is None:
            reason = reasons[action] = explain.explain_illegal(self, action)
        return reason

    def returns(self) -> tuple[float, ...]:
        return tuple(float(total) for total in self.totals)

    def outcome(self) -> Outcome | None:
        if self.phase != ph.OVER:
            return None
        return Outcome(tr("a running total reached {limit}", limit=END_TOTAL),
                       rank_winners(self.totals, lowest_wins=True), self.returns())

    def to_dict(self) -> dict[str, Any]:
        return serialize.copy_dict(self.memo("dict", lambda: serialize.state_to_dict(self)))

    def table_view(self) -> dict[str, Any]:
        return report.table_view(self)

    def table_after(self, action: Action) -> dict[str, Any]:
        """The rules score a round and deal the next the moment its last card is turned up or its
        last turn played; the table still shows the round's cards as the action left them."""
        after = self.apply(action)
        if after.round_no == self.round_no and after.phase != ph.OVER:
            return after.table_view()
        if self.phase == ph.FINAL_REVEAL:
            seat, row, col = self.pending
            grid = g.with_cell(self.grids[seat], row, col, self.card_for(action))
            return self._with_grid(seat, grid, pending=None).table_view()
        # the last turn, played as if another were to follow
        return self._replace(trigger=None, last_turns=None, final=False)._apply(action).table_view()

    def summary(self) -> dict[str, Any]:
        return report.summary(self)

    def describe(self, names: Sequence[str]) -> str:
        return report.describe(self, names)

    def board(self) -> HiloBoard:
        return build_board(self)

    # --- the rules -------------------------------------------------------------------------------

    def _apply(self, action: Action) -> "HiloState":
        if isinstance(action, Seen):
            return self._card_seen(self.card_for(action))
        if isinstance(action, Reveal):
            return self._replace(phase=ph.SETUP_REVEAL, pending=(action.seat, action.row, action.col))
        if isinstance(action, Youngest):
            return self._replace(phase=ph.TURN, player=action.seat)
        if isinstance(action, Take):
            return self._swap_in(self.discard[-1], action.row, action.col, discard=self.discard[:-1])
        if isinstance(action, Draw):
            if self.draw_pile_size():
                return self._replace(phase=ph.DRAW)
            # the discards but the top one are shuffled into a new draw pile (kept sorted: only
            # what it holds is known, not its order)
            return self._replace(phase=ph.DRAW, recycled=tuple(sorted(self.discard[:-1])), discard=self.discard[-1:])
        if isinstance(action, Place):
            return self._swap_in(self.drawn, action.row, action.col, discard=self.discard, drawn=None)
        if isinstance(action, Flip):
            return self._replace(phase=ph.FLIP_REVEAL, discard=self.discard + (self.drawn,), drawn=None,
                                 pending=(self.player, action.row, action.col))
        if isinstance(action, Remove):
            grid, removed = g.remove_line(self.grids[self.player], action.line)
            after = self._with_grid(self.player, grid, discard=self.discard + removed)
            return after._replace(phase=ph.SLIDE) if action.line.is_diagonal else after._after_change()
        if isinstance(action, Keep):
            declined = list(self.declined)
            declined[self.player] += 1
            return self._replace(declined=tuple(declined))._hilo_done()
        if isinstance(action, Slide):
            return self._with_grid(self.player, g.slide(self.grids[self.player], action.direction))._after_change()
        raise TypeError(f"not a Hilo action: {action!r}")

    def _with_grid(self, seat: int, grid: g.Grid, **changes) -> "HiloState":
        return self._replace(grids=self.grids[:seat] + (grid,) + self.grids[seat + 1:], **changes)

    def _swap_in(self, card: int, row: int, col: int, **changes) -> "HiloState":
        """A and B1: the card goes face up into the grid; the one it replaces goes onto the discard
        (a face-down one is turned up on its way: a chance outcome)."""
        grid = self.grids[self.player]
        replaced = grid[row][col]
        after = self._with_grid(self.player, g.with_cell(grid, row, col, card), **changes)
        if replaced == HIDDEN:
            return after._replace(phase=ph.SWAP_REVEAL, pending=(self.player, row, col))
        return after._replace(discard=after.discard + (replaced,))._after_change()

    def _card_seen(self, card: int) -> "HiloState":
        phase = self.phase
        if phase == ph.START:
            return self._replace(phase=ph.SETUP, discard=(card,), fresh=self.fresh - 1)
        if phase == ph.DRAW:
            if self.fresh:
                return self._replace(phase=ph.DRAWN, drawn=card, fresh=self.fresh - 1)
            return self._replace(phase=ph.DRAWN, drawn=card, recycled=tuple(c for c in self.recycled if c != card))
        if phase == ph.SWAP_REVEAL:
            return self._replace(discard=self.discard + (card,), pending=None)._after_change()
        seat, row, col = self.pending
        after = self._with_grid(seat, g.with_cell(self.grids[seat], row, col, card), pending=None)
        if phase == ph.FLIP_REVEAL:
            return after._after_change()
        if phase == ph.SETUP_REVEAL:
            return after._after_setup_reveal()
        return after._next_final_reveal()

    def _after_setup_reveal(self) -> "HiloState":
        """When everyone has revealed two cards: the highest sum starts; a tie asks the table."""
        if not all(self.setup_done(seat) for seat in range(len(self.grids))):
            return self._replace(phase=ph.SETUP)
        tied = self.tied_for_first()
        if len(tied) == 1 or self.game.options.first_player_tie == "first_seat":
            return self._replace(phase=ph.TURN, player=tied[0])
        return self._replace(phase=ph.TIE)

    def _after_change(self) -> "HiloState":
        """After a placement, flip or removal: offer any HILO, otherwise the turn is over."""
        if g.hilo_lines(self.grids[self.player]):
            return self._replace(phase=ph.HILO)
        return self._hilo_done()

    def _hilo_done(self) -> "HiloState":
        if self.final:
            return self._next_final_hilo(self.player + 1)
        return self._end_turn()

    def _end_turn(self) -> "HiloState":
        """A player ending a turn with no face-down card (or no card) ends the round; everyone
        else then plays exactly one more turn."""
        trigger, last_turns = self.trigger, self.last_turns
        if trigger is None and g.hidden_count(self.grids[self.player]) == 0:
            trigger, last_turns = self.player, len(self.grids) - 1
        elif trigger is not None:
            last_turns -= 1
        after = self._replace(trigger=trigger, last_turns=last_turns)
        if last_turns == 0:
            return after._next_final_reveal()
        return after._replace(phase=ph.TURN, player=(self.player + 1) % len(self.grids))

    def _next_final_reveal(self) -> "HiloState":
        for seat, grid in enumerate(self.grids):
            for r, c, cell in g.cells(grid):
                if cell == HIDDEN:
                    return self._replace(phase=ph.FINAL_REVEAL, pending=(seat, r, c))
        if not self.game.options.auto_remove_at_reveal:
            return self._replace(final=True)._next_final_hilo(0)
        state = self
        for seat, grid in enumerate(self.grids):
            _, removals, final_grid = g.best_removals(grid)
            removed = tuple(card for removal in removals for card in removal.cards)
            state = state._with_grid(seat, final_grid, discard=state.discard + removed)
        return state._score_round()

    def _next_final_hilo(self, first_seat: int) -> "HiloState":
        for seat in range(first_seat, len(self.grids)):
            if g.hilo_lines(self.grids[seat]):
                return self._replace(phase=ph.HILO, player=seat)
        return self._score_round()

    def _score_round(self) -> "HiloState":
        sums = [g.known_sum(grid) for grid in self.grids]
        scores = round_scores(sums, self.trigger)
        totals = tuple(total + score for total, score in zip(self.totals, scores))
        rounds = self.rounds + ((scores, self.trigger),)
        if game_over(totals):
            return self._replace(phase=ph.OVER, totals=totals, rounds=rounds, pending=None, trigger=None,
                                 last_turns=None, final=False)
        return HiloState.new_round(self.game, self.round_no + 1, totals, rounds, self.declined)
