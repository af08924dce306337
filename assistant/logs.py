"""Logging to stderr, readable in a terminal and in the systemd journal."""
from __future__ import annotations

import logging
import os
import sys

# syslog priorities, which journald reads from a "<N>" line prefix
_PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3, logging.CRITICAL: 2}


class JournalFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        priority = _PRIORITY.get(record.levelno, 6)
        text = f"{record.name}: {record.getMessage()}"
        if record.exc_info:
            text += "\n" + self.formatException(record.exc_info)
        return "\n".join(f"<{priority}>{line}" for line in text.splitlines())


LEVELS = ("debug", "info", "warning", "error", "critical")


class LevelError(ValueError):
    """app.log_level is not a level name."""


def setup(level: str) -> None:
    """Send log records to stderr; under systemd (JOURNAL_STREAM set) with journald priorities."""
    if level.lower() not in LEVELS:
        raise LevelError(f"app.log_level: {level!r} is not a level; choose one of {', '.join(LEVELS)}")
    handler = logging.StreamHandler(sys.stderr)
    if os.environ.get("JOURNAL_STREAM"):
        handler.setFormatter(JournalFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
