"""The games, by id ("hilo", "splitter", ...): every package under ``engine/`` that exports a
``Game`` subclass of its own is a game, so adding one is adding its package.

Everything else in the tree (the command line, the screens, the mats, ``replay``) asks this
module which games there are and reads what each offers from its ``Game`` class.
"""
from __future__ import annotations

import importlib
import logging
import pkgutil

import engine
from engine.core import Game, OptionError

log = logging.getLogger(__name__)

_found: dict[str, type[Game]] | None = None
_broken: dict[str, str] = {}  # package -> why it does not load


def _discover() -> dict[str, type[Game]]:
    global _found
    if _found is None:
        _found = {}
        for module in pkgutil.iter_modules(engine.__path__):
            if not module.ispkg:
                continue
            name = f"engine.{module.name}"
            try:
                package = importlib.import_module(name)
            except Exception as exc:  # one broken game must not hide the others
                _broken[name] = f"{type(exc).__name__}: {exc}"
                log.warning("game package %s does not load: %s", name, _broken[name])
                continue
            for value in vars(package).values():
                if _is_game_of(value, name):
                    _found[value.id] = value
    return _found


def _is_game_of(value: object, package: str) -> bool:
    """A Game subclass defined in ``package`` (not one it imports from elsewhere)."""
    return (isinstance(value, type) and issubclass(value, Game) and value is not Game
            and (value.__module__ == package or value.__module__.startswith(package + ".")))


def register(game_class: type[Game]) -> None:
    """Add a game defined outside ``engine/`` (a test's own game)."""
    _discover()[game_class.id] = game_class


def game_ids() -> tuple[str, ...]:
    return tuple(sorted(_discover()))


def games() -> tuple[type[Game], ...]:
    """Every game class, by id."""
    found = _discover()
    return tuple(found[game_id] for game_id in sorted(found))


def broken() -> dict[str, str]:
    """Game packages that failed to load, with the reason (``doctor`` and the log say them)."""
    _discover()
    return dict(_broken)


def game_class(game_id: str) -> type[Game]:
    found = _discover()
    if game_id not in found:
        raise OptionError(f"unknown game {game_id!r}; known games: {', '.join(game_ids())}")
    return found[game_id]


def make_game(game_id: str, num_players: int, options: dict | None = None) -> Game:
    return game_class(game_id)(num_players, options)
