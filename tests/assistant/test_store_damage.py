"""Damaged, lost and locked records: the kiosk always starts, says what it found and did, and
loses nothing that was acknowledged and can still be read (in the records, a backup or the
files kept aside)."""
import os
import re
import shutil
import sqlite3
import subprocess
import sys

import pytest

from assistant import cli
from assistant.session import Session
from assistant.store import SCHEMA_VERSION, Store, StoreError
from engine import registry
from engine.core import Outcome
from engine.match import Player
from toy_game import ToyGame

registry.register(ToyGame)

ANA_BEN = (Player("Ana", "red"), Player("Ben", "blue"))
FIRST = ["roll 4", "bank", "roll 6", "again", "roll 2"]
WON = Outcome("game over", (0,), (6.0, 0.0))


class Clock:
    """A clock the test sets (and may set back)."""

    def __init__(self, now=1_700_000_000.0):
        self.now = now

    def __call__(self):
        self.now += 1
        return self.now


def play(store, match_id, lines, first=1):
    for seq, line in enumerate(lines, start=first):
        store.append_action(match_id, seq, line)


def records(tmp_path):
    """A state folder with three matches: 1 unfinished (5 moves), 2 finished (a backup follows
    it), 3 unfinished (3 moves, the last one played)."""
    path = tmp_path / "state" / "records.sqlite3"
    with Store(path, clock=Clock()) as store:
        play(store, store.start_match("toy", {"goal": 10}, ANA_BEN), FIRST)
        second = store.start_match("toy", {}, [Player("Cy"), Player("Di")])
        store.append_action(second, 1, "roll 6")
        store.append_action(second, 2, "bank", WON)
        play(store, store.start_match("toy", {}, [Player("Ed"), Player("Flo")]), ["roll 2", "again", "roll 3"])
    return path


def change(path, *statements):
    db = sqlite3.connect(path)
    db.execute("PRAGMA ignore_check_constraints = 1")
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()


def lines_of(store, match_id):
    return list(store.load_match(match_id).lines)


def kept_files(folder):
    return sorted(p.name for p in folder.iterdir() if ".damaged-" in p.name)


def starts(store):
    """The kiosk's start: a session on the records, its home screen, and the last game resumed."""
    session = Session(store)
    assert session.view.screen == "home"
    return session, session.resume()


# --- damaged values in a valid database ---------------------------------------------------------

