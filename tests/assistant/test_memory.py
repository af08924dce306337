"""Freed memory goes back to the system: pages glibc keeps between live blocks are returned."""
import pytest

from assistant.memory import give_back_freed_memory


def rss_mib() -> float:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024


def test_pages_freed_between_live_blocks_are_given_back():
    blocks = [bytes(20_000) for _ in range(4000)]  # 80 MB of the C heap (each under glibc's mmap threshold)
    kept = blocks[::20]  # a few stay, so the pages between them cannot go back by themselves
    del blocks
    before = rss_mib()
    if not give_back_freed_memory():
        pytest.skip("this C library cannot give freed memory back (not glibc)")
    assert before - rss_mib() > 40
    assert len(kept) == 200
