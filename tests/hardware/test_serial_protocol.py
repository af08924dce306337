"""The serial panel's frames and messages (docs/serial-protocol.md)."""
import re
from pathlib import Path

import pytest

from hardware import serial_protocol as proto
from hardware.intents import Intent

DOC = Path(__file__).resolve().parents[2] / "docs" / "serial-protocol.md"


def test_crc8_matches_the_published_check_value():
    # CRC-8 with polynomial 0x07, initial value 0, no reflection: check value of "123456789" is 0xF4
    assert proto.crc8(b"123456789") == 0xF4
    assert proto.crc8(b"") == 0


def test_a_frame_round_trips():
    frame = proto.encode("BTN confirm")
    assert frame.startswith(b"$BTN confirm*") and frame.endswith(b"\n") and len(frame) == 16
    assert proto.decode(frame) == "BTN confirm"
    assert proto.decode(frame.replace(b"\n", b"\r\n")) == "BTN confirm"


def test_every_frame_of_the_example_session_in_the_protocol_document_is_valid():
    frames = re.findall(rb"^[<>] (\$[^\n]*)$", DOC.read_bytes(), flags=re.MULTILINE)
    assert len(frames) >= 8
    for frame in frames:
        proto.decode(frame)


@pytest.mark.parametrize("line, reason", [
    (b"BTN confirm*00", "does not start with '$'"),
    (b"$BTN confirm", "no '*' before the checksum"),
    (b"$BTN confirm*0", "is not two uppercase hex digits"),
    (b"$BTN confirm*zz", "is not two uppercase hex digits"),
    (b"$BTN confirm*00", "does not match"),
    (b"$*00", "empty message"),
    (b"$BTN conf\xc3\xa9rm*00", "is not allowed"),
    (b"$BTN\tconfirm*00", "is not allowed"),
    (b"$" + b"A" * 120 + b"*00", "longer than"),
])
def test_malformed_lines_are_rejected_with_the_reason(line, reason):
    with pytest.raises(proto.FrameError, match=re.escape(reason)):
        proto.decode(line)


def test_a_checksum_in_lowercase_hex_is_rejected():
    frame = proto.encode("BTN undo")
    lowered = frame[:-3] + frame[-3:-1].lower() + b"\n"
    if lowered != frame:
        with pytest.raises(proto.FrameError, match="uppercase"):
            proto.decode(lowered)


def test_a_single_changed_character_is_caught():
    frame = bytearray(proto.encode("BTN next"))
    frame[5] = ord("m")  # "BTN mext"
    with pytest.raises(proto.FrameError, match="does not match"):
        proto.decode(bytes(frame))


@pytest.mark.parametrize("body, message", [
    ("HELLO 1 big-panel v2.3 build 7", proto.Hello(1, "big-panel", "v2.3 build 7")),
    ("HELLO 1 big-panel", proto.Hello(1, "big-panel", "")),
    ("HELLO 2 future-panel x", proto.Hello(2, "future-panel", "x")),
    ("BTN undo", proto.ButtonPress(Intent.UNDO)),
    ("BTN DOWN", proto.ButtonPress(Intent.DOWN)),
    ("ERR bad checksum", proto.PanelError("bad checksum")),
    ("LIGHT 3", None),  # a later version's message: ignored
])
def test_panel_messages(body, message):
    assert proto.parse_panel_message(body) == message


@pytest.mark.parametrize("body, reason", [
    ("HELLO one panel", "version number"),
    ("HELLO 1", "version number and a panel name"),
    ("BTN jump", "unknown intent 'jump'"),
    ("BTN", "unknown intent"),
    ("btn undo", "not a word in capitals"),
])
def test_bad_panel_messages_say_why(body, reason):
    with pytest.raises(proto.FrameError, match=re.escape(reason)):
        proto.parse_panel_message(body)


def test_messages_to_the_panel():
    assert proto.hello("table-assistant") == "HELLO 1 table-assistant"
    assert proto.turn(2, "Zoé Müller-Łukasz") == "TURN 2 Zoe Muller-ukasz"
    assert proto.turn(0, "ignored") == "TURN 0"
    assert proto.scores([12, -3, 0]) == "SCORES 12 -3 0"
    assert proto.scores([]) == "SCORES"
    assert proto.text("Score: 5 * 2 = $10") == "TEXT Score: 5 2 = 10"
    assert proto.text("") == "TEXT"
    assert len(proto.turn(1, "A very long name indeed, far too long")) == len("TURN 1 ") + proto.NAME_LENGTH


def test_what_the_panel_cannot_show_is_refused():
    with pytest.raises(ValueError, match="seat 13"):
        proto.turn(13, "x")
    with pytest.raises(ValueError, match="13 scores"):
        proto.scores(list(range(13)))


def test_every_message_to_the_panel_fits_in_a_frame():
    longest = proto.scores([-99999] * proto.MAX_SEATS)
    assert proto.decode(proto.encode(longest)) == longest
