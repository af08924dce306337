"""Home: choose the game, seat the players, set the options; resume a game; past results."""
from __future__ import annotations

import dataclasses
import time

from kivy.app import App
from kivy.properties import (BooleanProperty, ColorProperty, DictProperty, ListProperty, NumericProperty,
                             StringProperty)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from assistant.screens import palette
from assistant.screens.text import number
from assistant.screens.widgets import TouchButton
from engine import registry
from engine.match import Player


class HomeScreen(Screen):
    section = StringProperty("new")        # "new", "resume" or "results"
    game_id = StringProperty("")
    game_rows = ListProperty([])
    player_rows = ListProperty([])
    option_rows = ListProperty([])
    unfinished_rows = ListProperty([])
    result_rows = ListProperty([])
    seated = ListProperty([])              # Players in seat order
    options = DictProperty({})
    start_text = StringProperty("")
    can_start = BooleanProperty(False)
    unfinished_count = NumericProperty(0)
    abandoning = NumericProperty(-1)       # the match whose abandon button asks "sure?"
    keyboard_room = NumericProperty(0)      # the on-screen keyboard's height while typing

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._classes: dict[str, type] = {}
        self._known: tuple[Player, ...] = ()

    # --- from the session ------------------------------------------------------------------------

    def update(self, view) -> None:
        app = App.get_running_app()
        self._classes = {game_id: registry.game_class(game_id) for game_id in view.games}
        if self.game_id not in self._classes and self._classes:
            self.pick_game(next(iter(self._classes)))
        self._known = view.known_players
        known = {p.name for p in self._known}
        self.seated = [p for p in self.seated if p.name in known]
        self.unfinished_count = len(view.unfinished)
        self.unfinished_rows = [self._unfinished_row(app, record) for record in view.unfinished]
        self.result_rows = [{"text": self._result_text(app, result), "rgba": palette.TEXT}
                            for result in view.results] or [
            {"text": app.tr("No finished games yet."), "rgba": palette.DIM}]
        self._refresh()

    def word_message(self, view) -> str:
        return App.get_running_app().t(view.message.text)

    # --- intents ---------------------------------------------------------------------------------

    def show(self, section: str) -> None:
        self.section = section
        self.ids.pages.current = section

    def pick_game(self, game_id: str) -> None:
        self.game_id = game_id
        options = App.get_running_app().game_defaults.get(game_id, {})
        fields = dataclasses.fields(self._classes[game_id].Options)
        self.options = {f.name: _frozen(options.get(f.name, f.default)) for f in fields}
        self._refresh()

    def toggle_player(self, name: str) -> None:
        if any(p.name == name for p in self.seated):
            self.seated = [p for p in self.seated if p.name != name]
        else:
            player = next(p for p in self._known if p.name == name)
            self.seated = self.seated + [player]
        self._refresh()

    def cycle_colour(self, name: str) -> None:
        player = next(p for p in self._known if p.name == name)
        names = list(palette.PLAYER_COLOURS)
        colour = names[(names.index(player.colour) + 1) % len(names)] if player.colour in names else names[0]
        self.seated = [Player(p.name, colour) if p.name == name else p for p in self.seated]
        App.get_running_app().session.save_player(name, colour)

    def add_player(self, name: str) -> None:
        if not name.strip():
            return
        colour = palette.next_colour({p.colour for p in self.seated})
        App.get_running_app().session.save_player(name, colour)  # the new view refreshes _known
        saved = [p for p in self._known if p.name.casefold() == name.strip().casefold()]
        if saved and saved[0].name not in {p.name for p in self.seated}:
            self.seated = self.seated + saved
        self._refresh()

    def change_option(self, key: str, step: int) -> None:
        value = self.options[key]
        if isinstance(value, bool):
            value = not value
        elif isinstance(value, int):
            value = max(1, value + step)
        elif key in self._choices():
            choices = self._choices()[key]
            value = choices[(choices.index(value) + 1) % len(choices)] if value in choices else choices[0]
        self.options = {**self.options, key: value}
        self._refresh()

    def set_option(self, key: str, value) -> None:
        self.options = {**self.options, key: value}
        self._refresh()

    def start(self) -> None:
        App.get_running_app().session.new_match(self.game_id, list(self.seated), dict(self.options))

    def resume(self, match_id: int) -> None:
        App.get_running_app().session.resume(match_id)

    def settings(self) -> None:
        App.get_running_app().session.open_screen("settings")

    def abandon(self, match_id: int) -> None:
        if self.abandoning != match_id:
            self.abandoning = match_id  # the first tap asks to confirm
            self.unfinished_rows = [dict(row, asking=row["match_id"] == match_id) for row in self.unfinished_rows]
            return
        self.abandoning = -1
        App.get_running_app().session.abandon(match_id)

    # --- view model ------------------------------------------------------------------------------

    def _refresh(self) -> None:
        app = App.get_running_app()
        self.game_rows = [{"game_id": gid, "text": cls.title, "selected": gid == self.game_id}
                          for gid, cls in self._classes.items()]
        seats = {p.name: i for i, p in enumerate(self.seated)}
        colours = {p.name: p.colour for p in self.seated}
        self.player_rows = [
            {"name": p.name, "seat": seats.get(p.name, -1) + 1,
             "rgba": palette.colour(colours.get(p.name, p.colour))}
            for p in self._known]
        cls = self._classes.get(self.game_id)
        # Text options are set here only from a fixed list of choices; others (a deck, a
        # palette) come from the configuration.
        self.option_rows = [self._option_row(app, cls, key, value) for key, value in self.options.items()
                            if isinstance(value, (bool, int)) or key in cls.option_choices]
        count = len(self.seated)
        if cls is None:
            self.can_start, self.start_text = False, app.tr("No game is installed")
        elif not cls.min_players <= count <= cls.max_players:
            self.can_start = False
            self.start_text = app.tr("{title}: seat {low} to {high} players", title=cls.title,
                                     low=cls.min_players, high=cls.max_players)
        else:
            self.can_start = True
            self.start_text = app.tr("Start {title} with {count} players", title=cls.title, count=count)

    def _option_row(self, app, cls, key: str, value) -> dict:
        choices = cls.option_choices.get(key, ())
        kind = ("switch" if isinstance(value, bool) else "number" if isinstance(value, int) else
                "choice" if len(choices) <= 2 else "cycle")
        label = app.t(cls.option_word(key))
        return {"key": key, "label": label[:1].upper() + label[1:], "value": self._option_text(app, value),
                "kind": kind, "on": value is True,
                "choices": [(choice, self._option_text(app, choice)) for choice in choices] if kind == "choice" else []}

    def _choices(self) -> dict:
        return self._classes[self.game_id].option_choices

    @staticmethod
    def _option_text(app, value) -> str:
        if isinstance(value, bool):
            return app.tr("on") if value else app.tr("off")
        return app.t(str(value)).replace("_", " ")  # a choice's name ("ask", "first_seat") is a word

    def _unfinished_row(self, app, record) -> dict:
        title = self._title(record.game)
        names = ", ".join(p.name for p in record.players)
        text = app.tr("{title} · {names} · {moves} moves · {when}", title=title, names=names,
                      moves=record.moves, when=_when(record.updated))
        return {"match_id": record.id, "text": text, "asking": record.id == self.abandoning}

    def _result_text(self, app, result) -> str:
        scores = ", ".join(f"{name} {number(score)}" for name, score in zip(result.players, result.scores))
        winners = " & ".join(result.players[w] for w in result.winners)
        return app.tr("{when} · {title} · {scores} · won by {winners}", when=_when(result.finished),
                      title=self._title(result.game), scores=scores, winners=winners)

    def _title(self, game_id: str) -> str:
        cls = self._classes.get(game_id)
        return cls.title if cls else game_id


def _frozen(value):
    """A setting's lists as tuples, the form game options take (a Hold Up deck)."""
    return tuple(_frozen(item) for item in value) if isinstance(value, list) else value


def _when(timestamp: float) -> str:
    return time.strftime("%d/%m %H:%M", time.localtime(timestamp))


class GameToggle(TouchButton):
    game_id = StringProperty("")


class PlayerChip(ButtonBehavior, BoxLayout):
    name = StringProperty("")
    seat = NumericProperty(0)  # 0 = not seated
    rgba = ColorProperty(palette.UNKNOWN)


class OptionItem(BoxLayout):
    key = StringProperty("")
    label = StringProperty("")
    value = StringProperty("")
    kind = StringProperty("switch")  # "switch" (on/off), "number", "choice" (a button each) or "cycle"
    on = BooleanProperty(False)
    choices = ListProperty([])       # "choice": (value, as shown) pairs


class UnfinishedRow(BoxLayout):
    match_id = NumericProperty(0)
    text = StringProperty("")
    asking = BooleanProperty(False)


SCREEN = HomeScreen
