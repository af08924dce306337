"""Rolling copies of the records (``sqlite3``'s online backup) in ``<database>.backups/``.

A copy is named by the records' change counter when it was taken (``<counter>.sqlite3``), so
the newest is found without trusting the clock. Only the last few are kept; files are 0600 in
a 0700 folder (the records name the club's players).
"""
from __future__ import annotations

import logging
import os
import sqlite3
from contextlib import closing
from pathlib import Path

log = logging.getLogger(__name__)

KEEP = 3
SUFFIX = ".sqlite3"


class Backups:
    def __init__(self, database: Path, keep: int = KEEP):
        self.folder = database.with_name(database.name + ".backups")
        self.keep = keep

    def newest_first(self) -> list[tuple[int, Path]]:
        """(counter, file) of every copy, the newest first."""
        if not self.folder.is_dir():
            return []
        found = [(int(p.name[:-len(SUFFIX)]), p) for p in self.folder.iterdir()
                 if p.name.endswith(SUFFIX) and p.name[:-len(SUFFIX)].isdecimal() and p.name.isascii()]
        return sorted(found, reverse=True)

    def take(self, db: sqlite3.Connection, counter: int) -> Path | None:
        """Copy ``db`` as it is now, unless the newest copy already has change ``counter``."""
        copies = self.newest_first()
        if copies and copies[0][0] >= counter:
            return None
        self.folder.mkdir(mode=0o700, exist_ok=True)
        final = self.folder / f"{counter:012d}{SUFFIX}"
        partial = self.folder / f".{final.name}.partial"
        partial.unlink(missing_ok=True)
        try:
            write_copy(db, partial)
            os.replace(partial, final)
            sync_folder(self.folder)
        finally:
            partial.unlink(missing_ok=True)
        for _, old in self.newest_first()[self.keep:]:
            old.unlink(missing_ok=True)
        log.info("records backed up to %s", final)
        return final


def write_copy(db: sqlite3.Connection, path: Path) -> None:
    """A consistent copy of ``db`` in a new 0600 file (rollback journal, so it reads alone)."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    with closing(sqlite3.connect(path, isolation_level=None)) as copy:
        db.backup(copy)
        copy.execute("PRAGMA journal_mode=DELETE")
    with open(path, "rb") as handle:
        os.fsync(handle.fileno())


def sync_folder(folder: Path) -> None:
    handle = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def open_copy(path: Path) -> sqlite3.Connection:
    """A backup (or any copy) opened read-only."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
