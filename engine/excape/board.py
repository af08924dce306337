"""What the Excape screen shows of a position: the track, the ladder, the roll and how the turn
stands. Built with every view, so it holds no risk figures (``ExcapeGame.analyse`` gives those)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.excape import ladder
from engine.excape.dice import Roll
from engine.excape.state import DECIDE, OVER, ROLL, ROLLOFF, Bust, ExcapeState, RollOff


@dataclass(frozen=True)
class LadderChip:
    """A combination kept on the ladder."""

    seat: int
    rung: int
    value: int


@dataclass(frozen=True)
class ExcapeBoard:
    ROLLOFF: ClassVar[str] = ROLLOFF
    ROLL: ClassVar[str] = ROLL
    DECIDE: ClassVar[str] = DECIDE
    OVER: ClassVar[str] = OVER
    RUNGS: ClassVar[tuple[int, ...]] = ladder.RUNGS

    phase: str
    seat: int                      # whose turn; in the roll-off who rolls next; once over the winner
    track_length: int
    pawns: tuple[int, ...]         # by seat: 0 = START, track_length = the exit
    chips: tuple[LadderChip, ...]  # by seat
    rolls: int                     # rolls made this turn
    roll: Roll | None              # the roll showing
    rolloff: RollOff | None
    bust: Bust | None              # how the previous turn ended, if on an X


def build_board(state: ExcapeState) -> ExcapeBoard:
    chips = tuple(LadderChip(seat, p.rung, p.roll.value) for seat, p in enumerate(state.placed) if p is not None)
    return ExcapeBoard(state.phase, state.seat, state.track_length, state.pawns, chips, state.rolls, state.roll,
                       state.rolloff, state.bust)
