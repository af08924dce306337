"""Widgets every screen shares; their looks are in kv/common.kv."""
from __future__ import annotations

import math
import re

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.lang import Builder
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.properties import (BooleanProperty, ColorProperty, ListProperty, NumericProperty, ObjectProperty,
                             StringProperty)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.recycleview import RecycleView
from kivy.uix.recycleview.views import RecycleDataViewBehavior
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from assistant.screens import palette

MARKUP = re.compile(r"\[/?(?:b|i|u|s|sub|sup|font|size|color|ref|anchor)(?:=[^\]]*)?\]")


def shown(widget) -> bool:
    """False when the widget or a parent is hidden (opacity 0): hidden parts of a screen keep
    their place in the layout, but must not take touches."""
    while widget is not None:
        if widget.opacity == 0:
            return False
        widget = widget.parent if widget.parent is not widget else None
    return True


def discard(container, widgets=None) -> None:
    """Take ``widgets`` (by default every child) out of ``container`` for good, with the bindings
    their kv rules made to the app and to other widgets. Kivy drops those only when it sees a
    widget die, which it may not (a widget collected in a reference cycle); one left on the app
    raises ReferenceError the next time what it watches changes. Not for widgets shown again."""
    for widget in list(container.children if widgets is None else widgets):
        for part in widget.walk(restrict=True):
            Builder.unbind_widget(part.uid)
        container.remove_widget(widget)


def fit_children(container, count: int, make) -> list:
    """Add children made by ``make()`` or remove the last ones so ``container`` holds ``count``;
    returns them in the order shown. Widgets are reused: making one costs milliseconds."""
    while len(container.children) < count:
        container.add_widget(make())
    while len(container.children) > count:
        discard(container, container.children[:1])
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


def strip_markup(text: str) -> str:
    return MARKUP.sub("", text).replace("&bl;", "[").replace("&br;", "]").replace("&amp;", "&")


def wrapped_lines(measure: CoreLabel, text: str, width: float) -> int | None:
    """How many lines ``text`` takes wrapped at ``width`` (None: a word is wider than that, and
    Kivy would break it mid-word)."""
    space = measure.get_extents(" ")[0]
    lines = 0
    for paragraph in text.split("\n"):
        lines, x = lines + 1, 0.0
        for word in filter(None, paragraph.split(" ")):  # as Kivy wraps: a no-break space holds
            w = measure.get_extents(word)[0]
            if w > width:
                return None
            if x and x + space + w > width:
                lines, x = lines + 1, w
            else:
                x = x + space + w if x else w
    return lines


