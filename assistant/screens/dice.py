"""Touch entry of a roll: a face for each die, then the game makes the roll's action from them.

Dice games configure the picker on each update: how many dice, each one's faces and colour, and
how faces become an action. Faces that cannot be rolled now are still offered: the engine says
why not when they are entered.
"""
from __future__ import annotations

import math
from typing import Callable, Sequence

from kivy.properties import ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label

from assistant.screens import palette
from assistant.screens.widgets import TouchButton, discard
from engine.core import Action


class FaceButton(TouchButton):
    die = NumericProperty(0)
    face = StringProperty("")
    picker = ObjectProperty(None, allownone=True)


class DicePicker(BoxLayout):
    screen = ObjectProperty(None)
    title = StringProperty("")
    chosen = ListProperty([])  # the face picked for each die so far ("" = not yet)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._dice: tuple = ()
        self._build: Callable[[list[str]], Action] | None = None
        self._moves = -1

    def configure(self, dice: Sequence[tuple[str, Sequence[str], str]], build: Callable[[list[str]], Action]) -> None:
        """``dice``: (label, faces, colour name) for each die; ``build(faces)`` makes the action."""
        self._build = build
        dice = tuple((label, tuple(faces), colour) for label, faces, colour in dice)
        if dice == self._dice:
            return
        if [(label, faces) for label, faces, _ in dice] != [(label, faces) for label, faces, _ in self._dice]:
            self._rebuild(dice)
        self._dice = dice
        for button in self._buttons():  # the dice's colour: the roller's in Excape
            colour = dice[button.die][2]
            button.bg = palette.colour(colour) if colour else palette.RAISED
            button.color = palette.ink(colour) if colour else palette.TEXT

    def _rebuild(self, dice) -> None:
        """New buttons only when the dice or their faces change (making a button costs ms)."""
        self.chosen = [""] * len(dice)
        rows = self.ids.rows
        discard(rows)
        for index, (label, faces, _) in enumerate(dice):
            if label:
                rows.add_widget(DieLabel(text=label))
            row = FaceRow()
            for face in faces:
                row.add_widget(FaceButton(text=face, die=index, face=face, picker=self))
            rows.add_widget(row)
        self._mark()

    def _buttons(self) -> list[FaceButton]:
        return [child for row in self.ids.rows.children if isinstance(row, FaceRow) for child in row.children]

    def update(self, view) -> None:
        """A new position: faces half-entered for the previous one are forgotten."""
        if view.moves != self._moves:
            self._moves = view.moves
            self.clear()

    def pick(self, die: int, face: str) -> None:
        chosen = list(self.chosen)
        chosen[die] = face
        if all(chosen):
            self.chosen = [""] * len(chosen)
            self._mark()
            self.screen.attempt(self._build(chosen))
            return
        self.chosen = chosen
        self._mark()

    def clear(self) -> None:
        self.chosen = [""] * len(self.chosen)
        self._mark()

    def _mark(self) -> None:
        for button in self._buttons():
            button.selected = self.chosen[button.die] == button.face


class FaceRow(GridLayout):
    """One die's faces side by side, on more lines when they do not fit ``least`` px each."""

    least = NumericProperty(50)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bind(width=self._wrap, least=self._wrap, children=self._wrap)
        self._wrap()

    def _wrap(self, *_):
        count = max(1, len(self.children))
        lines = math.ceil(count / max(1, int((self.width + self.spacing[0]) // self.least)))
        self.cols = math.ceil(count / lines)


class DieLabel(Label):
    """The die's name above its row of faces."""
