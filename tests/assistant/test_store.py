import sqlite3

import pytest

from assistant.store import SCHEMA_VERSION, Store, StoreError, default_path
from engine.core import Outcome
from engine.match import Player


class Tick:
    """A clock that advances one second per reading, so orderings by time are deterministic."""

    def __init__(self, start=1_700_000_000.0):
        self.now = start

    def __call__(self):
        self.now += 1
        return self.now


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "records.sqlite3", clock=Tick()) as opened:
        yield opened


def test_database_uses_wal_and_full_sync(store):
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_actions_are_stored_in_order_and_reloaded(store):
    players = (Player("Ana", "red"), Player("Ben", "blue"))
    match_id = store.start_match("toy", {"goal": 10}, players)
    for seq, line in enumerate(["roll 4", "bank", "roll 1"], start=1):
        store.append_action(match_id, seq, line)
    record = store.load_match(match_id)
    assert record.lines == ("roll 4", "bank", "roll 1")
    assert record.players == players and record.options == {"goal": 10} and record.status == "playing"
    assert [r.id for r in store.unfinished()] == [match_id]


def test_out_of_order_actions_are_refused_and_nothing_is_written(store):
    match_id = store.start_match("toy", {}, [Player("Ana"), Player("Ben")])
    store.append_action(match_id, 1, "roll 4")
    with pytest.raises(StoreError, match="records hold 1 actions, expected 2"):
        store.append_action(match_id, 3, "bank")
    with pytest.raises(StoreError, match="records hold 1 actions, expected 0"):
        store.append_action(match_id, 1, "roll 5")
    with pytest.raises(StoreError, match="no match number 99"):
        store.append_action(99, 1, "roll 5")
    assert store.load_match(match_id).lines == ("roll 4",)


def test_finishing_records_a_result_and_undo_takes_it_back(store):
    match_id = store.start_match("toy", {}, [Player("Ana"), Player("Ben")])
    store.append_action(match_id, 1, "roll 6")
    store.append_action(match_id, 2, "bank", Outcome("game over", (0,), (6.0, 0.0)))
    assert store.unfinished() == ()
    [result] = store.results()
    assert (result.match_id, result.players) == (match_id, ("Ana", "Ben"))
    assert (result.scores, result.winners) == ((6.0, 0.0), (0,))
    store.remove_last_action(match_id, 2)
    assert store.results() == () and store.load_match(match_id).status == "playing"
    with pytest.raises(StoreError):
        store.remove_last_action(match_id, 2)


def test_results_are_listed_latest_first_and_limited(store):
    for winner in (0, 1, 0):
        match_id = store.start_match("toy", {}, [Player("Ana"), Player("Ben")])
        store.append_action(match_id, 1, "bank", Outcome("game over", (winner,), (1.0, 0.0)))
    results = store.results(limit=2)
    assert [r.winners for r in results] == [(0,), (1,)]
    assert results[0].finished > results[1].finished


def test_abandoned_matches_leave_the_resume_list(store):
    match_id = store.start_match("toy", {}, [Player("Ana"), Player("Ben")])
    store.abandon_match(match_id)
    assert store.unfinished() == () and store.load_match(match_id).status == "abandoned"


def test_players_keep_colours_and_the_last_seen_come_first(store):
    store.save_player("Zoé", "green")
    store.save_player("Ana", "red")
    store.start_match("toy", {}, [Player("Ben", "blue"), Player("Zoé", "green")])
    names = [p.name for p in store.players()]
    assert names[2] == "Ana" and set(names[:2]) == {"Ben", "Zoé"}
    store.save_player("ana", "pink")  # same player, names ignore case
    assert Player("Ana", "pink") in store.players() and len(store.players()) == 3
    with pytest.raises(StoreError, match="a player needs a name"):
        store.save_player("  ")


def test_garbage_file_is_moved_aside_never_overwritten(tmp_path):
    path = tmp_path / "records.sqlite3"
    garbage = b"this is not a database at all\n" * 100
    path.write_bytes(garbage)
    with Store(path, clock=Tick()) as store:
        assert store.notice and "was damaged" in store.notice
        kept = [p for p in tmp_path.iterdir() if ".damaged-" in p.name]
        assert len(kept) == 1 and kept[0].read_bytes() == garbage
        assert kept[0].name in store.notice
        store.start_match("toy", {}, [Player("Ana"), Player("Ben")])  # the fresh file works
    assert path.read_bytes() != garbage


def test_damaged_pages_are_detected_and_moved_aside(tmp_path):
    path = tmp_path / "records.sqlite3"
    with Store(path, clock=Tick()) as store:
        for i in range(200):
            store.save_player(f"player {i}", "red")
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    data = bytearray(path.read_bytes())
    page = 4096
    data[2 * page:2 * page + 64] = b"\xff" * 64  # smash a page header in the middle of the file
    path.write_bytes(bytes(data))
    with Store(path, clock=Tick()) as store:
        assert store.notice and "was damaged" in store.notice
        assert len(store.players()) == 200  # read back from the damaged file, whose player rows are intact
    [kept] = [p for p in tmp_path.iterdir() if p.name.startswith("records.sqlite3.damaged-") and "-wal" not in p.name
              and "-shm" not in p.name]
    assert kept.read_bytes() == bytes(data)


def test_a_newer_database_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "records.sqlite3"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="newer Table Assistant"):
        Store(path)
    assert path.read_bytes() == before and len(list(tmp_path.iterdir())) == 1


def test_default_path_follows_the_state_dir_setting(tmp_path):
    assert default_path(str(tmp_path)) == tmp_path / "table-assistant.sqlite3"
    assert default_path("", {"XDG_STATE_HOME": "/x"}).as_posix() == "/x/table-assistant/table-assistant.sqlite3"
