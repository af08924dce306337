"""Excape: the track with the pawns, the ladder with each rung's combination in its owner's
colour, the roll with its exact risk figures, and what each legal placement would dislodge."""
from __future__ import annotations

import math
from fractions import Fraction

from kivy.app import App
from kivy.graphics import Color, Ellipse
from kivy.properties import (BooleanProperty, ColorProperty, ListProperty, NumericProperty, ObjectProperty,
                             StringProperty)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from assistant.screens import palette
from assistant.screens.dice import DicePicker
from assistant.screens.game import GameScreen
from assistant.screens.text import signed
from assistant.screens.widgets import FitsText, discard, fit_children
from assistant.views import Choice, ViewState
from engine.core import CHANCE
from engine.excape import (ALL_ROLLS, DIE_A, DIE_B, Again, ExcapeBoard, Place, Risk, Roll, chance_text,
                           roll_from_faces)
from engine.text import tr

BUST = Fraction(sum(roll.x_count > 0 for roll in ALL_ROLLS), len(ALL_ROLLS))  # an X on any one roll: 11/36


class TrackSpace(FitsText, Label):
    """One space of the track (START, 1.., the exit) with the pawns standing on it, side by side
    and in rows when several share it."""

    pawns = ListProperty([])  # colours of the pawns here
    exit = BooleanProperty(False)
    LABEL = 14  # px (scaled) at the bottom for the space's name

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bind(pawns=self._draw, pos=self._draw, size=self._draw)

    def _draw(self, *_):
        self.canvas.after.clear()
        count = len(self.pawns)
        if not count:
            return
        scale = App.get_running_app().scale
        width, height = self.width - 2, self.height - (self.LABEL + 2) * scale
        cols = max(range(1, count + 1), key=lambda c: min(width / c, height / math.ceil(count / c)))
        size = min(width / cols, height / math.ceil(count / cols), 22 * scale) - 2
        left = self.center_x - cols * (size + 2) / 2 + 1
        with self.canvas.after:
            for i, rgba in enumerate(self.pawns):
                x, y = left + (i % cols) * (size + 2), self.top - 2 - (i // cols + 1) * (size + 2)
                Color(0, 0, 0, 0.7)  # a dark rim keeps pawns apart from each other and the space
                Ellipse(pos=(x - 1, y - 1), size=(size + 2, size + 2))
                Color(*rgba)
                Ellipse(pos=(x, y), size=(size, size))


class Chip(Label):
    """A combination on the ladder, in its owner's colour."""

    rgba = ColorProperty(palette.UNKNOWN)


class RungRow(ButtonBehavior, BoxLayout):
    rung = NumericProperty(0)
    legal = BooleanProperty(False)
    note = StringProperty("")
    board = ObjectProperty(None, allownone=True)

    def on_release(self):
        self.board.rung_tapped(self.rung)

    def show(self, chips: list[tuple[str, str]], legal: bool, note: str) -> None:
        self.legal, self.note = legal, note
        for chip, (text, colour) in zip(fit_children(self.ids.chips, len(chips), Chip), chips):
            chip.text, chip.rgba, chip.color = text, palette.colour(colour), palette.ink(colour)


class ExcapeBoardWidget(BoxLayout):
    screen = ObjectProperty(None)
    roller = StringProperty("")
    roller_rgba = ColorProperty(palette.UNKNOWN)
    roller_ink = ColorProperty(palette.TEXT)
    dice = ListProperty([])          # the faces showing
    value_text = StringProperty("")
    risk_rows = ListProperty([])

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._length = None
        for rung in reversed(ExcapeBoard.RUNGS):
            self.ids.ladder.add_widget(RungRow(rung=rung, board=self))

    def update(self, view: ViewState) -> None:
        self._show_track(view)
        self._show_ladder(view)
        self._show_roll(view)

    def _show_track(self, view: ViewState) -> None:
        board: ExcapeBoard = view.board
        track = self.ids.track
        if self._length != board.track_length:
            self._length = board.track_length
            discard(track)
            for space in range(board.track_length + 1):
                ends = space in (0, board.track_length)  # wider: their names, and every pawn at the start
                track.add_widget(TrackSpace(text=self._space_name(space), exit=space == board.track_length,
                                            size_hint_x=2.5 if ends else 1))
        for space, widget in enumerate(reversed(track.children)):
            widget.pawns = [palette.colour(view.seats[s].colour) for s, at in enumerate(board.pawns) if at == space]

    def _space_name(self, space: int) -> str:
        app = App.get_running_app()
        if space == 0:
            return app.tr("start")
        return app.tr("exit") if space == self._length else str(space)

    def _show_ladder(self, view: ViewState) -> None:
        app = App.get_running_app()
        legal = {c.action.rung for c in view.choices if isinstance(c.action, Place)}
        figures: Risk | None = view.analysis
        dislodging = {p.rung: p.dislodges for p in figures.placements} if figures else {}
        for row in self.ids.ladder.children:
            chips = [(str(chip.value), view.seats[chip.seat].colour) for chip in view.board.chips
                     if chip.rung == row.rung]
            returned = dislodging.get(row.rung, ())
            note = app.tr("returns {combinations}", combinations=", ".join(
                f"{view.seats[d.seat].name} {d.value}" for d in returned)) if returned else ""
            row.show(chips, row.rung in legal, note)

    def _show_roll(self, view: ViewState) -> None:
        app = App.get_running_app()
        board: ExcapeBoard = view.board
        seat = view.seats[board.seat]
        self.roller = seat.name
        self.roller_rgba, self.roller_ink = palette.colour(seat.colour), palette.ink(seat.colour)
        self.dice = board.roll.faces() if board.roll is not None else []
        lines = []
        if board.phase == ExcapeBoard.DECIDE:
            self.value_text = app.tr("value {value} on roll {number}", value=board.roll.value, number=board.rolls)
            figures: Risk | None = view.analysis
            if figures is not None:  # worked out off the UI thread: a view with them follows
                lines = [app.tr("next roll shows an X: {chance}", chance=chance_text(figures.bust)),
                         app.tr("X and X: {chance}", chance=chance_text(figures.double_x)),
                         app.tr("beats {value}: {chance}", value=figures.value, chance=chance_text(figures.improve)),
                         app.tr("pawn moves on average: {spaces}",
                                spaces=f"{figures.again_movement} ({signed(figures.again_movement, 2)})")]
        elif board.phase == ExcapeBoard.ROLL:
            self.value_text = app.tr("roll {number}", number=board.rolls + 1)
            lines = [app.tr("first roll: an X counts 0") if board.rolls == 0 else
                     app.tr("an X now ends the turn: {chance}", chance=chance_text(BUST))]
        elif board.phase == ExcapeBoard.ROLLOFF:
            self.value_text = app.tr("who starts?")
            lines = [app.tr("{name} rolled {value}", name=view.seats[s].name, value=r.value)
                     for s, r in zip(board.rolloff.group, board.rolloff.rolls)]
        else:
            self.value_text = ""
        if board.bust is not None:
            lines.append(app.tr("{name} rolled {faces} on roll {number}: back one space per X",
                                name=view.seats[board.bust.seat].name, faces=" ".join(board.bust.roll.faces()),
                                number=board.bust.roll_number))
        self.risk_rows = [{"text": line, "rgba": palette.TEXT} for line in lines]

    def rung_tapped(self, rung: int) -> None:
        self.screen.attempt(Place(rung))


class ExcapeScreen(GameScreen):
    board_class = ExcapeBoardWidget
    picker_class = DicePicker

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.side_width = 300

    def update(self, view: ViewState) -> None:
        seat = view.seats[view.board.seat]
        app = App.get_running_app()
        self.picker.configure([(app.tr("die A"), DIE_A, seat.colour), (app.tr("die B"), DIE_B, seat.colour)],
                              lambda faces: roll_from_faces(*faces))
        self.picker.title = app.tr("The dice {name} rolled", name=seat.name)
        super().update(view)

    def turn(self, view: ViewState):
        if view.to_play == CHANCE:
            name = view.seats[view.board.seat].name
            if view.board.phase == ExcapeBoard.ROLLOFF:
                return tr("{name} rolls the two dice to see who starts", name=name)
            return tr("{name} rolls the two dice", name=name)
        return view.turn

    def label(self, action):
        if isinstance(action, Again):
            return tr("Roll again")
        if isinstance(action, Place):
            return tr("Keep it on rung {rung}", rung=action.rung)
        if isinstance(action, Roll):
            return tr("rolled {a} and {b}", a=action.a, b=action.b)
        return str(action)

    def advice_line(self, choice: Choice):
        if not choice.advice:
            return ""
        return tr("worth {spaces} spaces (model)", spaces=f"{float(choice.value):.2f}")


SCREEN = ExcapeScreen
