"""The club's records in SQLite: players, matches, each match's action log, and results.

Written for power cuts: WAL journal with ``synchronous=FULL``, one transaction per action, so a
committed action survives a crash and an interrupted one leaves no trace. Every action line is
chained to the ones before it (``assistant.records``), and a rolling backup is taken after each
finished match and at most hourly during play (``assistant.backups``).

The kiosk always starts. At opening, whatever cannot be trusted is set aside, kept byte for
byte beside the database, and mended from what can be: a file SQLite cannot read is renamed
aside and a new one is filled from what is readable of it and from the backups; a damaged
match comes back from a backup or is kept up to its damage; a lost journal (``assistant.wal``,
or a backup ahead of the database) brings matches back from the backup. ``Store.notice`` says
what happened (the screen shows it) and the log says it in detail. A file held by another
program is waited for, then refused, and never taken for damage; so is a database from a newer
version.
"""
from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from assistant import repair, settings, wal
from assistant.backups import KEEP, Backups
from assistant.mending import Mender
from assistant.records import StoreError, link, read_match, seal, transaction
from engine.core import Outcome
from engine.match import Player
from engine.text import Text, tr

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2
FILE_NAME = "table-assistant.sqlite3"
IN_MEMORY = ":memory:"
BUSY_TIMEOUT = 5.0  # seconds to wait for a database another program holds
BACKUP_EVERY = 3600.0  # seconds between two backups during play (one follows every finished match)

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
    status TEXT NOT NULL CHECK (status IN ('playing', 'finished', 'abandoned')),
    touched INTEGER NOT NULL DEFAULT 0,  -- the change counter when last changed: orders play, not the clock
    head TEXT NOT NULL DEFAULT ''        -- the chain link of the last action (records.seal with none)
);
CREATE TABLE actions (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seq INTEGER NOT NULL,            -- 1 for the first action of the match
    line TEXT NOT NULL,              -- the action's notation
    at REAL NOT NULL,
    chain TEXT NOT NULL DEFAULT '',  -- records.link(chain of the action before, line)
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
CREATE INDEX matches_by_status ON matches(status, touched);
"""

_FROM_1 = """
ALTER TABLE matches ADD COLUMN touched INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN head TEXT NOT NULL DEFAULT '';
ALTER TABLE actions ADD COLUMN chain TEXT NOT NULL DEFAULT '';
DROP INDEX matches_by_status;
CREATE INDEX matches_by_status ON matches(status, touched);
"""

# SQLite's primary result codes that mean the file is not a readable database; any other error
# (busy, locked, read-only, cannot open, full, I/O) is about the place, never the records.
# A records version above this is no newer Table Assistant's but a damaged file header.
_NEWEST_PLAUSIBLE = 100
_DAMAGE_CODES = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
_LOCK_CODES = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


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


class _Unreadable(Exception):
    """The file is not a database this version can read as its records."""


class Store:
    """One open database. Not shared between threads: the session calls it from one thread."""

    def __init__(self, path: str | Path, clock: Callable[[], float] = time.time, *,
                 busy_timeout: float = BUSY_TIMEOUT, backup_every: float = BACKUP_EVERY,
                 keep_backups: int = KEEP):
        self.path = path if path == IN_MEMORY else Path(path)
        self.clock = clock
        self.busy_timeout = busy_timeout
        self.backup_every = backup_every
        self.notice: Text | None = None  # what was found damaged or lost at opening, and done about it
        self.backups: Backups | None = None
        self._last_backup = time.monotonic()
        if self.path == IN_MEMORY:
            self._db = self._open()
            return
        self.backups = Backups(self.path, keep_backups)
        self._prepare_folder()
        mender = Mender(self.path, self.clock, self.backups)
        lost = wal.lost_changes(self.path)
        if lost:
            mender.journal_lost(lost)
        try:
            self._db = self._open()
        except _Unreadable as exc:
            mender.unreadable(str(exc))
            self._db = self._open()
            mender.salvage(self._db)
        else:
            mender.mend(self._db)
        mender.restore_newer(self._db)
        self.notice = mender.notice()
        if not self.backups.newest_first() and self._counter():
            self._backup()

    # --- opening -------------------------------------------------------------------------------

    def _prepare_folder(self) -> None:
        folder = self.path.parent
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"the records folder {folder} cannot be made: {exc.strerror}") from None
        if not os.access(folder, os.W_OK | os.X_OK):
            raise StoreError(f"the records folder {folder} cannot be written to: give the kiosk's user the "
                             "right to write there, or choose another app.state_dir")

    def _create_file(self) -> None:
        """A new database, 0600, made whole beside the path and renamed onto it."""
        partial = self.path.with_name(f".{self.path.name}.new")
        partial.unlink(missing_ok=True)
        os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        try:
            with closing(sqlite3.connect(partial, isolation_level=None)) as db:
                db.executescript(f"BEGIN; {_SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")
            os.replace(partial, self.path)
        finally:
            partial.unlink(missing_ok=True)

    def _open(self) -> sqlite3.Connection:
        if self.path != IN_MEMORY and not self.path.exists():
            self._create_file()
        elif self.path != IN_MEMORY and self.path.stat().st_size == 0:
            raise _Unreadable("the file is empty (0 bytes)")
        db = sqlite3.connect(str(self.path), isolation_level=None, timeout=self.busy_timeout)
        db.text_factory = _lenient_text
        try:  # read-only checks first: a file we refuse must stay byte for byte as it was
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > _NEWEST_PLAUSIBLE:  # no version was ever so high: a damaged header
                raise _Unreadable(f"records version {version}")
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path}: written by a newer Table Assistant (records version {version}, "
                    f"this one reads up to {SCHEMA_VERSION}); it was left untouched")
            # integrity_check, not quick_check: quick_check passes an index that disagrees with its
            # table, and the first write then finds the file malformed (bench/damage.py); it costs
            # about 230 ms on 10,000 matches here, a few ms on a club's year
            check = db.execute("PRAGMA integrity_check").fetchone()[0]
            if check != "ok":
                raise _Unreadable(f"integrity check: {' '.join(check.split())}")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            if version == 0:
                self._create(db)
            elif version == 1:
                self._migrate_from_1(db)
            _check_columns(db)
        except sqlite3.Error as exc:
            db.close()
            raise self._opening_error(exc) from exc
        except UnicodeDecodeError:  # SQLite's own message quotes a damaged schema, not UTF-8
            db.close()
            raise _Unreadable("the description of its tables is damaged") from None
        except BaseException:
            db.close()
            raise
        return db

    def _opening_error(self, exc: sqlite3.Error) -> Exception:
        code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF
        if code in _DAMAGE_CODES:
            return _Unreadable(str(exc))
        if code in _LOCK_CODES:
            return StoreError(f"the records file {self.path} is in use by another program (waited "
                              f"{self.busy_timeout:g} s): stop it, or give this kiosk another app.state_dir")
        return StoreError(f"the records file {self.path} cannot be opened: {exc}")

    def _create(self, db: sqlite3.Connection) -> None:
        tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if tables:
            raise _Unreadable("tables present but no records version")
        db.executescript(f"BEGIN; {_SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")

    def _migrate_from_1(self, db: sqlite3.Connection) -> None:
        """Version 2 chains the action lines and orders matches by a counter: the chain is
        computed over the lines as they are, the counter follows the old order of play."""
        with transaction(db):
            for statement in _FROM_1.strip().split(";\n"):
                db.execute(statement)
            matches = db.execute("SELECT id, CAST(game AS BLOB), CAST(options AS BLOB), CAST(players AS BLOB) "
                                 "FROM matches ORDER BY updated, id").fetchall()
            for touched, (match_id, *texts) in enumerate(matches, start=1):
                chain = seal(match_id, *(_as_text(t) for t in texts))
                for seq, line in db.execute("SELECT seq, CAST(line AS BLOB) FROM actions WHERE match_id = ? "
                                            "ORDER BY seq", (match_id,)).fetchall():
                    chain = link(chain, _as_text(line))
                    db.execute("UPDATE actions SET chain = ? WHERE match_id = ? AND seq = ?", (chain, match_id, seq))
                db.execute("UPDATE matches SET touched = ?, head = ? WHERE id = ?", (touched, chain, match_id))
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        log.info("records: %s brought to version %d", self.path, SCHEMA_VERSION)

    def _counter(self) -> int:
        return repair.counter(self._db)

    def _backup(self) -> None:
        """A backup now; a failure (a full disk) is logged, never stops play."""
        if self.backups is None:
            return
        self._last_backup = time.monotonic()
        try:
            self.backups.take(self._db, self._counter())
        except (sqlite3.Error, OSError) as exc:
            log.warning("records: no backup taken: %s", exc)

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
        options_text, players_text = json.dumps(options), _players_json(players)
        with self._transaction():
            cursor = self._db.execute(
                "INSERT INTO matches (game, options, players, started, updated, status, touched) "
                "VALUES (?, ?, ?, ?, ?, 'playing', ?)",
                (game, options_text, players_text, now, now, self._counter() + 1))
            match_id = int(cursor.lastrowid)
            self._db.execute("UPDATE matches SET head = ? WHERE id = ?",
                             (seal(match_id, game, options_text, players_text), match_id))
            for player in players:
                self._db.execute(
                    "INSERT INTO players (name, colour, created, last_played) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT(name) DO UPDATE SET last_played = excluded.last_played",
                    (player.name, player.colour, now, now))
        return match_id

    def append_action(self, match_id: int, seq: int, line: str, outcome: Outcome | None = None) -> None:
        """Record action number ``seq`` (1-based); with ``outcome`` the match is finished by it.

        The previous action must be ``seq - 1``: a gap or a duplicate means the caller and the
        records disagree, and nothing is written.
        """
        now = self.clock()
        with self._transaction():
            row = self._check_next(match_id, seq)
            chain = link(row[7], line)
            self._db.execute("INSERT INTO actions (match_id, seq, line, at, chain) VALUES (?, ?, ?, ?, ?)",
                             (match_id, seq, line, now, chain))
            status = "finished" if outcome else "playing"
            self._db.execute("UPDATE matches SET updated = ?, status = ?, touched = ?, head = ? WHERE id = ?",
                             (now, status, self._counter() + 1, chain, match_id))
            if outcome:
                names = [p["name"] for p in json.loads(row[3])]
                self._db.execute(
                    "INSERT INTO results (match_id, game, finished, players, scores, winners, termination) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (match_id, row[1], now, json.dumps(names, ensure_ascii=False),
                     json.dumps([float(s) for s in outcome.scores]), json.dumps(list(outcome.winners)),
                     str(outcome.termination)))
        if outcome or time.monotonic() - self._last_backup >= self.backup_every:
            self._backup()

    def remove_last_action(self, match_id: int, seq: int) -> None:
        """Undo: forget action ``seq``, which must be the last one; a finished match plays on."""
        with self._transaction():
            row = self._check_next(match_id, seq + 1)
            before = self._db.execute("SELECT chain FROM actions WHERE match_id = ? AND seq = ?",
                                      (match_id, seq - 1)).fetchone()
            head = before[0] if before else seal(match_id, row[1], row[2], row[3])
            self._db.execute("DELETE FROM actions WHERE match_id = ? AND seq = ?", (match_id, seq))
            self._db.execute("DELETE FROM results WHERE match_id = ?", (match_id,))
            self._db.execute("UPDATE matches SET updated = ?, status = 'playing', touched = ?, head = ? WHERE id = ?",
                             (self.clock(), self._counter() + 1, head, match_id))

    def abandon_match(self, match_id: int) -> None:
        with self._transaction():
            self._match_row(match_id)
            self._db.execute("UPDATE matches SET status = 'abandoned', updated = ?, touched = ? WHERE id = ?",
                             (self.clock(), self._counter() + 1, match_id))

    def load_match(self, match_id: int) -> MatchRecord:
        """The match, every line checked against its chain (StoreError if damaged since opening)."""
        stored = read_match(self._db, match_id)
        if stored is None:
            raise StoreError(f"no match number {match_id} in {self.path}")
        if stored.problem:
            raise StoreError(f"game {match_id} is damaged: {stored.problem}")
        h = stored.header
        return MatchRecord(id=h.id, game=h.game, options=h.options, players=h.players, lines=stored.lines,
                           started=h.started, updated=h.updated, status=h.status)

    def unfinished(self) -> tuple[MatchSummary, ...]:
        """Matches still being played, the last one played first (one query, no action logs)."""
        rows = self._db.execute(
            "SELECT id, game, players, (SELECT count(*) FROM actions WHERE match_id = id), started, updated "
            "FROM matches WHERE status = 'playing' ORDER BY touched DESC, id DESC")
        return tuple(_readable(lambda r: MatchSummary(r[0], r[1], _players(r[2]), r[3], r[4], r[5]), rows))

    def results(self, limit: int = 20) -> tuple[Result, ...]:
        """Finished matches, the last one finished first."""
        rows = self._db.execute(
            "SELECT match_id, results.game, finished, results.players, scores, winners, termination "
            "FROM results JOIN matches ON matches.id = match_id ORDER BY touched DESC, match_id DESC LIMIT ?",
            (limit,))
        return tuple(_readable(lambda r: Result(r[0], r[1], r[2], tuple(json.loads(r[3])), tuple(json.loads(r[4])),
                                                tuple(json.loads(r[5])), r[6]), rows))

    # --- helpers -------------------------------------------------------------------------------

    def _match_row(self, match_id: int) -> tuple:
        row = self._db.execute(
            "SELECT id, game, options, players, started, updated, status, head FROM matches WHERE id = ?",
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
        return transaction(self._db)


def _check_columns(db: sqlite3.Connection) -> None:
    """The tables hold the columns this version writes: a damaged schema (quick_check passes a
    bit flipped in a column's name) is refused, not read as records."""
    with closing(sqlite3.connect(IN_MEMORY)) as model:
        model.executescript(_SCHEMA)
        for (table,) in model.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
            wanted = [row[1:3] for row in model.execute(f"PRAGMA table_info({table})")]
            found = [row[1:3] for row in db.execute(f"PRAGMA table_info({table})")]
            if found != wanted:
                raise _Unreadable(f"the table {table} is not as written (its columns are damaged)")


def _lenient_text(raw: bytes) -> str:
    """Texts as listings read them: a damaged one (mended at opening, or it would not be read
    here) must not stop the home screen. The checks read bytes (``assistant.records``)."""
    return raw.decode("utf-8", "replace")


def _readable(make: Callable[[tuple], Any], rows) -> Iterator[Any]:
    """``make(row)`` for each row it can make sense of; the others are logged and left out."""
    for row in rows:
        try:
            yield make(row)
        except (ValueError, TypeError, KeyError) as exc:
            log.error("records: game %s cannot be listed: %s", row[0], exc)


def _as_text(raw: Any) -> str:
    return raw.decode("utf-8", "surrogateescape") if isinstance(raw, bytes) else str(raw)


def _players(text: str) -> tuple[Player, ...]:
    return tuple(Player(p["name"], p.get("colour", "")) for p in json.loads(text))


def _players_json(players: Sequence[Player]) -> str:
    return json.dumps([{"name": p.name, "colour": p.colour} for p in players], ensure_ascii=False)
