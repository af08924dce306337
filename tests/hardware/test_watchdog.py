"""systemd notify over a real AF_UNIX datagram socket standing for systemd's."""
import logging
import os
import socket
import uuid

import pytest

from hardware.watchdog import SystemdNotifier


@pytest.fixture
def systemd_socket(tmp_path):
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2.0)
    yield path, sock
    sock.close()


def received(sock) -> list[str]:
    return sock.recv(4096).decode().split("\n")


def test_ready_status_watchdog_and_stopping_reach_systemd(systemd_socket):
    path, sock = systemd_socket
    notifier = SystemdNotifier({"NOTIFY_SOCKET": str(path)})
    assert notifier.enabled
    assert notifier.ready("Hilo, 3 players")
    assert received(sock) == ["READY=1", "STATUS=Hilo, 3 players"]
    assert notifier.ping()
    assert received(sock) == ["WATCHDOG=1"]
    assert notifier.status("camera lost, retrying")
    assert received(sock) == ["STATUS=camera lost, retrying"]
    assert notifier.stopping()
    assert received(sock) == ["STOPPING=1"]
    notifier.close()
    notifier.close()


def test_an_abstract_socket_name_is_understood():
    name = f"table-assistant-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2.0)
        notifier = SystemdNotifier({"NOTIFY_SOCKET": "@" + name})
        assert notifier.ready()
        assert received(sock) == ["READY=1"]
        notifier.close()


def test_outside_systemd_everything_is_a_no_op():
    notifier = SystemdNotifier({})
    assert not notifier.enabled
    assert not notifier.ready("x") and not notifier.ping() and not notifier.status("y")
    assert notifier.ping_interval() is None


def test_a_vanished_socket_is_reported_once(tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="hardware")
    notifier = SystemdNotifier({"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert not notifier.ping() and not notifier.ping()
    assert len([r for r in caplog.records if "cannot notify systemd" in r.getMessage()]) == 1


@pytest.mark.parametrize("env, seconds", [
    ({"WATCHDOG_USEC": "30000000"}, 30.0),
    ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}, 30.0),
    ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}, None),  # meant for another process
    ({"WATCHDOG_USEC": "0"}, None),
    ({"WATCHDOG_USEC": "soon"}, None),
    ({}, None),
])
def test_the_watchdog_period_comes_from_the_environment(env, seconds):
    assert SystemdNotifier({"NOTIFY_SOCKET": "/run/x", **env}).watchdog_s == seconds


def test_ping_interval_is_half_the_period_unless_configured():
    notifier = SystemdNotifier({"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "30000000"})
    assert notifier.ping_interval() == 15.0
    assert notifier.ping_interval(5.0) == 5.0