def fitting_font(text: str, width: float, height: float, wanted: float, least: float, bold: bool = False,
                 font_name: str = "Roboto", line_height: float = 1.0) -> tuple[float, int]:
    """(font size, lines): the largest size from ``wanted`` down to ``least`` at which ``text``
    wrapped at ``width`` fits ``height``, and the lines that fit at it. One line a little smaller
    reads better than two: that is tried first, down to four fifths of ``wanted``."""
    for most_lines, smallest in ((1, max(least, wanted * 0.8)), (None, least)):
        size = wanted
        while True:
            measure = CoreLabel(font_size=size, bold=bold, font_name=font_name)
            line = measure.get_extents(" ")[1] * line_height
            fit = max(1, int(height // line)) if line else 1
            lines = wrapped_lines(measure, text, width)
            if lines is not None and lines <= min(fit, most_lines or fit):
                return size, fit
            if size <= smallest:
                break
            size = max(smallest, size * 0.9)
    return least, fit


class FitsText:
    """A Label's text as large as fits its box: ``wanted`` font size, or smaller down to
    ``least`` (0: two thirds of it), on as many lines as the box holds. Never shortened with
    "..."; what does not fit even at ``least`` loses its last lines (the layout tests catch it)."""

    wanted = NumericProperty(20)
    least = NumericProperty(0)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._refit = Clock.create_trigger(self._fit, -1)  # once per frame, after the layout
        self.bind(wanted=self._refit, least=self._refit, size=self._refit, text=self._refit,
                  padding=self._refit, bold=self._refit, font_name=self._refit)
        self._fit()

    def _fit(self, *_):
        width = self.width - self.padding[0] - self.padding[2]
        height = self.height - self.padding[1] - self.padding[3]
        self.shorten = False
        self.text_size = self.size
        if width <= 0 or height <= 0 or not self.text:
            self.font_size = self.wanted
            return
        text = strip_markup(self.text) if self.markup else self.text
        # a little room to spare: Kivy's own wrapping rounds widths differently
        least = self.least or self.wanted * 2 / 3
        self.font_size, self.max_lines = fitting_font(text, width - 3, height, self.wanted, least, self.bold,
                                                      self.font_name, self.line_height)


class FitLabel(FitsText, Label):
    """A label whose text fits its box (see FitsText); its looks are the kv's Txt and Small."""


class TouchButton(HidesTouches, ButtonBehavior, FitsText, Label):
    """A button at least 48 px each way (scaled), with a flat rounded background. Its label is
    set smaller, or on two lines, to fit (longer words in another language), never cut."""

    bg = ColorProperty(palette.RAISED)
    selected = BooleanProperty(False)


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

    def on_release(self):
        self.screen.choose(self.index)


class TextRow(RecycleDataViewBehavior, FitsText, Label):
    """A line of a list (results, history)."""

    rgba = ColorProperty(palette.TEXT)


class ScrollList(RecycleView):
    """A list that counts the rows out of sight below and above it (``below``, ``above``), for
    the hint that says it scrolls."""

    below = NumericProperty(0)
    above = NumericProperty(0)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bind(scroll_y=self._count, height=self._count)

    def on_kv_post(self, base_widget):
        self.layout_manager.bind(height=self._count)

    def _count(self, *_):
        rows = self.layout_manager
        if rows is None:
            return
        hidden = max(0.0, rows.height - self.height)
        step = (rows.default_size[1] or 1) + (rows.spacing[1] if isinstance(rows.spacing, list) else rows.spacing)
        scrolled = min(1.0, max(0.0, self.scroll_y))
        per_row = getattr(rows, "cols", None) or 1  # a grid's rows hold several items
        below = math.ceil(hidden * scrolled / step - 0.05) if hidden > 1 else 0
        above = math.ceil(hidden * (1 - scrolled) / step - 0.05) if hidden > 1 else 0
        self.below = min(below * per_row, len(self.data))
        self.above = min(above * per_row, len(self.data))


class MoreHint(FitLabel):
    """Under a ScrollList: how many of its rows are out of sight, so it is seen to scroll
    (``showing``: there are some; the kv gives it a height then)."""

    list = ObjectProperty(None, allownone=True)
    showing = BooleanProperty(False)

    _watched = None

    def on_list(self, *_):
        if self._watched is not None:
            self._watched.unbind(below=self._say, above=self._say)
        self._watched = self.list
        if self.list is not None:
            self.list.bind(below=self._say, above=self._say)
        self._say()

    def _say(self, *_):
        from kivy.app import App

        rows, tr = self.list, App.get_running_app().tr
        below, above = (rows.below, rows.above) if rows is not None else (0, 0)
        self.showing = bool(below or above)
        self.text = (f"[font=DejaVuSans]\u25bc[/font] {tr('{count} more below', count=below)}" if below else
                     f"[font=DejaVuSans]\u25b2[/font] {tr('{count} more above', count=above)}" if above else "")


class SeatBadge(BoxLayout):
    """A player's name and score on a coloured tab; ``active`` when they are to play."""

    name = StringProperty("")
    score = StringProperty("")
    rgba = ColorProperty(palette.UNKNOWN)
    ink = ColorProperty(palette.TEXT)
    active = BooleanProperty(False)



class Table(GridLayout):
    """A small table of text: ``rows`` is a list of rows of strings, the first row a heading;
    ``colours`` optionally gives each column's colour (players' colours for their columns). Its
    text is one size: ``font_size``, or smaller as its rows need, down to ``least`` (a cell too
    narrow for its word sets it smaller still). ``least_height``: the height its rows need at
    ``least`` (a table in a ScrollView is made that tall, so that it scrolls instead)."""

    rows_data = ListProperty([])
    colours = ListProperty([])
    font_size = NumericProperty(18)
    least = NumericProperty(12)
    least_height = NumericProperty(0)
    totals_row = BooleanProperty(True)  # the last row is a total (bold)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bind(rows_data=self._fill, colours=self._fill, font_size=self._fill)
        self.bind(height=self._size_text, least=self._size_text)

    def _fill(self, *_):
        discard(self)
        if not self.rows_data:
            return
        self.cols = len(self.rows_data[0])
        for r, row in enumerate(self.rows_data):
            for c, text in enumerate(row):
                colour = self.colours[c] if c < len(self.colours) and self.colours[c] else palette.TEXT
                bold = r == 0 or (self.totals_row and r == len(self.rows_data) - 1)
                self.add_widget(FitLabel(text=str(text), bold=bold, halign="center", valign="middle",
                                         color=colour if r == 0 else palette.TEXT))
        self._size_text()

    def _size_text(self, *_):
        rows = len(self.rows_data)
        if not rows or not self.font_size:
            return
        line = CoreLabel(font_size=self.font_size, bold=True).get_extents(" ")[1] / self.font_size  # per point
        frame = self.padding[1] + self.padding[3] + self.spacing[1] * (rows - 1) + 1  # a pixel for rounding
        self.least_height = rows * self.least * line + frame
        size = max(self.least, min(self.font_size, (self.height - frame) / rows / line))
        for label in self.children:
            label.wanted, label.least = size, size / 2


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


ACCENTS = "éèêëàâçîïôüù-"


def names_layout() -> dict:
    """Kivy's qwerty keyboard with the accented letters of French names in place of the digits."""
    import json
    from pathlib import Path

    from kivy import kivy_data_dir

    layout = json.loads((Path(kivy_data_dir) / "keyboards" / "qwerty.json").read_text("utf-8"))
    backspace = layout["normal_1"][-1]
    layout["normal_1"] = [[c, c, c, 1] for c in "`" + ACCENTS] + [backspace]
    layout["shift_1"] = [[c, c, c, 1] for c in "~" + ACCENTS.upper()] + [backspace]
    return layout


class TypingField(TextInput):
    """A text field that the docked on-screen keyboard does not cover: while it is typed in, its
    screen (the app's, e.g. home) keeps the keyboard's height free at the bottom
    (``keyboard_room``, its kv's bottom padding), so the field sits above the keyboard.
    ``accents``: the keyboard's top row has the accented letters of French names instead of the
    digits."""

    accents = BooleanProperty(False)

    def on_focus(self, *_):
        if self.focus:
            Clock.schedule_once(self._keyboard_shown)  # the keyboard is asked for after this handler
        else:
            self._make_room(0)

    def _keyboard_shown(self, *_):
        from kivy.config import Config

        vkeyboard = getattr(self._keyboard, "widget", None)  # None: a plugged-in keyboard
        if vkeyboard is None or not self.focus:
            return
        if self.accents and "names" not in vkeyboard.available_layouts:
            vkeyboard.available_layouts["names"] = names_layout()
        vkeyboard.layout = "names" if self.accents else Config.get("kivy", "keyboard_layout")
        if vkeyboard.docked:
            self._make_room(vkeyboard.height * vkeyboard.scale)

    def _make_room(self, height: float) -> None:
        screen, widget = None, self
        while widget is not None and widget.parent is not widget:
            if hasattr(widget, "keyboard_room"):
                screen = widget  # the outermost screen that makes room
            widget = widget.parent
        if screen is not None:
            screen.keyboard_room = height
