"""Learning the club's Hilo deck (opened from the settings): each page names the card to lay on
each place of the first two grids and the discard; the camera photographs the page and says
which places showed no card, so only those are laid again; once every page is kept, the deck
is learnt (``assistant.deck_enrolment``) and the camera reads Hilo cards with it.

The photographing and the learning run on the camera's thread (``app.read_frame``): the screen
never waits on them.
"""
from __future__ import annotations

from kivy.app import App
from kivy.properties import (BooleanProperty, ColorProperty, DictProperty, ListProperty, NumericProperty,
                             StringProperty)
from kivy.uix.screenmanager import Screen

from assistant import deck_enrolment as deck
from assistant.screens import palette
from assistant.screens.widgets import FitLabel
from assistant.commands.calibrate_cards import enrolment_path, reader_params
from assistant.views import ViewState
from engine.hilo import DEFAULT_PALETTE, Palette
from engine.table import EMPTY, FACE_DOWN
from engine.text import Text, tr

LAY, PHOTOGRAPHING, CHECKED, LEARNING, LEARNT = "lay", "photographing", "checked", "learning", "learnt"


class DeckCell(FitLabel):
    """One place of the page: the card's name on its colour, framed red where no card was found."""

    cell = DictProperty({})  # {"text", "problem", "rgba", "ink"}
    bg = ColorProperty(palette.PANEL)
    problem = BooleanProperty(False)

    def on_cell(self, _widget, cell) -> None:
        self.text = cell.get("text", "")
        self.bg, self.color = cell.get("rgba", palette.PANEL), cell.get("ink", palette.TEXT)
        self.problem = cell.get("problem", False)


class DeckScreen(Screen):
    step = StringProperty(LAY)
    page = NumericProperty(0)
    pages = NumericProperty(0)
    grids = ListProperty([[], []])  # per seat, nine cells {"text", "problem", "rgba", "ink"}
    discard = DictProperty({})  # likewise
    status_text = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._plan: list[dict] = []
        self._photos: list[deck.PagePhoto] = []

    def update(self, view: ViewState) -> None:
        if not self._plan:
            self.start()

    def on_pre_enter(self, *_):
        if self.step == LEARNT:  # learnt the last time: a new enrolment
            self.start()

    def word_message(self, view: ViewState) -> str:
        return App.get_running_app().t(view.message.text)

    def start(self) -> None:
        app = App.get_running_app()
        colours = Palette.parse(app.game_defaults.get("hilo", {}).get("palette", DEFAULT_PALETTE)).names
        self._plan = deck.plan(colours)
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
            rgba = {FACE_DOWN: palette.CARD_BACK, EMPTY: palette.PANEL}.get(label) or palette.colour(label.split()[0])
            return {"text": text, "problem": place in missing_places, "rgba": rgba, "ink": palette.ink_on(rgba)}

        self.grids = [[cell(deck.Place(f"grid.{seat}", r, c)) for r in range(3) for c in range(3)]
                      for seat in deck.SEATS]
        self.discard = cell(deck.Place("discard"))
        self.status_text = app.t(status) if status else app.tr(
            "Lay these cards, each grid as its player sees it, then tap Photograph.")

    # --- intents ---------------------------------------------------------------------------------

    def photograph(self) -> None:
        app = App.get_running_app()
        page, params = self._plan[self.page], reader_params(app.settings)

        def read(frame):
            if frame is None:
                return tr("No frame from the camera.")
            try:
                return deck.photograph(frame.image, page, params)
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
        photos, params, path = list(self._photos), reader_params(app.settings), enrolment_path(app.settings)

        def learn(_frame):
            try:
                _, report = deck.learn(photos, params, path)
            except (ValueError, OSError) as exc:
                return tr("The deck was not learnt: {reason}", reason=str(exc))
            return tr("Deck learnt: {cards} cards, {backs} of them backs. The camera reads Hilo cards with it "
                      "from now on.", cards=sum(report.cards.values()), backs=report.cards.get(FACE_DOWN, 0))

        self._show(self.page, LEARNING, status=tr("Learning the deck..."))
        app.read_frame(learn, self.learnt)

    def learnt(self, outcome) -> None:
        self._show(self.page, LEARNT, status=outcome)

    def back(self) -> None:
        App.get_running_app().session.open_screen("settings")  # where it was opened from


SCREEN = DeckScreen
