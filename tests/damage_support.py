"""Records damaged at random, for tests/assistant/test_store_random_damage.py and bench/damage.py.

One case: toy matches played through a Session (finished ones back up the records), the files
taken as a crash leaves them (journal and index still there) or as a clean close leaves them,
then damaged as a bad disk, a power cut or a person would: bits flipped, a span overwritten, a
page zeroed or the file cut, in the database, its journal, its index or a backup; a value
changed through SQL; a file deleted or emptied. ``judge`` then starts the kiosk on them and
says, match by match, whether every acknowledged action is there, or is missing and said.
"""
from __future__ import annotations

import random
import shutil
import sqlite3
import sys
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from assistant.session import Session  # noqa: E402
from assistant.store import Store  # noqa: E402
from crash_support import script  # noqa: E402
from engine import registry  # noqa: E402
from toy_game import ToyGame  # noqa: E402

registry.register(ToyGame)

PAGE = 4096
KINDS = ("db bits", "db span", "db page", "db cut", "db empty", "db gone", "wal bits", "wal span", "wal cut",
         "wal gone", "shm bits", "shm gone", "value", "backup bits", "backup gone")
# Values a bad write or a person with an SQLite shell may leave in a column.
ODD_VALUES = (None, 0, -1, 1.5, "", "x", "garbage", "[1,2,3]", "{}", "[" * 2000, b"\xff\xfe", b"\x00",
              "playing", "finished", "abandoned", "roll 6", 2 ** 62)


@dataclass
class Played:
    """What the kiosk acknowledged: the lines of every match, and which ones finished."""
    lines: dict[int, list[str]] = field(default_factory=dict)
    finished: set[int] = field(default_factory=set)


@dataclass
class Verdict:
    kind: str
    started: bool = True
    problem: str = ""            # why it did not start, or what was wrong
    notice: str | None = None
    lost: int = 0                # acknowledged actions not in the records any more
    said: bool = True            # every loss was in the notice
    altered: bool = False        # a match holds a line that was never acknowledged there
    unrestored: int = 0          # matches left with fewer moves than the newest backup holds
    quiet_after: bool = True     # the next start found nothing more to say


def play(folder: Path, rng: random.Random, crashed: bool) -> tuple[Path, Played]:
    """Records with 2-5 toy matches (all but the last finished, the last cut short at random);
    with ``crashed`` the files are copied while the kiosk still holds them open."""
    path = folder / "live" / "records.sqlite3"
    played = Played()
    store = Store(path)
    session = Session(store)
    matches = rng.randint(2, 5)
    for number in range(matches):
        view = session.new_match("toy", ["Ana", "Ben"])
        lines = script(rng.randrange(10 ** 6), view.match_id)
        if number == matches - 1:
            lines = lines[:rng.randint(1, len(lines) - 1)]
        for line in lines:
            view = session.play(line)
            assert view.last == line, view.message
        played.lines[view.match_id] = lines
        if number < matches - 1:
            played.finished.add(view.match_id)
    image = folder / "image" / path.name
    if crashed:
        copy_files(path, image)
        store.close()
    else:
        store.close()
        copy_files(path, image)
    return image, played


def copy_files(path: Path, into: Path) -> None:
    into.parent.mkdir()
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{path}{suffix}").exists():
            shutil.copyfile(f"{path}{suffix}", f"{into}{suffix}")
    shutil.copytree(backups_of(path), backups_of(into))


def backups_of(path: Path) -> Path:
    return path.with_name(path.name + ".backups")


