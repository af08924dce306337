"""The club's records in SQLite: players, matches, each match's action log, and results.

Written for power cuts: WAL journal with ``synchronous=FULL``, one transaction per action, so a
committed action survives a crash and an interrupted one leaves no trace. A database that SQLite
cannot read is never written over: it is renamed aside with a timestamp and a fresh one started,
and ``Store.notice`` says so (the screen shows it). A database from a newer version is refused.
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from assistant import settings
from engine.core import Outcome
from engine.match import Player
from engine.text import Text, tr

SCHEMA_VERSION = 1
FILE_NAME = "table-assistant.sqlite3"
IN_MEMORY = ":memory:"

_SCHEMA = """
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    colour TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL,
    last_played REAL
);
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,           -- JSON object
    players TEXT NOT NULL,           -- JSON list of {"name", "colour"} in seat order
    started REAL NOT NULL,
    updated REAL NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('playing', 'finished', 'abandoned'))
);
CREATE TABLE actions (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seq INTEGER NOT NULL,            -- 1 for the first action of the match
    line TEXT NOT NULL,              -- the action's notation
    at REAL NOT NULL,
    PRIMARY KEY (match_id, seq)
);
CREATE TABLE results (
    match_id INTEGER PRIMARY KEY REFERENCES matches(id),
    game TEXT NOT NULL,
    finished REAL NOT NULL,
    players TEXT NOT NULL,           -- JSON list of names in seat order
    scores TEXT NOT NULL,            -- JSON list, one per seat
    winners TEXT NOT NULL,           -- JSON list of seats
    termination TEXT NOT NULL
);
CREATE INDEX matches_by_status ON matches(status, updated);
"""


class StoreError(ValueError):
    """The database cannot be used as asked (newer schema, unknown match, out-of-order action)."""


@dataclass(frozen=True)
class MatchRecord:
    """A stored match: enough to rebuild it by replaying ``lines``."""

    id: int
    game: str
    options: dict[str, Any]
    players: tuple[Player, ...]
    lines: tuple[str, ...]
    started: float
    updated: float
    status: str


@dataclass(frozen=True)
class MatchSummary:
    """A stored match as the home screen lists it, without its action log."""

    id: int
    game: str
    players: tuple[Player, ...]
    moves: int
    started: float
    updated: float


@dataclass(frozen=True)
class Result:
    match_id: int
    game: str
    finished: float
    players: tuple[str, ...]
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    termination: str


def default_path(state_dir: str, env=os.environ) -> Path:
    """The database file for the ``app.state_dir`` setting (empty = the XDG state directory)."""
    return settings.state_dir(state_dir, env) / FILE_NAME


class Store:
    """One open database. Not shared between threads: the session calls it from one thread."""

    def __init__(self, path: str | Path, clock: Callable[[], float] = time.time):
        self.path = path if path == IN_MEMORY else Path(path)
        self.clock = clock
        self.notice: Text | None = None  # set when a damaged database was moved aside
        if self.path != IN_MEMORY:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = self._open()
        except sqlite3.DatabaseError as exc:
            kept = self._move_aside()
            self.notice = tr(
                "The records file {path} was damaged ({error}). It was kept as {kept} and a new "
                "one was started.", path=str(self.path), error=str(exc), kept=kept.name)
            self._db = self._open()

    # --- opening -------------------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(str(self.path), isolation_level=None)
        try:  # read-only checks first: a file we refuse must stay byte for byte as it was
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path}: written by a newer Table Assistant (records version {version}, "
                    f"this one reads up to {SCHEMA_VERSION}); it was left untouched")
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise sqlite3.DatabaseError(f"integrity check: {check}")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            if version == 0:
                self._create(db)
        except BaseException:
            db.close()
            raise
        return db

    def _create(self, db: sqlite3.Connection) -> None:
        tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if tables:
            raise sqlite3.DatabaseError("tables present but no records version")
        db.executescript(f"BEGIN; {_SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")

    def _move_aside(self) -> Path:
        """Rename the damaged file (and its WAL companions) to ``<name>.damaged-<time>``."""
        assert isinstance(self.path, Path)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self.clock()))
        kept = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        serial = 1
        while kept.exists():
            serial += 1
            kept = self.path.with_name(f"{self.path.name}.damaged-{stamp}-{serial}")
        for suffix in ("", "-wal", "-shm"):
            source = Path(f"{self.path}{suffix}")
            if source.exists():
                os.replace(source, f"{kept}{suffix}")
        return kept

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- players -------------------------------------------------------------------------------

    def save_player(self, name: str, colour: str = "") -> Player:
        """Add a player, or update the colour of the player with that name."""
        name = name.strip()
        if not name:
            raise StoreError(tr("a player needs a name"))
        with self._transaction():
            self._db.execute(
                "INSERT INTO players (name, colour, created) VALUES (?, ?, ?) "
                "ON CONFLICT(name) DO UPDATE SET colour = excluded.colour",
                (name, colour, self.clock()))
        return Player(name, colour)

    def players(self) -> tuple[Player, ...]:
        """Known players, the most recently seen at a table first."""
        rows = self._db.execute(
            "SELECT name, colour FROM players ORDER BY last_played IS NULL, last_played DESC, name")
        return tuple(Player(name, colour) for name, colour in rows)

    # --- matches -------------------------------------------------------------------------------

    def start_match(self, game: str, options: dict[str, Any], players: Sequence[Player]) -> int:
        now = self.clock()
        with self._transaction():
            cursor = self._db.execute(
                "INSERT INTO matches (game, options, players, started, updated, status) "
                "VALUES (?, ?, ?, ?, ?, 'playing')",
                (game, json.dumps(options), _players_json(players), now, now))
            for player in players:
                self._db.execute(
                    "INSERT INTO players (name, colour, created, last_played) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT(name) DO UPDATE SET last_played = excluded.last_played",
                    (player.name, player.colour, now, now))
        return int(cursor.lastrowid)

    def append_action(self, match_id: int, seq: int, line: str, outcome: Outcome | None = None) -> None:
        """Record action number ``seq`` (1-based); with ``outcome`` the match is finished by it.

        The previous action must be ``seq - 1``: a gap or a duplicate means the caller and the
        records disagree, and nothing is written.
        """
        now = self.clock()
        with self._transaction():
            row = self._check_next(match_id, seq)
            self._db.execute("INSERT INTO actions (match_id, seq, line, at) VALUES (?, ?, ?, ?)",
                             (match_id, seq, line, now))
            status = "finished" if outcome else "playing"
            self._db.execute("UPDATE matches SET updated = ?, status = ? WHERE id = ?", (now, status, match_id))
            if outcome:
                names = [p["name"] for p in json.loads(row[3])]
                self._db.execute(
                    "INSERT INTO results (match_id, game, finished, players, scores, winners, termination) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (match_id, row[1], now, json.dumps(names, ensure_ascii=False),
                     json.dumps([float(s) for s in outcome.scores]), json.dumps(list(outcome.winners)),
                     str(outcome.termination)))

    def remove_last_action(self, match_id: int, seq: int) -> None:
        """Undo: forget action ``seq``, which must be the last one; a finished match plays on."""
        with self._transaction():
            self._check_next(match_id, seq + 1)
            self._db.execute("DELETE FROM actions WHERE match_id = ? AND seq = ?", (match_id, seq))
            self._db.execute("DELETE FROM results WHERE match_id = ?", (match_id,))
            self._db.execute("UPDATE matches SET updated = ?, status = 'playing' WHERE id = ?",
                             (self.clock(), match_id))

    def abandon_match(self, match_id: int) -> None:
        with self._transaction():
            self._match_row(match_id)
            self._db.execute("UPDATE matches SET status = 'abandoned', updated = ? WHERE id = ?",
                             (self.clock(), match_id))

    def load_match(self, match_id: int) -> MatchRecord:
        row = self._match_row(match_id)
        lines = tuple(line for (line,) in self._db.execute(
            "SELECT line FROM actions WHERE match_id = ? ORDER BY seq", (match_id,)))
        return MatchRecord(id=row[0], game=row[1], options=json.loads(row[2]), players=_players(row[3]),
                           lines=lines, started=row[4], updated=row[5], status=row[6])

    def unfinished(self) -> tuple[MatchSummary, ...]:
        """Matches still being played, the most recently touched first (one query, no action logs)."""
        rows = self._db.execute(
            "SELECT id, game, players, (SELECT count(*) FROM actions WHERE match_id = id), started, updated "
            "FROM matches WHERE status = 'playing' ORDER BY updated DESC, id DESC")
        return tuple(MatchSummary(r[0], r[1], _players(r[2]), r[3], r[4], r[5]) for r in rows)

    def results(self, limit: int = 20) -> tuple[Result, ...]:
        """Finished matches, the latest first."""
        rows = self._db.execute(
            "SELECT match_id, game, finished, players, scores, winners, termination FROM results "
            "ORDER BY finished DESC, match_id DESC LIMIT ?", (limit,))
        return tuple(
            Result(r[0], r[1], r[2], tuple(json.loads(r[3])), tuple(json.loads(r[4])),
                   tuple(json.loads(r[5])), r[6]) for r in rows)

    # --- helpers -------------------------------------------------------------------------------

    def _match_row(self, match_id: int) -> tuple:
        row = self._db.execute(
            "SELECT id, game, options, players, started, updated, status FROM matches WHERE id = ?",
            (match_id,)).fetchone()
        if row is None:
            raise StoreError(f"no match number {match_id} in {self.path}")
        return row

    def _check_next(self, match_id: int, seq: int) -> tuple:
        """The match's row, after checking that its last recorded action is ``seq - 1``."""
        row = self._match_row(match_id)
        last = self._db.execute("SELECT coalesce(max(seq), 0) FROM actions WHERE match_id = ?",
                                (match_id,)).fetchone()[0]
        if last != seq - 1:
            raise StoreError(f"match {match_id}: records hold {last} actions, expected {seq - 1}")
        return row

    def _transaction(self):
        return _Transaction(self._db)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK when the block raises."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, value, traceback) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")


def _players(text: str) -> tuple[Player, ...]:
    return tuple(Player(p["name"], p.get("colour", "")) for p in json.loads(text))


def _players_json(players: Sequence[Player]) -> str:
    return json.dumps([{"name": p.name, "colour": p.colour} for p in players], ensure_ascii=False)
