"""Advice: every legal action of the player to move, ranked by the expected change of that
player's round score over the rest of their turn (one ply), from the card counting.

A player's expected round score is the total of their face-up cards plus, for each face-down
card, the mean of the cards nobody has seen. Placing, flipping and removing HILOs change it;
the player's own later choices in the turn (B1 or B2, which HILO, which slide) are taken at
their best. Values are exact Fractions: the expected fall of the score (higher is better).
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from engine.core import Advice
from engine.text import Text, tr
from engine.hilo import grid as g
from engine.hilo import phases as ph
from engine.hilo.actions import Draw, Flip, Keep, Place, Remove, Take
from engine.hilo.cards import HIDDEN, value_of
from engine.hilo.words import card_name, line_name, place, player


@lru_cache(maxsize=8192)
def _best(grid: g.Grid) -> tuple[int, tuple[g.Removal, ...]]:
    """Lowest face-up total reachable by removing HILOs, and the removals that reach it."""
    total, removals, _ = g.best_removals(grid)
    return total, removals


def _mean(total: int, count: int) -> Fraction:
    return Fraction(total, count) if count else Fraction(0)


class _Position:
    """The mover's grid and the unseen cards, with the expected-score arithmetic."""

    def __init__(self, grid: g.Grid, pool: tuple[int, ...]):
        self.grid = grid
        self.known = g.known_sum(grid)
        self.hidden = g.hidden_count(grid)
        self.pool = pool
        self.pool_total = sum(value_of(card) for card in pool)
        self.mean = _mean(self.pool_total, len(pool))
        self.score = self.known + self.hidden * self.mean
        self.hidden_cells = [(r, c) for r, c, cell in g.cells(grid) if cell == HIDDEN]
        self._flip_gains: dict[tuple[int, int], dict[int, int]] = {}

    def placed(self, card: int, row: int, col: int) -> tuple[int, tuple[g.Removal, ...], int]:
        """Face-up total after putting ``card`` at (row, col) and the best removals; hidden left."""
        total, removals = _best(g.with_cell(self.grid, row, col, card))
        return total, removals, self.hidden - (self.grid[row][col] == HIDDEN)

    def flip_gains(self, row: int, col: int) -> dict[int, int]:
        """For each unseen card that would complete a HILO at (row, col): the points removed."""
        if (row, col) not in self._flip_gains:
            gains = {}
            for card in self.pool:
                total, removals = _best(g.with_cell(self.grid, row, col, card))
                if removals:
                    gains[card] = self.known + value_of(card) - total
            self._flip_gains[(row, col)] = gains
        return self._flip_gains[(row, col)]

    def after_flip(self, row: int, col: int, exclude: int | None = None) -> tuple[Fraction, Fraction]:
        """(expected score, chance of a HILO) after turning up (row, col), the card ``exclude``
        (drawn from the dealt pile) being out of the unseen cards."""
        gains = self.flip_gains(row, col)
        count, total = len(self.pool), self.pool_total
        hilos, removed = len(gains), sum(gains.values())
        if exclude is not None:
            count, total = count - 1, total - value_of(exclude)
            hilos -= exclude in gains
            removed -= gains.get(exclude, 0)
        # E[score] = known + hidden * mean - E[points removed] (derivation in docs/notation.md)
        return self.known + self.hidden * _mean(total, count) - _mean(removed, count), _mean(hilos, count)


def advise(state) -> list[Advice]:
    """The legal actions of the player to move, best first, with values and reasons."""
    phase = state.phase
    if phase in ph.MOVER_PHASES:
        position = _Position(state.grids[state.player], state.unseen())
        advice = [_advise_action(state, position, action) for action in state.legal_actions()]
    elif phase == ph.SETUP:
        advice = [_no_change(state, action, tr("{player} turns up the card at {place}",
                                               player=player(action.seat), place=place(action.row, action.col)))
                  for action in state.legal_actions()]
    elif phase == ph.TIE:
        advice = [_no_change(state, action, tr("{player} is the youngest and starts", player=player(action.seat)))
                  for action in state.legal_actions()]
    else:
        return []
    return sorted(advice, key=lambda a: (-a.value, a.action.sort_key()))


