"""Learning the club's card deck (opened from the settings): where the app offers more than one
card game (Hilo, Hold Up), the players first choose whose deck; each page then names the card to
lay on each place of the game's mat, its zones shown in lines, each a titled block of cells; the
camera photographs the page and says which places showed no card, so only those are laid again;
once every page is kept, the deck is learnt (``assistant.deck_enrolment``) and the camera reads
that game's cards with it.

The photographing and the learning run on the camera's thread (``app.read_frame``): the screen
never waits on them.
"""
from __future__ import annotations

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import (BooleanProperty, ColorProperty, DictProperty, ListProperty, NumericProperty,
                             StringProperty)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from assistant import deck_enrolment as deck
from assistant.commands.calibrate_cards import CARD_GAMES, enrolment_path, holdup_gems, reader_params
from assistant.commands.print_mat import zone_names
from assistant.screens import palette
from assistant.screens.widgets import FitLabel, TouchButton, discard
from assistant.views import ViewState
from engine.hilo import DEFAULT_PALETTE, Palette
from engine.registry import game_class
from engine.table import EMPTY, FACE_DOWN
from engine.text import Text, tr

CHOOSE, LAY, PHOTOGRAPHING, CHECKED = "choose", "lay", "photographing", "checked"
LEARNING, LEARNT = "learning", "learnt"


class DeckCell(FitLabel):
    """One place of the page: the card's name on its colour, framed red where no card was found."""

    cell = DictProperty({})  # {"text", "problem", "rgba", "ink"}
    bg = ColorProperty(palette.PANEL)
    problem = BooleanProperty(False)

    def on_cell(self, _widget, cell) -> None:
        self.text = cell.get("text", "")
        self.bg, self.color = cell.get("rgba", palette.PANEL), cell.get("ink", palette.TEXT)
        self.problem = cell.get("problem", False)


class DeckZone(BoxLayout):
    """A zone of the page: its title above its cells in ``rows`` x ``cols``, as tall as a zone of
    ``line_rows`` rows (the largest of its line), at the top."""

    title = StringProperty("")
    rows = NumericProperty(1)
    cols = NumericProperty(1)
    line_rows = NumericProperty(1)


class DeckPage(BoxLayout):
    """The page's zones in lines (``lines``: each a list of zones {"zone", "title", "rows",
    "cols", "cells"}), a line's zones from the left, every cell as wide as any other."""

    lines = ListProperty([])

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._shape: list = []
        self._zones: list[DeckZone] = []

    def on_lines(self, _widget, lines) -> None:
        shape = [[(zone["zone"], zone["rows"], zone["cols"]) for zone in line] for line in lines]
        if shape != self._shape:  # another game's page: its blocks built again
            self._build(lines)
            self._shape = shape
        for block, zone in zip(self._zones, [zone for line in lines for zone in line]):
            block.title = zone["title"]
            for widget, cell in zip(reversed(block.ids.cells.children), zone["cells"]):
                widget.cell = cell

    def _build(self, lines) -> None:
        discard(self)
        self._zones = []
        units = max(sum(zone["cols"] for zone in line) for line in lines)
        for line in lines:
            line_rows = max(zone["rows"] for zone in line)
            row = Factory.DeckLine(size_hint_y=line_rows)
            for zone in line:
                block = DeckZone(rows=zone["rows"], cols=zone["cols"], line_rows=line_rows, size_hint_x=zone["cols"])
                for _ in zone["cells"]:
                    block.ids.cells.add_widget(DeckCell())
                row.add_widget(block)
                self._zones.append(block)
            if units > sum(zone["cols"] for zone in line):
                row.add_widget(Widget(size_hint_x=units - sum(zone["cols"] for zone in line)))
            self.add_widget(row)


