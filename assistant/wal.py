"""Committed changes the WAL journal held that SQLite will not read back, found before opening.

Opening the database runs SQLite's recovery, which reads the journal up to its first damaged
frame and silently drops the rest; a deleted journal drops everything not yet copied into the
database. Two tells, read from the files as they were left (formats: sqlite.org/walformat.html):

- the wal-index (``-shm``, left by a process that did not close the database) says how many
  frames were committed: fewer readable ones, or no journal at all, means committed ones are lost;
- in the journal itself, a commit frame after the first damaged frame that is not the very last
  frame: a write torn by a power cut only ever spoils the last transaction, never one before.
"""
from __future__ import annotations

import struct
from pathlib import Path

MAGIC = (0x377F0682, 0x377F0683)  # checksums in little-endian, big-endian words
HEADER = 32
FRAME_HEADER = 24
SHM_VERSION = 3007000


def lost_changes(database: Path) -> str | None:
    """Why committed changes in ``database``'s journal will not be read back, or None."""
    wal, shm = Path(f"{database}-wal"), Path(f"{database}-shm")
    index = _read_index(shm)
    if not wal.exists():
        if index and index[0] > index[1]:
            return f"the journal {wal.name} is missing, and it held {index[0] - index[1]} committed pages"
        return None
    data = wal.read_bytes()
    readable, stranded, salts = _scan(data, _page_size(database))
    if index and index[0] > index[1] and (index[2] != salts or index[0] > readable):
        return f"{index[0] - min(readable, index[0])} committed pages of the journal {wal.name} cannot be read"
    if stranded:
        return f"{stranded} committed changes of the journal {wal.name} are after a damaged page"
    return None


def _scan(data: bytes, db_page_size: int) -> tuple[int, int, bytes]:
    """(frames readable up to the last good commit, commits stranded after a damaged frame, salts)."""
    if len(data) < HEADER:
        return 0, 0, b""
    magic, _, page_size = struct.unpack(">3I", data[:12])
    header_ok = (magic in MAGIC and _checksum(data[:24], magic & 1) == struct.unpack(">2I", data[24:32])
                 and page_size >= 512 and page_size & (page_size - 1) == 0)
    if not header_ok:
        page_size = db_page_size
    if not page_size:
        return 0, 0, b""
    big = magic & 1 if header_ok else 0
    size = FRAME_HEADER + page_size
    count = (len(data) - HEADER) // size
    if count == 0:
        return 0, 0, data[16:24] if header_ok else b""
    salts = data[16:24] if header_ok else data[HEADER + 8:HEADER + 16]
    sums = _checksum(data[:24], big) if header_ok else None
    readable, commits_after, last = 0, [], -1
    for index in range(count):
        frame = data[HEADER + index * size:HEADER + (index + 1) * size]
        if frame[8:16] != salts:
            continue  # a frame of an earlier round of the journal, or a damaged header
        last = index
        commit = struct.unpack(">I", frame[4:8])[0]
        if sums is not None:
            sums = _checksum(frame[:8] + frame[FRAME_HEADER:], big, *sums)
            if sums != struct.unpack(">2I", frame[16:24]):
                sums = None
            elif commit:
                readable = index + 1
                continue
        if sums is None and commit:
            commits_after.append(index)
    stranded = len([i for i in commits_after if i != last])
    return readable, stranded, salts


def _checksum(data: bytes, big: int, first: int = 0, second: int = 0) -> tuple[int, int]:
    words = struct.unpack(f"{'>' if big else '<'}{len(data) // 4}I", data)
    for index in range(0, len(words), 2):
        first = (first + words[index] + second) & 0xFFFFFFFF
        second = (second + words[index + 1] + first) & 0xFFFFFFFF
    return first, second


def _read_index(shm: Path) -> tuple[int, int, bytes] | None:
    """(frames committed, frames already in the database, salts) from a wal-index a process left."""
    try:
        data = shm.read_bytes()[:136]
    except OSError:
        return None
    if len(data) < 136 or data[:48] != data[48:96]:
        return None
    version, _, _, initialised = struct.unpack("=3IB", data[:13])
    if version != SHM_VERSION or initialised != 1:
        return None
    frames = struct.unpack("=I", data[16:20])[0]
    backfilled = struct.unpack("=I", data[96:100])[0]
    return frames, backfilled, data[32:40]


def _page_size(database: Path) -> int:
    try:
        with open(database, "rb") as handle:
            header = handle.read(18)
    except OSError:
        return 0
    if len(header) < 18 or not header.startswith(b"SQLite format 3\0"):
        return 0
    size = struct.unpack(">H", header[16:18])[0]
    return 65536 if size == 1 else size
