"""One match's rows read back trusting nothing, and written again (a repair, a restore).

Each match's action log is a hash chain: action n keeps ``link(link of action n-1, line n)``,
starting from ``seal``, a hash of the match's id, game, options and players, and the match row
keeps the last link (``head``). A line changed, lost, added or moved, or a changed header, breaks
the chain. Texts are read as bytes (``CAST(... AS BLOB)``): a damaged one may be anything,
invalid UTF-8 included.
"""
from __future__ import annotations

import hashlib
import json
import logging
import math
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, Iterator

from engine import jsontext
from engine.match import MatchFileError, Player

log = logging.getLogger(__name__)

STATUSES = ("playing", "finished", "abandoned")


# What reading a damaged database raises: SQLite's errors, and a message of SQLite's quoting a
# damaged schema, which is not UTF-8.
UNREADABLE = (sqlite3.Error, UnicodeDecodeError)


class StoreError(ValueError):
    """The database cannot be used as asked (newer schema, unknown match, out-of-order action)."""


class Damaged(ValueError):
    """A row that cannot be trusted; the message says what is wrong with it."""


def seal(match_id: int, game: str, options: str, players: str) -> str:
    return _hash(b"\n".join([b"table-assistant match %d" % match_id, *map(_bytes, (game, options, players))]))


def link(previous: str, line: str) -> str:
    return _hash(previous.encode() + b"\n" + _bytes(line))


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")  # a version 1 text may hold any bytes


def _hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Header:
    """A match row, every field checked; ``game``, ``options`` and ``players`` also as stored."""

    id: int
    game: str
    options_text: str
    players_text: str
    started: float
    updated: float
    status: str
    touched: int
    head: str

    @property
    def options(self) -> dict[str, Any]:
        return json.loads(self.options_text)

    @property
    def players(self) -> tuple[Player, ...]:
        return tuple(Player(p["name"], p.get("colour", "")) for p in json.loads(self.players_text))

    @property
    def seal(self) -> str:
        return seal(self.id, self.game, self.options_text, self.players_text)


@dataclass(frozen=True)
class ResultRow:
    game: str
    finished: float
    players: str
    scores: str
    winners: str
    termination: str


@dataclass(frozen=True)
class Stored:
    """A match as read back: what the chain vouches for, and what is wrong ("" when nothing)."""

    id: int
    header: Header | None  # None: the match row itself is damaged
    lines: tuple[str, ...]  # the lines vouched for, from the first
    ats: tuple[float, ...]
    rows: int  # action rows stored, vouched for or not
    problem: str
    result: ResultRow | None
    result_problem: str = ""

    @property
    def lost(self) -> int:
        return max(0, self.rows - len(self.lines))


def read_match(db: sqlite3.Connection, match_id: int) -> Stored | None:
    """The match ``match_id`` of ``db`` (None if there is none); sqlite3.Error if unreadable."""
    row = db.execute(
        "SELECT id, CAST(game AS BLOB), CAST(options AS BLOB), CAST(players AS BLOB), started, updated, "
        "CAST(status AS BLOB), touched, CAST(head AS BLOB) FROM matches WHERE id = ?", (match_id,)).fetchone()
    if row is None:
        return None
    problem = ""
    try:
        header = _header(row)
    except Damaged as exc:
        header, problem = None, f"its record is damaged: {exc}"
    actions = db.execute("SELECT seq, CAST(line AS BLOB), typeof(line), at, CAST(chain AS BLOB) FROM actions "
                         "WHERE match_id = ? ORDER BY seq", (match_id,)).fetchall()
    lines, ats = [], []
    if header is not None:
        lines, ats, problem = _vouched(header, actions)
    result, result_problem = None, ""
    found = db.execute("SELECT CAST(game AS BLOB), finished, CAST(players AS BLOB), CAST(scores AS BLOB), "
                       "CAST(winners AS BLOB), CAST(termination AS BLOB) FROM results WHERE match_id = ?",
                       (match_id,)).fetchone()
    if found is not None:
        try:
            result = _result(found)
        except Damaged as exc:
            result_problem = f"its result is damaged: {exc}"
    if header is not None and not problem and (header.status == "finished") != (found is not None):
        # the status is not in the chain: a finished match is the one with a result
        problem = f"its status {header.status!r} was changed"
        header = replace(header, status="finished" if found is not None else "playing")
    return Stored(match_id, header, tuple(lines), tuple(ats), len(actions), problem, result, result_problem)


def _vouched(header: Header, actions: list[tuple]) -> tuple[list[str], list[float], str]:
    """The lines the chain vouches for, their times, and what is wrong ("" when nothing).

    The stored links are the reference: a line whose link does not match is read back when
    flipping one of its bits makes it match (what a bad disk does), otherwise only the lines
    before it are kept. When every line is right but a stored link is not (the chain recomputed
    still ends at ``head``), that is said too, so that the links are written again."""
    rows, problem = [], ""
    for number, (seq, raw, kind, at, stored) in enumerate(actions, start=1):
        if seq != number:
            problem = f"action {number} is missing"
        elif kind != "text":
            problem = f"action {number} is not a line of text"
        elif not _is_number(at):
            problem = f"the time of action {number}: not a number"
        if problem:
            break
        rows.append((raw, at, stored.decode("ascii", "replace") if isinstance(stored, bytes) else ""))
    texts = [_decoded(raw) for raw, _, _ in rows]
    if not problem and None not in texts:
        links = _links(header.seal, texts)
        if (links[-1] if links else header.seal) == header.head:
            bad = next((n for n, (mine, (_, _, stored)) in enumerate(zip(links, rows), start=1) if mine != stored), 0)
            return texts, [at for _, at, _ in rows], f"the checksum of action {bad} was damaged" if bad else ""
    lines, ats, mended, previous = [], [], [], header.seal
    for number, ((raw, at, stored), text) in enumerate(zip(rows, texts), start=1):
        if text is None or link(previous, text) != stored:
            found = _flipped_back(previous, raw, stored)
            if found is None:
                what = "its record or action 1" if number == 1 else f"action {number}"
                return lines, ats, f"{what} was changed" if text is not None else f"action {number}: not UTF-8 text"
            text = found
            mended.append(number)
        lines.append(text)
        ats.append(at)
        previous = stored
    if problem:
        return lines, ats, problem
    if previous != header.head:
        return lines, ats, "its last moves are missing" if lines else "its record was changed"
    return lines, ats, f"a flipped bit in action {', '.join(map(str, mended))} was put right"


