"""What every game screen shares: header with whose turn, undo / redo, "why not?", the legal
actions with advice, touch entry of chance outcomes, the end-of-game ranking.

A game's screen subclasses ``GameScreen`` and sets ``board_class`` (its board widget, which has
``update(view)`` and calls ``screen.attempt(action)`` when touched) and ``picker_class`` (touch
entry of its chance outcomes, with ``update(view)``); ``label(choice)`` words an action.
"""
from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from assistant.i18n import with_names
from assistant.screens import palette
from assistant.screens.text import number
from assistant.screens.widgets import TouchButton
from assistant.views import Choice, ViewState
from engine.core import CHANCE, TERMINAL, Action


class GameScreen(Screen):
    board_class: type | None = None
    picker_class: type | None = None
    lowest_wins = False  # the final ranking's order (Hilo: the lowest total wins)
    side_width = NumericProperty(290)

    title = StringProperty("")
    turn_text = StringProperty("")
    side_title = StringProperty("")
    choice_rows = ListProperty([])
    suggestion_rows = ListProperty([])
    seat_rows = ListProperty([])
    chance_mode = BooleanProperty(False)
    why_mode = BooleanProperty(False)
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    over = BooleanProperty(False)
    ranking_rows = ListProperty([])
    view = ObjectProperty(None, allownone=True)
    keyboard_room = NumericProperty(0)      # the on-screen keyboard's height while typing

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.board = (self.board_class or GenericBoard)(screen=self, pos_hint={"x": 0, "y": 0})
        self.ids.board_area.add_widget(self.board, index=len(self.ids.board_area.children))
        self.picker = (self.picker_class or ChancePicker)(screen=self)
        self.ids.chance_area.add_widget(self.picker)

    # --- from the session ------------------------------------------------------------------------

    def update(self, view: ViewState) -> None:
        app = App.get_running_app()
        self.view = view
        self.title = view.title
        self.turn_text = self.t(self.turn(view))
        self.chance_mode = view.to_play == CHANCE
        self.over = view.to_play == TERMINAL
        self.can_undo, self.can_redo = view.can_undo, view.can_redo
        self.seat_rows = [seat_row(seat, index, view) for index, seat in enumerate(view.seats)]
        shown = [(i, c) for i, c in enumerate(view.choices) if self.visible(c)]
        starred = best_moves([c for _, c in shown])
        self.choice_rows = [self._choice_row(view, i, c, n in starred) for n, (i, c) in enumerate(shown)]
        self.side_title = self._side_title(app, [c for _, c in shown], starred)
        self.suggestion_rows = [
            {"text": app.tr("{move} ({percent}%)", move=", ".join(self.t(self.label(a)) for a in c.actions),
                            percent=round(c.share * 100)), "index": i, "screen": self}
            for i, c in enumerate(view.suggestions)]
        self.ranking_rows = self._ranking(view) if self.over else []
        self.board.update(view)
        self.picker.update(view)

    def t(self, text) -> str:
        """Engine or session text in the app's language, players named by their names."""
        names = self.view.names if self.view is not None else ()
        return App.get_running_app().t(with_names(text, names))

    def word_message(self, view: ViewState) -> str:
        """The message line; after a move, the move in this screen's words."""
        app = App.get_running_app()
        message = view.message
        if message.action is None:
            return self.t(message.text)
        who = view.seats[message.seat].name if 0 <= message.seat < len(view.seats) else app.tr("Table")
        line = app.tr("{who}: {move}", who=who, move=self.t(self.label(message.action)))
        return app.tr("Camera: {move}", move=line) if message.camera else line

    def _choice_row(self, view: ViewState, index: int, choice: Choice, best: bool) -> dict:
        seat = choice.seat
        rgba = palette.colour(view.seats[seat].colour) if 0 <= seat < len(view.seats) else palette.RAISED
        return {"label": self.t(self.label(choice.action)), "advice": self.t(self.advice_line(choice)),
                "best": best, "highlighted": index == view.cursor, "seat_rgba": rgba, "screen": self,
                "index": index}

    def _side_title(self, app, shown: list[Choice], starred: set[int]) -> str:
        """What the side list is: the moves, whether they are ranked, or the entry of the table's."""
        if self.why_mode:
            return app.tr("Why not? Tap the move you mean")
        if self.chance_mode:
            return app.tr("Enter what the table shows")
        if self.view.advice_pending and app.session.advice_enabled:
            return app.tr("Legal moves (working out the advice...)")
        if not any(c.advice for c in shown):
            return app.tr("Legal moves")
        ties = sum(1 for c in shown if c.best)
        if not starred and ties > 1:
            return app.tr("Legal moves: {count} are equally good", count=ties)
        return app.tr("Legal moves, best first")

    def visible(self, choice: Choice) -> bool:
        """Whether the side list shows this move (Splitter shows one sheet's moves at a time)."""
        return True

    def advice_line(self, choice: Choice):
        """The advice under a move in the list (games shorten the engine's full sentence)."""
        return choice.advice

    def turn(self, view: ViewState):
        """The header's sentence: whose turn, or what the table should do (games may say more)."""
        return view.turn

    def label(self, action: Action):
        """How an action is worded on this screen (a Text or a string); games override the notation."""
        return str(action)

    def _ranking(self, view: ViewState) -> list[dict]:
        """Final places, best first; tied scores share a place."""
        app = App.get_running_app()
        scores = view.outcome.scores
        sign = 1 if self.lowest_wins else -1
        order = sorted(range(len(view.seats)), key=lambda s: sign * scores[s])
        return [{"text": app.tr("{place}. {name}: {points}", name=view.seats[s].name, points=number(scores[s]),
                                place=1 + sum(sign * other < sign * scores[s] for other in scores)),
                 "rgba": palette.ACCENT if s in view.outcome.winners else palette.TEXT}
                for s in order]

    # --- intents ---------------------------------------------------------------------------------

    def attempt(self, action: Action) -> None:
        """A touch meaning ``action``: play it, or in "why not?" mode ask whether it is allowed."""
        session = App.get_running_app().session
        if self.why_mode:
            self.why_mode = False
            session.why_not(action)
        else:
            session.play(action)

    def tell(self, text) -> None:
        App.get_running_app().session.tell(text)

    def choose(self, index: int) -> None:
        self.attempt(self.view.choices[index].action)

    def ask(self, notation: str) -> None:
        """ "Why not?" for a move typed in notation (for moves no board touch can express)."""
        self.why_mode = False
        if notation.strip():
            App.get_running_app().session.why_not(notation.strip())

    def toggle_why(self) -> None:
        self.why_mode = not self.why_mode
        if self.view is not None:
            self.update(self.view)

    def undo(self) -> None:
        App.get_running_app().session.undo()

    def redo(self) -> None:
        App.get_running_app().session.redo()

    def home(self) -> None:
        App.get_running_app().session.leave()

    def camera(self) -> None:
        App.get_running_app().session.open_screen("camera")

    def play_again(self) -> None:
        view = self.view
        match = App.get_running_app().session.match
        App.get_running_app().session.new_match(view.game_id, match.players, dict(view.options))


