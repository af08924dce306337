"""Mending the records at opening: a damaged match is replaced by the longest copy of it that
can be trusted (its own lines up to the damage, or a backup's), a match a backup has in a newer
state than the database (the journal was lost) comes back from the backup, and damaged player
entries go. Each step says what it did, in sentences for the notice."""
from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass

from assistant.records import UNREADABLE, Stored, erase_match, read_match, write_match
from engine.match import MatchFileError, Player
from engine.text import Text, listing, tr

log = logging.getLogger(__name__)

TOLD_ONE_BY_ONE = 3  # more damaged games than this are told in one sentence


@dataclass(frozen=True)
class Source:
    """Records to take a match from: a backup, or what is readable of a damaged file."""

    label: Text
    db: sqlite3.Connection


def counter(db: sqlite3.Connection) -> int:
    """The records' change counter: the highest ``touched`` of a match."""
    value = db.execute("SELECT max(touched) FROM matches WHERE typeof(touched) = 'integer'").fetchone()[0]
    return value or 0


def match_ids(db: sqlite3.Connection) -> list[int]:
    return [match_id for (match_id,) in db.execute("SELECT id FROM matches ORDER BY id")]


def damaged(db: sqlite3.Connection) -> list[Stored]:
    """Every match of ``db`` with something wrong with it."""
    found = []
    for match_id in match_ids(db):
        stored = read_match(db, match_id)
        if stored is not None and (stored.problem or stored.result_problem):
            found.append(stored)
    return found


def mend(db: sqlite3.Connection, stored: Stored, sources: list[Source]) -> tuple[Text, int]:
    """Put the best copy of damaged match ``stored`` in ``db``: (what was done, moves lost)."""
    best, origin = (stored, None) if stored.header is not None else (None, None)
    for source in sources:
        try:
            candidate = read_match(source.db, stored.id)
        except UNREADABLE:
            continue
        if candidate is None or candidate.problem or not _same_match(stored, candidate):
            continue
        longer = best is None or len(candidate.lines) > len(best.lines)
        if longer or (origin is None and len(candidate.lines) == len(best.lines)):  # a backup vouches for all
            best, origin = candidate, source
    problem = stored.problem or stored.result_problem
    log.error("records: game %s: %s", stored.id, problem)
    if best is None:
        erase_match(db, stored.id)
        return tr("game {number} ({problem}) was set aside: no readable copy of it is left",
                  number=stored.id, problem=problem), stored.rows
    if not stored.problem and best is stored:  # only the result was damaged, and no copy has it
        write_match(db, Stored(stored.id, stored.header, stored.lines, stored.ats, stored.rows, "", None))
        return tr("the result of game {number} ({problem}) was set aside", number=stored.id, problem=problem), 0
    write_match(db, best, None if stored.header is None else max(stored.header.touched, best.header.touched))
    moves, lost = len(best.lines), max(0, stored.rows - len(best.lines))
    if origin is None and lost:
        return tr("game {number} ({problem}) was kept up to move {moves}; the {lost} moves after it are lost",
                  number=stored.id, problem=problem, moves=moves, lost=lost), lost
    if origin is None:
        return tr("game {number} ({problem}) was mended with its {moves} moves", number=stored.id, problem=problem,
                  moves=moves), 0
    if lost:
        return tr("game {number} ({problem}) was restored from {source} at move {moves}; the {lost} moves after it "
                  "are lost", number=stored.id, problem=problem, source=origin.label, moves=moves, lost=lost), lost
    return tr("game {number} ({problem}) was restored from {source} with its {moves} moves", number=stored.id,
              problem=problem, source=origin.label, moves=moves), 0


def _same_match(stored: Stored, candidate: Stored) -> bool:
    """Whether ``candidate`` can stand for ``stored``: the lines the chain vouches for agree and,
    when the chain vouches for the header (a line at least), so does the header."""
    if candidate.lines[:len(stored.lines)] != stored.lines:
        return False
    if stored.header is None or not stored.lines:
        return True
    mine, theirs = stored.header, candidate.header
    return (mine.game, mine.options_text, mine.players_text) == (theirs.game, theirs.options_text, theirs.players_text)


def restore_newer(db: sqlite3.Connection, source: Source) -> list[int]:
    """Bring back from ``source`` every intact match that ``db`` lacks (matches are never
    deleted: one missing was lost) and, when ``source`` is ahead of ``db`` as a whole, every one
    it holds in a later state; the match ids."""
    ahead = counter(source.db) > counter(db)
    restored = []
    for match_id in match_ids(source.db):
        try:
            theirs = read_match(source.db, match_id)
        except UNREADABLE as exc:  # a damaged page of the backup: its other matches still serve
            log.warning("records: game %s of %s cannot be read: %s", match_id, source.label, exc)
            continue
        if theirs is None or theirs.problem or theirs.result_problem:
            continue
        mine = read_match(db, match_id)
        if mine is None or ahead and (mine.header is None or mine.header.touched < theirs.header.touched):
            write_match(db, theirs)
            restored.append(match_id)
    if restored:
        copy_players(db, source.db)
    return restored


def copy_players(db: sqlite3.Connection, source: sqlite3.Connection) -> None:
    """Add the players ``source`` knows and ``db`` does not."""
    for name, colour, created, last_played in source.execute(
            "SELECT name, colour, created, last_played FROM players"):
        if _player_ok(name, colour, created, last_played):
            db.execute("INSERT OR IGNORE INTO players (name, colour, created, last_played) VALUES (?, ?, ?, ?)",
                       (name, colour, created, last_played))


def damaged_players(db: sqlite3.Connection) -> list[int]:
    """The rowids of player entries that cannot be read back."""
    rows = db.execute("SELECT id, CAST(name AS BLOB), CAST(colour AS BLOB), created, last_played FROM players")
    bad = []
    for row_id, name, colour, created, last_played in rows:
        try:
            name, colour = name.decode(), colour.decode()
        except (AttributeError, UnicodeDecodeError):
            bad.append(row_id)
            continue
        if not _player_ok(name, colour, created, last_played):
            bad.append(row_id)
    return bad


def _player_ok(name, colour, created, last_played) -> bool:
    try:
        Player.from_dict({"name": name, "colour": colour}, "player")
    except MatchFileError:
        return False
    return type(created) in (int, float) and (last_played is None or type(last_played) in (int, float))


def summary(sentences: list[Text], ids: list[int], lost: int) -> list[Text]:
    """The sentences themselves, or one for the games ``ids`` when there are many."""
    if len(sentences) <= TOLD_ONE_BY_ONE:
        return sentences
    return [tr("{games} were damaged and mended as well as they could be, {lost} move(s) lost (the log tells "
               "how each one was)", games=games(ids), lost=lost), *sentences[len(ids):]]


def games(ids: list[int]) -> Text:
    """"game 3", "games 1, 4 and 5"."""
    if len(ids) == 1:
        return tr("game {number}", number=ids[0])
    return tr("games {numbers}", numbers=listing([str(i) for i in ids]))
