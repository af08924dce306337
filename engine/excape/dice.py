"""The Excape dice and rolls.

Each colour has two different dice: die A shows 1, 2, 3, 4, 7, X and die B shows 1, 2, 3, 5, 6,
X. A roll names the face of each die; the table (camera or touch) reports two faces in no
particular order, which ``roll_from_faces`` maps to the dice or refuses.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from fractions import Fraction

from engine.core import Action, ParseError
from engine.table import EXCAPE_FACES
from engine.text import Text, tr

X = "X"
DIE_A = ("1", "2", "3", "4", "7", X)
DIE_B = ("1", "2", "3", "5", "6", X)
DOUBLE_MOVES = {"1": 1, "2": 2, "3": 3}  # X-X is a double too, but it does not move the pawn
ROLL_PROBABILITY = Fraction(1, len(DIE_A) * len(DIE_B))


def combination_value(first: str, second: str) -> int:
    """Higher die = tens, lower die = units, X counts 0: (6, 7) -> 76, (X, 4) -> 40."""
    high, low = sorted((0 if first == X else int(first), 0 if second == X else int(second)), reverse=True)
    return 10 * high + low


@dataclass(frozen=True)
class Roll(Action):
    """One roll of a colour's two dice: the face of die A, then the face of die B."""

    a: str
    b: str

    def __str__(self) -> str:
        return f"roll {self.a} {self.b}"

    def sort_key(self) -> tuple:
        # The key Action.sort_key builds, without dataclasses.astuple: every state sorts 36 rolls.
        return ("Roll", (True, self.a), (True, self.b))

    # Cached: rolls are values reused by every state (a frozen dataclass may cache in __dict__).
    @cached_property
    def value(self) -> int:
        return combination_value(self.a, self.b)

    @cached_property
    def x_count(self) -> int:
        return (self.a == X) + (self.b == X)

    @property
    def double_move(self) -> int:
        """Spaces a double 1-1, 2-2 or 3-3 moves the pawn at once (0 for any other roll)."""
        return DOUBLE_MOVES.get(self.a, 0) if self.a == self.b else 0

    @property
    def is_double_x(self) -> bool:
        return self.a == self.b == X

    def faces(self) -> list[str]:
        return [self.a, self.b]

    def problem(self) -> Text | str:
        """Why these faces cannot be one roll of die A and die B ("" when they can)."""
        if self.a in DIE_A and self.b in DIE_B:
            return ""
        try:
            roll_from_faces(self.a, self.b)
        except ParseError as exc:
            return exc.args[0]
        wrong_die, face, faces = ("A", self.a, DIE_A) if self.a not in DIE_A else ("B", self.b, DIE_B)
        return tr("die {die} has no {face}: its faces are {faces}", die=wrong_die, face=face,
                  faces=", ".join(faces))


# Every roll, in the order legal_actions() lists them; each has probability 1/36.
ALL_ROLLS = tuple(sorted((Roll(a, b) for a in DIE_A for b in DIE_B), key=Roll.sort_key))


def roll_from_faces(first: object, second: object) -> Roll:
    """The roll showing these two faces, whichever die shows which; ParseError (whose message is
    a translatable sentence) when the faces cannot come from one die A and one die B.

    When both dice could show either face (1, 2, 3, X) the first face is taken as die A: the two
    readings are the same roll for the rules.
    """
    if first in DIE_A and second in DIE_B:  # already as the dice show them
        return Roll(first, second)
    faces = [str(face).strip().upper() for face in (first, second)]
    for face in faces:
        if face not in EXCAPE_FACES:
            raise ParseError(tr("{face} is not a face of the Excape dice: they show 1 to 7 and X", face=face))
    one, two = faces
    if one in DIE_A and two in DIE_B:
        return Roll(one, two)
    if two in DIE_A and one in DIE_B:
        return Roll(two, one)
    die, die_faces = ("A", DIE_A) if one in DIE_A else ("B", DIE_B)
    raise ParseError(tr("{first} and {second} cannot come from one die A and one die B: both are faces of die {die} only ({faces})",
                        first=one, second=two, die=die, faces=", ".join(die_faces)))
