"""Why an action is not allowed now, in words a player understands (the referee's answer)."""
from __future__ import annotations

from engine.core import Action
from engine.text import Text, tr
from engine.hilo import grid as g
from engine.hilo import phases as ph
from engine.hilo.actions import Draw, Flip, Keep, Place, Remove, Reveal, Seen, Slide, Take, Youngest
from engine.hilo.cards import MAX_VALUE, MIN_VALUE
from engine.hilo.words import awaited, card_name, line_name, place, player, players

_TURN_ACTIONS = (Take, Draw, Place, Flip)


def explain_illegal(state, action: Action) -> Text:
    """The reason ``action`` is illegal in ``state`` (call only for an illegal action)."""
    if state.phase == ph.OVER:
        return tr("the game is over")
    if isinstance(action, Seen):
        return _seen(state, action)
    if state.phase in ph.CHANCE_PHASES:
        return tr("first {what}", what=awaited(state))
    if isinstance(action, Reveal):
        return _reveal(state, action)
    if isinstance(action, Youngest):
        if state.phase != ph.TIE:
            return tr("nobody needs to be named youngest now: {what}", what=awaited(state))
        return tr("{player} is not tied for the highest sum: choose among {players}",
                  player=player(action.seat), players=players(state.tied_for_first()))
    if isinstance(action, _TURN_ACTIONS):
        return _turn_action(state, action)
    if isinstance(action, Remove):
        return _remove(state, action)
    if isinstance(action, Keep):
        if state.phase != ph.HILO:
            return tr("there is no HILO to keep now: {what}", what=awaited(state))
        return tr("removing a HILO is compulsory at this table: choose which line to remove")
    if isinstance(action, Slide):
        if state.phase != ph.SLIDE:
            return tr("a slide is chosen only after removing a diagonal: {what}", what=awaited(state))
        return tr("slide the cards vertical or horizontal, not {direction}", direction=action.direction)
    return tr("that is not a Hilo action")


def _seen(state, action: Seen) -> Text:
    palette = state.game.palette
    if state.phase not in ph.CHANCE_PHASES:  # the same answer for every card: made once per state
        return state.memo("no card", lambda: tr("no card is being turned up now: {what}", what=awaited(state)))
    card = state.card_for(action)
    if card is None:
        if palette.colour_index(str(action.colour)) is None:
            return tr("this deck has no colour {colour} (its colours: {colours})",
                      colour=action.colour, colours=palette.listing())
        return tr("there is no {colour} {value}: values run from {low} to {high}",
                  colour=action.colour, value=action.value, low=MIN_VALUE, high=MAX_VALUE)
    name = card_name(palette, card)
    if card in state.discard:
        return tr("the {card} is already on the discard pile", card=name)
    if card == state.drawn:
        return tr("the {card} is the card {player} drew", card=name, player=player(state.player))
    for seat, grid in enumerate(state.grids):
        if any(cell == card for row in grid for cell in row):
            return tr("the {card} is already face up in the grid of {player}", card=name, player=player(seat))
    if card in state.recycled:
        return tr("the {card} was shuffled into the draw pile, so it cannot be in a grid", card=name)
    return tr("the draw pile was made from the discards and the {card} was not among them", card=name)


def _reveal(state, action: Reveal) -> Text:
    if state.phase != ph.SETUP:
        return tr("cards are turned up to choose the first player only at the start of a round; now {what}",
                  what=awaited(state))
    if not _is_index(action.seat, len(state.grids)):
        return tr("there is no {player} at this table", player=player(action.seat))
    if state.setup_done(action.seat):
        return tr("{player} has already turned up two cards", player=player(action.seat))
    return _not_face_down(state.grids[action.seat], action.row, action.col)


def _turn_action(state, action: Action) -> Text:
    phase = state.phase
    if phase in (ph.SETUP, ph.TIE):
        return tr("the round has not started: {what}", what=awaited(state))
    if phase == ph.HILO:
        if state.game.options.optional_removal:
            return tr("first decide about the HILO: remove a line or keep it")
        return tr("first decide about the HILO: remove one of the lines (removal is compulsory here)")
    if phase == ph.SLIDE:
        return tr("first slide the cards together to close the gap the diagonal left")
    drawn = card_name(state.game.palette, state.drawn) if phase == ph.DRAWN else ""
    if isinstance(action, Take) and phase == ph.DRAWN:
        return tr("you drew from the pile, so you must place that card or discard it and flip a "
                  "face-down card; you cannot take the discard now")
    if isinstance(action, Draw):
        if phase == ph.DRAWN:
            return tr("you have already drawn the {card}: place it or discard it and flip a face-down card",
                      card=drawn)
        return tr("the draw pile is empty and the discards are not reshuffled at this table: take the discard")
    if isinstance(action, (Place, Flip)) and phase == ph.TURN:
        return tr("draw a card first: you can place or discard only a card you drew (to use the "
                  "discard, take it)")
    grid = state.grids[state.player]
    if isinstance(action, Flip):
        if g.hidden_count(grid) == 0:
            return tr("you have no face-down card left to flip, so you must place the {card}", card=drawn)
        return _not_face_down(grid, action.row, action.col)
    return _not_in_grid(grid, action.row, action.col)


def _remove(state, action: Remove) -> Text:
    if state.phase != ph.HILO:
        return tr("there is no HILO to remove now: {what}", what=awaited(state))
    grid = state.grids[state.player]
    line = action.line
    if not isinstance(action.index, int) or g.line_cells(grid, line) is None:
        rows, cols = g.shape(grid)
        return tr("a grid of {rows} by {cols} has no such line; the HILO lines are: {lines}",
                  rows=rows, cols=cols, lines=", ".join(line_name(l) for l in g.hilo_lines(grid)))
    return tr("{line} is not a HILO: its three cards must be face up and of one colour", line=line_name(line))


def _is_index(value, size: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < size


def _not_in_grid(grid: g.Grid, row, col) -> Text:
    """For a place outside the grid (every place inside it is open to Take and Place)."""
    rows, cols = g.shape(grid)
    if not rows:
        return tr("the grid is empty")
    return tr("there is no card at row {row}, column {column}: the grid has {rows} rows and {cols} columns",
              row=_shown(row), column=_shown(col), rows=rows, cols=cols)


def _not_face_down(grid: g.Grid, row, col) -> Text:
    """For a place that is not a face-down card of the grid."""
    rows, cols = g.shape(grid)
    if _is_index(row, rows) and _is_index(col, cols):
        return tr("the card at {place} is already face up: choose a face-down card", place=place(row, col))
    return _not_in_grid(grid, row, col)


def _shown(index) -> object:
    return index + 1 if isinstance(index, int) else index
