"""The shape every game follows: a Game (parameters) makes immutable States; actions are values.

Chance is a player: at a dice roll or a card draw ``current_player()`` is ``CHANCE`` and
``chance_outcomes()`` lists ``(action, Fraction)``. The engine never calls ``random``: outcomes
come from the table (camera or touch) or, in simulation, from a ``random.Random`` passed in.
"""
from __future__ import annotations

import dataclasses
import difflib
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Iterable, Mapping, Sequence

from engine.text import Text, tr

CHANCE = -1
SIMULTANEOUS = -2  # several players may act now, in any order; each action names its player
TERMINAL = -4


class RulesError(ValueError):
    """Base of every error the engine raises about input."""


class IllegalActionError(RulesError):
    """The action is well formed but the rules forbid it now; ``reason`` says why (translatable)."""

    def __init__(self, action: "Action", reason: str):
        super().__init__(f"{action}: {reason}")
        self.action = action
        self.reason = reason


class ParseError(RulesError):
    """A line of action notation could not be read."""


class InvalidStateError(RulesError):
    """A position (from a file or the table) is inconsistent; the message names the field."""


class OptionError(RulesError):
    """An unknown game option or a value of the wrong type."""


@dataclass(frozen=True)
class Advice:
    """One option for the player to move: the action, its value for that player (higher is
    better, in the game's points; exact Fractions where the game computes them exactly) and the
    reasoning in words (translatable Text)."""

    action: "Action"
    value: float | Fraction
    text: Text | str


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: a short reason, the winning seats (ties share) and the scores."""

    termination: str
    winners: tuple[int, ...]
    scores: tuple[float, ...]


class Action:
    """Base of the frozen dataclasses that are a game's actions.

    ``str(action)`` is the action's notation and ``Game.parse_action(text)`` reads it back.
    Legal action lists are sorted by ``sort_key``, which games may refine.
    """

    def sort_key(self) -> tuple:
        return (type(self).__name__, *(_comparable(v) for v in dataclasses.astuple(self)))


def _comparable(value: Any) -> Any:
    return (value is not None, value if value is not None else 0)


def sorted_actions(actions: Iterable[Action]) -> tuple[Action, ...]:
    return tuple(sorted(set(actions), key=lambda a: a.sort_key()))


class State(ABC):
    """An immutable game position. Subclasses implement the underscored hooks."""

    game: "Game"

    @abstractmethod
    def current_player(self) -> int:
        """A seat index, CHANCE, SIMULTANEOUS or TERMINAL."""

    @abstractmethod
    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action, unique and sorted (chance outcomes at a chance node)."""

    @abstractmethod
    def _apply(self, action: Action) -> "State":
        """The next state for an action already known to be legal."""

    @abstractmethod
    def explain_illegal(self, action: Action) -> str:
        """Why the action is not allowed now, in words a player understands ("" when legal)."""

    @abstractmethod
    def returns(self) -> tuple[float, ...]:
        """Each seat's score so far (final scores once terminal)."""

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready position that ``Game.state_from_dict`` reads back to an equal state."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions()

    def apply(self, action: Action) -> "State":
        """The state after ``action``; IllegalActionError (with the reason) when not legal."""
        if not self.is_legal(action):
            raise IllegalActionError(action, self.explain_illegal(action) or tr("that action is not allowed now"))
        return self._apply(action)

    def chance_outcomes(self) -> tuple[tuple[Action, Fraction], ...]:
        """(outcome, probability) pairs at a chance node; empty elsewhere. Override for chance."""
        return ()

    def sample_chance(self, rng: random.Random) -> Action:
        outcomes = self.chance_outcomes()
        point = Fraction(rng.random())
        for action, probability in outcomes:
            point -= probability
            if point < 0:
                return action
        return outcomes[-1][0]

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        if not self.is_terminal():
            return None
        scores = self.returns()
        return Outcome("game over", rank_winners(scores), scores)

    def table_view(self) -> dict[str, Any]:
        """What the camera should see on the table now (JSON-ready), for reconciliation."""
        raise NotImplementedError(f"{type(self).__name__} has no table view")

    def table_after(self, action: "Action") -> dict[str, Any]:
        """What the camera should see once ``action`` is done: the next position's table, unless
        the rules move on while the table still shows what the action left."""
        return self.apply(action).table_view()

    def summary(self) -> dict[str, Any]:
        """A JSON-ready report of the position (scores, whose turn, winners) for `replay --json`."""
        raise NotImplementedError(f"{type(self).__name__} has no summary")

    def describe(self, names: Sequence[str]) -> str:
        """The position in a few lines of text for a person, using the players' names."""
        raise NotImplementedError(f"{type(self).__name__} has no description")

    def acting_player(self, action: Action) -> int:
        """The seat that takes ``action`` (CHANCE for outcomes); games with SIMULTANEOUS override."""
        return self.current_player()

    def board(self) -> Any:
        """What the game's screen shows of this position: a frozen view model that the game's
        package exports (None: the screen shows ``describe``). Cheap: it is built for every view."""
        return None

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.to_dict() == self.to_dict()

    def __hash__(self) -> int:
        return hash(repr(sorted(self.to_dict().items())))


