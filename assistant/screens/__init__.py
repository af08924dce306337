"""The app's screens (Kivy). Each game with its own screen has a module here named by its id."""
from __future__ import annotations

import importlib

SCREEN_MODULES = {"hilo", "splitter", "excape", "holdup"}


def game_screen_class(game_id: str) -> type:
    """The screen class for a game: its own (``<id>.SCREEN``) or the generic game screen."""
    if game_id in SCREEN_MODULES:
        return importlib.import_module(f"assistant.screens.{game_id}").SCREEN
    from assistant.screens.game import GameScreen
    return GameScreen
