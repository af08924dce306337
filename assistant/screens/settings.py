"""Settings, over home or a game: the language, the advice, the camera (its view, the empty
table, its auto-apply level) and, on a kiosk, powering the machine off (a second tap confirms).

Changes apply at once and last until the app restarts: the configuration has no writer yet, so
the screen names the user file to set them in for good.
"""
from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from assistant import i18n, settings
from assistant.views import ERROR, ViewState
from engine.text import tr

LANGUAGE_NAMES = {"en": "English", "fr": "Français"}


class SettingsScreen(Screen):
    advice = BooleanProperty(True)
    auto_apply_text = StringProperty("")
    keep_text = StringProperty("")
    powering_off = BooleanProperty(False)  # the first tap on Power off asks to confirm

    def update(self, view: ViewState) -> None:
        app = App.get_running_app()
        self.advice = app.session.advice_enabled
        feed = app.camera_feed
        self.auto_apply_text = app.tr(
            "The camera plays a reading by itself when it is {percent}% sure (camera.auto_apply); "
            "below, it asks you to confirm.", percent=round(100 * feed.auto_apply)) if feed is not None else ""
        self.keep_text = app.tr("These settings last until the app restarts. To keep them, set app.language "
                                "and ui.show_advice in {path}.", path=str(settings.user_file()))

    def word_message(self, view: ViewState) -> str:
        return App.get_running_app().t(view.message.text)

    def on_leave(self, *_):
        self.powering_off = False

    # --- intents ---------------------------------------------------------------------------------

    def language(self, language: str) -> None:
        app = App.get_running_app()
        if language != app.language:
            app.set_language(language)  # every screen, this one too, is built again in it

    def set_advice(self, on: bool) -> None:
        App.get_running_app().session.advice_enabled = on
        self.advice = on

    def camera(self) -> None:
        App.get_running_app().session.open_screen("camera")

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

    @staticmethod
    def languages() -> list[tuple[str, str]]:
        return [(code, LANGUAGE_NAMES.get(code, code)) for code in i18n.LANGUAGES]


SCREEN = SettingsScreen
