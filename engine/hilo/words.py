"""How the engine names places, lines, players and the step the table is at, for players."""
from __future__ import annotations

from engine.text import Text, listing, tr
from engine.hilo import phases as ph
from engine.hilo.cards import colour_of, value_of
from engine.hilo.grid import Line


def place(row: int, col: int) -> Text:
    return tr("row {row}, column {column}", row=row + 1, column=col + 1)


def colour_name(colour: str) -> Text:
    """A palette colour as a word the screens translate (palettes are configured in English)."""
    return Text(colour, {})


def card_name(palette, card: int) -> Text:
    """"yellow 6", its colour translatable; the camera's vocabulary stays ``palette.name``."""
    return tr("{colour} {value}", colour=colour_name(palette.names[colour_of(card)]), value=value_of(card))


def line_name(line: Line) -> Text:
    if line.kind == "row":
        return tr("row {row}", row=line.index + 1)
    if line.kind == "col":
        return tr("column {column}", column=line.index + 1)
    if line.kind == "diag":
        return tr("the diagonal from the top left")
    return tr("the diagonal from the top right")


def player(seat: int, names=None) -> Text | str:
    """The player's name when known, otherwise "player 2" (seats count from 1 for people)."""
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return tr("player {number}", number=seat + 1)


def players(seats, names=None) -> Text | str:
    """"player 1, player 2 and player 3", kept as Text so each player can later be named."""
    return listing([player(seat, names) for seat in seats])


def awaited(state, names=None) -> Text:
    """What the table should do next, in a sentence."""
    if names is None:  # the referee asks this for every refused action: once per state is enough
        return state.memo("awaited", lambda: _awaited(state, None))
    return _awaited(state, names)


def _awaited(state, names) -> Text:
    phase, who = state.phase, player(state.player, names)
    if phase == ph.START:
        return tr("turn up the top card of the draw pile to start the discard")
    if phase == ph.SETUP:
        return tr("every player first turns up two cards of their grid")
    if phase == ph.TIE:
        return tr("the table says who is the youngest of {players}", players=players(state.tied_for_first(), names))
    if phase == ph.TURN:
        return tr("{player} takes the discard or draws from the pile", player=who)
    if phase == ph.DRAW:
        return tr("say which card {player} drew", player=who)
    if phase == ph.DRAWN:
        return tr("{player} places the {card} or discards it and flips a face-down card",
                  player=who, card=card_name(state.game.palette, state.drawn))
    if phase in ph.REVEALS:
        seat, row, col = state.pending
        return tr("say which card {player} turned up at {place}", player=player(seat, names), place=place(row, col))
    if phase == ph.HILO:
        if state.game.options.optional_removal:
            return tr("{player} removes a HILO line or keeps it", player=who)
        return tr("{player} removes a HILO line", player=who)
    if phase == ph.SLIDE:
        return tr("{player} slides the cards together to close the gap the diagonal left", player=who)
    return tr("the game is over")
