"""Grids and card lists written the way the rules write them: "Y4 B4 R2 / G7 Y1 ?? / O3 P5 Y6".

Cards are the palette's initials and a value, ?? a face-down card, .. the hole a removed diagonal
leaves until the slide, "-" an empty grid. Positions (``HiloState.to_dict``) use this form, and
``position`` builds one from it, working out the cards nobody has seen: for setting up a table in
the middle of a round and for examples.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.hilo.cards import DECK_SIZE, GAP, HIDDEN, Palette
from engine.hilo.grid import Grid, shape_problem

FACE_DOWN_CODE, GAP_CODE, EMPTY_GRID = "??", "..", "-"
_MARKS = {HIDDEN: FACE_DOWN_CODE, GAP: GAP_CODE}
_CELLS = {FACE_DOWN_CODE: HIDDEN, GAP_CODE: GAP}


@lru_cache(maxsize=4096)
def grid_text(grid: Grid, palette: Palette) -> str:
    if not grid:
        return EMPTY_GRID
    return " / ".join(" ".join(_MARKS.get(cell) or palette.code(cell) for cell in row) for row in grid)


def read_grid(text: str, palette: Palette) -> Grid:
    """The grid written in ``text``; ValueError naming the bad card or shape."""
    if not isinstance(text, str):
        raise ValueError(f"expected a grid such as \"R7 ?? B3 / ...\", got {text!r}")
    return _read_grid(text, palette)


@lru_cache(maxsize=4096)  # a grid is read again in every position until it changes
def _read_grid(text: str, palette: Palette) -> Grid:
    if text.strip() == EMPTY_GRID:
        return ()
    rows = [row.split() for row in text.split("/")]
    problem = shape_problem(rows)
    if problem:
        raise ValueError(problem)
    return tuple(tuple(_CELLS[code] if code in _CELLS else palette.read_code(code) for code in row) for row in rows)


def cards_text(cards, palette: Palette) -> str:
    return " ".join(palette.code(card) for card in cards)


def read_cards(text: str, palette: Palette) -> tuple[int, ...]:
    if not isinstance(text, str):
        raise ValueError(f"expected cards such as \"R7 B-1\", got {text!r}")
    return tuple(palette.read_code(code) for code in text.split())


def position(game, grids: list[str], discard: str, phase: str = "turn", player: int = 0,
             drawn: str | None = None, reshuffled: str = "", **fields: Any):
    """The position with these grids and discard pile (bottom to top); the draw pile holds the
    reshuffled cards given, or else every card not on the table. ``fields`` overrides any other
    field of ``HiloState.to_dict()`` (totals, rounds, trigger, last_turns, ...)."""
    palette = game.palette
    cells = [cell for text in grids for row in read_grid(text, palette) for cell in row]
    seen = (sum(1 for cell in cells if cell >= 0) + len(read_cards(discard, palette))
            + len(read_cards(reshuffled, palette)) + (drawn is not None))
    n = game.num_players
    data = {"round": 1, "totals": [0] * n, "rounds": [], "phase": phase, "player": player, "grids": list(grids),
            "discard": discard,
            "draw_pile": {"unseen": 0 if reshuffled else DECK_SIZE - cells.count(HIDDEN) - seen,
                          "reshuffled": reshuffled},
            "drawn": drawn, "pending": None, "trigger": None, "last_turns": None,
            "declined": [0] * n, "final": False}
    data.update(fields)
    return game.state_from_dict(data)
