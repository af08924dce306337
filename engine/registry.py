"""Game classes by id ("hilo", "splitter", ...), imported on first use."""
from __future__ import annotations

import importlib

from engine.core import Game, OptionError

# id -> "module:Class"; tests may register more with ``register``.
_KNOWN = {
    "hilo": "engine.hilo:HiloGame",
    "splitter": "engine.splitter:SplitterGame",
    "excape": "engine.excape:ExcapeGame",
    "holdup": "engine.holdup:HoldUpGame",
}
_loaded: dict[str, type[Game]] = {}


def register(game_class: type[Game]) -> None:
    _loaded[game_class.id] = game_class


def game_ids() -> tuple[str, ...]:
    return tuple(sorted({*_KNOWN, *_loaded}))


def game_class(game_id: str) -> type[Game]:
    if game_id not in _loaded:
        if game_id not in _KNOWN:
            raise OptionError(f"unknown game {game_id!r}; known games: {', '.join(game_ids())}")
        module, _, name = _KNOWN[game_id].partition(":")
        _loaded[game_id] = getattr(importlib.import_module(module), name)
    return _loaded[game_id]


def make_game(game_id: str, num_players: int, options: dict | None = None) -> Game:
    return game_class(game_id)(num_players, options)
