"""Widgets every screen shares; their looks are in kv/common.kv."""
from __future__ import annotations

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.properties import (BooleanProperty, ColorProperty, ListProperty, NumericProperty, ObjectProperty,
                             StringProperty)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.recycleview.views import RecycleDataViewBehavior
from kivy.utils import escape_markup
from kivy.uix.widget import Widget

from assistant.screens import palette


def shown(widget) -> bool:
    """False when the widget or a parent is hidden (opacity 0): hidden parts of a screen keep
    their place in the layout, but must not take touches."""
    while widget is not None:
        if widget.opacity == 0:
            return False
        widget = widget.parent if widget.parent is not widget else None
    return True


def fit_children(container, count: int, make) -> list:
    """Add children made by ``make()`` or remove the last ones so ``container`` holds ``count``;
    returns them in the order shown. Widgets are reused: making one costs milliseconds."""
    while len(container.children) < count:
        container.add_widget(make())
    while len(container.children) > count:
        container.remove_widget(container.children[0])
    return list(reversed(container.children))


class HidesTouches:
    """Mixin: while hidden (see ``shown``) the widget and its children ignore touches, instead
    of a disabled widget swallowing the touches meant for what is visible under it."""

    def on_touch_down(self, touch):
        return shown(self) and super().on_touch_down(touch)

    def on_touch_move(self, touch):
        return shown(self) and super().on_touch_move(touch)

    def on_touch_up(self, touch):
        return shown(self) and super().on_touch_up(touch)


class TouchButton(HidesTouches, ButtonBehavior, Label):
    """A button at least 48 px each way (scaled), with a flat rounded background. A label too
    wide for the button (longer words in another language) is set smaller, never cut."""

    bg = ColorProperty(palette.RAISED)
    selected = BooleanProperty(False)
    wanted = NumericProperty(20)  # the font size asked for; ``font_size`` is it, or what fits
    MIN_FONT = 11

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bind(wanted=self._fit, width=self._fit, text=self._fit, padding=self._fit, bold=self._fit)
        self._fit()

    def _fit(self, *_):
        room = self.width - 2 * self.padding[0]
        if room <= 0:
            return
        natural = CoreLabel(font_size=self.wanted, bold=self.bold, font_name=self.font_name).get_extents(self.text)[0]
        self.font_size = self.wanted if natural <= room else max(self.MIN_FONT, self.wanted * room / natural)


class Hideable(HidesTouches, BoxLayout):
    """A part of a screen shown or hidden with its opacity (sized to nothing when hidden)."""


class Panel(HidesTouches, BoxLayout):
    bg = ColorProperty(palette.PANEL)


class Swatch(ButtonBehavior, Widget):
    """A round colour spot: a player's colour, tappable to change it."""

    rgba = ColorProperty(palette.UNKNOWN)
    selected = BooleanProperty(False)


class ChoiceItem(RecycleDataViewBehavior, ButtonBehavior, BoxLayout):
    """One legal action in the side list: its label, the advice sentence, best-first marks."""

    index = NumericProperty(0)     # the move's place in the view-state's choices
    label = StringProperty("")
    advice = StringProperty("")
    best = BooleanProperty(False)
    highlighted = BooleanProperty(False)
    seat_rgba = ColorProperty(palette.RAISED)
    screen = ObjectProperty(None, allownone=True)
    title = StringProperty("")  # the label as markup, with a star on the best moves

    def on_label(self, *_):
        self._title()

    def on_best(self, *_):
        self._title()

    def _title(self):
        text = escape_markup(self.label)
        self.title = f"[font=DejaVuSans]\u2605[/font] {text}" if self.best else text

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



class Table(GridLayout):
    """A small table of text: ``rows`` is a list of rows of strings, the first row a heading;
    ``colours`` optionally gives each column's colour (players' colours for their columns)."""

    rows_data = ListProperty([])
    colours = ListProperty([])
    font_size = NumericProperty(18)
    totals_row = BooleanProperty(True)  # the last row is a total (bold)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bind(rows_data=self._fill, colours=self._fill, font_size=self._fill)

    def _fill(self, *_):
        self.clear_widgets()
        if not self.rows_data:
            return
        self.cols = len(self.rows_data[0])
        for r, row in enumerate(self.rows_data):
            for c, text in enumerate(row):
                colour = self.colours[c] if c < len(self.colours) and self.colours[c] else palette.TEXT
                bold = r == 0 or (self.totals_row and r == len(self.rows_data) - 1)
                self.add_widget(Label(text=str(text), font_size=self.font_size, bold=bold,
                                      color=colour if r == 0 else palette.TEXT))


class Chart(Widget):
    """Running totals by round, one line per player: ``series`` = [(rgba, [total after round 1, ...])];
    ``limit`` draws a dashed threshold (Hilo's 100)."""

    series = ListProperty([])
    limit = NumericProperty(0)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bind(series=self._draw, limit=self._draw, pos=self._draw, size=self._draw)

    def _draw(self, *_):
        self.canvas.clear()
        rounds = max((len(points) for _, points in self.series), default=0)
        if not rounds:
            return
        values = [v for _, points in self.series for v in points] + [0, self.limit]
        low, high = min(values), max(values) or 1
        pad = 8
        width, height = self.width - 2 * pad, self.height - 2 * pad

        def at(index, value):
            x = self.x + pad + (width * (index + 1) / rounds if rounds else 0)
            y = self.y + pad + height * (value - low) / ((high - low) or 1)
            return x, y

        with self.canvas:
            Color(*palette.RAISED)
            Line(points=[*at(-1, low), *at(rounds - 1, low)], width=1)
            if self.limit:
                Color(*palette.BAD)
                Line(points=[*at(-1, self.limit), *at(rounds - 1, self.limit)], width=1, dash_length=6,
                     dash_offset=4)
                self._text(str(self.limit), at(-1, self.limit), palette.BAD)
            self._text(str(low), at(-1, low), palette.DIM)
            for rgba, points in self.series:
                Color(*rgba)
                line = [coordinate for i, v in enumerate([0, *points]) for coordinate in at(i - 1, v)]
                Line(points=line, width=2)
                for i, v in enumerate(points):
                    x, y = at(i, v)
                    Ellipse(pos=(x - 4, y - 4), size=(8, 8))

    def _text(self, text: str, where: tuple[float, float], rgba) -> None:
        """A small figure drawn on the chart, just above ``where`` (the axis values)."""
        label = CoreLabel(text=text, font_size=max(10, self.height / 14))
        label.refresh()
        Color(*rgba)
        Rectangle(texture=label.texture, pos=(where[0] + 2, where[1] + 2), size=label.texture.size)
