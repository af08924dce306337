"""Settings, over home or a game: the language, the advice, the buzzer's sound, the camera (its
view, the empty table, the card deck it reads, its auto-apply level) and, on a kiosk, powering the machine off (a second
tap confirms).

Changes apply at once and are kept in the user's configuration file for the next starts (when
the app is given its settings); a file that cannot be written is said, and the change holds
until the app restarts.
"""
from __future__ import annotations

import logging
from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from assistant import i18n
from assistant.settings import ConfigError
from assistant.views import ERROR, ViewState
from engine.text import tr

log = logging.getLogger(__name__)

LANGUAGE_NAMES = {"en": "English", "fr": "Français"}


AUTO_APPLY_RANGE = (50, 100)  # the auto-apply levels offered, in percent (100: only a reading nothing else explains)


class SettingsScreen(Screen):
    advice = BooleanProperty(True)
    has_camera = BooleanProperty(False)
    can_learn_deck = BooleanProperty(False)  # a camera to photograph the deck and settings to say where it is kept
    has_sound = BooleanProperty(False)  # a buzzer is wired
    sound = BooleanProperty(False)
    auto_apply_text = StringProperty("")
    keep_text = StringProperty("")
    powering_off = BooleanProperty(False)  # the first tap on Power off asks to confirm

    def update(self, view: ViewState) -> None:
        app = App.get_running_app()
        self.advice = app.session.advice_enabled
        self.has_sound = app.buzzer is not None
        self.sound = self.has_sound and app.buzzer.beep
        feed = app.camera_feed
        self.has_camera = feed is not None
        self.can_learn_deck = app.can_read_frame and app.settings is not None
        self.auto_apply_text = app.tr(
            "The camera plays a reading by itself when it is {percent}% sure; below, it asks you to confirm.",
            percent=round(100 * feed.auto_apply)) if feed is not None else ""
        self.keep_text = (app.tr("Changes are kept for the next starts in {path}.", path=str(app.settings.user_path))
                          if app.settings is not None else app.tr("These settings last until the app restarts."))

    def word_message(self, view: ViewState) -> str:
        return App.get_running_app().t(view.message.text)

    def on_leave(self, *_):
        self.powering_off = False

    # --- intents ---------------------------------------------------------------------------------

    def language(self, language: str) -> None:
        app = App.get_running_app()
        if language != app.language:
            app.set_language(language)  # every screen, this one too, is built again in it
            self._keep("app.language", language)

    def set_advice(self, on: bool) -> None:
        App.get_running_app().session.advice_enabled = on
        self.advice = on
        self._keep("ui.show_advice", on)

    def set_sound(self, on: bool) -> None:
        app = App.get_running_app()
        try:
            app.buzzer.set_beep(on)
        except Exception as exc:  # gpiozero's pin backends raise many kinds
            log.warning("buzzer: %s", exc)
            app.session.tell(tr("The buzzer cannot be used: {reason}", reason=str(exc)), ERROR)
            return
        self.sound = on
        self._keep("gpio.beep", on)

    def auto_apply(self, step: int) -> None:
        """The camera's auto-apply level ``step`` percent up or down (camera.auto_apply)."""
        app = App.get_running_app()
        low, high = AUTO_APPLY_RANGE
        percent = min(high, max(low, round(100 * app.camera_feed.auto_apply) + step))
        app.camera_feed.auto_apply = percent / 100  # what the camera's reader judges by from now on
        self.update(app.session.view)
        self._keep("camera.auto_apply", percent / 100)

    def camera(self) -> None:
        App.get_running_app().session.open_screen("camera")

    def learn_deck(self) -> None:
        App.get_running_app().session.open_screen("deck")

    def learn_empty_table(self) -> None:
        App.get_running_app().learn_empty_table()

    def power_off(self) -> None:
        if not self.powering_off:
            self.powering_off = True
            return
        self.powering_off = False
        app = App.get_running_app()
        try:
            app.power_off()
        except OSError as exc:
            app.session.tell(tr("The machine cannot be powered off: {reason}", reason=str(exc)), ERROR)

    def back(self) -> None:
        App.get_running_app().session.close_screen()

    def _keep(self, dotted: str, value: Any) -> None:
        """Keep a change for the next starts; say why not, or that a later layer sets it anyway."""
        app = App.get_running_app()
        if app.settings is None:
            return
        try:
            overridden = app.settings.keep({dotted: value})
        except ConfigError as exc:
            log.warning("setting not kept: %s", exc)
            app.session.tell(tr("Not kept for the next start ({reason}); it holds until the app restarts.",
                                reason=str(exc)), ERROR)
            return
        if overridden:
            app.session.tell(tr("Kept in {path}, but the environment or the command line sets {key} at each start.",
                                path=str(app.settings.user_path), key=dotted))

    @staticmethod
    def languages() -> list[tuple[str, str]]:
        return [(code, LANGUAGE_NAMES.get(code, code)) for code in i18n.LANGUAGES]


SCREEN = SettingsScreen
