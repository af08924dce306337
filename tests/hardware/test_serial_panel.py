"""The serial panel link over pyserial's loop:// and over a pty that is unplugged and replugged."""
import logging
import queue
import threading
import time

import pytest
import serial

from hardware import serial_protocol as proto
from hardware.intents import Intent
from hardware.serial_panel import LineSplitter, SerialPanel, handshake, open_panel, resolve_port

FAST = dict(retry_initial_s=0.01, retry_max_s=0.05, hello_interval_s=0.05, read_timeout_s=0.02)


def test_over_loop_url_frames_go_out_and_button_presses_come_in(caplog):
    caplog.set_level(logging.DEBUG, logger="hardware")
    loop = serial.serial_for_url("loop://", timeout=0.02)
    intents = queue.Queue()
    panel = SerialPanel("loop://", intents.put, open_port=lambda *a: loop, **FAST)
    panel.show_scores([4, 7])
    with panel:
        # loop:// echoes: the host hears its own HELLO, takes it for a panel's, and sends the state
        deadline = time.monotonic() + 5
        while panel.panel is None and time.monotonic() < deadline:
            time.sleep(0.005)
        assert panel.panel == proto.Hello(1, "table-assistant", "")
        loop.write(proto.encode("BTN down"))
        assert intents.get(timeout=5) is Intent.DOWN
        loop.write(b"$BTN up*00\n")  # wrong checksum
        loop.write(proto.encode("BTN up"))
        assert intents.get(timeout=5) is Intent.UP
    assert intents.empty()
    assert any("rejected b'$BTN up*00'" in r.getMessage() and "does not match" in r.getMessage()
               for r in caplog.records)
    # the echoed SCORES proves it went out framed; the host ignores it as a message it does not take
    assert any("ignored unknown message b'$SCORES 4 7*" in r.getMessage() for r in caplog.records)


def test_the_panel_is_unplugged_and_plugged_back_mid_session(pty_panel, by_id_dir, take_until):
    intents, statuses = queue.Queue(), queue.Queue()
    panel = SerialPanel("auto", intents.put, on_status=lambda up, detail: statuses.put(up),
                        by_id_dir=by_id_dir, **FAST)
    panel.show_scores([3, 5])
    with panel:
        assert pty_panel.receive("HELLO") == "HELLO 1 table-assistant"
        pty_panel.send("HELLO 1 test-panel fw-1")
        assert pty_panel.receive("SCORES") == "SCORES 3 5"
        pty_panel.send("BTN next")
        assert intents.get(timeout=5) is Intent.NEXT
        assert take_until(statuses, lambda up: up) == [True]

        pty_panel.unplug()
        take_until(statuses, lambda up: not up)
        started = time.monotonic()
        panel.show_turn(1, "Zoé")  # while unplugged: returns at once, shown after the replug
        panel.show_scores([3, 9])
        assert time.monotonic() - started < 0.05

        pty_panel.plug()
        assert pty_panel.receive("HELLO") == "HELLO 1 table-assistant"
        pty_panel.send("HELLO 1 test-panel fw-1")
        assert pty_panel.receive("TURN") == "TURN 2 Zoe"
        assert pty_panel.receive("SCORES") == "SCORES 3 9"
        pty_panel.send("BTN undo")
        assert intents.get(timeout=5) is Intent.UNDO
        assert take_until(statuses, lambda up: up)[-1] is True
        panel.show_text("Illegal move")
        assert pty_panel.receive("TEXT") == "TEXT Illegal move"
        panel.show_turn(None)
        assert pty_panel.receive("TURN") == "TURN 0"


def test_a_panel_restart_gets_the_whole_state_again(pty_panel, by_id_dir):
    panel = SerialPanel(str(pty_panel.link), lambda intent: None, **FAST)
    panel.show_turn(0, "Ana")  # the first seat: the panel counts from 1
    panel.show_scores([0, 0])
    with panel:
        pty_panel.receive("HELLO")
        pty_panel.send("HELLO 1 test-panel")
        assert {pty_panel.receive("TURN"), pty_panel.receive("SCORES")} == {"TURN 1 Ana", "SCORES 0 0"}
        pty_panel.send("HELLO 1 test-panel")  # it rebooted
        assert {pty_panel.receive("TURN"), pty_panel.receive("SCORES")} == {"TURN 1 Ana", "SCORES 0 0"}


def test_buttons_before_hello_and_from_another_version_are_ignored(pty_panel, caplog):
    caplog.set_level(logging.WARNING, logger="hardware")
    intents = queue.Queue()
    with SerialPanel(str(pty_panel.link), intents.put, **FAST) as panel:
        pty_panel.receive("HELLO")
        pty_panel.send("BTN confirm")
        pty_panel.send("HELLO 2 future-panel")
        pty_panel.send("BTN confirm")
        pty_panel.send("HELLO 1 test-panel")
        pty_panel.send("BTN menu")
        assert intents.get(timeout=5) is Intent.MENU
        assert panel.panel == proto.Hello(1, "test-panel")
    assert intents.empty()
    messages = [r.getMessage() for r in caplog.records]
    assert sum("has not said HELLO 1" in m for m in messages) == 2
    assert any("speaks protocol 2, this program speaks 1" in m for m in messages)


