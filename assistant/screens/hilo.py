"""Hilo: every player's grid, the discard and the drawn card, HILO prompts, the round summary and
the running scores (table and chart); cards drawn or turned up are entered by colour and value.

From four players the grids would be too small to read or touch at 800x480: the grid in play is
shown large (the mover's, the one being turned up, in setup the next to turn up) and every
grid small beside it; a small grid tapped shows that grid large until the next move (in setup,
the player about to turn up a card picks their own), or names the youngest in a tie."""
from __future__ import annotations

from kivy.app import App
from kivy.properties import (BooleanProperty, ColorProperty, ListProperty, NumericProperty, ObjectProperty,
                             StringProperty)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from assistant.screens import palette
from assistant.screens.cards import CardPicker
from assistant.screens.game import GameScreen
from assistant.screens.text import signed
from assistant.screens.widgets import Chart, Hideable, Table, discard
from assistant.views import ViewState
from engine.core import TERMINAL
from engine.hilo import (SETUP_REVEALS, VERTICAL, BoardCard, BoardGrid, Draw, Flip, HiloBoard, Keep, Place, Remove,
                         Reveal, Seen, Slide, Take, Youngest, colour_name, line_name, place)
from engine.text import Text, tr

FOCUS_FROM = 4  # players from which the grid in play is shown large and every grid small beside it


class CardFace(Label):
    """One card: face up (colour and value), face down, or the hole a diagonal left."""

    face = StringProperty("down")   # "up", "down", "gap" or "none" (no card)
    rgba = ColorProperty(palette.UNKNOWN)
    ink = ColorProperty(palette.TEXT)
    mark = StringProperty("")       # "hilo": in a HILO line; "pending": being turned up

    def show(self, card: BoardCard | None) -> None:
        if card is None:
            self.face, self.text, self.mark = "none", "", ""
            return
        self.face, self.mark = card.face, card.mark
        self.text = str(card.value) if card.face == "up" else ""
        if card.face == "up":
            self.rgba, self.ink = palette.colour(card.colour), palette.ink(card.colour)


class CardView(ButtonBehavior, CardFace):
    """A card of the grid shown large: a touch on it goes to the board."""

    seat = NumericProperty(-1)
    row = NumericProperty(0)
    col = NumericProperty(0)
    board = ObjectProperty(None, allownone=True)

    def on_release(self):
        if self.board is not None and self.seat >= 0:
            self.board.cell_tapped(self.seat, self.row, self.col)


class GridName(BoxLayout):
    """A grid's player name and total, on the player's colour."""

    name_text = StringProperty("")
    total_text = StringProperty("")
    rgba = ColorProperty(palette.UNKNOWN)
    ink = ColorProperty(palette.TEXT)
    wanted = NumericProperty(17)
    pad = NumericProperty(6)
    total_width = NumericProperty(48)


