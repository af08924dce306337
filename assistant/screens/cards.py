"""Touch entry of a card turned over: its kind (a colour, a stone), then its value.

Cards that cannot be there now (already seen, none left) are dimmed but can still be entered:
the engine then says why not.
"""
from __future__ import annotations

from typing import Callable, Sequence

from kivy.properties import ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from assistant.screens.widgets import TouchButton
from engine.core import Action

DIM = 0.4


class KindButton(TouchButton):
    kind = StringProperty("")
    picker = ObjectProperty(None, allownone=True)


class ValueButton(TouchButton):
    value = NumericProperty(0)
    picker = ObjectProperty(None, allownone=True)


class CardPicker(BoxLayout):
    screen = ObjectProperty(None)
    kind = StringProperty("")     # the kind picked, "" before
    kind_rows = ListProperty([])
    value_rows = ListProperty([])
    kind_cols = NumericProperty(4)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._kinds: tuple = ()
        self._values: Callable[[str], Sequence[tuple[int, bool]]] = lambda kind: ()
        self._build: Callable[[str, int], Action] | None = None
        self._moves = -1

    def configure(self, kinds: Sequence[tuple[str, str, tuple, tuple, bool]],
                  values: Callable[[str], Sequence[tuple[int, bool]]], build: Callable[[str, int], Action]) -> None:
        """``kinds``: (kind, label, background, ink, possible); ``values(kind)``: (value, possible)
        pairs (``kind`` "" before one is picked); ``build(kind, value)`` makes the action."""
        self._kinds, self._values, self._build = tuple(kinds), values, build
        if self.kind not in {k[0] for k in self._kinds}:
            self.kind = ""
        self._refresh()

    def update(self, view) -> None:
        """A new position: a kind picked for the previous one is forgotten."""
        if view.moves != self._moves:
            self._moves = view.moves
            self.kind = ""
            self._refresh()

    def pick_kind(self, kind: str) -> None:
        self.kind = kind
        self._refresh()

    def pick_value(self, value: int) -> None:
        kind, self.kind = self.kind, ""
        self._refresh()
        self.screen.attempt(self._build(kind, value))

    def _refresh(self) -> None:
        self.kind_rows = [{"kind": kind, "text": label, "bg": bg, "color": ink, "selected": kind == self.kind,
                           "picker": self, "opacity": 1 if possible else DIM}
                          for kind, label, bg, ink, possible in self._kinds]
        self.value_rows = [{"value": value, "text": str(value), "picker": self, "disabled": not self.kind,
                            "opacity": 1 if possible else DIM}
                           for value, possible in self._values(self.kind)]
