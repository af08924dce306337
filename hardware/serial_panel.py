"""The serial panel link: button presses in, turn and scores out, never blocking the caller.

A background thread opens the port (re-resolving ``auto`` each time), says HELLO, reads frames
and sends the latest state. When the device goes away it closes the port and tries again with a
growing wait, so unplugging and plugging the panel back in needs nothing from anyone.
Intents and status changes are delivered through callbacks on that thread.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path
from typing import Any, Callable, Mapping

import serial

from hardware import serial_protocol as proto
from hardware.intents import Intent

log = logging.getLogger(__name__)

BY_ID_DIR = Path("/dev/serial/by-id")
AUTO = "auto"
UNANSWERED_HELLOS = 3  # HELLOs without an answer before saying the panel seems mute

OpenPort = Callable[..., "serial.SerialBase"]


def resolve_port(port: str, by_id_dir: Path = BY_ID_DIR) -> str:
    """The device to open: ``port`` itself, or for ``auto`` the only device in ``by_id_dir``."""
    if port != AUTO:
        return port
    names = sorted(os.listdir(by_id_dir)) if by_id_dir.is_dir() else []
    if len(names) == 1:
        return str(by_id_dir / names[0])
    if not names:
        raise serial.SerialException(f"no USB serial device in {by_id_dir}")
    raise serial.SerialException(
        f"several USB serial devices in {by_id_dir} ({', '.join(names)}): set serial.port to the panel's"
    )


class LineSplitter:
    """Cuts received bytes into lines; a line that grows past the limit is dropped whole."""

    def __init__(self, limit: int = proto.MAX_LINE):
        self._limit = limit
        self._pending = bytearray()
        self._discarding = False

    def feed(self, data: bytes) -> list[bytes | proto.FrameError]:
        out: list[bytes | proto.FrameError] = []
        self._pending += data
        while True:
            end = self._pending.find(b"\n")
            if end < 0:
                break
            line = bytes(self._pending[:end])
            del self._pending[:end + 1]
            if self._discarding:
                self._discarding = False
            elif line.strip():
                out.append(line)
        if len(self._pending) > self._limit:
            if not self._discarding:
                out.append(proto.FrameError(f"no line end within {self._limit} bytes: line dropped"))
            self._discarding = True
            self._pending.clear()
        return out


def _default_open(port: str, baudrate: int, timeout: float) -> serial.SerialBase:
    return serial.serial_for_url(
        port, baudrate=baudrate, timeout=timeout, write_timeout=1.0, exclusive=True
    )


class SerialPanel:
    """Keeps talking to the panel on ``port`` ("auto", a /dev/serial/by-id path, or a pyserial URL)."""

    def __init__(
        self,
        port: str,
        on_intent: Callable[[Intent], None],
        *,
        on_status: Callable[[bool, str], None] | None = None,
        baudrate: int = 115200,
        retry_initial_s: float = 0.5,
        retry_max_s: float = 10.0,
        hello_interval_s: float = 1.0,
        read_timeout_s: float = 0.05,
        software: str = "table-assistant",
        by_id_dir: Path = BY_ID_DIR,
        open_port: OpenPort = _default_open,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.port = port
        self._on_intent = on_intent
        self._on_status = on_status or (lambda connected, detail: None)
        self._baudrate = baudrate
        self._retry = (retry_initial_s, retry_max_s)
        self._hello_interval_s = hello_interval_s
        self._read_timeout_s = read_timeout_s
        self._software = software
        self._by_id_dir = by_id_dir
        self._open_port = open_port
        self._clock = clock
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._state: dict[str, str] = {}  # message type -> latest body to show
        self._dirty: set[str] = set()
        self.panel: proto.Hello | None = None  # set while a panel that said HELLO is connected
        self._failures = 0  # tries since the panel last said HELLO
        self._outage = False  # the loss has been reported and not yet repaired
        self._thread = threading.Thread(target=self._run, name="serial-panel", daemon=True)

    # ---- what the application calls (any thread, never blocks) ----

    def start(self) -> "SerialPanel":
        self._thread.start()
        return self

    def show_turn(self, seat: int | None, name: str = "") -> None:
        """Whose turn it is: the seat's index counted from 0 (the panel shows it from 1), or
        None for nobody's turn."""
        self._show(proto.turn(0 if seat is None else seat + 1, name))

    def show_scores(self, points: list[int]) -> None:
        """Every seat's score, in seat order."""
        self._show(proto.scores(points))

    def show_text(self, message: str) -> None:
        """A short line for the panel's display ("" clears it)."""
        self._show(proto.text(message))

    def _show(self, body: str) -> None:
        kind = body.split(" ", 1)[0]
        with self._lock:
            if self._state.get(kind) != body:
                self._state[kind] = body
                self._dirty.add(kind)

    def close(self) -> None:
        """Stop the thread and close the port; closing twice is harmless."""
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)

    def __enter__(self) -> "SerialPanel":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    # ---- the link thread ----

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                device = resolve_port(self.port, self._by_id_dir)
                link = self._open_port(device, self._baudrate, self._read_timeout_s)
            except (serial.SerialException, OSError, ValueError) as exc:
                self._down(f"serial panel on {self.port} not available ({exc}); trying again until it is",
                           str(exc))
                continue
            log.info("serial panel: %s open", device)
            try:
                self._talk(link)
            except (serial.SerialException, OSError) as exc:
                self._down(f"serial panel on {device} lost ({exc}); reconnecting", str(exc))
            finally:
                self.panel = None
                try:
                    link.close()
                except (serial.SerialException, OSError):
                    pass

    def _down(self, message: str, detail: str) -> None:
        """Report an outage once, then wait longer after each try that brings no panel back."""
        if self._outage:
            log.debug("%s", message)
        else:
            self._outage = True
            log.warning("%s", message)
            _deliver(self._on_status, False, detail)
        delay = min(self._retry[1], self._retry[0] * 2 ** self._failures)
        self._failures += 1
        self._stop.wait(delay)

    def _talk(self, link: serial.SerialBase) -> None:
        lines = LineSplitter()
        hello_due, hellos = self._clock(), 0
        while not self._stop.is_set():
            if self.panel is None and self._clock() >= hello_due:
                link.write(proto.encode(proto.hello(self._software)))
                hello_due = self._clock() + self._hello_interval_s
                hellos += 1
                if hellos == UNANSWERED_HELLOS:
                    log.warning("serial panel on %s does not answer HELLO: does its firmware speak "
                                "docs/serial-protocol.md at %d baud?", link.port, self._baudrate)
            if self.panel is not None:
                self._flush(link)
            data = link.read(max(1, link.in_waiting))
            for line in lines.feed(data) if data else ():
                self._receive(line)

    def _flush(self, link: serial.SerialBase) -> None:
        with self._lock:
            bodies = [self._state[kind] for kind in sorted(self._dirty)]
            self._dirty.clear()
        for body in bodies:
            link.write(proto.encode(body))

    def _receive(self, line: bytes | proto.FrameError) -> None:
        try:
            message = _parse(line)
        except proto.FrameError as exc:
            log.warning("serial panel: rejected %s: %s", _describe(line), exc)
            return
        if isinstance(message, proto.Hello):
            self._greeted(message)
        elif isinstance(message, proto.ButtonPress):
            if self.panel is None:
                log.warning("serial panel: button %s ignored: the panel has not said HELLO %d",
                            message.intent, proto.VERSION)
            else:
                _deliver(self._on_intent, message.intent)
        elif isinstance(message, proto.PanelError):
            log.warning("serial panel refused a message: %s", message.reason)
        else:
            log.debug("serial panel: ignored unknown message %r", line)

    def _greeted(self, hello: proto.Hello) -> None:
        if hello.version != proto.VERSION:
            log.error("serial panel %s speaks protocol %d, this program speaks %d: update the panel's "
                      "firmware (docs/serial-protocol.md)", hello.panel, hello.version, proto.VERSION)
            self.panel = None
            return
        self.panel = hello
        self._failures, self._outage = 0, False
        with self._lock:
            self._dirty = set(self._state)  # a panel that (re)starts shows the current state again
        log.info("serial panel %s %s connected", hello.panel, hello.firmware)
        _deliver(self._on_status, True, f"{hello.panel} {hello.firmware}".strip())