class DeckScreen(Screen):
    step = StringProperty(CHOOSE)
    game = StringProperty("")
    page = NumericProperty(0)
    pages = NumericProperty(0)
    lines = ListProperty([])  # the page's zones in lines (see DeckPage), each cell {"text", "problem", "rgba", "ink"}
    status_text = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._plan: list[dict] = []
        self._photos: list[deck.PagePhoto] = []
        self._lines: list = []  # the game's zones in lines (deck.lines)
        self._titles: dict = {}  # each zone's title

    def update(self, view: ViewState) -> None:
        if not self._plan:
            self.start()

    def on_pre_enter(self, *_):
        if self.step == LEARNT:  # learnt the last time: a new enrolment
            self.start()

    def word_message(self, view: ViewState) -> str:
        return App.get_running_app().t(view.message.text)

    def start(self) -> None:
        """A new enrolment: the card games offered to choose from, or the only one's first page."""
        app = App.get_running_app()
        games = [game for game in CARD_GAMES if game in app.session.playable_games()]
        if len(games) == 1:
            self.choose(games[0])
            return
        self._plan = []
        self.step, self.game, self.pages = CHOOSE, "", 0
        self.status_text = app.tr("Which game's cards should the camera learn?")
        choices = self.ids.choices
        discard(choices)
        for game in games:
            choices.add_widget(TouchButton(text=game_class(game).title, on_release=lambda _b, g=game: self.choose(g)))

    def choose(self, game: str) -> None:
        app = App.get_running_app()
        if game == "hilo":
            colours = Palette.parse(app.game_defaults.get("hilo", {}).get("palette", DEFAULT_PALETTE)).names
            self._plan = deck.plan_hilo(colours)
        else:
            self._plan = deck.plan_holdup(holdup_gems(app.settings))
        self.game = game
        self._lines = deck.lines(game)
        self._titles = zone_names(deck.mat(game))
        self._photos = []
        self.pages = len(self._plan)
        self._show(0, LAY)

    def _show(self, page: int, step: str, missing: tuple = (), status: Text | str = "") -> None:
        app = App.get_running_app()
        self.page, self.step = page, step
        cards = self._plan[page]
        missing_places = {place for place, _, _ in missing}

        def cell(place: deck.Place) -> dict:
            label = cards.get(place, EMPTY)
            text = (app.tr("face down") if label == FACE_DOWN else "" if label == EMPTY else
                    app.t(deck.card_words(label)))
            rgba = self._colour(label)
            return {"text": text, "problem": place in missing_places, "rgba": rgba, "ink": palette.ink_on(rgba)}

        self.lines = [[{"zone": zone.id, "title": app.t(self._titles[zone.id]), "rows": zone.rows, "cols": zone.cols,
                        "cells": [cell(deck.Place(zone.id, c.row, c.col)) for c in zone.cells()]} for zone in line]
                      for line in self._lines]
        lay = (tr("Lay these cards, each grid as its player sees it, then tap Photograph.") if self.game == "hilo" else
               tr("Lay these cards, each GV card on the face shown, then tap Photograph."))
        self.status_text = app.t(status or lay)

    def _colour(self, label: str) -> tuple:
        """A card's colour on the page: Hilo's colour, Hold Up's stone, a GV face's as the Hold Up
        screen shows it, a back's."""
        if label in (FACE_DOWN, EMPTY):
            return palette.CARD_BACK if label == FACE_DOWN else palette.PANEL
        colour, value = label.split(" ", 1)
        if colour == "gv":
            return palette.GOOD if value == "V" else palette.ACCENT
        return palette.colour(colour) if self.game == "hilo" else palette.stone(colour)

    # --- intents ---------------------------------------------------------------------------------

    def photograph(self) -> None:
        app = App.get_running_app()
        page, params, game = self._plan[self.page], reader_params(app.settings), self.game

        def read(frame):
            if frame is None:
                return tr("No frame from the camera.")
            try:
                return deck.photograph(frame.image, page, params, game)
            except ValueError as exc:
                return tr("Not photographed: {reason}", reason=str(exc))

        self._show(self.page, PHOTOGRAPHING, status=tr("Photographing..."))
        app.read_frame(read, self.photographed)

    def photographed(self, outcome) -> None:
        if not isinstance(outcome, deck.PagePhoto):
            self._show(self.page, LAY, status=outcome)
            return
        self._photos[self.page:] = [outcome]
        if outcome.missing:
            app = App.get_running_app()
            status = app.tr("{problems}. Lay them and photograph again, or go on without them.",
                            problems="; ".join(app.t(p) for p in outcome.problems()))
        else:
            status = tr("Every card of this page was found.")
        self._show(self.page, CHECKED, outcome.missing, status)

    def next_page(self) -> None:
        if self.page + 1 < len(self._plan):
            self._show(self.page + 1, LAY)
            return
        app = App.get_running_app()
        photos, params = list(self._photos), reader_params(app.settings)
        path, title = enrolment_path(app.settings, self.game), game_class(self.game).title

        def learn(_frame):
            try:
                _, report = deck.learn(photos, params, path)
            except (ValueError, OSError) as exc:
                return tr("The deck was not learnt: {reason}", reason=str(exc))
            return tr("Deck learnt: {cards} cards, {backs} of them backs. The camera reads {game} cards with it "
                      "from now on.", cards=sum(report.cards.values()), backs=report.cards.get(FACE_DOWN, 0),
                      game=title)

        self._show(self.page, LEARNING, status=tr("Learning the deck..."))
        app.read_frame(learn, self.learnt)

    def learnt(self, outcome) -> None:
        self._show(self.page, LEARNT, status=outcome)

    def back(self) -> None:
        App.get_running_app().session.open_screen("settings")  # where it was opened from


SCREEN = DeckScreen