BAD_VALUES = [
    ("UPDATE matches SET players = '[1,2,3]' WHERE id = 1", "players\\[0\\]: a player is"),
    ("UPDATE matches SET options = 'garbage' WHERE id = 1", "not valid JSON"),
    ("UPDATE matches SET options = '[1]' WHERE id = 1", "options or players: not an object"),
    ("UPDATE matches SET players = '[]' WHERE id = 1", "not a list of players"),
    ("UPDATE matches SET players = '[{\"name\": 5}]' WHERE id = 1", "a player needs a non-empty name"),
    ("UPDATE matches SET players = '[{\"name\": \"Zed\"}, {\"name\": \"Ben\"}]' WHERE id = 1",
     "its record or action 1 was changed"),
    ("UPDATE matches SET options = '" + "[" * 5000 + "' WHERE id = 1", "not valid JSON|nested"),
    ("UPDATE matches SET players = CAST(x'ff' AS TEXT) WHERE id = 1", "players: not UTF-8 text"),
    ("UPDATE matches SET game = CAST(x'c3' AS TEXT) WHERE id = 1", "game: not UTF-8 text"),
    ("UPDATE matches SET game = '' WHERE id = 1", "no game"),
    ("UPDATE matches SET game = 'hilo' WHERE id = 1", "its record or action 1 was changed"),
    ("UPDATE matches SET started = 'x' WHERE id = 1", "start time: not a number"),
    ("UPDATE matches SET updated = x'00' WHERE id = 1", "last change: not a number"),
    ("UPDATE matches SET status = 'won' WHERE id = 1", "status 'won'"),
    ("UPDATE matches SET touched = 'x' WHERE id = 1", "order of play"),
    ("UPDATE matches SET head = 'x' WHERE id = 1", "its last moves are missing"),
    ("UPDATE actions SET line = 'roll 5' WHERE match_id = 1 AND seq = 3", "action 3 was changed"),
    ("UPDATE actions SET line = CAST(x'ff' AS TEXT) WHERE match_id = 1 AND seq = 3", "action 3: not UTF-8"),
    ("UPDATE actions SET line = 7 WHERE match_id = 1 AND seq = 3", "action 3 was changed"),
    ("UPDATE actions SET line = CAST('roll 6' AS BLOB) WHERE match_id = 1 AND seq = 3", "action 3 is not a line of text"),
    ("UPDATE actions SET at = 'x' WHERE match_id = 1 AND seq = 3", "the time of action 3: not a number"),
    ("UPDATE actions SET chain = 'x' WHERE match_id = 1 AND seq = 3", "the checksum of action 3 was damaged"),
    ("DELETE FROM actions WHERE match_id = 1 AND seq = 3", "action 3 is missing"),
    ("DELETE FROM actions WHERE match_id = 1 AND seq = 5", "its last moves are missing"),
    ("UPDATE actions SET seq = 9 WHERE match_id = 1 AND seq = 5", "action 5 is missing"),
    ("INSERT INTO actions VALUES (1, 6, 'bank', 0, 'x')", "its last moves are missing|action 6 was changed"),
    ("UPDATE actions SET line = CASE seq WHEN 3 THEN 'again' ELSE 'roll 6' END "
     "WHERE match_id = 1 AND seq IN (3, 4)", "action 3 was changed"),
]


@pytest.mark.parametrize("statement, problem", BAD_VALUES)
def test_a_damaged_match_is_restored_from_the_backup_and_the_kiosk_starts(tmp_path, statement, problem):
    path = records(tmp_path)
    change(path, statement)
    with Store(path) as store:
        assert store.notice is not None
        assert "game 1 (" in store.notice and "was restored from the backup of" in store.notice
        assert re.search(problem, store.notice), store.notice
        [kept] = kept_files(path.parent)
        assert kept in store.notice
        assert lines_of(store, 1) == FIRST and lines_of(store, 3) == ["roll 2", "again", "roll 3"]
        session, view = starts(store)
        assert store.notice in session.view.notices
        assert view.screen == "game" and view.match_id == 3 and view.moves == 3
    with Store(path) as again:  # mended for good: the next start has nothing to say
        assert again.notice is None
    copy = sqlite3.connect(path.parent / kept)  # the damage itself is kept
    assert copy.execute("SELECT count(*) FROM matches").fetchone()[0] == 3
    copy.close()


def test_without_a_backup_a_damaged_match_is_kept_up_to_the_damage(tmp_path):
    path = records(tmp_path)
    shutil.rmtree(path.with_name(path.name + ".backups"))
    change(path, "UPDATE actions SET line = 'roll 5' WHERE match_id = 1 AND seq = 4")
    with Store(path) as store:
        assert "game 1 (action 4 was changed) was kept up to move 3; the 2 moves after it are lost" in store.notice
        assert lines_of(store, 1) == FIRST[:3]
        session, view = starts(store)
        assert view.match_id == 3
        assert session.resume(1).moves == 3  # it plays on from there


def test_without_a_backup_a_match_whose_record_is_unreadable_is_set_aside(tmp_path):
    path = records(tmp_path)
    shutil.rmtree(path.with_name(path.name + ".backups"))
    change(path, "UPDATE matches SET options = 'garbage' WHERE id = 3")
    with Store(path) as store:
        assert "game 3 (its record is damaged" in store.notice
        assert "was set aside: no readable copy of it is left" in store.notice
        assert [m.id for m in store.unfinished()] == [1]
        _, view = starts(store)
        assert view.match_id == 1 and view.moves == 5
    [kept] = kept_files(path.parent)
    copy = sqlite3.connect(path.parent / kept)
    assert copy.execute("SELECT options FROM matches WHERE id = 3").fetchone() == ("garbage",)
    assert copy.execute("SELECT count(*) FROM actions WHERE match_id = 3").fetchone() == (3,)


