"""The app's screens (Kivy). A game's own screen is the module here named by its id, exporting
``SCREEN``; any other kind of screen (settings, camera, ...) is the module named by the kind.
A game without a module of its own gets the generic game screen."""
from __future__ import annotations

import importlib
import importlib.util

from assistant.views import GAME


def screen_class(kind: str, game_id: str = "") -> type:
    """The screen class that shows a view of ``kind`` (for "game", the game ``game_id``'s)."""
    if kind == GAME:
        if importlib.util.find_spec(f"{__name__}.{game_id}") is not None:
            return importlib.import_module(f"{__name__}.{game_id}").SCREEN
        from assistant.screens.game import GameScreen
        return GameScreen
    return importlib.import_module(f"{__name__}.{kind}").SCREEN


def screen_name(kind: str, game_id: str = "") -> str:
    """The name the app's screen manager knows a screen by: one per game, one per other kind."""
    return f"{GAME}:{game_id}" if kind == GAME else kind
