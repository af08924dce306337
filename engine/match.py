"""A match: the players, the game, and the list of actions that made the current state.

Saved as JSON (the action log only); loading replays every action through the rules, so a
file that does not replay is refused with the first bad line named.
"""
from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from engine.core import Action, Game, RulesError, State
from engine import jsontext, registry
from engine.text import tr

FORMAT = "table-assistant/match"
VERSION = 1
FIELDS = ("format", "version", "game", "options", "players", "actions")


class MatchFileError(RulesError):
    """A match file is unreadable, corrupt, of another format, or does not replay."""


@dataclass(frozen=True)
class Player:
    name: str
    colour: str = ""

    @classmethod
    def from_dict(cls, data: Any, where: str) -> "Player":
        if not isinstance(data, dict):
            raise MatchFileError(f"{where}: a player is {{\"name\": ..., \"colour\": ...}}, not {_short(data)}")
        unknown = set(data) - {"name", "colour"}
        if unknown:
            raise MatchFileError(f"{where}: unknown player field {sorted(unknown)[0]!r}")
        name, colour = data.get("name"), data.get("colour", "")
        if not _is_text(name) or not name.strip():
            raise MatchFileError(f"{where}: \"name\": a player needs a non-empty name, got {_short(name)}")
        if not _is_text(colour):
            raise MatchFileError(f"{where}: \"colour\": a colour is a name in quotes, got {_short(colour)}")
        return cls(name=name, colour=colour)


class Match:
    """Players, the game and its history, with undo / redo."""

    def __init__(self, game: Game, players: Sequence[Player | str]):
        self.game = game
        self.players = tuple(p if isinstance(p, Player) else Player(p) for p in players)
        if len(self.players) != game.num_players:
            raise MatchFileError(
                f"{game.title} was set up for {game.num_players} players but {len(self.players)} are named"
            )
        self._states: list[State] = [game.new_initial_state()]
        self._actions: list[Action] = []
        self._undone: list[Action] = []

    @property
    def state(self) -> State:
        return self._states[-1]

    @property
    def history(self) -> tuple[Action, ...]:
        return tuple(self._actions)

    def lines(self) -> list[str]:
        return [str(a) for a in self._actions]

    def states(self) -> tuple[State, ...]:
        """The state before the first action, then after each one."""
        return tuple(self._states)

    def push(self, action: Action | str) -> State:
        """Apply one action (or one line of notation); IllegalActionError leaves the match as it was."""
        if isinstance(action, str):
            action = self.game.parse_action(action)
        state = self.state.apply(action)
        self._states.append(state)
        self._actions.append(action)
        self._undone.clear()
        return state

    def can_undo(self) -> bool:
        return bool(self._actions)

    def can_redo(self) -> bool:
        return bool(self._undone)

    def undo(self) -> Action:
        if not self._actions:
            raise RulesError(tr("nothing to undo: the match is at its start"))
        self._states.pop()
        action = self._actions.pop()
        self._undone.append(action)
        return action

    def redo(self) -> Action:
        if not self._undone:
            raise RulesError(tr("nothing to redo"))
        action = self._undone.pop()
        self._states.append(self.state.apply(action))
        self._actions.append(action)
        return action

    # --- files ---------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game.id,
            "options": self.game.options_dict(),
            "players": [asdict(p) for p in self.players],
            "actions": self.lines(),
        }

    @classmethod
    def from_dict(
        cls, data: Any, where: str = "match", games: Callable[[str], type[Game]] = registry.game_class
    ) -> "Match":
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise MatchFileError(f"{where}: not a Table Assistant match (no \"format\": \"{FORMAT}\")")
        if data.get("version") != VERSION:
            raise MatchFileError(f"{where}: match format version {_short(data.get('version'))} is not supported "
                                 f"(expected {VERSION})")
        unknown = set(data) - set(FIELDS)
        if unknown:
            raise MatchFileError(f"{where}: unknown field {sorted(unknown)[0]!r} (a match has {', '.join(FIELDS)})")
        for key, kind in (("game", str), ("options", dict), ("players", list), ("actions", list)):
            if not isinstance(data.get(key), kind):
                raise MatchFileError(f"{where}: field {key!r} is missing or not a {kind.__name__}")
        players = [Player.from_dict(p, f"{where}: players[{i}]") for i, p in enumerate(data["players"])]
        return cls.replay(data["game"], data["options"], players, data["actions"], where, games)

    @classmethod
    def replay(cls, game_id: str, options: Mapping[str, Any], players: Sequence[Player], lines: Sequence[Any],
               where: str = "match", games: Callable[[str], type[Game]] = registry.game_class) -> "Match":
        """The match made by playing ``lines`` through the rules; MatchFileError naming the
        first line that does not replay."""
        try:
            game = games(game_id)(len(players), dict(options))
        except RulesError as exc:
            raise MatchFileError(f"{where}: {exc}") from exc
        match = cls(game, players)
        for number, line in enumerate(lines, start=1):
            try:
                if not isinstance(line, str):
                    raise RulesError("an action must be a line of text")
                match.push(line)
            except RulesError as exc:
                raise MatchFileError(f"{where}: action {number} {line!r} does not replay: {exc}") from exc
        return match

    def save(self, path: str | Path) -> None:
        """Write atomically. An existing file that is not a readable match is never overwritten."""
        path = Path(path)
        if path.exists():
            _check_is_match_file(path)
        write_atomically(path, json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n")

    @classmethod
    def load(cls, path: str | Path, games: Callable[[str], type[Game]] = registry.game_class) -> "Match":
        path = Path(path)
        return cls.from_dict(_read_json(path), str(path), games)


def _read_json(path: Path) -> Any:
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise MatchFileError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise MatchFileError(f"{path}: cannot read: {exc}") from exc
    try:
        return jsontext.loads(text)
    except ValueError as exc:
        raise MatchFileError(f"{path}: {exc}") from None


def _is_text(value: Any) -> bool:
    """A str fit to print: no control characters, no lone surrogate (which JSON lets in)."""
    return isinstance(value, str) and value.isprintable()


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _check_is_match_file(path: Path) -> None:
    try:
        data = _read_json(path)
    except MatchFileError as exc:
        raise MatchFileError(f"{exc}; not overwriting it") from exc
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise MatchFileError(f"{path}: exists and is not a match file; not overwriting it")


def write_atomically(path: Path, text: str) -> None:
    """Write to a temporary file beside ``path``, fsync, then rename over it."""
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