@pytest.mark.parametrize("statement", [
    "UPDATE results SET scores = 'garbage'", "UPDATE results SET winners = '[\"a\"]'",
    "UPDATE results SET players = CAST(x'ff' AS TEXT)",
])
def test_a_damaged_result_comes_back_from_the_backup(tmp_path, statement):
    path = records(tmp_path)
    change(path, statement)
    with Store(path) as store:
        assert "game 2 (its result is damaged" in store.notice
        [result] = store.results()
        assert result.scores == (6.0, 0.0) and result.players == ("Cy", "Di")
        starts(store)


@pytest.mark.parametrize("statement", [
    "UPDATE players SET name = CAST(x'ff' AS TEXT) WHERE name = 'Ana'",
    "UPDATE players SET created = 'x' WHERE name = 'Ana'", "UPDATE players SET last_played = 'x' WHERE name = 'Ana'",
])
def test_a_damaged_player_entry_is_set_aside(tmp_path, statement):
    path = records(tmp_path)
    change(path, statement)
    with Store(path) as store:
        assert "damaged player entries were set aside (1)" in store.notice
        assert "Ana" not in [p.name for p in store.players()] and len(store.players()) == 5
        starts(store)


# --- bit flips, a damaged file, an empty file ----------------------------------------------------

def flip_bits_in_file(path, match_id, seq, flips):
    """Flip bits of an action's line in the database file itself, as a bad disk would: the row
    is found by its chain link, which follows the line and its 8-byte time."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    line, chain = db.execute("SELECT line, chain FROM actions WHERE match_id = ? AND seq = ?", (match_id, seq)).fetchone()
    db.close()
    data = bytearray(path.read_bytes())
    start = data.rindex(line.encode(), 0, data.index(chain.encode()))
    assert data[start:start + len(line)] == line.encode()
    for index, bit in flips:
        data[start + index] ^= 1 << bit
    path.write_bytes(bytes(data))
    return bytes(data[start:start + len(line)])


@pytest.mark.parametrize("match_id, seq, flips", [(1, 1, [(5, 0)]), (1, 4, [(2, 7)]), (3, 2, [(0, 1)])])
def test_a_bit_flipped_in_an_action_line_is_detected_and_put_right(tmp_path, match_id, seq, flips):
    path = records(tmp_path)
    shutil.rmtree(path.with_name(path.name + ".backups"))  # the chain alone puts it right
    before = {m: lines_of_file(path, m) for m in (1, 2, 3)}
    damaged = flip_bits_in_file(path, match_id, seq, flips)
    with Store(path) as store:
        assert f"game {match_id} (a flipped bit in action {seq} was put right) was mended" in store.notice
        assert {m: lines_of(store, m) for m in (1, 2, 3)} == before
        starts(store)
    assert damaged != before[match_id][seq - 1].encode()


def test_lines_changed_beyond_one_bit_are_detected_and_the_backup_restores_them(tmp_path):
    path = records(tmp_path)
    flip_bits_in_file(path, 1, 3, [(5, 0), (5, 1)])
    with Store(path) as store:
        assert "game 1 (action 3: not UTF-8 text) was restored from the backup of" in store.notice or \
            "game 1 (action 3 was changed) was restored from the backup of" in store.notice
        assert lines_of(store, 1) == FIRST


def lines_of_file(path, match_id):
    db = sqlite3.connect(path)
    lines = [line for (line,) in db.execute("SELECT line FROM actions WHERE match_id = ? ORDER BY seq", (match_id,))]
    db.close()
    return lines


def test_a_file_sqlite_cannot_read_is_renamed_and_what_is_readable_comes_back(tmp_path):
    path = records(tmp_path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    data = bytearray(path.read_bytes())
    data[0:16] = b"garbage garbage!"  # the header: SQLite cannot read the file at all
    path.write_bytes(bytes(data))
    with Store(path) as store:
        assert "The records file" in store.notice and "was damaged (file is not a database)" in store.notice
        [kept] = kept_files(path.parent)
        assert (path.parent / kept).read_bytes() == bytes(data)
        assert "The records had lost changes: games 1 and 2 came back from the backup of" in store.notice
        assert lines_of(store, 1) == FIRST and store.load_match(2).status == "finished"
        assert [m.id for m in store.unfinished()] == [1]  # game 3 began after the last backup: lost
        starts(store)


def test_an_empty_file_is_not_taken_for_new_records(tmp_path):
    path = records(tmp_path)
    path.write_bytes(b"")
    with Store(path) as store:
        assert "was damaged (the file is empty (0 bytes))" in store.notice
        assert "games 1 and 2 came back from the backup of" in store.notice
        assert lines_of(store, 1) == FIRST
        starts(store)


# --- the journal ---------------------------------------------------------------------------------

def crash_image(path, into):
    """The files as a crash (kill -9, a power cut) leaves them: the database still open."""
    into.mkdir()
    for suffix in ("", "-wal", "-shm"):
        shutil.copyfile(f"{path}{suffix}", into / f"{path.name}{suffix}")
    shutil.copytree(path.with_name(path.name + ".backups"), into / f"{path.name}.backups")
    return into / path.name


def open_records_mid_game(tmp_path):
    """Records whose journal holds committed actions: a finished game (and its backup), then
    another game of 30 actions still being played."""
    path = tmp_path / "live" / "records.sqlite3"
    store = Store(path, clock=Clock())
    first = store.start_match("toy", {}, ANA_BEN)
    store.append_action(first, 1, "roll 6")
    store.append_action(first, 2, "bank", WON)
    second = store.start_match("toy", {"goal": 1000}, [Player("Cy"), Player("Di")])
    play(store, second, ["roll 3", "again", "roll 4", "bank"] * 7 + ["roll 2", "bank"])
    return store, path, second


def frames(wal):
    return (len(wal) - 32) // (24 + 4096)


def test_a_damaged_journal_is_detected_kept_and_said(tmp_path):
    store, path, second = open_records_mid_game(tmp_path)
    image = crash_image(path, tmp_path / "image")
    store.close()
    wal = bytearray(image.with_name(image.name + "-wal").read_bytes())
    middle = 32 + (frames(wal) // 2) * (24 + 4096) + 24 + 100
    wal[middle] ^= 0x10
    image.with_name(image.name + "-wal").write_bytes(bytes(wal))
    with Store(image) as reopened:
        assert "The records' journal was damaged or deleted" in reopened.notice
        kept = [name for name in kept_files(image.parent) if name.endswith("-wal")]
        assert len(kept) == 1 and kept[0][:-4] in reopened.notice
        assert (image.parent / kept[0]).read_bytes() == bytes(wal)  # byte for byte, for recovery
        assert reopened.load_match(1).status == "finished"
        assert len(lines_of(reopened, second)) < 30
        starts(reopened)


def test_a_damaged_journal_is_detected_without_the_wal_index_too(tmp_path):
    store, path, second = open_records_mid_game(tmp_path)
    image = crash_image(path, tmp_path / "image")
    store.close()
    os.remove(f"{image}-shm")
    wal = bytearray(image.with_name(image.name + "-wal").read_bytes())
    wal[32 + 3 * (24 + 4096) + 24 + 100] ^= 0x01
    image.with_name(image.name + "-wal").write_bytes(bytes(wal))
    with Store(image) as reopened:
        assert "committed changes of the journal records.sqlite3-wal are after a damaged page" in reopened.notice


def test_a_deleted_journal_is_said_and_the_backup_brings_back_what_it_holds(tmp_path):
    store, path, second = open_records_mid_game(tmp_path)
    image = crash_image(path, tmp_path / "image")
    store.close()
    os.remove(f"{image}-wal")
    with Store(image) as reopened:
        assert "The records' journal was damaged or deleted (the journal records.sqlite3-wal is missing" \
            in reopened.notice
        assert "game 1 came back from the backup of" in reopened.notice
        assert reopened.load_match(1).status == "finished" and reopened.results()[0].scores == (6.0, 0.0)
        starts(reopened)


def test_a_journal_and_index_both_deleted_are_told_by_the_backup(tmp_path):
    store, path, second = open_records_mid_game(tmp_path)
    image = crash_image(path, tmp_path / "image")
    store.close()
    os.remove(f"{image}-wal")
    os.remove(f"{image}-shm")
    with Store(image) as reopened:
        assert "The records had lost changes: game 1 came back from the backup of" in reopened.notice
        assert reopened.load_match(1).status == "finished"


def test_a_crash_image_reopens_whole_and_says_nothing(tmp_path):
    store, path, second = open_records_mid_game(tmp_path)
    image = crash_image(path, tmp_path / "image")
    store.close()
    with Store(image) as reopened:
        assert reopened.notice is None and len(lines_of(reopened, second)) == 30


# --- locks, folders, a full disk -----------------------------------------------------------------

def test_a_database_another_program_holds_is_waited_for_then_refused_never_renamed(tmp_path, capsys):
    path = records(tmp_path)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sqlite3, sys, time\n"
         f"db = sqlite3.connect({str(path)!r}, isolation_level=None)\n"
         "db.execute('PRAGMA locking_mode=EXCLUSIVE'); db.execute('BEGIN IMMEDIATE'); db.execute('COMMIT')\n"
         "print('held', flush=True); time.sleep(30)"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        before = sorted(p.name for p in path.parent.iterdir())
        with pytest.raises(StoreError, match="is in use by another program \\(waited 0.2 s\\)"):
            Store(path, busy_timeout=0.2)
        assert sorted(p.name for p in path.parent.iterdir()) == before
    finally:
        holder.kill()
        holder.wait()
    with Store(path) as store:
        assert store.notice is None and lines_of(store, 1) == FIRST


def test_a_state_folder_that_cannot_be_written_is_named(tmp_path, monkeypatch):
    folder = tmp_path / "state"
    folder.mkdir(mode=0o500)
    monkeypatch.setattr(os, "access", lambda path, mode: False)  # as a user without the right (tests run as root)
    with pytest.raises(StoreError, match=f"the records folder {folder} cannot be written to"):
        Store(folder / "records.sqlite3")
    (tmp_path / "file").write_text("")
    with pytest.raises(StoreError, match=f"the records folder {tmp_path / 'file' / 'state'} cannot be made: "
                                         "Not a directory"):
        Store(tmp_path / "file" / "state" / "records.sqlite3")


def test_the_run_command_says_why_in_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    (tmp_path / "file").write_text("")
    code = cli.main(["--set", f"app.state_dir={tmp_path / 'file' / 'state'}", "run"])
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1 and "the records folder" in err and "Not a directory" in err


def play_until_refused(session, acknowledged):
    """Play toy matches until a move is not saved; the refused move's view."""
    for _ in range(3000):
        if session.match is None or session.position.is_terminal():
            view = session.new_match("toy", ["Ana", "Ben"])
            if view.match_id is not None:
                acknowledged[view.match_id] = []
        else:
            state = session.position
            action = state.legal_actions()[0 if state.is_chance_node() else -1]
            view = session.play(action)
            if view.message and view.message.kind != "error":
                acknowledged[view.match_id].append(str(action))
        if view.message and view.message.kind == "error":
            return view
    raise AssertionError("every move was saved")


