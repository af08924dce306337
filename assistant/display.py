"""The screen and the touchscreen as the kernel lists them in sysfs, and how the kiosk reads them.

Without a desktop, SDL's KMSDRM backend draws on one DRM card (``SDL_KMSDRM_DEVICE_INDEX``); on
a Pi 5 the card that drives the DSI panel is not always the first one, and card numbers change
between boots, so the card is chosen by its connected connector at every start. Under KMSDRM SDL
reads the touchscreen as touch events that Kivy ignores on Linux, so Kivy reads it itself: one
provider per touchscreen, and SDL makes no mouse events of touches. Under a desktop the desktop
turns touches into pointer events and Kivy must not read the device a second time. Either way a
tap is one touch. Every function takes the file system's root, so tests give fake trees.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, MutableMapping

BUILT_IN_PANELS = ("DSI", "DPI")  # connectors of a screen wired to the board, preferred to HDMI

# linux/input-event-codes.h
ABS_X, ABS_Y, ABS_MT_POSITION_X, ABS_MT_POSITION_Y = 0x00, 0x01, 0x35, 0x36
BTN_TOOL_FINGER, BTN_TOUCH = 0x145, 0x14A
INPUT_PROP_POINTER, INPUT_PROP_DIRECT = 0x00, 0x01
# sysfs prints capability bitmaps in words of the kernel's long (aarch64, x86_64...: 64 bits)
KERNEL_WORD_BITS = 64 if "64" in os.uname().machine or os.uname().machine == "s390x" else 32


@dataclass(frozen=True)
class Connector:
    card: int
    name: str  # as the kernel names it: "HDMI-A-1", "DSI-1"
    status: str  # "connected", "disconnected" or "unknown"

    @property
    def connected(self) -> bool:
        return self.status == "connected"

    @property
    def label(self) -> str:
        return f"card{self.card}-{self.name}"


@dataclass(frozen=True)
class InputDevice:
    node: str  # /dev/input/eventN
    name: str
    touchscreen: bool
    multitouch: bool


def connectors(root: str | Path = "/") -> list[Connector]:
    """Every DRM connector of every card, in card order."""
    found = []
    for path in Path(root, "sys/class/drm").glob("card*-*"):
        match = re.fullmatch(r"card(\d+)-(.+)", path.name)
        if match:
            found.append(Connector(int(match[1]), match[2], _read(path / "status") or "unknown"))
    return sorted(found, key=lambda c: (c.card, c.name))


def screen_connector(found: list[Connector]) -> Connector | None:
    """The connected screen the kiosk draws on: a panel wired to the board first, then the
    first connected connector in card order."""
    connected = [c for c in found if c.connected]
    built_in = [c for c in connected if c.name.startswith(BUILT_IN_PANELS)]
    return (built_in or connected or [None])[0]


def input_devices(root: str | Path = "/", word_bits: int = KERNEL_WORD_BITS) -> list[InputDevice]:
    devices = []
    for path in sorted(Path(root, "sys/class/input").glob("event*"), key=lambda p: _number(p.name)):
        info = path / "device"
        abs_bits = _bits(_read(info / "capabilities/abs"), word_bits)
        keys = _bits(_read(info / "capabilities/key"), word_bits)
        props = _bits(_read(info / "properties"), word_bits)
        multitouch = {ABS_MT_POSITION_X, ABS_MT_POSITION_Y} <= abs_bits
        positions = multitouch or {ABS_X, ABS_Y} <= abs_bits
        # what udev calls a touchscreen: absolute positions on the screen itself, not a touchpad's
        direct = INPUT_PROP_DIRECT in props or (
            BTN_TOUCH in keys and BTN_TOOL_FINGER not in keys and INPUT_PROP_POINTER not in props)
        devices.append(InputDevice(str(Path(root, "dev/input", path.name)), _read(info / "name"),
                                   positions and direct, multitouch))
    return devices


def touchscreens(root: str | Path = "/") -> list[InputDevice]:
    return [d for d in input_devices(root) if d.touchscreen]


def draws_on_screen(env: Mapping[str, str]) -> bool:
    """Whether SDL draws straight on the screen (KMSDRM) rather than in a desktop's window."""
    if env.get("SDL_VIDEODRIVER", "").lower() == "kmsdrm":
        return True
    return not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))


@dataclass(frozen=True)
class Screen:
    """What the kiosk will draw on and read touches from."""

    on_screen: bool  # KMSDRM, no desktop
    connector: Connector | None
    touch: tuple[InputDevice, ...] = field(default_factory=tuple)

    @classmethod
    def survey(cls, env: Mapping[str, str], root: str | Path = "/") -> "Screen":
        on_screen = draws_on_screen(env)
        connector = screen_connector(connectors(root)) if on_screen else None
        return cls(on_screen, connector, tuple(touchscreens(root)))

    def describe(self) -> str:
        if not self.on_screen:
            where = "a desktop's window"
        elif self.connector is None:
            where = "the screen, but no DRM connector is connected"
        else:
            where = f"the screen on {self.connector.label} (/dev/dri/card{self.connector.card})"
        touch = ", ".join(f"{d.name or 'unnamed'} ({d.node})" for d in self.touch) or "none found"
        return f"drawing in {where}; touchscreens: {touch}"

    def input_providers(self) -> dict[str, str]:
        """Kivy's [input] section: the mouse provider (SDL's mouse events), and under KMSDRM one
        reader per touchscreen; the mouse gives way while one of them is touched."""
        if not self.on_screen:
            return {"mouse": "mouse,disable_multitouch"}
        providers = {"mouse": "mouse,disable_multitouch,disable_on_activity"}
        for device in self.touch:
            providers[f"touch_{Path(device.node).name}"] = f"{self.reader(device)},{device.node}"
        return providers

    @staticmethod
    def reader(device: InputDevice) -> str:
        """Kivy's provider for a touchscreen: libmtdev (any multitouch protocol), else hidinput."""
        return "mtdev" if device.multitouch else "hidinput"

    def sdl_environment(self) -> dict[str, str]:
        """SDL's settings, read from the environment when the window opens."""
        if not self.on_screen:
            return {}
        env = {"SDL_TOUCH_MOUSE_EVENTS": "0"}  # Kivy reads the touchscreen itself
        if self.connector is not None:
            env["SDL_KMSDRM_DEVICE_INDEX"] = str(self.connector.card)
        return env

    def set_sdl_environment(self, env: MutableMapping[str, str]) -> None:
        """Put SDL's settings in ``env``; a device index set there already is the owner's choice."""
        for name, value in self.sdl_environment().items():
            if name == "SDL_KMSDRM_DEVICE_INDEX":
                env.setdefault(name, value)
            else:
                env[name] = value


def _read(path: Path) -> str:
    try:
        return path.read_text("utf-8", "replace").strip()
    except OSError:
        return ""


def _number(name: str) -> int:
    digits = re.sub(r"\D", "", name)
    return int(digits) if digits else -1


def _bits(text: str, word_bits: int) -> set[int]:
    """The bit numbers set in a sysfs bitmap ("260800000000003", words most significant first)."""
    bits = set()
    for index, word in enumerate(reversed(text.split())):
        value = int(word, 16) if re.fullmatch(r"[0-9a-fA-F]+", word) else 0
        bits.update(index * word_bits + bit for bit in range(word_bits) if value >> bit & 1)
    return bits
