"""One background thread that works out a game's advice and analysis, so the UI never waits."""
from __future__ import annotations

import logging
import threading
from typing import Any, Callable

log = logging.getLogger(__name__)


class AdviceWorker:
    """Only the latest request matters (a stale one is skipped). ``deliver(callback)`` must run
    the callback on the session's thread."""

    def __init__(self, deliver: Callable[[Callable[[], None]], None]):
        self._deliver = deliver
        self._lock = threading.Lock()
        self._latest: tuple[Callable[[], Any], Callable[[Any], None]] | None = None
        self._running = False

    def submit(self, job: Callable[[], Any], on_done: Callable[[Any], None]) -> None:
        with self._lock:
            self._latest = (job, on_done)
            if self._running:
                return
            self._running = True
        threading.Thread(target=self._run, name="advice", daemon=True).start()

    def _run(self) -> None:
        while True:
            with self._lock:
                item, self._latest = self._latest, None
                if item is None:
                    self._running = False
                    return
            job, on_done = item
            try:
                result = job()
            except Exception:  # an advisor bug must not stop the game: the moves stay listed
                log.exception("advice failed")
                continue
            self._deliver(lambda: on_done(result))