def _no_change(state, action, move: Text) -> Advice:
    seat = action.seat
    position = _Position(state.grids[seat], state.unseen())
    return Advice(action, Fraction(0), tr("{move}: the expected round score of {player} stays at {score}",
                                          move=move, player=player(seat), score=_points(position.score)))


def _advise_action(state, position: _Position, action) -> Advice:
    palette = state.game.palette
    extra: Text | None = None
    if isinstance(action, (Take, Place)):
        card = state.discard[-1] if isinstance(action, Take) else state.drawn
        total, removals, hidden = position.placed(card, action.row, action.col)
        after = total + hidden * position.mean
        old = position.grid[action.row][action.col]
        old_words = (tr("the face-down card (worth {mean} on average)", mean=_points(position.mean))
                     if old == HIDDEN else tr("the {card}", card=card_name(palette, old)))
        fields = dict(card=card_name(palette, card), place=place(action.row, action.col), old=old_words)
        move = (tr("take the {card} from the discard and put it at {place} in place of {old}", **fields)
                if isinstance(action, Take) else tr("put the {card} at {place} in place of {old}", **fields))
        if removals:
            extra = tr("This completes a HILO: remove {line}.", line=line_name(removals[0].line))
        elif hidden == 0 < position.hidden and state.trigger is None:
            extra = _ENDS_ROUND
    elif isinstance(action, Flip):
        after, chance = position.after_flip(action.row, action.col)
        move = tr("discard the {card} and turn up the card at {place}",
                  card=card_name(palette, state.drawn), place=place(action.row, action.col))
        if chance:
            extra = tr("Chance of a HILO: {percent}%.", percent=_points(chance * 100))
        elif position.hidden == 1 and state.trigger is None:
            extra = _ENDS_ROUND
    elif isinstance(action, Draw):
        after = _after_draw(state, position)
        move = tr("draw from the pile (then use the card you get in the best way)")
    elif isinstance(action, Remove):
        opened, _ = g.remove_line(position.grid, action.line)
        total = min(_best(g.slide(opened, d))[0] for d in g.SLIDES) if action.line.is_diagonal else _best(opened)[0]
        after = total + position.hidden * position.mean
        move = tr("remove the HILO in {line}", line=line_name(action.line))
    elif isinstance(action, Keep):
        after = position.score
        move = tr("keep the HILO (do not remove it)")
    else:  # Slide
        after = _best(g.slide(position.grid, action.direction))[0] + position.hidden * position.mean
        move = (tr("slide the cards vertically (2 rows of 3)") if action.direction == g.VERTICAL
                else tr("slide the cards horizontally (3 rows of 2)"))
    text = _effect(move, position.score, after)
    return Advice(action, position.score - after, tr("{first} {second}", first=text, second=extra) if extra else text)


def _after_draw(state, position: _Position) -> Fraction:
    """Expected score after drawing: the mean, over the possible cards, of the best B1/B2."""
    cards, dealt = state.next_draw_cards(), bool(state.fresh)
    total = Fraction(0)
    for card in cards:
        # A card from the dealt pile leaves the unseen cards; a reshuffled one was never among them.
        mean = _mean(position.pool_total - value_of(card), len(position.pool) - 1) if dealt else position.mean
        best = min(known + hidden * mean for known, _, hidden in
                   (position.placed(card, r, c) for r, c, _ in g.cells(position.grid)))
        for r, c in position.hidden_cells:
            best = min(best, position.after_flip(r, c, exclude=card if dealt else None)[0])
        total += best
    return total / len(cards)


_ENDS_ROUND = tr("This ends the round: your score is doubled unless it is strictly the lowest.")


def _effect(move: Text, before: Fraction, after: Fraction) -> Text:
    change = after - before
    if change < 0:
        return tr("{move}: your expected round score goes down by {amount}, to {after}",
                  move=move, amount=_points(-change), after=_points(after))
    if change > 0:
        return tr("{move}: your expected round score goes up by {amount}, to {after}",
                  move=move, amount=_points(change), after=_points(after))
    return tr("{move}: your expected round score stays at {after}", move=move, after=_points(after))


def _points(value: Fraction) -> str:
    return f"{float(value):.1f}"
