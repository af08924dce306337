"""The Splitter game: 22 turns; each turn a roll, then every player writes it on their sheet.

Players write at the same time: after a roll ``current_player()`` is SIMULTANEOUS until every
sheet holds the roll; each ``Place`` names its player. The roller of turn t (from 0) is seat
t mod players: seat the table's first roller as P1.

With the ``paper`` option the players write on paper as the game goes, and the kiosk only
keeps the rolls: the 22 rolls come one after the other, then every sheet is entered (read from
a photo, or tapped) as placements of the game's rolls, in any order; a pair that no roll left
on that sheet explains is refused.
"""
from __future__ import annotations

from collections import Counter
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
    paper: bool = False  # sheets written on paper, entered after the 22 rolls (see the module's text)


class SplitterState(State):
    """``sheets``: one tuple of 56 numbers per player, by position (0 = empty or no cell);
    ``turn``: turns finished (0..22); ``roll``: this turn's dice, None until rolled.
    On paper, ``rolls`` are the game's rolls so far (``turn`` of them) and ``roll`` is always None."""

    def __init__(self, game: "SplitterGame", sheets: Sequence[tuple[int, ...]], turn: int = 0,
                 roll: Roll | None = None, rolls: Sequence[Roll] = ()):
        self.game, self.sheets, self.turn, self.roll = game, tuple(sheets), turn, roll
        self.rolls = tuple(rolls)
        self.paper = game.options.paper
        self.pad: Pad = game.pad
        filled = tuple((POSITIONS - sheet.count(0)) // 2 for sheet in self.sheets)
        # A player has written this turn's roll when their sheet holds one pair more than the turns;
        # on paper, when their sheet is full.
        self.written = tuple(pairs == TURNS if self.paper else pairs > turn for pairs in filled)

    @cached_property
    def _rows(self) -> tuple[tuple[str, ...], ...]:
        return tuple(_saved_rows(sheet) for sheet in self.sheets)

    # --- whose turn ------------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.paper:
            if self.turn < TURNS:
                return CHANCE
            return TERMINAL if all(self.written) else SIMULTANEOUS
        if self.turn == TURNS:
            return TERMINAL
        return CHANCE if self.roll is None else SIMULTANEOUS

    def acting_player(self, action: Action) -> int:
        if isinstance(action, Place):
            return action.player
        return self.current_player()

    def waiting_for(self) -> tuple[int, ...]:
        """The seats that still have to write this turn's roll (on paper: to enter their sheet)."""
        if self.current_player() != SIMULTANEOUS:
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
                          for first, second in self.orders(seat))

    def legal_actions(self) -> tuple[Action, ...]:
        return self._legal

    def empty_pairs(self, seat: int) -> list[tuple[int, int]]:
        """The (left, right) positions of each empty pair on ``seat``'s sheet, in reading order."""
        sheet = self.sheets[seat]
        return [pair for pair in self.pad.pairs if not sheet[pair[0]]]

    def orders(self, seat: int) -> tuple[tuple[int, int], ...]:
        """The ways ``seat`` may write a roll now: (left, right), by left number (on paper, any
        roll of the game not yet on their sheet)."""
        rolls = self.unwritten(seat) if self.paper else (self.roll,)
        return tuple(sorted({order for roll in rolls for order in ((roll.low, roll.high), (roll.high, roll.low))}))

    def unwritten(self, seat: int) -> list[Roll]:
        """On paper: the game's rolls not yet written on ``seat``'s sheet (a pair holding a roll's
        two numbers writes it), as many times as each was rolled."""
        sheet = self.sheets[seat]
        left = Counter(self.rolls)
        left.subtract(Roll(sheet[a], sheet[b]) for a, b in self.pad.pairs if sheet[a])
        return sorted(left.elements(), key=Roll.sort_key)

    def is_legal(self, action: Action) -> bool:
        return action in self._legal

    def explain_illegal(self, action: Action) -> str:
        return self._problem(action)

    def _problem(self, action: Action) -> Text | str:
        """Why ``action`` is not allowed now, or "" when it is (any action of any game)."""
        if not isinstance(action, (Roll, Place)):
            return tr("that is not a Splitter action")
        if self.is_terminal():
            return tr("the game is over: all {turns} turns have been played", turns=TURNS)
        if isinstance(action, Roll):
            if self.paper and self.turn == TURNS:
                return tr("all {turns} rolls are made: the sheets are being entered", turns=TURNS)
            if self.roll is not None:
                return tr("the dice already show {low} and {high}: every player writes them before the next roll",
                          low=self.roll.low, high=self.roll.high)
            for value in (action.low, action.high):
                if not 1 <= value <= 6:
                    return tr("a die shows 1 to 6, not {value}", value=value)
            return ""
        return self._place_problem(action)

    def _place_problem(self, action: Place) -> Text | str:
        if self.paper and self.turn < TURNS:
            return tr("the sheets are on paper: they are entered after the {turns} rolls (turn {turn} is not "
                      "rolled yet)", turns=TURNS, turn=self.turn + 1)
        if self.roll is None and not self.paper:
            return tr("roll the dice first: turn {turn} has no roll yet", turn=self.turn + 1)
        if not 0 <= action.player < len(self.sheets):
            return tr("there is no P{seat} in this game of {count} players",
                      seat=action.player + 1, count=len(self.sheets))
        if self.written[action.player]:
            if self.paper:
                return tr("P{seat}'s sheet is already entered whole", seat=action.player + 1)
            return tr("P{seat} has already written this turn's {low} and {high}",
                      seat=action.player + 1, low=self.roll.low, high=self.roll.high)
        if not (0 <= action.x < WIDTH and 0 <= action.y < HEIGHT):
            return tr("({x},{y}) is off the sheet: columns are 0 to 7 and rows 0 to 6", x=action.x, y=action.y)
        left = position(action.x, action.y)
        if not self.pad.is_cell(left):
            return tr("pad {pad} has no cell at ({x},{y})", pad=self.pad.name, x=action.x, y=action.y)
        if self.paper:
            if Roll(action.left, action.right) not in self.unwritten(action.player):
                return self._unrolled(action)
        elif sorted((action.left, action.right)) != [self.roll.low, self.roll.high]:
            return tr("the dice show {low} and {high}: write those two numbers, not {left} and {right}",
                      low=self.roll.low, high=self.roll.high, left=action.left, right=action.right)
        if self.sheets[action.player][left]:
            return tr("({x},{y}) and ({mirror_x},{y}) are already filled on P{seat}'s sheet",
                      x=action.x, y=action.y, mirror_x=action.mirror_x, seat=action.player + 1)
        return ""

    def _unrolled(self, action: Place) -> Text:
        rolled = self.rolls.count(Roll(action.left, action.right))
        low, high = sorted((action.left, action.right))
        if not rolled:
            return tr("no roll of this game was {low} and {high}: ({x},{y}) and ({mirror_x},{y}) cannot hold them",
                      low=low, high=high, x=action.x, y=action.y, mirror_x=action.mirror_x)
        return tr("{low} and {high} were rolled {count} times, and P{seat}'s sheet already holds them {count} times",
                  low=low, high=high, count=rolled, seat=action.player + 1)

    # --- moves -----------------------------------------------------------------------------------

    def chance_outcomes(self) -> tuple[tuple[Action, Fraction], ...]:
        if self.current_player() != CHANCE:
            return ()
        return tuple((roll, Fraction(1 if roll.low == roll.high else 2, 36)) for roll in ROLLS)

    def _apply(self, action: Action) -> "SplitterState":
        if isinstance(action, Roll):
            if self.paper:
                return SplitterState(self.game, self.sheets, self.turn + 1, None, self.rolls + (action,))
            return SplitterState(self.game, self.sheets, self.turn, action)
        sheets = list(self.sheets)
        sheet = list(sheets[action.player])
        left = position(action.x, action.y)
        sheet[left], sheet[position(action.mirror_x, action.y)] = action.left, action.right
        sheets[action.player] = tuple(sheet)
        if self.paper:
            return SplitterState(self.game, sheets, self.turn, None, self.rolls)
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
        data = {
            "pad": self.pad.name,
            "turn": self.turn,
            "roll": None if self.roll is None else [self.roll.low, self.roll.high],
            "sheets": [list(rows) for rows in self._rows],
        }
        if self.paper:
            data["rolls"] = [[roll.low, roll.high] for roll in self.rolls]
        return data

    def table_view(self) -> dict[str, Any]:
        """The dice of this turn (none before the roll) and each sheet as written."""
        dice = [] if self.roll is None else [str(self.roll.low), str(self.roll.high)]
        return {"dice": dice, "sheets": [list(rows) for rows in self._rows]}

    def summary(self) -> dict[str, Any]:
        over = self.is_terminal()
        entering = self.current_player() == SIMULTANEOUS
        summary = {
            "pad": self.pad.name,
            "turn": min(self.turn + 1, TURNS),
            "turns": TURNS,
            "phase": "over" if over else "write" if entering else "roll",
            "roller": None if over or self.turn == TURNS else self.roller(),
            "roll": None if self.roll is None else [self.roll.low, self.roll.high],
            "waiting_for": list(self.waiting_for()),
            "scores": [int(s) for s in self.returns()],
            "winners": list(self.outcome().winners) if over else [],
            "sheets": [list(rows) for rows in self._rows],
        }
        if self.paper:
            summary["rolls"] = [[roll.low, roll.high] for roll in self.rolls]
        return summary

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
        if self.paper and self.turn == TURNS:
            head = tr("Splitter, pad {pad}: all {turns} rolls are made.", pad=self.pad.name, turns=TURNS)
            status = tr("Sheets still to enter: {waiting}.", waiting=", ".join(names[s] for s in self.waiting_for()))
        elif self.roll is None:
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
    option_words = {"paper": "sheets on paper"}
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
        rolls = self._rolls_from(data, turn)
        require(roll is None or not self.options.paper, "roll",
                "on paper the rolls are listed in 'rolls': 'roll' is null")
        grids = field_of(data, "sheets", list)
        require(len(grids) == self.num_players, "sheets",
                f"{self.num_players} players need {self.num_players} sheets, not {len(grids)}")
        sheets = []
        for seat, grid in enumerate(grids):
            try:
                sheets.append(values_from_grid(grid_from_rows(grid), self.pad, complete=False))
            except SheetError as exc:
                raise InvalidStateError(f"sheets[{seat}]: {exc}") from None
            if self.options.paper:
                self._check_paper(seat, sheets[-1], turn, rolls)
            else:
                self._check_progress(seat, sheets[-1], turn, roll)
        state = SplitterState(self, sheets, turn, roll, rolls)
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

    def _rolls_from(self, data: Mapping[str, Any], turn: int) -> tuple[Roll, ...]:
        """On paper, the game's rolls (one per turn played); otherwise none may be given."""
        if not self.options.paper:
            require("rolls" not in data, "rolls", "only a game on paper lists its rolls")
            return ()
        rolls = field_of(data, "rolls", list)
        require(len(rolls) == turn, "rolls", f"after {turn} turns there are {turn} rolls, not {len(rolls)}")
        for dice in rolls:
            require(isinstance(dice, list) and len(dice) == 2
                    and all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice),
                    "rolls", f"expected two dice 1 to 6 per roll, got {dice!r}")
        return tuple(Roll(*dice) for dice in rolls)

    def _check_paper(self, seat: int, sheet: tuple[int, ...], turn: int, rolls: tuple[Roll, ...]) -> None:
        """A paper sheet is entered after the rolls, with pairs that the rolls explain."""
        pairs = Counter(Roll(sheet[a], sheet[b]) for a, b in self.pad.pairs if sheet[a])
        require(turn == TURNS or not pairs, f"sheets[{seat}]",
                f"is entered after the {TURNS} rolls, but only {turn} are made")
        extra = pairs - Counter(rolls)
        require(not extra, f"sheets[{seat}]",
                "holds pairs no roll of the game explains: " + ", ".join(f"{r.low} {r.high}" for r in extra))

    def _check_progress(self, seat: int, sheet: tuple[int, ...], turn: int, roll: Roll | None) -> None:
        pairs = (POSITIONS - sheet.count(0)) // 2
        expected = f"{turn}" if roll is None else f"{turn} or {turn + 1}"
        require(pairs == turn or (roll is not None and pairs == turn + 1), f"sheets[{seat}]",
                f"holds {pairs} pairs, but after {turn} turns it should hold {expected}")
        if roll is not None and pairs == turn + 1:
            require(any(sorted((sheet[left], sheet[right])) == [roll.low, roll.high]
                        for left, right in self.pad.pairs), f"sheets[{seat}]",
                    f"has written this turn but no pair holds the roll {roll.low} {roll.high}")
