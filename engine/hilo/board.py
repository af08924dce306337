"""What the Hilo screen shows of a position: every grid with its marked cards, the discard, the
card in hand, the pile, the round and the scores so far (``HiloState.board()``)."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from engine.text import Text
from engine.hilo import grid as g
from engine.hilo import phases as ph
from engine.hilo.cards import GAP, HIDDEN, MAX_VALUE, MIN_VALUE, Palette, colour_of, value_of
from engine.hilo.counting import count_cards
from engine.hilo.scoring import END_TOTAL
from engine.hilo.words import awaited


@dataclass(frozen=True)
class BoardCard:
    """A card: ``face`` "up" (with its colour's name and value), "down", or "gap" (the hole a
    diagonal left); ``mark`` "hilo" in a HILO line to decide on, "pending" being turned up."""

    face: str
    colour: str = ""
    value: int = 0
    mark: str = ""


@dataclass(frozen=True)
class BoardGrid:
    cells: tuple[tuple[BoardCard, ...], ...]  # rows of cards; () once every card is gone
    total: int                                # the running total of the finished rounds
    known: int                                # the face-up cards' sum
    expected: Fraction                        # the expected sum, face-down cards counted
    revealing: bool                           # one of its cards is being turned up
    hilos: tuple[tuple[g.Line, tuple[g.Cell, ...]], ...]  # the HILO lines its player decides on now

    @property
    def shape(self) -> tuple[int, int]:
        return g.shape(self.cells)


@dataclass(frozen=True)
class HiloBoard:
    SETUP: ClassVar[str] = ph.SETUP
    TIE: ClassVar[str] = ph.TIE
    TURN: ClassVar[str] = ph.TURN
    DRAWN: ClassVar[str] = ph.DRAWN
    HILO: ClassVar[str] = ph.HILO
    VALUES: ClassVar[tuple[int, ...]] = tuple(range(MIN_VALUE, MAX_VALUE + 1))
    END_TOTAL: ClassVar[int] = END_TOTAL

    phase: str                   # one of engine.hilo.phases
    mover: int | None            # the seat deciding now (turn, drawn card, HILO, slide)
    grids: tuple[BoardGrid, ...]
    discard: BoardCard | None    # its top card
    drawn: BoardCard | None      # the card in the player's hand
    pile: int                    # cards in the draw pile
    round_no: int
    rounds: tuple[tuple[tuple[int, ...], int], ...]  # (scores, who ended it) of the finished rounds
    totals: tuple[int, ...]
    trigger: int | None          # who ended this round
    last_turns: int | None       # turns still to play after that
    awaited: Text                # what the table should do next (players named "player n")
    palette: Palette


def build_board(state) -> HiloBoard:
    count = count_cards(state)
    deciding = state.player if state.phase == ph.HILO else None

    def board_grid(seat: int, grid: g.Grid) -> BoardGrid:
        hilos = tuple((line, g.line_cells(grid, line)) for line in g.hilo_lines(grid)) if seat == deciding else ()
        marks = {cell: "hilo" for _, cells in hilos for cell in cells}
        revealing = state.pending is not None and state.pending[0] == seat
        if revealing:
            marks[state.pending[1:]] = "pending"
        cells = tuple(tuple(_card(state, cell, marks.get((r, c), "")) for c, cell in enumerate(row))
                      for r, row in enumerate(grid))
        return BoardGrid(cells, state.totals[seat], g.known_sum(grid), count.expected_score(seat), revealing, hilos)

    return HiloBoard(
        phase=state.phase, mover=state.player if state.phase in ph.MOVER_PHASES else None,
        grids=tuple(board_grid(seat, grid) for seat, grid in enumerate(state.grids)),
        discard=_card(state, state.discard[-1]) if state.discard else None,
        drawn=None if state.drawn is None else _card(state, state.drawn),
        pile=state.draw_pile_size(), round_no=state.round_no, rounds=state.rounds, totals=state.totals,
        trigger=state.trigger, last_turns=state.last_turns, awaited=awaited(state), palette=state.game.palette)


def _card(state, cell: int, mark: str = "") -> BoardCard:
    if cell == HIDDEN:
        return BoardCard("down", mark=mark)
    if cell == GAP:
        return BoardCard("gap", mark=mark)
    return BoardCard("up", state.game.palette.names[colour_of(cell)], value_of(cell), mark)
