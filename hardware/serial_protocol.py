"""The serial panel's line protocol, version 1 (specified in docs/serial-protocol.md).

A frame is ``$`` BODY ``*`` CRC ``\\n``: BODY is printable ASCII without ``$`` or ``*``, CRC is
the CRC-8 (polynomial 0x07, initial value 0) of BODY's bytes as two uppercase hex digits.
This module only encodes and decodes; ``hardware.serial_panel`` moves the bytes.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from hardware.intents import Intent

VERSION = 1
MAX_BODY = 100  # characters between "$" and "*"
MAX_LINE = MAX_BODY + 6  # "$" body "*" CRC CRC "\r\n"
MAX_SEATS = 12
NAME_LENGTH = 16
TEXT_LENGTH = 32


class FrameError(ValueError):
    """A line that is not a valid frame or message; the text says why."""


def _crc8_of_byte(value: int) -> int:
    for _ in range(8):
        value = ((value << 1) ^ 0x07) & 0xFF if value & 0x80 else (value << 1) & 0xFF
    return value


_CRC8_TABLE = bytes(_crc8_of_byte(i) for i in range(256))


def crc8(data: bytes) -> int:
    """CRC-8, polynomial 0x07, initial value 0 (a table of the 256 one-byte steps)."""
    crc = 0
    for byte in data:
        crc = _CRC8_TABLE[crc ^ byte]
    return crc


def encode(body: str) -> bytes:
    """Frame one message body (ValueError if it cannot be sent as it is)."""
    raw = body.encode("ascii")
    _check_body(raw)
    return b"$" + raw + b"*" + f"{crc8(raw):02X}".encode("ascii") + b"\n"


def decode(line: bytes) -> str:
    """The body of one received line (without its line ending); FrameError saying what is wrong."""
    line = line.rstrip(b"\r\n")
    if len(line) > MAX_LINE:
        raise FrameError(f"line of {len(line)} bytes, longer than {MAX_LINE}")
    if not line.startswith(b"$"):
        raise FrameError("does not start with '$'")
    body, star, checksum = line[1:].rpartition(b"*")
    if not star:
        raise FrameError("no '*' before the checksum")
    _check_body(body)
    if len(checksum) != 2 or not all(c in b"0123456789ABCDEF" for c in checksum):
        raise FrameError(f"checksum {checksum!r} is not two uppercase hex digits")
    if int(checksum, 16) != crc8(body):
        raise FrameError(f"checksum {checksum.decode()} does not match (expected {crc8(body):02X})")
    return body.decode("ascii")


def _check_body(body: bytes) -> None:
    if not body:
        raise FrameError("empty message")
    if len(body) > MAX_BODY:
        raise FrameError(f"message of {len(body)} characters, longer than {MAX_BODY}")
    bad = next((c for c in body if not 0x20 <= c <= 0x7E or c in b"$*"), None)
    if bad is not None:
        raise FrameError(f"character {bytes([bad])!r} is not allowed in a message")


# ---- messages from the panel -------------------------------------------------------------


@dataclass(frozen=True)
class Hello:
    version: int
    panel: str
    firmware: str = ""


@dataclass(frozen=True)
class ButtonPress:
    intent: Intent


@dataclass(frozen=True)
class PanelError:
    reason: str


PanelMessage = Hello | ButtonPress | PanelError


def parse_panel_message(body: str) -> PanelMessage | None:
    """What the panel said, None for a message type this version does not know (ignored)."""
    kind, _, rest = body.partition(" ")
    if kind == "HELLO":
        fields = rest.split(" ", 2)
        if len(fields) < 2 or not fields[0].isdigit() or not fields[1]:
            raise FrameError("HELLO needs a protocol version number and a panel name")
        return Hello(int(fields[0]), fields[1], fields[2] if len(fields) > 2 else "")
    if kind == "BTN":
        try:
            return ButtonPress(Intent.parse(rest))
        except ValueError as exc:
            raise FrameError(f"BTN: {exc}") from None
    if kind == "ERR":
        return PanelError(rest)
    if not kind.isalpha() or not kind.isupper():
        raise FrameError(f"message type {kind!r} is not a word in capitals")
    return None


# ---- messages to the panel ---------------------------------------------------------------


def hello(software: str) -> str:
    return f"HELLO {VERSION} {ascii_text(software, NAME_LENGTH).replace(' ', '-') or 'host'}"


def turn(seat: int, name: str) -> str:
    """Whose turn it is (seats count from 1; seat 0 = nobody's, e.g. between games)."""
    if not 0 <= seat <= MAX_SEATS:
        raise ValueError(f"seat {seat} is outside 0-{MAX_SEATS}")
    return f"TURN {seat} {ascii_text(name, NAME_LENGTH)}".rstrip() if seat else "TURN 0"


def scores(points: list[int]) -> str:
    """Every seat's score in seat order (an empty list clears the display)."""
    if len(points) > MAX_SEATS:
        raise ValueError(f"{len(points)} scores, the panel shows at most {MAX_SEATS}")
    return " ".join(["SCORES", *(str(int(p)) for p in points)])


def text(message: str) -> str:
    """A short line for the panel's display (an empty text clears it)."""
    return f"TEXT {ascii_text(message, TEXT_LENGTH)}".rstrip()


def ascii_text(value: str, limit: int) -> str:
    """``value`` as the panel can show it: accents dropped, no framing characters, cut to ``limit``."""
    plain = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode("ascii")
    plain = "".join(c if 0x20 <= ord(c) <= 0x7E and c not in "$*" else " " for c in plain)
    return " ".join(plain.split())[:limit].rstrip()