class GridBase(BoxLayout):
    """A player's name, total and 3x3 (or smaller) grid of cards."""

    seat = NumericProperty(0)
    name = StringProperty("")
    rgba = ColorProperty(palette.UNKNOWN)
    ink = ColorProperty(palette.TEXT)
    active = BooleanProperty(False)
    large = BooleanProperty(False)  # a small grid whose seat is shown large beside
    total = StringProperty("")
    rows = NumericProperty(3)
    cols = NumericProperty(3)
    board = ObjectProperty(None, allownone=True)

    def show(self, grid: BoardGrid) -> None:
        rows, cols = grid.shape
        cells = self.ids.cells
        if (rows, cols) != (self.rows, self.cols) or len(cells.children) != rows * cols:
            self.rows, self.cols = rows, cols
            discard(cells)
            for r in range(rows):
                for c in range(cols):
                    cells.add_widget(self.card(r, c))
        for index, view in enumerate(reversed(cells.children)):
            view.show(grid.cells[index // cols][index % cols])

    def card(self, row: int, col: int) -> CardFace:
        raise NotImplementedError


class PlayerGrid(GridBase):
    """A grid shown large, its points too: its cards take touches."""

    points = StringProperty("")

    def show(self, grid: BoardGrid) -> None:
        super().show(grid)
        for view in self.ids.cells.children:  # the large grid beside small ones shows one seat, then another
            view.seat = self.seat

    def card(self, row: int, col: int) -> CardFace:
        return CardView(seat=self.seat, row=row, col=col, board=self.board)


class SmallGrid(ButtonBehavior, GridBase):
    """A grid shown small beside the large one: a touch on it goes to the board."""

    def card(self, row: int, col: int) -> CardFace:
        return CardFace()

    def on_release(self):
        self.board.grid_tapped(self.seat)


class HiloBoardWidget(BoxLayout):
    screen = ObjectProperty(None)
    pile_text = StringProperty("")
    round_text = StringProperty("")
    note_text = StringProperty("")
    coach_text = StringProperty("")
    hand_shown = BooleanProperty(False)
    mode = StringProperty("place")       # what a tap on a grid does with the drawn card: place / flip

    focused = BooleanProperty(False)  # one grid large, every grid small (FOCUS_FROM players)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._match_id = None
        self._large = self.ids.large.__self__  # kept: in the row only when focused
        self._chosen: tuple[int, int] | None = None  # (seat, moves): a small grid tapped
        self._in_play = 0  # the seat of the grid in play (see _focus)

    def update(self, view: ViewState) -> None:
        app = App.get_running_app()
        board: HiloBoard = view.board
        grids = self.ids.grids
        if view.match_id != self._match_id or len(grids.children) != len(view.seats):
            self._match_id, self._chosen, self._in_play = view.match_id, None, 0
            self.focused = len(view.seats) >= FOCUS_FROM
            discard(grids)
            for seat in range(len(view.seats)):
                grids.add_widget((SmallGrid if self.focused else PlayerGrid)(seat=seat, board=self))
            if self._large.parent is not None and not self.focused:
                self.ids.grids_row.remove_widget(self._large)
            elif self._large.parent is None and self.focused:
                self.ids.grids_row.add_widget(self._large, index=1)
        shown = list(grids.children)
        if self.focused:
            self._large.seat = self._focus(view)
            shown.append(self._large)
        for widget in shown:
            info, grid = view.seats[widget.seat], board.grids[widget.seat]
            widget.name, widget.rgba, widget.ink = info.name, palette.colour(info.colour), palette.ink(info.colour)
            widget.active = info.to_play or grid.revealing
            widget.total = str(grid.total)
            if isinstance(widget, PlayerGrid):
                widget.points = app.tr("{shown} points face up, {expected} expected", shown=grid.known,
                                       expected=f"{float(grid.expected):.1f}")
            else:
                widget.large = widget.seat == self._large.seat
            widget.show(grid)
        self.ids.discard.show(board.discard)
        self.ids.hand.show(board.drawn)
        self.hand_shown = board.drawn is not None
        self.pile_text = app.tr("{cards} in the pile", cards=board.pile)
        self.round_text = app.tr("Round {round}", round=board.round_no)
        self.note_text = app.tr("{name} ended the round: {turns} last turns", name=view.seats[board.trigger].name,
                                turns=board.last_turns) if board.trigger is not None and board.last_turns else ""
        best = next((c for c in view.choices if c.advice), None)
        self.coach_text = self.screen.t(tr("Best: {advice}", advice=best.advice)) if best else ""

    def _focus(self, view: ViewState) -> int:
        """The seat whose grid is shown large: the one being turned up, else a small grid tapped
        since the last move (in setup: while that player has cards to turn up), else the grid in
        play: the mover's, in setup the first with cards to turn up, else the last one (a card
        drawn for the mover)."""
        board: HiloBoard = view.board
        revealing = next((seat for seat, grid in enumerate(board.grids) if grid.revealing), None)
        to_turn_up = [seat for seat, grid in enumerate(board.grids) if face_up(grid) < SETUP_REVEALS]
        setup = board.phase == HiloBoard.SETUP
        if revealing is not None:
            self._in_play = revealing
        elif board.mover is not None:
            self._in_play = board.mover
        elif setup and to_turn_up:
            self._in_play = to_turn_up[0]
        if revealing is None and self._chosen is not None:
            seat, moves = self._chosen
            if moves == view.moves or (setup and seat in to_turn_up):
                return seat
        return self._in_play

    def grid_tapped(self, seat: int) -> None:
        """A touch on a small grid: the youngest named in a tie, else that grid shown large."""
        if self.screen.view.board.phase == HiloBoard.TIE:
            return self.screen.attempt(Youngest(seat))
        self._chosen = (seat, self.screen.view.moves)
        self.update(self.screen.view)

    def cell_tapped(self, seat: int, row: int, col: int) -> None:
        """A touch on a grid card: what it means depends on the step of the turn."""
        board: HiloBoard = self.screen.view.board
        phase = board.phase
        if phase == HiloBoard.SETUP:
            return self.screen.attempt(Reveal(seat, row, col))
        if phase == HiloBoard.TIE:
            return self.screen.attempt(Youngest(seat))
        if seat != board.mover:
            return self.screen.tell(tr("Now: {what}", what=board.awaited))
        if phase == HiloBoard.TURN:
            return self.screen.attempt(Take(row, col))
        if phase == HiloBoard.DRAWN:
            return self.screen.attempt(Flip(row, col) if self.mode == "flip" else Place(row, col))
        if phase == HiloBoard.HILO:
            lines = [line for line, cells in board.grids[seat].hilos if (row, col) in cells]
            if len(lines) == 1:
                return self.screen.attempt(Remove(lines[0].kind, lines[0].index))
            return self.screen.tell(tr("Choose the line to remove in the list"))
        return self.screen.tell(tr("Choose the slide in the list"))

    def set_mode(self, mode: str) -> None:
        self.mode = mode


def face_up(grid: BoardGrid) -> int:
    return sum(card is not None and card.face == "up" for line in grid.cells for card in line)


class ScoresPanel(Hideable):
    """The running scores: a table by round and a chart of the totals; shown after each round."""

    title = StringProperty("")
    open = BooleanProperty(False)
    rows_data = ListProperty([])
    colours = ListProperty([])
    series = ListProperty([])

    def on_touch_down(self, touch):
        if not self.open or not self.collide_point(*touch.pos):
            return False
        super().on_touch_down(touch)
        return True  # the board under the panel is out of reach


def score_rows(app, view: ViewState) -> tuple[list[list[str]], list, list]:
    """(table rows, column colours, chart series) of a Hilo game's rounds so far."""
    board: HiloBoard = view.board
    rows = [[app.tr("Round")] + [seat.name for seat in view.seats]]
    running = [0] * len(view.seats)
    series = [[] for _ in view.seats]
    for number, (scores, trigger) in enumerate(board.rounds, start=1):
        rows.append([str(number)] + [f"{score}*" if seat == trigger else str(score)
                                     for seat, score in enumerate(scores)])
        for seat, score in enumerate(scores):
            running[seat] += score
            series[seat].append(running[seat])
    rows.append([app.tr("Total")] + [str(total) for total in board.totals])
    colours = [None] + [palette.colour(seat.colour) for seat in view.seats]
    return rows, colours, [(palette.colour(seat.colour), points) for seat, points in zip(view.seats, series)]


class HiloScreen(GameScreen):
    board_class = HiloBoardWidget
    picker_class = CardPicker
    lowest_wins = True

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.side_width = 270
        self.scores = ScoresPanel()
        self.ids.board_area.add_widget(self.scores, index=0)  # over the board: drawn after it, touched first
        self.final_table = Table()
        self.final_chart = Chart(limit=HiloBoard.END_TOTAL)
        self._rounds_seen: tuple[int | None, int] = (None, 0)

    def update(self, view: ViewState) -> None:
        self._configure_picker(view)
        super().update(view)
        app = App.get_running_app()
        rows, colours, series = score_rows(app, view)
        self.scores.rows_data, self.scores.colours, self.scores.series = rows, colours, series
        rounds = len(view.board.rounds)
        match, seen = self._rounds_seen
        if match == view.match_id and rounds > seen and not self.over:
            scores, trigger = view.board.rounds[-1]
            self.scores.title = app.tr("Round {round} is over: {name} ended it (* doubled unless lowest)",
                                       round=rounds, name=view.seats[trigger].name)
            self.scores.open = True
        self._rounds_seen = (view.match_id, rounds)
        if self.over:
            self.scores.open = False
            if not self.ids.final_extra.children:
                self.ids.final_extra.add_widget(self.final_table)
                self.ids.final_extra.add_widget(self.final_chart)
            self.final_table.font_size = 16 * app.scale
            self.final_table.rows_data, self.final_table.colours = rows, colours
            self.final_chart.series = series

    def _configure_picker(self, view: ViewState) -> None:
        """Cards are entered by colour, then value; cards already seen are dimmed."""
        palette_ = view.board.palette
        possible = {(action.colour, action.value) for action, _ in view.chance}
        kinds = [(name, initial, palette.colour(name), palette.ink(name), any(c == name for c, _ in possible))
                 for name, initial in zip(palette_.names, palette_.initials)]
        self.picker.configure(kinds, lambda colour: [(v, (colour, v) in possible) for v in HiloBoard.VALUES], Seen)

    def show_scores(self) -> None:
        self.scores.title = App.get_running_app().tr("Scores by round (* ended the round)")
        self.scores.open = not self.scores.open

    def advice_line(self, choice):
        """The expected change of the round score (the move itself is the line above), and the
        engine's remark when it makes one (a HILO completed, the round ended)."""
        if not choice.advice:
            return ""
        amount = signed(-choice.value)
        if amount == "0.0":  # "expected round score 0.0" reads as a score of nothing
            change = tr("expected round score unchanged")
        else:
            change = tr("expected round score {change}", change=amount)
        advice = choice.advice
        if isinstance(advice, Text) and advice.template == "{first} {second}":
            return tr("{change}. {remark}", change=change, remark=advice.fields["second"])
        return change

    def turn(self, view: ViewState):
        if view.to_play == TERMINAL:
            return view.turn
        return view.board.awaited

    def label(self, action):
        if isinstance(action, Take):
            return tr("Take discard: {place}", place=place(action.row, action.col))
        if isinstance(action, Draw):
            return tr("Draw from the pile")
        if isinstance(action, Place):
            return tr("Place it: {place}", place=place(action.row, action.col))
        if isinstance(action, Flip):
            return tr("Flip {place}", place=place(action.row, action.col))
        if isinstance(action, Remove):
            return tr("Remove the HILO: {line}", line=line_name(action.line))
        if isinstance(action, Keep):
            return tr("Keep the HILO")
        if isinstance(action, Slide):
            return tr("Slide up: 2 rows of 3") if action.direction == VERTICAL else tr("Slide sideways: 3 rows of 2")
        if isinstance(action, Reveal):
            return tr("{name} turns up {place}", name=self.view.seats[action.seat].name,
                      place=place(action.row, action.col))
        if isinstance(action, Youngest):
            return tr("{name} is the youngest", name=self.view.seats[action.seat].name)
        if isinstance(action, Seen):
            return tr("turned up the {colour} {value}", colour=colour_name(action.colour), value=action.value)
        return str(action)


SCREEN = HiloScreen
