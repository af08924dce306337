"""The Splitter game: 22 turns; each turn a roll, then every player writes it on their sheet.

Players write at the same time: after a roll ``current_player()`` is SIMULTANEOUS until every
sheet holds the roll; each ``Place`` names its player. The roller of turn t (from 0) is seat
t mod players: seat the table's first roller as P1.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import Any, Mapping, Sequence

from engine.core import (CHANCE, SIMULTANEOUS, TERMINAL, Action, Advice, Game, InvalidStateError, OptionError, Outcome,
                         State, field_of, rank_winners, require)
from engine.text import Text, tr
from engine.splitter import scoring
from engine.splitter.actions import Place, Roll, parse_action
from engine.splitter.pads import HEIGHT, PADS, POSITIONS, WIDTH, Pad, position
from engine.splitter.sheet import SheetError, grid_from_rows, rows_from_values, values_from_grid


class ActionList(tuple):
    """Legal actions in order, with ``in`` answered by hashing (hundreds of placements at 12 players)."""

    @cached_property
    def _members(self) -> frozenset:
        return frozenset(self)

    def __contains__(self, action: object) -> bool:
        return action in self._members


TURNS = 22
ROLLS = ActionList(Roll(low, high) for low in range(1, 7) for high in range(low, 7))


@lru_cache(maxsize=None)  # the few thousand placements of a game, made once
def _place(seat: int, left: int, right: int, first: int, second: int) -> Place:
    return Place(seat, left % WIDTH, left // WIDTH, first, second)


# A sheet is shared by the states of a turn (and their copies): work on it once.
@lru_cache(maxsize=4096)
def _sheet_score(sheet: tuple[int, ...], pad_name: str) -> int:
    return scoring.score(sheet, PADS[pad_name])


@lru_cache(maxsize=4096)
def _saved_rows(sheet: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(rows_from_values(sheet))


@dataclass(frozen=True)
class SplitterOptions:
    pad: str = "A"  # [decision] the pad ("A" or "B") every player uses in this game


class SplitterState(State):
    """``sheets``: one tuple of 56 numbers per player, by position (0 = empty or no cell);
    ``turn``: turns finished (0..22); ``roll``: this turn's dice, None until rolled."""

    def __init__(self, game: "SplitterGame", sheets: Sequence[tuple[int, ...]], turn: int = 0,
                 roll: Roll | None = None):
        self.game, self.sheets, self.turn, self.roll = game, tuple(sheets), turn, roll
        self.pad: Pad = game.pad
        # A player has written this turn's roll when their sheet holds one pair more than the turns.
        self.written = tuple((POSITIONS - sheet.count(0)) // 2 > turn for sheet in self.sheets)

    @cached_property
    def _rows(self) -> tuple[tuple[str, ...], ...]:
        return tuple(_saved_rows(sheet) for sheet in self.sheets)

    # --- whose turn ------------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.turn == TURNS:
            return TERMINAL
        return CHANCE if self.roll is None else SIMULTANEOUS

    def acting_player(self, action: Action) -> int:
        if isinstance(action, Place):
            return action.player
        return self.current_player()

    def waiting_for(self) -> tuple[int, ...]:
        """The seats that still have to write this turn's roll."""
        if self.roll is None or self.turn == TURNS:
            return ()
        return tuple(seat for seat, done in enumerate(self.written) if not done)

    def roller(self) -> int:
        return self.turn % len(self.sheets)

    # --- legal actions ---------------------------------------------------------------------------

    @cached_property
    def _legal(self) -> tuple[Action, ...]:
        player = self.current_player()
        if player == TERMINAL:
            return ()
        if player == CHANCE:
            return ROLLS
        # Generated in sort_key order (seat, row, column, left number), without repeats.
        return ActionList(_place(seat, left, right, first, second)
                          for seat in self.waiting_for()
                          for left, right in self.empty_pairs(seat)
                          for first, second in self.orders())

    def legal_actions(self) -> tuple[Action, ...]:
        return self._legal

    def empty_pairs(self, seat: int) -> list[tuple[int, int]]:
        """The (left, right) positions of each empty pair on ``seat``'s sheet, in reading order."""
        sheet = self.sheets[seat]
        return [pair for pair in self.pad.pairs if not sheet[pair[0]]]

    def orders(self) -> tuple[tuple[int, int], ...]:
        """The ways to write this turn's roll: (left, right)."""
        low, high = self.roll.low, self.roll.high
        return ((low, high),) if low == high else ((low, high), (high, low))

    def is_legal(self, action: Action) -> bool:
        return action in self._legal

    def explain_illegal(self, action: Action) -> str:
        return self._problem(action)

    def _problem(self, action: Action) -> Text | str:
        """Why ``action`` is not allowed now, or "" when it is (any action of any game)."""
        if not isinstance(action, (Roll, Place)):
            return tr("that is not a Splitter action")
        if self.turn == TURNS:
            return tr("the game is over: all {turns} turns have been played", turns=TURNS)
        if isinstance(action, Roll):
            if self.roll is not None:
                return tr("the dice already show {low} and {high}: every player writes them before the next roll",
                          low=self.roll.low, high=self.roll.high)
            for value in (action.low, action.high):
                if not 1 <= value <= 6:
                    return tr("a die shows 1 to 6, not {value}", value=value)
            return ""
        return self._place_problem(action)

    def _place_problem(self, action: Place) -> Text | str:
        if self.roll is None:
            return tr("roll the dice first: turn {turn} has no roll yet", turn=self.turn + 1)
        if not 0 <= action.player < len(self.sheets):
            return tr("there is no P{seat} in this game of {count} players",
                      seat=action.player + 1, count=len(self.sheets))
        if self.written[action.player]:
            return tr("P{seat} has already written this turn's {low} and {high}",
                      seat=action.player + 1, low=self.roll.low, high=self.roll.high)
        if not (0 <= action.x < WIDTH and 0 <= action.y < HEIGHT):
            return tr("({x},{y}) is off the sheet: columns are 0 to 7 and rows 0 to 6", x=action.x, y=action.y)
        left = position(action.x, action.y)
        if not self.pad.is_cell(left):
            return tr("pad {pad} has no cell at ({x},{y})", pad=self.pad.name, x=action.x, y=action.y)
        if sorted((action.left, action.right)) != [self.roll.low, self.roll.high]:
            return tr("the dice show {low} and {high}: write those two numbers, not {left} and {right}",
                      low=self.roll.low, high=self.roll.high, left=action.left, right=action.right)
        if self.sheets[action.player][left]:
            return tr("({x},{y}) and ({mirror_x},{y}) are already filled on P{seat}'s sheet",
                      x=action.x, y=action.y, mirror_x=action.mirror_x, seat=action.player + 1)
        return ""

    # --- moves -----------------------------------------------------------------------------------

    def chance_outcomes(self) -> tuple[tuple[Action, Fraction], ...]:
        if self.current_player() != CHANCE:
            return ()
        return tuple((roll, Fraction(1 if roll.low == roll.high else 2, 36)) for roll in ROLLS)

    def _apply(self, action: Action) -> "SplitterState":
        if isinstance(action, Roll):
            return SplitterState(self.game, self.sheets, self.turn, action)
        sheets = list(self.sheets)
        sheet = list(sheets[action.player])
        left = position(action.x, action.y)
        sheet[left], sheet[position(action.mirror_x, action.y)] = action.left, action.right
        sheets[action.player] = tuple(sheet)
        if len(self.waiting_for()) == 1:  # the last player wrote: the turn ends
            return SplitterState(self.game, sheets, self.turn + 1, None)
        return SplitterState(self.game, sheets, self.turn, self.roll)

    # --- scores and reports ----------------------------------------------------------------------

    @cached_property
    def _returns(self) -> tuple[float, ...]:
        return tuple(float(_sheet_score(sheet, self.pad.name)) for sheet in self.sheets)

    def returns(self) -> tuple[float, ...]:
        """Each sheet's score so far: complete groups on the cells filled up to now."""
        return self._returns

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        scores = self.returns()
        return Outcome(f"{TURNS} turns played", rank_winners(scores), scores)

    def breakdown(self, seat: int) -> scoring.Breakdown:
        return scoring.breakdown(self.sheets[seat], self.pad)

    def board(self):
        from engine.splitter.board import build_board
        return build_board(self)

    def to_dict(self) -> dict[str, Any]:
        return {
            "pad": self.pad.name,
            "turn": self.turn,
            "roll": None if self.roll is None else [self.roll.low, self.roll.high],
            "sheets": [list(rows) for rows in self._rows],
        }

    def table_view(self) -> dict[str, Any]:
        """The dice of this turn (none before the roll) and each sheet as written."""
        dice = [] if self.roll is None else [str(self.roll.low), str(self.roll.high)]
        return {"dice": dice, "sheets": [list(rows) for rows in self._rows]}

    def summary(self) -> dict[str, Any]:
        over = self.is_terminal()
        return {
            "pad": self.pad.name,
            "turn": min(self.turn + 1, TURNS),
            "turns": TURNS,
            "phase": "over" if over else "roll" if self.roll is None else "write",
            "roller": None if over else self.roller(),
            "roll": None if self.roll is None else [self.roll.low, self.roll.high],
            "waiting_for": list(self.waiting_for()),
            "scores": [int(s) for s in self.returns()],
            "winners": list(self.outcome().winners) if over else [],
            "sheets": [list(rows) for rows in self._rows],
        }

    def describe(self, names: Sequence[str]) -> str:
        scores = ", ".join(tr("{name} {points}", name=name, points=int(points))
                           for name, points in zip(names, self.returns()))
        if self.is_terminal():
            winners = " & ".join(names[seat] for seat in self.outcome().winners)
            return "\n".join([tr("Splitter, pad {pad}: the game is over after {turns} turns.",
                                 pad=self.pad.name, turns=TURNS),
                              tr("Final scores: {scores}.", scores=scores),
                              tr("Winner: {winners}.", winners=winners)])
        head = tr("Splitter, pad {pad}: turn {turn} of {turns}.", pad=self.pad.name, turn=self.turn + 1,
                  turns=TURNS)
        if self.roll is None:
            status = tr("{name} rolls the dice.", name=names[self.roller()])
        else:
            status = tr("{name} rolled {low} and {high}; still to write them: {waiting}.",
                        name=names[self.roller()], low=self.roll.low, high=self.roll.high,
                        waiting=", ".join(names[seat] for seat in self.waiting_for()))
        return "\n".join([head, status, tr("Scores so far: {scores}.", scores=scores)])


class SplitterGame(Game):
    id = "splitter"
    title = "Splitter"
    min_players, max_players = 1, 12
    Options = SplitterOptions
    max_game_length = TURNS * (1 + 12)
    option_choices = {"pad": tuple(PADS)}
    score_file = "SHEET (7 lines of 8 numbers)"
    score_options = ("pad",)
    camera_actions = (Roll,)

    def advise(self, state: SplitterState) -> list[Advice]:
        from engine.splitter.advisor import advise
        return advise(state)

    @staticmethod
    def score_text(text: str, **options: Any) -> dict[str, Any]:
        return scoring.score_text(text, **options)

    @staticmethod
    def format_score(result: dict[str, Any]) -> str:
        return scoring.format_score(result)

    def __init__(self, num_players: int, options: Mapping[str, Any] | None = None):
        super().__init__(num_players, options)
        if self.options.pad not in PADS:
            raise OptionError(f"splitter: option 'pad' is 'A' or 'B', not {self.options.pad!r}")
        self.pad = PADS[self.options.pad]
        self.empty_sheet = (0,) * POSITIONS

    def new_initial_state(self) -> SplitterState:
        return SplitterState(self, [self.empty_sheet] * self.num_players)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def state_from_dict(self, data: Mapping[str, Any]) -> SplitterState:
        pad = field_of(data, "pad", str)
        require(pad == self.pad.name, "pad", f"this game is played on pad {self.pad.name}, not {pad!r}")
        turn = field_of(data, "turn", int)
        require(0 <= turn <= TURNS, "turn", f"turns played are 0 to {TURNS}, not {turn}")
        roll = self._roll_from(data)
        require(roll is None or turn < TURNS, "roll", f"the game is over after {TURNS} turns: no roll is due")
        grids = field_of(data, "sheets", list)
        require(len(grids) == self.num_players, "sheets",
                f"{self.num_players} players need {self.num_players} sheets, not {len(grids)}")
        sheets = []
        for seat, grid in enumerate(grids):
            try:
                sheets.append(values_from_grid(grid_from_rows(grid), self.pad, complete=False))
            except SheetError as exc:
                raise InvalidStateError(f"sheets[{seat}]: {exc}") from None
            self._check_progress(seat, sheets[-1], turn, roll)
        state = SplitterState(self, sheets, turn, roll)
        require(roll is None or not all(state.written), "roll",
                "every sheet already holds this roll, so the turn is over: the roll must be null")
        return state

    @staticmethod
    def _roll_from(data: Mapping[str, Any]) -> Roll | None:
        require("roll" in data, "roll", "missing")
        dice = data["roll"]
        if dice is None:
            return None
        require(isinstance(dice, list) and len(dice) == 2
                and all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice),
                "roll", f"expected null or two dice 1 to 6, got {dice!r}")
        return Roll(*dice)

    def _check_progress(self, seat: int, sheet: tuple[int, ...], turn: int, roll: Roll | None) -> None:
        pairs = (POSITIONS - sheet.count(0)) // 2
        expected = f"{turn}" if roll is None else f"{turn} or {turn + 1}"
        require(pairs == turn or (roll is not None and pairs == turn + 1), f"sheets[{seat}]",
                f"holds {pairs} pairs, but after {turn} turns it should hold {expected}")
        if roll is not None and pairs == turn + 1:
            require(any(sorted((sheet[left], sheet[right])) == [roll.low, roll.high]
                        for left, right in self.pad.pairs), f"sheets[{seat}]",
                    f"has written this turn but no pair holds the roll {roll.low} {roll.high}")
