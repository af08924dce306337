"""Widgets every screen shares; their looks are in kv/common.kv."""
from __future__ import annotations

from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.recycleview.views import RecycleDataViewBehavior
from kivy.uix.widget import Widget

from assistant.screens import palette


class TouchButton(ButtonBehavior, Label):
    """A button at least 48 px each way (scaled), with a flat rounded background."""

    bg = ColorProperty(palette.RAISED)
    selected = BooleanProperty(False)


class Panel(BoxLayout):
    bg = ColorProperty(palette.PANEL)


class Swatch(ButtonBehavior, Widget):
    """A round colour spot: a player's colour, tappable to change it."""

    rgba = ColorProperty(palette.UNKNOWN)
    selected = BooleanProperty(False)


class ChoiceItem(RecycleDataViewBehavior, ButtonBehavior, BoxLayout):
    """One legal action in the side list: its label, the advice sentence, best-first marks."""

    index = NumericProperty(0)
    label = StringProperty("")
    advice = StringProperty("")
    best = BooleanProperty(False)
    highlighted = BooleanProperty(False)
    seat_rgba = ColorProperty(palette.RAISED)
    screen = ObjectProperty(None, allownone=True)

    def refresh_view_attrs(self, rv, index, data):
        self.index = index
        return super().refresh_view_attrs(rv, index, data)

    def on_release(self):
        self.screen.choose(self.index)


class TextRow(RecycleDataViewBehavior, Label):
    """A line of a list (results, history)."""

    rgba = ColorProperty(palette.TEXT)


class SeatBadge(BoxLayout):
    """A player's name and score on a coloured tab; ``active`` when they are to play."""

    name = StringProperty("")
    score = StringProperty("")
    rgba = ColorProperty(palette.UNKNOWN)
    ink = ColorProperty(palette.TEXT)
    active = BooleanProperty(False)

