"""Splitter: the roll, each player's sheet with the legal pairs highlighted, the live score
breakdown, and the final ranking with every sheet's points by number.

On paper (the game's ``paper`` option) the screen shows the roll and the turn while the players
write on their sheets; after the 22 rolls each sheet is entered: read by the camera (the cells
it is unsure of marked, a tap changes one, "Count it" enters the sheet) or tapped pair by pair,
choosing each time which of the rolls left goes there."""
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
from assistant.splitter_sheets import SheetReview
from assistant.views import ERROR, Choice, ViewState
from engine.core import CHANCE
from engine.splitter import TURNS, Breakdown, Place, Roll, SplitterBoard
from engine.text import tr

FACES = tuple(str(face) for face in range(1, 7))


class SheetCell(ButtonBehavior, Label):
    """One frame position: no cell, an empty or written cell, a star or heart cell."""

    kind = StringProperty("none")    # "none", "cell", "star" or "heart"
    legal = BooleanProperty(False)   # in a pair the roll may be written in
    flagged = BooleanProperty(False)  # a sheet read by the camera: to check on the paper
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


class RollChip(ButtonBehavior, Label):
    """On paper: one of the rolls still to enter on the sheet shown (how many times, if more)."""

    chosen = BooleanProperty(False)
    index = NumericProperty(0)
    board = ObjectProperty(None, allownone=True)

    def on_release(self):
        self.board.choose_roll(self.index)


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
    mode = StringProperty("play")       # "play", on paper "enter" (a sheet by touch) or "review" (as read)
    roll_rows = ListProperty([])        # "enter": the rolls left to write on the sheet shown
    review_text = StringProperty("")
    can_count = BooleanProperty(False)  # "review": every cell holds a digit

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._match_id = None
        self.rolls_left: list[Roll] = []    # "enter": the distinct rolls left, as the chips show them
        self.roll_to_write: Roll | None = None
        self.review: SheetReview | None = None
        cells = self.ids.sheet
        for y in range(SplitterBoard.HEIGHT):
            for x in range(SplitterBoard.WIDTH):
                cells.add_widget(SheetCell(cx=x, cy=y, board=self))

    def follow(self, view: ViewState) -> None:
        """Show a new match from its first sheet, then the sheets of the players still writing; and
        what the panel beside the sheet shows (the breakdown; on paper the rolls left, or a sheet read)."""
        waiting = view.board.waiting
        if view.match_id != self._match_id:
            self._match_id, self.seat, self.review = view.match_id, 0, None
        if waiting and self.seat not in waiting:
            self.seat = waiting[0]
            self.roll_to_write = None
        if not waiting:
            self.review = None
        self.mode = "play" if not (view.board.paper and waiting) else "review" if self.review else "enter"
        if self.mode == "enter":
            self._rolls_left(view.board.unwritten[self.seat])

    def update(self, view: ViewState) -> None:
        app = App.get_running_app()
        board: SplitterBoard = view.board
        waiting = board.waiting
        shown = board.roll or (board.rolls[-1] if board.rolls and not waiting else None)  # on paper: the last roll
        if self.mode == "enter":
            shown = self.roll_to_write
        self.dice = [] if shown is None else [str(shown.low), str(shown.high)]
        self.seat_rows = [{"seat": s, "name": seat.name, "score": number(seat.score), "board": self,
                           "rgba": palette.colour(seat.colour), "ink": palette.ink(seat.colour),
                           "shown": s == self.seat, "writing": s in waiting}
                          for s, seat in enumerate(view.seats)]
        self._show_sheet(view)

    def _show_sheet(self, view: ViewState) -> None:
        app = App.get_running_app()
        layout, sheet = view.board.layout, view.board.sheets[self.seat]
        legal = {cell for choice in view.choices if isinstance(choice.action, Place) and choice.seat == self.seat
                 and (self.roll_to_write is None or Roll(choice.action.left, choice.action.right) == self.roll_to_write)
                 for cell in ((choice.action.x, choice.action.y), (choice.action.mirror_x, choice.action.y))}
        review = self.review if self.mode == "review" else None
        flagged = self._review_flags(view) if review else set()
        for cell in self.ids.sheet.children:
            x, y = cell.cx, cell.cy
            cell.kind = layout[y][x]
            mark = {"star": "\u2605", "heart": "\u2665"}.get(cell.kind, "")
            written = review.values.get((x, y), 0) if review else sheet.rows[y][x]
            cell.text = (str(written) if written else "") + (
                f"[size={int(cell.font_size * 0.5)}][font=DejaVuSans]{mark}[/font][/size]" if mark else "")
            cell.legal = (x, y) in legal and not review
            cell.scoring = (x, y) in sheet.scoring and not review
            cell.flagged = (x, y) in flagged
        self.breakdown_rows = [{"text": app.t(line), "rgba": palette.TEXT if points else palette.DIM}
                               for line, points in breakdown_lines(sheet.breakdown)]
        self.total_text = app.tr("{name}'s sheet scores {total}", name=self.screen.view.seats[self.seat].name,
                                 total=sheet.breakdown.total)

    def _rolls_left(self, unwritten: tuple[Roll, ...]) -> None:
        """The chips of the rolls left on the sheet shown; the roll chosen stays if still left."""
        self.rolls_left = sorted(set(unwritten), key=Roll.sort_key)
        if self.roll_to_write not in self.rolls_left:
            self.roll_to_write = self.rolls_left[0] if len(self.rolls_left) == 1 else None
        self.roll_rows = [{"text": f"{roll.low} {roll.high}" + (f" \u00d7{count}" if count > 1 else ""),
                           "index": i, "chosen": roll == self.roll_to_write, "board": self}
                          for i, roll in enumerate(self.rolls_left) for count in [unwritten.count(roll)]]

    def _review_flags(self, view: ViewState) -> set[tuple[int, int]]:
        """The cells of the sheet as read to check: unsure, unread, unexplained by the game's rolls,
        or unlike what the kiosk already holds for this seat; said above the buttons."""
        app = App.get_running_app()
        review, name = self.review, view.seats[self.seat].name
        unexplained = set(review.unexplained(list(view.board.rolls)))
        differ = set(review.placements(app.session.position, self.seat)[1])
        unread = {cell for cell, digit in review.values.items() if not digit}
        self.can_count = not unread
        if unread:
            self.review_text = app.tr("{name}'s sheet: {count} cells could not be read: tap each to set it",
                                      name=name, count=len(unread))
        elif unexplained or differ:
            self.review_text = app.tr("{name}'s sheet: no roll of the game explains the marked cells: "
                                      "check them on the paper", name=name)
        elif review.unsure:
            self.review_text = app.tr("{name}'s sheet: check the {count} marked cells on the paper "
                                      "(a tap changes one)", name=name, count=len(review.unsure))
        else:
            self.review_text = app.tr("{name}'s sheet is read: it scores {total}", name=name,
                                      total=review.total())
        return set(review.unsure) | unread | unexplained | differ

    # --- touches -------------------------------------------------------------------------------

    def show_seat(self, seat: int) -> None:
        self.seat = seat
        self.roll_to_write = None
        self.screen.update(self.screen.view)

    def choose_die(self, index: int) -> None:
        self.die = index

    def choose_roll(self, index: int) -> None:
        self.roll_to_write, self.die = self.rolls_left[index], 0
        self.screen.update(self.screen.view)

    def cell_tapped(self, x: int, y: int) -> None:
        """Write the chosen die here and the other in the mirror cell (the engine says why not);
        on a sheet as read, the tap changes the cell's digit (1 to 6 in turn)."""
        if self.mode == "review":
            if self.review is not None and (x, y) in self.review.values:
                self.review = self.review.set((x, y), self.review.values[(x, y)] % 6 + 1)
                self.screen.update(self.screen.view)
            return
        roll = self.screen.view.board.roll if self.mode == "play" else self.roll_to_write
        if roll is None and self.mode == "enter":
            App.get_running_app().session.tell(tr("choose which roll goes there first"), ERROR)
            return
        roll = roll or Roll(1, 1)
        here, there = (roll.low, roll.high) if self.die == 0 else (roll.high, roll.low)
        self.die = 0
        self.screen.attempt(Place(self.seat, x, y, here, there))

    def read_sheet(self) -> None:
        """Ask the camera for the sheet under it (the answer comes in ``sheet_read``)."""
        app = App.get_running_app()
        app.session.tell(tr("Reading the sheet under the camera..."))
        app.read_sheet(self.screen.view.board.pad, self.sheet_read)

    def sheet_read(self, outcome) -> None:
        """The camera's reading: a sheet to check (shown for the seat whose box is crossed, when
        that seat still has to enter theirs), or why none was read."""
        app = App.get_running_app()
        view = self.screen.view
        if not isinstance(outcome, SheetReview):
            app.session.tell(outcome, ERROR)
            return
        if view is None or not view.board.waiting:
            return
        self.review = outcome
        if outcome.seat is not None and outcome.seat - 1 in view.board.waiting:
            self.seat = outcome.seat - 1
        app.session.tell(tr("Sheet read: check it, then count it."))
        self.screen.update(view)

    def count_sheet(self) -> None:
        """Enter the sheet as read on the seat shown: every pair at once, or none (the engine
        says which pair no roll explains)."""
        app = App.get_running_app()
        places, differ = self.review.placements(app.session.position, self.seat)
        if differ:
            x, y = differ[0]
            app.session.tell(tr("cell ({x},{y}) is entered on the kiosk with another number than on the paper",
                                x=x, y=y), ERROR)
            return
        name = self.screen.view.seats[self.seat].name
        view = app.session.play_all(places)
        if view.message is not None and view.message.kind != ERROR:
            self.review = None
            app.session.tell(tr("{name}'s sheet is entered.", name=name))

    def cancel_review(self) -> None:
        self.review = None
        self.screen.update(self.screen.view)


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
            sentence = ("Turn {turn} of {turns}: {name} rolls; everyone writes on paper" if board.paper else
                        "Turn {turn} of {turns}: {name} rolls the two dice")
            return tr(sentence, turn=turn, turns=TURNS, name=view.seats[board.roller].name)
        if board.paper and board.waiting:
            return tr("The {turns} rolls are made: enter each sheet", turns=TURNS)
        if board.roll is not None:  # a turn ends as its roll is written: never once the game is over
            return tr("Turn {turn} of {turns}: everyone writes {low} and {high}", turn=turn, turns=TURNS,
                      low=board.roll.low, high=board.roll.high)
        return view.turn

    def visible(self, choice: Choice) -> bool:
        """The moves of the sheet shown; on paper, those of the roll chosen to write (none over a
        sheet being checked)."""
        if choice.seat == CHANCE:
            return True
        board, action = self.board, choice.action
        if choice.seat != board.seat or board.mode == "review":
            return False
        return board.mode == "play" or Roll(action.left, action.right) == board.roll_to_write

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
