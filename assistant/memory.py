"""Giving freed memory back to the system, which glibc's allocator keeps for later otherwise.

The kiosk runs for days: its frames, network buffers and screens are made and dropped all the
time, and glibc keeps the pages they freed (measured here: about 40 MiB of a demo's 360 after a
few minutes). ``malloc_trim`` hands every wholly free page back. Elsewhere than glibc it does
nothing.
"""
from __future__ import annotations

import ctypes
import ctypes.util

TRIM_EVERY_S = 30.0  # how often the kiosk trims (each trim takes a few milliseconds)


def _malloc_trim():
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):  # not glibc
        return None


_TRIM = _malloc_trim()


def give_back_freed_memory() -> bool:
    """Return the free pages of the C heap to the system; False where the C library cannot."""
    if _TRIM is None:
        return False
    _TRIM(0)
    return True