def best_moves(shown: list[Choice]) -> set[int]:
    """The places in the list that get a star: the one best move, first in the list; none when
    several tie (the side title says so) or there is nothing to choose from."""
    return {0} if len(shown) > 1 and shown[0].best and not shown[1].best else set()


def seat_row(seat, index: int, view: ViewState) -> dict:
    return {"name": seat.name, "score": number(seat.score), "rgba": palette.colour(seat.colour),
            "ink": palette.ink(seat.colour), "active": seat.to_play}


class SuggestionButton(TouchButton):
    """An outcome the camera read: a touch confirms it."""

    index = NumericProperty(0)
    screen = ObjectProperty(None, allownone=True)

    def on_release(self):
        App.get_running_app().session.accept(self.screen.view.suggestions[self.index])


class GenericBoard(BoxLayout):
    """For a game without its own screen: the players, their scores and the position in words."""

    screen = ObjectProperty(None)
    seats = ListProperty([])
    text = StringProperty("")

    def update(self, view: ViewState) -> None:
        self.seats = self.screen.seat_rows
        app = App.get_running_app()
        self.text = app.t(view.description) if view.description else app.tr("Last move: {move}", move=view.last or "-")


class ChancePicker(BoxLayout):
    """Touch entry of a chance outcome by its notation (games with many outcomes override)."""

    screen = ObjectProperty(None)
    rows = ListProperty([])

    def update(self, view: ViewState) -> None:
        self.rows = [{"text": str(action), "index": i, "picker": self} for i, (action, _) in enumerate(view.chance)]

    def pick(self, index: int) -> None:
        self.screen.attempt(self.screen.view.chance[index][0])


class OutcomeButton(TouchButton):
    index = NumericProperty(0)
    picker = ObjectProperty(None, allownone=True)