class Game(ABC):
    """A game with its parameters: number of players and options. Makes the initial state."""

    id: ClassVar[str]          # short name used in files and on the command line: "hilo"
    title: ClassVar[str]       # name shown to players
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    Options: ClassVar[type]    # a frozen dataclass of named options with their defaults
    max_game_length: ClassVar[int]  # bound on the number of actions of any game (for the checks)

    # What the game offers besides its rules. The registry, the command line and the screens read
    # these; a game that leaves them as they are simply offers less.
    option_choices: ClassVar[Mapping[str, tuple[str, ...]]] = {}  # text options set from a fixed list
    option_words: ClassVar[Mapping[str, str]] = {}  # option -> its name for the players (English)
    score_file: ClassVar[str] = ""  # what `score` reads for this game ("": the game scores no file)
    score_options: ClassVar[tuple[str, ...]] = ()  # options a scored file needs on the command line
    camera_actions: ClassVar[tuple[type["Action"], ...]] = ()  # actions whose result the camera sees
    camera_reads: ClassVar[tuple[str, ...]] = ("dice",)  # what the live camera reads of the game: dice, cards
    # Dice printed with symbols of their own (read against faces enrolled from the table's own
    # dice) rather than standard pips.
    printed_dice: ClassVar[bool] = False
    # Each seat plays dice of its own colour (the player's): the dice the table view lists with an
    # "owner" are that seat's, and a die of no player's colour is none of the game's.
    seat_dice: ClassVar[bool] = False

    def __init__(self, num_players: int, options: Mapping[str, Any] | None = None):
        if not self.min_players <= num_players <= self.max_players:
            raise OptionError(
                f"{self.title} is for {self.min_players} to {self.max_players} players, not {num_players}"
            )
        self.num_players = num_players
        self.options = parse_options(self.Options, options or {}, self.id)

    def options_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self.options)

    @classmethod
    def option_word(cls, name: str) -> str:
        """An option's name for the players (English; the screens translate it)."""
        return cls.option_words.get(name, name.replace("_", " "))

    @abstractmethod
    def new_initial_state(self) -> State: ...

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Read one line of notation; ParseError naming what is wrong."""

    @abstractmethod
    def state_from_dict(self, data: Mapping[str, Any]) -> State:
        """Validate a position and build it; InvalidStateError naming the inconsistent field."""

    def advise(self, state: State) -> list[Advice]:
        """Advice for whoever acts in ``state``, best first ([] when there is none). It may be
        slow: the app works it out off the UI thread."""
        return []

    @classmethod
    def offers_advice(cls) -> bool:
        return cls.advise is not Game.advise

    def analyse(self, state: State) -> Any:
        """Figures for the game's screen too slow to build with every view (an exact risk),
        worked out beside the advice, off the UI thread; None when the game has none."""
        return None

    @classmethod
    def offers_analysis(cls) -> bool:
        return cls.analyse is not Game.analyse

    @staticmethod
    def score_text(text: str, **options: Any) -> dict[str, Any]:
        """Score a finished round or sheet given as text (see ``score_file``): JSON-ready, and
        ValueError naming what is wrong."""
        raise NotImplementedError("this game scores no file")

    @staticmethod
    def format_score(result: dict[str, Any]) -> str:
        """``score_text``'s result for a person."""
        raise NotImplementedError("this game scores no file")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(num_players={self.num_players}, options={self.options_dict()!r})"


def parse_options(cls: type, given: Mapping[str, Any], game_id: str) -> Any:
    """Build an options dataclass from a mapping, naming any unknown key or wrong type."""
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for key, value in given.items():
        if key not in fields:
            near = difflib.get_close_matches(key, fields, n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise OptionError(f"{game_id}: unknown option {key!r}{hint}")
        default = fields[key].default
        if default is not dataclasses.MISSING and not _fits(default, value):
            raise OptionError(
                f"{game_id}: option {key!r} expects {type(default).__name__}, got {value!r}"
            )
    return cls(**given)


def _fits(default: Any, value: Any) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float))
    return isinstance(value, type(default))


def require(condition: bool, field: str, message: str) -> None:
    """Raise InvalidStateError naming ``field`` unless ``condition`` holds (for state_from_dict)."""
    if not condition:
        raise InvalidStateError(f"{field}: {message}")


def field_of(data: Mapping[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    """``data[name]`` checked to be of ``kind``; InvalidStateError naming the field otherwise."""
    require(name in data, name, "missing")
    value = data[name]
    require(isinstance(value, kind) and not (isinstance(value, bool) and kind is int), name,
            f"expected {getattr(kind, '__name__', kind)}, got {value!r}")
    return value


def rank_winners(scores: Sequence[float], lowest_wins: bool = False) -> tuple[int, ...]:
    """Seats with the best score (ties share the win)."""
    best = min(scores) if lowest_wins else max(scores)
    return tuple(i for i, s in enumerate(scores) if s == best)