@pytest.mark.parametrize("stop, allow, said", [
    ("PRAGMA max_page_count = {size}", "PRAGMA max_page_count = {room}", "the disk is full: make room on it"),
    ("PRAGMA query_only = 1", "PRAGMA query_only = 0",
     "the disk has become read-only: restart the kiosk, and if it stays so, check the memory card"),
])
def test_a_full_or_read_only_disk_says_so_and_nothing_acknowledged_is_lost(tmp_path, stop, allow, said):
    path = tmp_path / "records.sqlite3"
    with Store(path, clock=Clock()) as store:
        session = Session(store)
        acknowledged = {session.new_match("toy", ["Ana", "Ben"]).match_id: []}
        for line in ["roll 3", "again", "roll 5"]:
            session.play(line)
            acknowledged[1].append(line)
        size = store._db.execute("PRAGMA page_count").fetchone()[0]
        store._db.execute(stop.format(size=size))  # no page can be added, or nothing written
        view = play_until_refused(session, acknowledged)
        assert view.message.text == f"not saved, so not applied: {said}"
        assert view.moves == len(acknowledged[view.match_id])
        store._db.execute(allow.format(room=size * 10))  # room again, or writable again: play goes on
        state = session.position
        action = state.legal_actions()[0 if state.is_chance_node() else -1]
        assert session.play(action).moves == len(acknowledged[view.match_id]) + 1
        acknowledged[view.match_id].append(str(action))
    with Store(path) as store:
        assert store.notice is None
        assert {match_id: lines_of(store, match_id) for match_id in acknowledged} == acknowledged