def _deliver(callback: Callable[..., None], *args) -> None:
    try:
        callback(*args)
    except Exception:  # the application's bug must not end the link
        log.exception("serial panel: a callback failed")


def _parse(line: bytes | proto.FrameError) -> proto.PanelMessage | None:
    if isinstance(line, proto.FrameError):
        raise line
    return proto.parse_panel_message(proto.decode(line))


def open_panel(
    config: Mapping[str, Any],
    on_intent: Callable[[Intent], None],
    on_status: Callable[[bool, str], None] | None = None,
) -> SerialPanel | None:
    """The panel of the [serial] settings, started, or None when serial.port is empty."""
    if not config["port"]:
        return None
    return SerialPanel(
        config["port"], on_intent, on_status=on_status, baudrate=int(config["baudrate"]),
        retry_initial_s=float(config["retry_initial_s"]), retry_max_s=float(config["retry_max_s"]),
    ).start()


def _describe(line: bytes | proto.FrameError) -> str:
    if isinstance(line, proto.FrameError):
        return "a line"
    return repr(line[:40]) + ("..." if len(line) > 40 else "")


def handshake(
    port: str,
    baudrate: int = 115200,
    timeout_s: float = 3.0,
    *,
    software: str = "table-assistant",
    by_id_dir: Path = BY_ID_DIR,
    open_port: OpenPort = _default_open,
    clock: Callable[[], float] = time.monotonic,
) -> proto.Hello:
    """Open ``port``, say HELLO and return the panel's answer (OSError saying what failed)."""
    device = resolve_port(port, by_id_dir)
    link = open_port(device, baudrate, 0.05)
    try:
        link.write(proto.encode(proto.hello(software)))
        lines = LineSplitter()
        deadline = clock() + timeout_s
        problems = []
        while clock() < deadline:
            data = link.read(max(1, link.in_waiting))
            for line in lines.feed(data) if data else ():
                try:
                    message = _parse(line)
                except proto.FrameError as exc:
                    problems.append(str(exc))
                    continue
                if isinstance(message, proto.Hello):
                    return message
        heard = f"; lines rejected: {'; '.join(problems[:3])}" if problems else ""
        raise serial.SerialException(f"{device}: no HELLO from the panel within {timeout_s:g} s{heard}")
    finally:
        link.close()
