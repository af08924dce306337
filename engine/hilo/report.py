"""What the table should look like (for the camera), and the position for replay reports."""
from __future__ import annotations

from typing import Any, Sequence

from engine.table import EMPTY, FACE_DOWN
from engine.text import tr
from engine.hilo import grid as g
from engine.hilo import phases as ph
from engine.hilo import positions
from engine.hilo.cards import GAP, HIDDEN
from engine.hilo.counting import count_cards
from engine.hilo.words import awaited, card_name, player, players


def table_view(state) -> dict[str, Any]:
    """Per player the grid's shape and cells ("red 7", "face-down", or "empty" where a removed
    diagonal left a hole), the top of the discard, the draw pile's size, the card in hand."""
    name = state.game.palette.name
    return {
        "players": [{"shape": list(g.shape(grid)),
                     "cells": [[FACE_DOWN if cell == HIDDEN else EMPTY if cell == GAP else name(cell)
                                for cell in row] for row in grid]}
                    for grid in state.grids],
        "discard": name(state.discard[-1]) if state.discard else EMPTY,
        "draw_pile": state.draw_pile_size(),
        "drawn": None if state.drawn is None else name(state.drawn),
    }


def summary(state) -> dict[str, Any]:
    to_move = state.current_player()
    count = count_cards(state)
    report = {
        "round": state.round_no,
        "phase": state.phase,
        "to_move": to_move if to_move >= 0 else None,
        "next": str(awaited(state)),
        "totals": list(state.totals),
        "rounds": [{"scores": list(scores), "trigger": trigger} for scores, trigger in state.rounds],
        "trigger": state.trigger,
        "declined": list(state.declined),
        "grids": [grid_text(state, seat) for seat in range(len(state.grids))],
        "table": table_view(state),
        "card_count": count.to_dict(),
    }
    outcome = state.outcome()
    if outcome is not None:
        report["winners"] = list(outcome.winners)
    return report


def grid_text(state, seat: int) -> str:
    """"R7 ?? B3 / G7 Y1 R2 / ...": rows top to bottom, ?? face down, .. a hole; "-" when empty."""
    return positions.grid_text(state.grids[seat], state.game.palette)


def describe(state, names: Sequence[str]) -> str:
    count = count_cards(state)
    lines = []
    outcome = state.outcome()
    if outcome is not None:
        fields = dict(rounds=len(state.rounds), total=state.totals[outcome.winners[0]])
        if len(outcome.winners) > 1:
            lines.append(tr("Game over after {rounds} rounds: {winners} win with {total} points.",
                            winners=players(outcome.winners, names), **fields))
        else:
            lines.append(tr("Game over after {rounds} rounds: {winner} wins with {total} points.",
                            winner=player(outcome.winners[0], names), **fields))
    else:
        lines.append(tr("Round {round}: {next}.", round=state.round_no, next=awaited(state, names)))
    totals = ", ".join(f"{player(seat, names)} {total}" for seat, total in enumerate(state.totals))
    lines.append(tr("Totals: {totals}.", totals=totals))
    for number, (scores, trigger) in enumerate(state.rounds, start=1):
        lines.append(tr("Round {round}: {scores} ({player} ended it).", round=number,
                        scores=", ".join(str(s) for s in scores), player=player(trigger, names)))
    for seat in range(len(state.grids)):
        lines.append(tr("{player}: {grid} (expected {expected})", player=player(seat, names),
                        grid=grid_text(state, seat), expected=f"{float(count.expected_score(seat)):.1f}"))
    discard = card_name(state.game.palette, state.discard[-1]) if state.discard else tr("empty")
    lines.append(tr("Discard: {top}; draw pile: {cards} cards.", top=discard, cards=state.draw_pile_size()))
    if state.trigger is not None and state.phase in ph.MOVER_PHASES + (ph.DRAW, ph.SWAP_REVEAL, ph.FLIP_REVEAL):
        lines.append(tr("{player} ended the round: {turns} last turns to play.", player=player(state.trigger, names),
                        turns=state.last_turns))
    return "\n".join(lines)
