"""Splitter: the roll, each player's sheet with the legal pairs highlighted, the live score
breakdown, and the final ranking with every sheet's points by number."""
from __future__ import annotations

from kivy.app import App
from kivy.properties import (BooleanProperty, ColorProperty, ListProperty, NumericProperty, ObjectProperty,
                             StringProperty)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

from assistant.screens import palette
from assistant.screens.dice import DicePicker
from assistant.screens.game import GameScreen
from assistant.screens.text import number
from assistant.views import Choice, ViewState
from engine.core import CHANCE
from engine.splitter import TURNS, Breakdown, Place, Roll, SplitterBoard
from engine.text import tr

FACES = tuple(str(face) for face in range(1, 7))


class SheetCell(ButtonBehavior, Label):
    """One frame position: no cell, an empty or written cell, a star or heart cell."""

    kind = StringProperty("none")    # "none", "cell", "star" or "heart"
    legal = BooleanProperty(False)   # in a pair the roll may be written in
    scoring = BooleanProperty(False)  # in a group that scores
    cx = NumericProperty(0)
    cy = NumericProperty(0)
    board = ObjectProperty(None, allownone=True)

    def on_release(self):
        self.board.cell_tapped(self.cx, self.cy)


class DieView(ButtonBehavior, Label):
    """A die of the roll; the chosen one goes in the cell you touch, the other in its mirror."""

    chosen = BooleanProperty(False)
    index = NumericProperty(0)
    board = ObjectProperty(None, allownone=True)

    def on_release(self):
        self.board.choose_die(self.index)


class SeatTab(ButtonBehavior, BoxLayout):
    seat = NumericProperty(0)
    name = StringProperty("")
    score = StringProperty("")
    rgba = ColorProperty(palette.UNKNOWN)
    ink = ColorProperty(palette.TEXT)
    shown = BooleanProperty(False)
    writing = BooleanProperty(False)
    board = ObjectProperty(None, allownone=True)

    def on_release(self):
        self.board.show_seat(self.seat)


class SplitterBoardWidget(BoxLayout):
    screen = ObjectProperty(None)
    seat = NumericProperty(0)           # whose sheet is shown
    die = NumericProperty(0)            # which die goes in the touched cell
    dice = ListProperty([])             # the roll's two numbers as text ([] before the roll)
    seat_rows = ListProperty([])
    breakdown_rows = ListProperty([])
    total_text = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._match_id = None
        cells = self.ids.sheet
        for y in range(SplitterBoard.HEIGHT):
            for x in range(SplitterBoard.WIDTH):
                cells.add_widget(SheetCell(cx=x, cy=y, board=self))

    def follow(self, view: ViewState) -> None:
        """Show a new match from its first sheet, then the sheets of the players still writing."""
        waiting = view.board.waiting
        if view.match_id != self._match_id:
            self._match_id, self.seat = view.match_id, 0
        if waiting and self.seat not in waiting:
            self.seat = waiting[0]

    def update(self, view: ViewState) -> None:
        app = App.get_running_app()
        board: SplitterBoard = view.board
        waiting = board.waiting
        self.dice = [] if board.roll is None else [str(board.roll.low), str(board.roll.high)]
        self.seat_rows = [{"seat": s, "name": seat.name, "score": number(seat.score), "board": self,
                           "rgba": palette.colour(seat.colour), "ink": palette.ink(seat.colour),
                           "shown": s == self.seat, "writing": s in waiting}
                          for s, seat in enumerate(view.seats)]
        self._show_sheet(view)

    def _show_sheet(self, view: ViewState) -> None:
        app = App.get_running_app()
        layout, sheet = view.board.layout, view.board.sheets[self.seat]
        legal = {cell for choice in view.choices if isinstance(choice.action, Place) and choice.seat == self.seat
                 for cell in ((choice.action.x, choice.action.y), (choice.action.mirror_x, choice.action.y))}
        for cell in self.ids.sheet.children:
            x, y = cell.cx, cell.cy
            cell.kind = layout[y][x]
            mark = {"star": "\u2605", "heart": "\u2665"}.get(cell.kind, "")
            written = sheet.rows[y][x]
            cell.text = (str(written) if written else "") + (
                f"[size={int(cell.font_size * 0.5)}][font=DejaVuSans]{mark}[/font][/size]" if mark else "")
            cell.legal = (x, y) in legal
            cell.scoring = (x, y) in sheet.scoring
        self.breakdown_rows = [{"text": app.t(line), "rgba": palette.TEXT if points else palette.DIM}
                               for line, points in breakdown_lines(sheet.breakdown)]
        self.total_text = app.tr("{name}'s sheet scores {total}", name=self.screen.view.seats[self.seat].name,
                                 total=sheet.breakdown.total)

    # --- touches -------------------------------------------------------------------------------

    def show_seat(self, seat: int) -> None:
        self.seat = seat
        self.screen.update(self.screen.view)

    def choose_die(self, index: int) -> None:
        self.die = index

    def cell_tapped(self, x: int, y: int) -> None:
        """Write the chosen die here and the other in the mirror cell (the engine says why not)."""
        roll = self.screen.view.board.roll or Roll(1, 1)
        here, there = (roll.low, roll.high) if self.die == 0 else (roll.high, roll.low)
        self.die = 0
        self.screen.attempt(Place(self.seat, x, y, here, there))


