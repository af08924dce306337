"""What the Hold Up 4D6 screen shows of a position: the rows with the cards keeping the dice would
capture, the dice, the consequence of keeping them, each player's GV faces, pile and score
(``HoldUpState.board()``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.text import Text
from engine.holdup.actions import Keep
from engine.holdup.deck import Gem
from engine.holdup.preview import preview
from engine.holdup.rules import DICE, MAX_ROLLS, OPENING_PER_ROW, ROWS, plan_keep


@dataclass(frozen=True)
class BoardRow:
    number: int                  # 1 is the bottom row
    cards: tuple[Gem, ...]       # left to right
    marks: tuple[str, ...]       # per card: "capture" (keeping the dice takes it), "short" or ""
    short: bool                  # it holds fewer cards than the dice showing its number


@dataclass(frozen=True)
class Score:
    cards: int
    vvv: int
    sets: int
    last_card: int
    total: int


@dataclass(frozen=True)
class BoardPlayer:
    gv: str                      # GV faces, card 1 first: "VGV"
    pile: tuple[Gem, ...]        # bottom card first
    score: Score                 # the running score (the final one once over)
    active: bool                 # the player to move


@dataclass(frozen=True)
class HoldUpBoard:
    ROWS: ClassVar[int] = ROWS
    DEAL: ClassVar[int] = ROWS * OPENING_PER_ROW  # cards in the opening rows
    MAX_ROLLS: ClassVar[int] = MAX_ROLLS

    phase: str                   # "deal", "roll", "decide", "flip", "draw", "place", "steal" or "over"
    seat: int                    # whose turn it is
    rows: tuple[BoardRow, ...]   # row 1 first
    dealt: int                   # cards in the rows (while dealing: how many are dealt)
    dice: tuple[int, ...]        # this turn's dice
    to_roll: int                 # dice to roll now
    rolls: int                   # rolls made this turn
    consequence: Text | str      # what keeping the dice does ("" when there is nothing to keep)
    held: Gem | None             # the drawn card waiting for its row
    draw_pile: int               # cards left to draw
    players: tuple[BoardPlayer, ...]
    gems: tuple[Gem, ...]        # the deck's distinct cards, for entering a draw


def build_board(state) -> HoldUpBoard:
    deciding = state.phase == "decide"
    plan = plan_keep(state.rows, state.dice) if deciding else None

    def row(number: int, cards: tuple[Gem, ...]) -> BoardRow:
        short = plan is not None and plan.short_row == number
        taken = plan.aimed_at(number) if plan is not None and not plan.short_row else 0
        marks = tuple("short" if short else "capture" if i >= len(cards) - taken else "" for i in range(len(cards)))
        return BoardRow(number, cards, marks, short)

    over = state.is_terminal()
    players = tuple(BoardPlayer(state.gv[seat], pile, _score(score), seat == state.seat and not over)
                    for seat, (pile, score) in enumerate(zip(state.piles, state.scores())))
    return HoldUpBoard(
        phase=state.phase, seat=state.seat,
        rows=tuple(row(number, cards) for number, cards in enumerate(state.rows, start=1)),
        dealt=sum(len(cards) for cards in state.rows), dice=state.dice, to_roll=DICE - len(state.dice),
        rolls=state.rolls, consequence=preview(state, Keep()) if deciding else "", held=state.held,
        draw_pile=state.draw_total(), players=players, gems=state.game.gems)


def _score(parts: dict) -> Score:
    return Score(parts["cards"], parts["vvv"], parts["sets"], parts["last_card"], parts["total"])
