"""The store's opening when something is wrong: what cannot be trusted is set aside, kept byte
for byte beside the database (``<name>.damaged-<time>``), and mended from what can be (the
chain, a backup, what is readable of a damaged file). Each step is logged in detail and told
in a sentence of the notice."""
from __future__ import annotations

import functools
import logging
import os
import shutil
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from assistant import repair
from assistant.backups import Backups, open_copy, write_copy
from assistant.records import UNREADABLE, StoreError, read_match, transaction, write_match
from engine.text import Text, listing, tr

log = logging.getLogger(__name__)

COMPANIONS = ("", "-wal", "-shm")


def _guarded(step):
    """A step that fails (a full disk, an unreadable page) is told, and the store opens anyway."""
    @functools.wraps(step)
    def guarded(self: "Mender", *args):
        try:
            step(self, *args)
        except (*UNREADABLE, OSError) as exc:
            log.error("records: %s failed: %s", step.__name__, exc)
            self._told.append(tr("The records could not all be checked and mended ({error}); some games may "
                                 "be missing or not open.", error=str(exc)))
    return guarded


class Mender:
    def __init__(self, path: Path, clock: Callable[[], float], backups: Backups):
        self.path = path
        self.clock = clock
        self.backups = backups
        self.kept: Path | None = None  # the damaged files, set aside
        self._told: list[Text] = []

    def notice(self) -> Text | None:
        """Every sentence told, in one text (None when all was well)."""
        if not self._told:
            return None
        joined = self._told[0]
        for sentence in self._told[1:]:
            joined = tr("{first} {then}", first=joined, then=sentence)
        return joined

    @_guarded
    def journal_lost(self, problem: str) -> None:
        """Copy the files as they are, before SQLite's recovery drops what it cannot read."""
        self.kept = self._aside_name()
        for suffix in COMPANIONS:
            source = Path(f"{self.path}{suffix}")
            if source.exists():
                shutil.copyfile(source, f"{self.kept}{suffix}")
                os.chmod(f"{self.kept}{suffix}", 0o600)
        log.error("records: %s; the files were kept as %s", problem, self.kept)
        self._told.append(tr("The records' journal was damaged or deleted ({problem}): the last moves may be lost. "
                             "The files were kept as {kept}.", problem=problem, kept=self.kept.name))

    def unreadable(self, error: str) -> None:
        """Rename the file SQLite cannot read (and its companions) aside; a new one is made."""
        self.kept = self._aside_name()
        try:
            for suffix in COMPANIONS:
                source = Path(f"{self.path}{suffix}")
                if source.exists():
                    os.replace(source, f"{self.kept}{suffix}")
        except OSError as exc:
            raise StoreError(f"the records file {self.path} cannot be read ({error}) nor set aside: "
                             f"{exc.strerror}") from None
        log.error("records: %s cannot be read (%s); kept as %s, a new one started", self.path, error, self.kept)
        self._told.append(tr("The records file {path} was damaged ({error}). It was kept as {kept} and a new "
                             "one was started.", path=str(self.path), error=error, kept=self.kept.name))

    @_guarded
    def mend(self, db: sqlite3.Connection) -> None:
        """Set aside and mend every damaged match and player entry of ``db``."""
        matches, players = repair.damaged(db), repair.damaged_players(db)
        if not matches and not players:
            return
        if self.kept is None:
            self.kept = self._aside_name()
            write_copy(db, self.kept)
        done, lost = [], 0
        with self._sources() as sources, transaction(db):
            for stored in matches:
                sentence, moves = repair.mend(db, stored, sources)
                done.append(sentence)
                lost += moves
            for row_id in players:
                db.execute("DELETE FROM players WHERE id = ?", (row_id,))
        if players:
            done.append(tr("damaged player entries were set aside ({count})", count=len(players)))
        for sentence in done:
            log.error("records: %s", sentence)
        self._told.append(tr("Damaged records were found and kept as {kept}: {what}.", kept=self.kept.name,
                             what=listing(repair.summary(done, [m.id for m in matches], lost))))

    @_guarded
    def salvage(self, db: sqlite3.Connection) -> None:
        """Fill the new ``db`` with what is readable of the damaged file set aside."""
        assert self.kept is not None
        scratch = self.path.with_name(f".{self.path.name}.salvage")  # SQLite must not touch the kept file
        done, mended, lost, taken = [], [], 0, 0
        try:
            for suffix in ("", "-wal"):
                if Path(f"{self.kept}{suffix}").exists():
                    shutil.copyfile(f"{self.kept}{suffix}", f"{scratch}{suffix}")
            damaged = sqlite3.connect(scratch, isolation_level=None)
            try:
                with self._sources() as sources, transaction(db):
                    for match_id in repair.match_ids(damaged):
                        try:
                            stored = read_match(damaged, match_id)
                        except UNREADABLE as exc:
                            log.warning("records: game %s of %s cannot be read: %s", match_id, self.kept, exc)
                            continue
                        if stored is None:  # listed by a damaged index, its row not found
                            log.warning("records: game %s of %s cannot be found", match_id, self.kept)
                            continue
                        taken += 1
                        if stored.problem or stored.result_problem:
                            sentence, moves = repair.mend(db, stored, sources)
                            log.error("records: %s", sentence)
                            done.append(sentence)
                            mended.append(match_id)
                            lost += moves
                        else:
                            write_match(db, stored)
                    repair.copy_players(db, damaged)
            finally:
                damaged.close()
        except UNREADABLE as exc:
            log.warning("records: no more could be read of %s: %s", self.kept, exc)
        finally:
            for suffix in COMPANIONS:
                Path(f"{scratch}{suffix}").unlink(missing_ok=True)
        if taken:
            log.info("records: %d games read back from %s", taken, self.kept)
            what = listing(repair.summary(done, mended, lost)) if done else tr("nothing was damaged")
            self._told.append(tr("What could be read of it was kept: {count} game(s); {what}.", count=taken,
                                 what=what))

    @_guarded
    def restore_newer(self, db: sqlite3.Connection) -> None:
        """Bring back from the newest backup what ``db`` lost (a lost journal)."""
        with self._sources() as sources:
            if not sources:
                return
            with transaction(db):
                restored = repair.restore_newer(db, sources[0])
            if restored:
                log.error("records: the backup is ahead of %s; games %s restored from it", self.path, restored)
                self._told.append(tr("The records had lost changes: {games} came back from {source}; moves made "
                                     "after it are lost.", games=repair.games(restored), source=sources[0].label))

    def _aside_name(self) -> Path:
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self.clock()))
        kept = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
        serial = 1
        while any(Path(f"{kept}{suffix}").exists() for suffix in COMPANIONS):
            serial += 1
            kept = self.path.with_name(f"{self.path.name}.damaged-{stamp}-{serial}")
        return kept

    @contextmanager
    def _sources(self) -> Iterator[list[repair.Source]]:
        """The backups that can be read, the newest first, open read-only while in use. A
        damaged one is set aside (renamed ``*.damaged``), so that it is neither read again nor
        taken for the newest when the next backup is due."""
        sources = []
        for _, path in self.backups.newest_first():
            db = None
            try:
                db = open_copy(path)
                check = db.execute("PRAGMA integrity_check").fetchone()[0]
                if check != "ok":
                    raise sqlite3.DatabaseError(f"integrity check: {' '.join(check.split())}")
                db.execute("SELECT count(*) FROM matches").fetchone()
            except UNREADABLE as exc:
                log.warning("records: the backup %s cannot be read (%s); set aside", path, exc)
                if db is not None:
                    db.close()
                os.replace(path, path.with_name(path.name + ".damaged"))
                continue
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(path.stat().st_mtime))
            sources.append(repair.Source(tr("the backup of {when}", when=when), db))
        try:
            yield sources
        finally:
            for source in sources:
                source.db.close()
