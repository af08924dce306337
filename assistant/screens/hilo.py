"""Hilo: every player's grid, the discard and the drawn card, HILO prompts, the round summary and
the running scores (table and chart); cards drawn or turned up are entered by colour and value."""
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
from assistant.screens.widgets import Chart, Hideable, Table
from assistant.views import ViewState
from engine.core import TERMINAL
from engine.hilo import (VERTICAL, BoardCard, BoardGrid, Draw, Flip, HiloBoard, Keep, Place, Remove, Reveal, Seen,
                         Slide, Take, Youngest, line_name, place)
from engine.text import Text, tr


class CardView(ButtonBehavior, Label):
    """One card: face up (colour and value), face down, or the hole a diagonal left."""

    face = StringProperty("down")   # "up", "down", "gap" or "none" (no card)
    rgba = ColorProperty(palette.UNKNOWN)
    ink = ColorProperty(palette.TEXT)
    mark = StringProperty("")       # "hilo": in a HILO line; "pending": being turned up
    seat = NumericProperty(-1)
    row = NumericProperty(0)
    col = NumericProperty(0)
    board = ObjectProperty(None, allownone=True)

    def show(self, card: BoardCard | None) -> None:
        if card is None:
            self.face, self.text, self.mark = "none", "", ""
            return
        self.face, self.mark = card.face, card.mark
        self.text = str(card.value) if card.face == "up" else ""
        if card.face == "up":
            self.rgba, self.ink = palette.colour(card.colour), palette.ink(card.colour)

    def on_release(self):
        if self.board is not None and self.seat >= 0:
            self.board.cell_tapped(self.seat, self.row, self.col)


class PlayerGrid(BoxLayout):
    """A player's name, points and 3x3 (or smaller) grid."""

    seat = NumericProperty(0)
    name = StringProperty("")
    rgba = ColorProperty(palette.UNKNOWN)
    ink = ColorProperty(palette.TEXT)
    active = BooleanProperty(False)
    total = StringProperty("")
    points = StringProperty("")
    rows = NumericProperty(3)
    cols = NumericProperty(3)
    board = ObjectProperty(None, allownone=True)

    def show(self, grid: BoardGrid) -> None:
        rows, cols = grid.shape
        cells = self.ids.cells
        if (rows, cols) != (self.rows, self.cols) or len(cells.children) != rows * cols:
            self.rows, self.cols = rows, cols
            cells.clear_widgets()
            for r in range(rows):
                for c in range(cols):
                    cells.add_widget(CardView(seat=self.seat, row=r, col=c, board=self.board))
        for view in cells.children:
            view.show(grid.cells[view.row][view.col])


class HiloBoardWidget(BoxLayout):
    screen = ObjectProperty(None)
    pile_text = StringProperty("")
    round_text = StringProperty("")
    note_text = StringProperty("")
    coach_text = StringProperty("")
    hand_shown = BooleanProperty(False)
    mode = StringProperty("place")       # what a tap on a grid does with the drawn card: place / flip

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._match_id = None

    def update(self, view: ViewState) -> None:
        app = App.get_running_app()
        board: HiloBoard = view.board
        if view.match_id != self._match_id or len(self.ids.grids.children) != len(view.seats):
            self._match_id = view.match_id
            self.ids.grids.clear_widgets()
            for seat in range(len(view.seats)):
                self.ids.grids.add_widget(PlayerGrid(seat=seat, board=self))
        for widget in self.ids.grids.children:
            info, grid = view.seats[widget.seat], board.grids[widget.seat]
            widget.name, widget.rgba, widget.ink = info.name, palette.colour(info.colour), palette.ink(info.colour)
            widget.active = info.to_play or grid.revealing
            widget.total = str(grid.total)
            widget.points = app.tr("{shown} face up, about {expected} in all", shown=grid.known,
                                   expected=f"{float(grid.expected):.1f}")
            widget.show(grid)
        self.ids.discard.show(board.discard)
        self.ids.hand.show(board.drawn)
        self.hand_shown = board.drawn is not None
        self.pile_text = app.tr("{cards} in the pile", cards=board.pile)
        self.round_text = app.tr("Round {round}", round=board.round_no)
        self.note_text = app.tr("{name} ended the round: {turns} last turns", name=view.seats[board.trigger].name,
                                turns=board.last_turns) if board.trigger is not None and board.last_turns else ""
        best = next((c for c in view.choices if c.advice), None)
        self.coach_text = app.t(tr("Best: {advice}", advice=best.advice)) if best else ""

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
        change = tr("expected round score {change}", change=signed(-choice.value))
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
            return tr("turned up the {colour} {value}", colour=action.colour, value=action.value)
        return str(action)


SCREEN = HiloScreen