# --- the order of play, the version ------------------------------------------------------------

def test_resume_follows_the_order_of_play_not_the_clock(tmp_path):
    clock = Clock(1_700_000_000.0)
    path = tmp_path / "records.sqlite3"
    with Store(path, clock=clock) as store:
        session = Session(store)
        session.new_match("toy", ["Ana", "Ben"])
        session.play("roll 3")
        session.leave()
        session.new_match("toy", ["Cy", "Di"])
        clock.now -= 86_400  # the clock goes back a day (a dead RTC battery, a bad NTP answer)
        session.play("roll 4")
        session.play("bank")
    with Store(path, clock=clock) as store:
        view = Session(store).resume()
        assert view.match_id == 2 and view.moves == 2
        assert [m.id for m in store.unfinished()] == [2, 1]


V1_SCHEMA = """
CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    colour TEXT NOT NULL DEFAULT '', created REAL NOT NULL, last_played REAL);
CREATE TABLE matches (id INTEGER PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL, players TEXT NOT NULL,
    started REAL NOT NULL, updated REAL NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('playing', 'finished', 'abandoned')));
CREATE TABLE actions (match_id INTEGER NOT NULL REFERENCES matches(id), seq INTEGER NOT NULL, line TEXT NOT NULL,
    at REAL NOT NULL, PRIMARY KEY (match_id, seq));
CREATE TABLE results (match_id INTEGER PRIMARY KEY REFERENCES matches(id), game TEXT NOT NULL, finished REAL NOT NULL,
    players TEXT NOT NULL, scores TEXT NOT NULL, winners TEXT NOT NULL, termination TEXT NOT NULL);
CREATE INDEX matches_by_status ON matches(status, updated);
INSERT INTO matches VALUES (1, 'toy', '{"goal": 20}', '[{"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": ""}]',
    10, 30, 'playing');
INSERT INTO matches VALUES (2, 'toy', '{}', '[{"name": "Cy", "colour": ""}, {"name": "Di", "colour": ""}]',
    11, 20, 'playing');
INSERT INTO actions VALUES (1, 1, 'roll 4', 12), (1, 2, 'bank', 13), (2, 1, 'roll 2', 14);
PRAGMA user_version = 1;
"""