def breakdown_lines(result: Breakdown) -> list[tuple[object, int]]:
    """(sentence, points) for each scoring group, each group already too big, and the hearts."""
    lines = []
    for group in result.groups:
        count = len(group.cells)
        if group.points:
            if count == 1:
                text = tr("a lone 1 on a star: {points}", points=group.points) if group.star else \
                    tr("a lone 1: {points}", points=group.points)
            elif group.star:
                text = tr("{count} touching {number}s with a star: {points}", count=count, number=group.number,
                          points=group.points)
            else:
                text = tr("{count} touching {number}s: {points}", count=count, number=group.number,
                          points=group.points)
            lines.append((text, group.points))
        elif count > group.number:
            lines.append((tr("{count} touching {number}s: 0, too many", count=count, number=group.number), 0))
    if result.hearts_bonus:
        lines.append((tr("the hearts hold one number: +{bonus}", bonus=result.hearts_bonus), result.hearts_bonus))
    return lines


class FinalBreakdown(ScrollView):
    """Every sheet's points by number: up to twelve players, it scrolls only where its text would
    be smaller than the table's least size."""


class SplitterScreen(GameScreen):
    board_class = SplitterBoardWidget
    picker_class = DicePicker

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.side_width = 250
        self.final_breakdown = FinalBreakdown()

    def update(self, view: ViewState) -> None:
        self.picker.configure([("", FACES, ""), ("", FACES, "")], lambda faces: Roll(int(faces[0]), int(faces[1])))
        self.board.follow(view)  # before the side list is filtered by the sheet shown
        super().update(view)
        app = App.get_running_app()
        self.picker.title = app.tr("The two dice {name} rolled", name=view.seats[view.board.roller].name) \
            if not self.over else ""
        if self.over:
            if not self.ids.final_extra.children:
                self.ids.final_extra.add_widget(self.final_breakdown)
            table = self.final_breakdown.ids.table
            table.rows_data, table.colours = final_rows(app, view)

    def turn(self, view: ViewState):
        board: SplitterBoard = view.board
        turn = min(board.turn + 1, TURNS)
        if view.to_play == CHANCE:
            return tr("Turn {turn} of {turns}: {name} rolls the two dice", turn=turn, turns=TURNS,
                      name=view.seats[board.roller].name)
        if board.roll is not None:  # a turn ends as its roll is written: never once the game is over
            return tr("Turn {turn} of {turns}: everyone writes {low} and {high}", turn=turn, turns=TURNS,
                      low=board.roll.low, high=board.roll.high)
        return view.turn

    def visible(self, choice: Choice) -> bool:
        return choice.seat == self.board.seat or choice.seat == CHANCE

    def label(self, action):
        if isinstance(action, Place):
            return tr("Row {row}: {left} in column {col}, {right} in column {mirror}", left=action.left,
                      right=action.right, row=action.y + 1, col=action.x + 1, mirror=action.mirror_x + 1)
        if isinstance(action, Roll):
            return tr("rolled {low} and {high}", low=action.low, high=action.high)
        return str(action)

    def advice_line(self, choice: Choice):
        if not choice.advice:
            return ""
        return tr("expected final score {score}", score=f"{float(choice.value):.1f}")


def final_rows(app, view: ViewState) -> tuple[list[list[str]], list]:
    """Points of each sheet by number (1s to 6s), the hearts bonus and the total."""
    rows = [[""] + [f"{n}s" for n in range(1, 7)] + [app.tr("hearts"), app.tr("total")]]
    colours = [None] * len(rows[0])
    for seat, info in enumerate(view.seats):
        result = view.board.sheets[seat].breakdown
        by_number = [sum(g.points for g in result.groups if g.number == n) for n in range(1, 7)]
        rows.append([info.name] + [str(p) for p in by_number] + [str(result.hearts_bonus), str(result.total)])
    return rows, colours


SCREEN = SplitterScreen
