"""systemd's notify protocol (READY, WATCHDOG, STATUS, STOPPING), spoken directly over its socket.

Under a unit with ``Type=notify`` systemd sets NOTIFY_SOCKET; with ``WatchdogSec=`` it also sets
WATCHDOG_USEC and restarts the service when pings stop. Ping from the UI's own loop (not a
separate thread), so a frozen screen is what stops the pings. Outside systemd every call does
nothing.
"""
from __future__ import annotations

import logging
import os
import socket
from typing import Mapping

log = logging.getLogger(__name__)


class SystemdNotifier:
    def __init__(self, env: Mapping[str, str] = os.environ):
        address = env.get("NOTIFY_SOCKET", "")
        if address.startswith("@"):  # an abstract socket name
            address = "\0" + address[1:]
        self._address = address or None
        self._socket: socket.socket | None = None
        self._failed = False
        self.watchdog_s = _watchdog_seconds(env)

    @property
    def enabled(self) -> bool:
        return self._address is not None

    def ready(self, status: str = "") -> bool:
        """Tell systemd that start-up is over (and optionally what the app is doing)."""
        return self.notify("READY=1", *([f"STATUS={status}"] if status else []))

    def status(self, text: str) -> bool:
        """A one-line status that `systemctl status table-assistant` shows."""
        return self.notify(f"STATUS={text}")

    def ping(self) -> bool:
        """Tell the watchdog the app is alive."""
        return self.notify("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.notify("STOPPING=1")

    def ping_interval(self, configured_s: float = 0.0) -> float | None:
        """How often to ping: ``configured_s`` if set, else half the unit's WatchdogSec; None = never."""
        if self.watchdog_s is None:
            return None
        return configured_s if configured_s > 0 else self.watchdog_s / 2

    def notify(self, *assignments: str) -> bool:
        """Send ``KEY=value`` lines in one datagram; False when not under systemd or on failure."""
        if self._address is None:
            return False
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._socket.sendto("\n".join(assignments).encode("utf-8"), self._address)
        except OSError as exc:
            if not self._failed:  # say it once: the next ping would say the same
                log.warning("cannot notify systemd at %s: %s", self._address.replace("\0", "@"), exc)
                self._failed = True
            return False
        self._failed = False
        return True

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None


def _watchdog_seconds(env: Mapping[str, str]) -> float | None:
    """WatchdogSec in seconds when it is meant for this process, else None."""
    usec = env.get("WATCHDOG_USEC", "")
    pid = env.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    if pid and (not pid.isdigit() or int(pid) != os.getpid()):
        return None
    return int(usec) / 1_000_000