def test_a_version_1_database_is_brought_up_to_date_and_keeps_working(tmp_path):
    path = tmp_path / "records.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(V1_SCHEMA)
    db.close()
    with Store(path) as store:
        assert store.notice is None
        assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert [m.id for m in store.unfinished()] == [1, 2]  # the old order: the last updated first
        session, view = starts(store)
        assert view.match_id == 1 and view.moves == 2
        session.play("roll 5")
    with Store(path) as store:
        assert store.notice is None and lines_of(store, 1) == ["roll 4", "bank", "roll 5"]
    change(path, "UPDATE actions SET line = 'roll 1' WHERE match_id = 1 AND seq = 1")
    with Store(path) as store:  # the migrated lines are chained too
        assert "game 1 (its record or action 1 was changed)" in store.notice


# --- files and backups ---------------------------------------------------------------------------

def test_records_and_backups_are_private(tmp_path):
    path = records(tmp_path)
    backups = path.with_name(path.name + ".backups")
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.parent.stat().st_mode & 0o777 == 0o700 and backups.stat().st_mode & 0o777 == 0o700
    assert [p.stat().st_mode & 0o777 for p in backups.iterdir()] == [0o600] * len(list(backups.iterdir()))


def test_backups_follow_finished_matches_and_the_last_few_are_kept(tmp_path):
    path = tmp_path / "records.sqlite3"
    with Store(path, clock=Clock(), keep_backups=2) as store:
        for _ in range(4):
            match_id = store.start_match("toy", {}, ANA_BEN)
            store.append_action(match_id, 1, "roll 6")
            store.append_action(match_id, 2, "bank", WON)
        names = sorted(p.name for p in store.backups.folder.iterdir())
    assert len(names) == 2 and names[-1] > names[0]
    newest = sqlite3.connect(store.backups.folder / names[-1])
    assert newest.execute("SELECT count(*) FROM results").fetchone() == (4,)


