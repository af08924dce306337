"""The Kivy application: a thin view over the session's view-state.

Screens are built for the official 800x480 touchscreen and scale with the window (``scale`` is
1.0 at 800x480, 1.5 at 1280x720); every size in the kv files is multiplied by it. Widgets bind
to screen properties set from the view-state; touches call one-line intent methods that go to
the session. Devices running in background threads reach the session only through ``post``.
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Callable, Mapping

from kivy.app import App
from kivy.clock import Clock, mainthread
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.properties import NumericProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import NoTransition, ScreenManager

from assistant import i18n
from assistant.session import Session, ViewState
from engine.text import tr as make_text

log = logging.getLogger(__name__)

KV_DIR = Path(__file__).resolve().parent / "kv"
BASE_SIZE = (800, 480)


class TableApp(App):
    scale = NumericProperty(1.0)
    language = StringProperty("en")
    view = ObjectProperty(None, allownone=True)

    def __init__(self, session: Session, *, language: str = "en",
                 game_defaults: Mapping[str, Mapping[str, Any]] | None = None,
                 ticker: Callable[[], None] | None = None, tick_seconds: float = 1.0, **kwargs):
        super().__init__(**kwargs)
        self.title = "Table Assistant"
        self.session = session
        self.language = language
        self.game_defaults = dict(game_defaults or {})
        self._ticker = ticker
        self._tick_seconds = tick_seconds
        self._unsubscribe: Callable[[], None] | None = None

    # --- building ------------------------------------------------------------------------------

    def build(self):
        from assistant.screens import game_screen_class
        from assistant.screens.home import HomeScreen

        for path in sorted(KV_DIR.glob("*.kv")):
            Builder.load_file(str(path))
        self._game_screen_class = game_screen_class
        manager = ScreenManager(transition=NoTransition())
        manager.add_widget(HomeScreen(name="home"))
        Window.bind(size=lambda *_: self._rescale())
        self._rescale()
        self.root = manager
        self.attach(self.session)
        if self._ticker is not None:
            Clock.schedule_interval(lambda dt: self._ticker(), self._tick_seconds)
        return manager

    def attach(self, session: Session) -> None:
        """Show ``session`` (the demo and the tests switch sessions without a new window)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        self.session = session
        self._unsubscribe = session.subscribe(self._show)
        self._show(session.view)

    def _rescale(self) -> None:
        width, height = Window.size
        self.scale = min(width / BASE_SIZE[0], height / BASE_SIZE[1])

    def _show(self, view: ViewState) -> None:
        self.view = view
        manager = self.root
        name = "home" if view.screen == "home" else f"game:{view.game_id}"
        if not manager.has_screen(name):
            manager.add_widget(self._game_screen_class(view.game_id)(name=name))
        screen = manager.get_screen(name)
        screen.update(view)
        manager.current = name

    # --- text ----------------------------------------------------------------------------------

    def t(self, text: Any) -> str:
        """``text`` (a Text from the engine or the session, or a plain string) in the app's language."""
        return i18n.translate(text, self.language)

    def tr(self, template: str, **fields: Any) -> str:
        """A screen text: the English template translated, then filled in."""
        return i18n.translate(make_text(template, **fields), self.language)

    # --- from devices --------------------------------------------------------------------------

    @mainthread
    def post_intent(self, intent: Any) -> None:
        """Buttons and the serial panel call this from their own threads."""
        self.session.handle_intent(intent)

    @mainthread
    def post_notice(self, text: Any) -> None:
        self.session.notify(text)

    def screen_for(self, game_id: str):
        return self.root.get_screen(f"game:{game_id}")
