"""Fakes for the hardware tests: a mock GPIO pin factory, a test clock, a panel on a pty."""
from __future__ import annotations

import os
import queue
import select
import time
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from hardware import serial_protocol as proto
from hardware.serial_panel import LineSplitter


@pytest.fixture
def mock_factory():
    """gpiozero's MockFactory as the default pin factory; the previous factory comes back after."""
    previous = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = previous


class ManualClock:
    """A clock that only moves when the test says so."""

    def __init__(self, now: float = 100.0):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock():
    return ManualClock()


class PtyPanel:
    """A panel on a pseudo-terminal, reached through a symlink that stands for its
    /dev/serial/by-id name. ``unplug`` closes the terminal and removes the name, as the kernel
    and udev do when the USB cable is pulled; ``plug`` makes a new terminal behind the name."""

    def __init__(self, link: Path):
        self.link = link
        self.master: int | None = None
        self._slave: int | None = None
        self.plug()

    def plug(self) -> None:
        self.master, self._slave = os.openpty()
        staging = self.link.with_name(self.link.name + ".new")
        os.symlink(os.ttyname(self._slave), staging)
        os.replace(staging, self.link)
        self._lines = LineSplitter()
        self._received: list[str] = []

    def unplug(self) -> None:
        self.link.unlink()
        os.close(self.master)
        os.close(self._slave)
        self.master = self._slave = None

    def send(self, body: str) -> None:
        os.write(self.master, proto.encode(body))

    def send_raw(self, data: bytes) -> None:
        os.write(self.master, data)

    def receive(self, kind: str, timeout: float = 5.0) -> str:
        """The next message body of type ``kind`` the host sends (others are kept in order)."""
        deadline = time.monotonic() + timeout
        while True:
            for i, body in enumerate(self._received):
                if body.split(" ", 1)[0] == kind:
                    return self._received.pop(i)
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {kind} from the host within {timeout} s; got {self._received}")
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                for line in self._lines.feed(os.read(self.master, 1024)):
                    self._received.append(proto.decode(line))

    def close(self) -> None:
        if self.master is not None:
            self.unplug()


@pytest.fixture
def by_id_dir(tmp_path):
    folder = tmp_path / "serial-by-id"
    folder.mkdir()
    return folder


@pytest.fixture
def pty_panel(by_id_dir):
    panel = PtyPanel(by_id_dir / "usb-Club_Table_Panel_0001-if00")
    yield panel
    panel.close()


def _take_until(q: queue.Queue, predicate, timeout: float = 5.0):
    """Items taken from ``q`` up to and including the first that satisfies ``predicate``."""
    taken = []
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"nothing matching arrived within {timeout} s; got {taken}")
        try:
            item = q.get(timeout=left)
        except queue.Empty:
            continue
        taken.append(item)
        if predicate(item):
            return taken


@pytest.fixture
def take_until():
    return _take_until