def test_a_backup_is_taken_during_play_at_most_every_interval(tmp_path):
    path = tmp_path / "records.sqlite3"
    with Store(path, clock=Clock(), backup_every=0.0) as store:
        match_id = store.start_match("toy", {}, ANA_BEN)
        play(store, match_id, ["roll 3", "bank"])
        newest = store.backups.newest_first()[0][1]
    copy = sqlite3.connect(newest)
    assert copy.execute("SELECT count(*) FROM actions").fetchone() == (2,)


def test_when_mending_fails_the_kiosk_still_starts_and_says_so(tmp_path, monkeypatch):
    path = records(tmp_path)
    change(path, "UPDATE matches SET players = '[1,2,3]' WHERE id = 3")

    def full_disk(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("assistant.mending.write_copy", full_disk)  # the damaged file cannot be set aside
    with Store(path) as store:
        assert store.notice == ("The records could not all be checked and mended ([Errno 28] No space left on "
                                "device); some games may be missing or not open.")
        session, view = starts(store)
        assert [m.id for m in store.unfinished()] == [1] and view.match_id == 1
    monkeypatch.undo()
    with Store(path) as store:  # room again: mended at the next start
        assert "game 3 (its record is damaged" in store.notice


def test_a_damaged_backup_is_set_aside_without_troubling_the_players(tmp_path):
    path = records(tmp_path)
    [newest] = [p for p in path.with_name(path.name + ".backups").iterdir()]
    data = bytearray(newest.read_bytes())
    data[4096:4096 + 100] = bytes(100)  # the header of a page of the backup zeroed
    newest.write_bytes(bytes(data))
    with Store(path) as store:
        assert store.notice is None and lines_of(store, 1) == FIRST
        assert newest.with_name(newest.name + ".damaged").read_bytes() == bytes(data)
        [(_, fresh)] = store.backups.newest_first()  # none was left: one is taken at once
        assert fresh != newest and lines_of_file(fresh, 1) == FIRST