def test_malformed_lines_are_logged_with_their_reason_and_the_link_goes_on(pty_panel, caplog):
    caplog.set_level(logging.WARNING, logger="hardware")
    intents = queue.Queue()
    with SerialPanel(str(pty_panel.link), intents.put, **FAST):
        pty_panel.receive("HELLO")
        pty_panel.send("HELLO 1 test-panel")
        pty_panel.send_raw(b"garbage from a bootloader\n")
        pty_panel.send_raw(b"$BTN fly*" + f"{proto.crc8(b'BTN fly'):02X}".encode() + b"\n")
        pty_panel.send_raw(b"$" + b"X" * 300 + b"\n")
        pty_panel.send("ERR bad checksum")
        pty_panel.send("BTN up")
        assert intents.get(timeout=5) is Intent.UP
    messages = [r.getMessage() for r in caplog.records]
    assert any("rejected b'garbage from a bootloader'" in m and "does not start with '$'" in m for m in messages)
    assert any("unknown intent 'fly'" in m for m in messages)
    # depending on how the bytes arrive: the whole line at once, or a line with no end in sight
    assert any("longer than 106" in m or "no line end within" in m for m in messages)
    assert any("panel refused a message: bad checksum" in m for m in messages)


def test_a_missing_panel_is_reported_once_and_never_blocks(tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="hardware")
    statuses = []
    panel = SerialPanel(str(tmp_path / "no-such-port"), lambda intent: None,
                        on_status=lambda up, detail: statuses.append((up, detail)), **FAST)
    with panel:
        started = time.monotonic()
        for seat in range(4):
            panel.show_turn(seat, "Ben")
        assert time.monotonic() - started < 0.05
        time.sleep(0.2)  # lets several reconnection tries fail
    warnings = [r for r in caplog.records if "not available" in r.getMessage()]
    assert len(warnings) == 1 and len(statuses) == 1 and statuses[0][0] is False
    assert "no-such-port" in statuses[0][1]


def test_the_wait_between_tries_doubles_up_to_the_limit(tmp_path, monkeypatch):
    waits = []
    panel = SerialPanel(str(tmp_path / "none"), lambda intent: None,
                        retry_initial_s=0.5, retry_max_s=4.0)

    def record(delay):
        waits.append(delay)
        if len(waits) == 6:
            panel._stop.set()
        return panel._stop.is_set()
    monkeypatch.setattr(panel._stop, "wait", record)
    panel._run()
    assert waits == [0.5, 1.0, 2.0, 4.0, 4.0, 4.0]


def test_handshake_returns_the_panels_hello(pty_panel):
    def answer():
        pty_panel.receive("HELLO")
        pty_panel.send("HELLO 1 test-panel fw 3")
    responder = threading.Thread(target=answer)
    responder.start()
    assert handshake(str(pty_panel.link), timeout_s=5) == proto.Hello(1, "test-panel", "fw 3")
    responder.join()


def test_handshake_says_when_nothing_answers(pty_panel):
    with pytest.raises(serial.SerialException, match="no HELLO from the panel within 0.1 s"):
        handshake(str(pty_panel.link), timeout_s=0.1)


def test_auto_takes_the_only_by_id_device(by_id_dir):
    with pytest.raises(serial.SerialException, match="no USB serial device"):
        resolve_port("auto", by_id_dir)
    (by_id_dir / "usb-Panel-if00").symlink_to("/dev/null")
    assert resolve_port("auto", by_id_dir) == str(by_id_dir / "usb-Panel-if00")
    (by_id_dir / "usb-Modem-if00").symlink_to("/dev/null")
    with pytest.raises(serial.SerialException, match="several USB serial devices.*usb-Modem-if00, usb-Panel-if00"):
        resolve_port("auto", by_id_dir)
    assert resolve_port("/dev/ttyACM3", by_id_dir) == "/dev/ttyACM3"


def test_line_splitter_keeps_partial_lines_and_drops_overlong_ones():
    lines = LineSplitter(limit=10)
    assert lines.feed(b"$AB") == []
    assert lines.feed(b"C*00\n$D") == [b"$ABC*00"]
    out = lines.feed(b"x" * 20)
    assert len(out) == 1 and isinstance(out[0], proto.FrameError)
    assert lines.feed(b"yyy\n$E*00\n") == [b"$E*00"]  # the rest of the long line is dropped too


def test_open_panel_follows_the_serial_settings(pty_panel):
    settings = {"port": "", "baudrate": 115200, "retry_initial_s": 0.01, "retry_max_s": 0.05}
    assert open_panel(settings, lambda intent: None) is None
    panel = open_panel({**settings, "port": str(pty_panel.link)}, lambda intent: None)
    try:
        assert pty_panel.receive("HELLO") == "HELLO 1 table-assistant"
    finally:
        panel.close()


def test_a_failing_intent_callback_does_not_end_the_link(pty_panel, caplog):
    delivered = queue.Queue()

    def on_intent(intent):
        delivered.put(intent)
        raise RuntimeError("application bug")
    with SerialPanel(str(pty_panel.link), on_intent, **FAST):
        pty_panel.receive("HELLO")
        pty_panel.send("HELLO 1 test-panel")
        pty_panel.send("BTN up")
        pty_panel.send("BTN down")
        assert [delivered.get(timeout=5), delivered.get(timeout=5)] == [Intent.UP, Intent.DOWN]
    assert any("a callback failed" in r.getMessage() for r in caplog.records)


def test_a_panel_that_never_answers_hello_is_pointed_out_once(pty_panel, caplog):
    caplog.set_level(logging.WARNING, logger="hardware")
    with SerialPanel(str(pty_panel.link), lambda intent: None, **FAST):
        for _ in range(5):
            pty_panel.receive("HELLO")
    mute = [r for r in caplog.records if "does not answer HELLO" in r.getMessage()]
    assert len(mute) == 1 and "115200 baud" in mute[0].getMessage()
