"""Hold Up 4D6 actions and their one-line notation (see docs/notation.md).

Each action has a cheap ``sort_key`` (the generic one copies every field): the invariant checks
sort thousands of roll outcomes.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.core import Action, ParseError
from engine.holdup.rules import DICE, GV_CARDS, MAX_PLAYERS, ROWS
from engine.numbers import whole


def _sorted_field(action: Action, name: str) -> None:
    # Dice and GV cards are named in any order; one canonical order makes equal actions equal.
    object.__setattr__(action, name, tuple(sorted(getattr(action, name))))


@dataclass(frozen=True)
class Draw(Action):
    """Chance: the card turned over from the draw pile (the six opening cards, then each 5/6)."""

    stone: str
    value: int

    def __str__(self) -> str:
        return f"draw {self.stone} {self.value}"

    def sort_key(self) -> tuple:
        return ("Draw", self.stone, self.value)


@dataclass(frozen=True)
class Roll(Action):
    """Chance: the faces of the dice just rolled (four, or the re-rolled ones when dice are kept)."""

    faces: tuple[int, ...]

    def __post_init__(self) -> None:
        _sorted_field(self, "faces")

    def __str__(self) -> str:
        return "roll " + " ".join(map(str, self.faces))

    def sort_key(self) -> tuple:
        return ("Roll", self.faces)


@dataclass(frozen=True)
class Keep(Action):
    """Stop rolling and resolve the dice."""

    def __str__(self) -> str:
        return "keep"

    def sort_key(self) -> tuple:
        return ("Keep",)


@dataclass(frozen=True)
class Reroll(Action):
    """Roll again: all four dice (``faces`` empty), or only dice showing ``faces``
    (option keep_dice_between_rolls)."""

    faces: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        _sorted_field(self, "faces")

    def __str__(self) -> str:
        return " ".join(["reroll", *map(str, self.faces)])

    def sort_key(self) -> tuple:
        return ("Reroll", self.faces)


@dataclass(frozen=True)
class Flip(Action):
    """Turn over the player's GV cards at these positions (1..3), one per 4 rolled."""

    cards: tuple[int, ...]

    def __post_init__(self) -> None:
        _sorted_field(self, "cards")

    def __str__(self) -> str:
        return "flip " + " ".join(map(str, self.cards))

    def sort_key(self) -> tuple:
        return ("Flip", self.cards)


@dataclass(frozen=True)
class Place(Action):
    """Put the drawn card at the right end of row 1 (bottom), 2 or 3 (top)."""

    row: int

    def __str__(self) -> str:
        return f"place {self.row}"

    def sort_key(self) -> tuple:
        return ("Place", self.row)


@dataclass(frozen=True)
class Steal(Action):
    """End of game, G G G: take the top card of the pile of the player at seat ``victim``
    (0-based; the notation numbers players from 1)."""

    victim: int

    def __str__(self) -> str:
        return f"steal {self.victim + 1}"

    def sort_key(self) -> tuple:
        return ("Steal", self.victim)


ACTION_TYPES = (Draw, Roll, Keep, Reroll, Flip, Place, Steal)


def parse_action(text: str) -> Action:
    """Read one line of Hold Up notation; ParseError naming what is wrong."""
    if not isinstance(text, str):
        raise ParseError(f"holdup: an action is a line of text, got {text!r}")
    words = text.split()
    if not words:
        raise ParseError("holdup: empty action")
    verb, args = words[0].lower(), words[1:]
    if verb == "keep" and not args:
        return Keep()
    if verb == "reroll":
        if len(args) == DICE:
            raise ParseError(f"holdup: {text!r}: to roll all four dice again, write 'reroll' alone")
        return Reroll(_numbers(text, args, "die face", 1, 6, most=DICE - 1))
    if verb == "roll":
        if not args:
            raise ParseError(f"holdup: {text!r}: name the faces rolled, e.g. 'roll 3 3 2 5'")
        return Roll(_numbers(text, args, "die face", 1, 6, most=DICE))
    if verb == "flip":
        if not args:
            raise ParseError(f"holdup: {text!r}: name the GV cards to flip (1 to 3), e.g. 'flip 1 3'")
        return Flip(_numbers(text, args, "GV card", 1, GV_CARDS, most=GV_CARDS))
    if verb == "place" and len(args) == 1:
        return Place(_numbers(text, args, "row", 1, ROWS, most=1)[0])
    if verb == "steal" and len(args) == 1:
        return Steal(_numbers(text, args, "player", 1, MAX_PLAYERS, most=1)[0] - 1)
    if verb == "draw" and len(args) == 2:
        stone, value = args[0], whole(args[1], signed=True)
        if value is None:
            raise ParseError(f"holdup: {text!r}: the card value {args[1]!r} is not a whole number")
        return Draw(stone, value)
    raise ParseError(
        f"holdup: cannot read {text!r} (expected 'draw STONE VALUE', 'roll F F F F', 'keep', "
        "'reroll [F ...]', 'flip N [N ...]', 'place ROW' or 'steal PLAYER')"
    )


def _numbers(text: str, args: list[str], what: str, low: int, high: int, most: int) -> tuple[int, ...]:
    if len(args) > most:
        raise ParseError(f"holdup: {text!r}: at most {most} {what} numbers")
    numbers = tuple(whole(arg, signed=True) for arg in args)
    for arg, number in zip(args, numbers):
        if number is None or not low <= number <= high:
            raise ParseError(f"holdup: {text!r}: {arg!r} is not a {what} ({low} to {high})")
    return numbers