def damage(path: Path, kind: str, rng: random.Random) -> str:
    """Damage the records at ``path`` as ``kind`` says; what was done, in a few words."""
    if kind == "value":
        return change_value(path, rng)
    part, what = kind.split(" ")
    if part == "backup":
        copies = sorted(backups_of(path).iterdir())
        if not copies:
            return "no backup to damage"
        target = rng.choice(copies)
    else:
        target = Path(f"{path}{'' if part == 'db' else '-' + part}")
    if not target.exists():
        return f"{target.name} absent"
    data = bytearray(target.read_bytes())
    if what == "gone":
        target.unlink()
        return f"{target.name} deleted"
    if what == "empty" or not data:
        target.write_bytes(b"")
        return f"{target.name} emptied"
    if what == "bits":
        flips = [(rng.randrange(len(data)), rng.randrange(8)) for _ in range(rng.choice((1, 1, 2, 8, 64)))]
        for at, bit in flips:
            data[at] ^= 1 << bit
        said = f"{len(flips)} bits flipped in {target.name}"
    elif what == "span":
        start = rng.randrange(len(data))
        size = min(len(data) - start, rng.choice((1, 16, 100, 512)))
        data[start:start + size] = bytes(size) if rng.random() < 0.5 else rng.randbytes(size)
        said = f"{size} bytes from {start} overwritten in {target.name}"
    elif what == "page":
        page = rng.randrange(max(1, len(data) // PAGE))
        data[page * PAGE:(page + 1) * PAGE] = bytes(min(PAGE, len(data) - page * PAGE))
        said = f"page {page + 1} of {target.name} zeroed"
    else:  # cut
        size = rng.randrange(len(data))
        del data[size:]
        said = f"{target.name} cut to {size} bytes"
    target.write_bytes(bytes(data))
    return said


def change_value(path: Path, rng: random.Random) -> str:
    """One column of one row set to an odd value, as an SQLite shell would."""
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("PRAGMA ignore_check_constraints = 1")
        table = rng.choice(["matches", "matches", "actions", "actions", "actions", "results", "players"])
        columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
        rows = db.execute(f"SELECT rowid FROM {table}").fetchall()
        if not rows:
            return f"no row in {table}"
        column, (rowid,), value = rng.choice(columns), rng.choice(rows), rng.choice(ODD_VALUES)
        try:
            db.execute(f"UPDATE {table} SET {column} = ? WHERE rowid = ?", (value, rowid))
        except sqlite3.IntegrityError as exc:  # NOT NULL, a key taken: SQLite refuses it
            return f"{table}.{column} = {value!r} refused by SQLite ({exc})"
        return f"{table}.{column} of row {rowid} = {str(value)[:20]!r}"


def in_newest_backup(path: Path) -> dict[int, int]:
    """Moves of each match in the newest backup (before any damage)."""
    newest = max(backups_of(path).iterdir())
    with closing(sqlite3.connect(newest)) as db:
        return dict(db.execute("SELECT match_id, count(*) FROM actions GROUP BY match_id").fetchall())


def judge(path: Path, played: Played, kind: str, backed_up: dict[int, int]) -> Verdict:
    """Start the kiosk on the damaged records and compare them with what was acknowledged and
    with what the newest backup held (``backed_up``: moves by match)."""
    verdict = Verdict(kind)
    try:
        with Store(path) as store:
            verdict.notice = str(store.notice) if store.notice else None
            session = Session(store)
            session.resume()
            if verdict.notice and verdict.notice not in [str(n) for n in session.view.notices]:
                verdict.problem = "the notice is not on the screen"
            for match_id, lines in played.lines.items():
                kept = kept_lines(store, match_id)
                if kept != lines[:len(kept)]:
                    verdict.altered = True
                lost = len(lines) - len(kept) if kept == lines[:len(kept)] else len(lines)
                if lost or (match_id in played.finished) != finished(store, match_id):
                    verdict.lost += max(lost, 1)
                    verdict.said = verdict.said and verdict.notice is not None
                verdict.unrestored += len(kept) < backed_up.get(match_id, 0)
        with Store(path) as again:
            verdict.quiet_after = again.notice is None
    except Exception as exc:  # the kiosk did not start: that is what this measures
        verdict.started = False
        verdict.problem = f"{type(exc).__name__}: {exc}"[:300]
    return verdict


def kept_lines(store: Store, match_id: int) -> list[str]:
    try:
        return list(store.load_match(match_id).lines)
    except (KeyError, ValueError):  # the match is gone: all of it is lost
        return []


def finished(store: Store, match_id: int) -> bool:
    try:
        return store.load_match(match_id).status == "finished"
    except (KeyError, ValueError):
        return False


def one_case(folder: Path, seed: int) -> tuple[Verdict, str]:
    """Case ``seed``: records played, damaged and judged in ``folder`` (empty, left as it ends)."""
    rng = random.Random(seed)
    kind = KINDS[seed % len(KINDS)]
    path, played = play(folder, rng, crashed=kind.startswith(("wal", "shm")) or rng.random() < 0.5)
    backed_up = {} if kind.startswith("backup") else in_newest_backup(path)
    done = damage(path, kind, rng)
    return judge(path, played, kind, backed_up), done