def _links(start: str, lines: list[str]) -> list[str]:
    links = []
    for line in lines:
        start = link(start, line)
        links.append(start)
    return links


def _flipped_back(previous: str, raw: bytes, stored: str) -> str | None:
    """The line that one bit flipped in ``raw`` makes, when its link is ``stored``."""
    for index in range(len(raw)):
        for bit in range(8):
            candidate = _decoded(raw[:index] + bytes([raw[index] ^ 1 << bit]) + raw[index + 1:])
            if candidate is not None and link(previous, candidate) == stored:
                return candidate
    return None


def _decoded(raw: bytes) -> str | None:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _header(row: tuple) -> Header:
    match_id, game, options, players, started, updated, status, touched, head = row
    game, options, players = (_text(raw, what) for raw, what in ((game, "game"), (options, "options"),
                                                                   (players, "players")))
    if not game:
        raise Damaged("no game")
    try:
        if not isinstance(jsontext.loads(options), dict):
            raise ValueError("not an object")
        seats = jsontext.loads(players)
        if not isinstance(seats, list) or not seats:
            raise ValueError("not a list of players")
        for seat, player in enumerate(seats):
            Player.from_dict(player, f"players[{seat}]")
    except (ValueError, MatchFileError) as exc:
        raise Damaged(f"options or players: {exc}") from None
    status = _text(status, "status")
    if status not in STATUSES:
        raise Damaged(f"status {status!r}")
    if not isinstance(touched, int):
        raise Damaged("its place in the order of play")
    return Header(match_id, game, options, players, _number(started, "start time"), _number(updated, "last change"),
                  status, touched, _text(head, "chain head"))


def _result(row: tuple) -> ResultRow:
    game, finished, players, scores, winners, termination = row
    result = ResultRow(_text(game, "game"), _number(finished, "end time"), _text(players, "players"),
                       _text(scores, "scores"), _text(winners, "winners"), _text(termination, "termination"))
    try:
        names, points, seats = (jsontext.loads(t) for t in (result.players, result.scores, result.winners))
    except ValueError as exc:
        raise Damaged(str(exc)) from None
    if not (isinstance(names, list) and all(isinstance(n, str) for n in names)
            and isinstance(points, list) and all(_is_number(p) for p in points)
            and isinstance(seats, list) and all(type(s) is int for s in seats)):
        raise Damaged("players, scores or winners")
    return result


def _text(raw: Any, what: str) -> str:
    if not isinstance(raw, bytes):
        raise Damaged(f"{what}: missing")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Damaged(f"{what}: not UTF-8 text") from None


def _number(value: Any, what: str) -> float:
    if not _is_number(value):
        raise Damaged(f"{what}: not a number")
    return value


def _is_number(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value)


def write_match(db: sqlite3.Connection, stored: Stored, touched: int | None = None) -> None:
    """Put ``stored`` (its header and vouched lines) in ``db`` in place of the match of that id,
    with its chain recomputed (and ``touched`` for its place in the order of play, if given); a
    match cut short plays on, without its result. In the caller's transaction."""
    header = stored.header
    assert header is not None
    erase_match(db, stored.id)
    whole = not stored.lost
    status = header.status if whole else "playing"
    chain = header.seal
    links = []
    for line in stored.lines:
        chain = link(chain, line)
        links.append(chain)
    db.execute("INSERT INTO matches (id, game, options, players, started, updated, status, touched, head) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
               (header.id, header.game, header.options_text, header.players_text, header.started, header.updated,
                status, header.touched if touched is None else touched, chain))
    db.executemany("INSERT INTO actions (match_id, seq, line, at, chain) VALUES (?, ?, ?, ?, ?)",
                   [(header.id, seq, line, at, chained) for seq, (line, at, chained)
                    in enumerate(zip(stored.lines, stored.ats, links), start=1)])
    if whole and status == "finished" and stored.result is not None:
        r = stored.result
        db.execute("INSERT INTO results (match_id, game, finished, players, scores, winners, termination) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (header.id, r.game, r.finished, r.players, r.scores, r.winners, r.termination))


def erase_match(db: sqlite3.Connection, match_id: int) -> None:
    for table, key in (("results", "match_id"), ("actions", "match_id"), ("matches", "id")):
        db.execute(f"DELETE FROM {table} WHERE {key} = ?", (match_id,))


@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK when the block (or the COMMIT) fails. The first
    error is the one raised: SQLite rolls back by itself on some (a full disk), and a second
    ROLLBACK would only say "no transaction is active"."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            try:
                db.execute("ROLLBACK")
            except sqlite3.Error as exc:
                log.warning("records: rollback failed too: %s", exc)
        raise
