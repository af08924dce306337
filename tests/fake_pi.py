"""A Raspberry Pi's /sys and /dev as files in a folder: DRM connectors, input devices, backlights."""
from __future__ import annotations

import os
from pathlib import Path

from assistant.display import (ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_X, ABS_Y, BTN_TOOL_FINGER,
                               BTN_TOUCH, INPUT_PROP_DIRECT, INPUT_PROP_POINTER, KERNEL_WORD_BITS)

ABS_MT_SLOT, ABS_MT_TRACKING_ID = 0x2F, 0x39
BTN_LEFT, KEY_A = 0x110, 30


def bitmap(bits, word_bits: int = KERNEL_WORD_BITS) -> str:
    """A capability bitmap as sysfs prints it: hex words, most significant first."""
    words = [0] * (max(bits, default=0) // word_bits + 1)
    for bit in bits:
        words[bit // word_bits] |= 1 << bit % word_bits
    return " ".join(f"{word:x}" for word in reversed(words))


def connector(root: Path, card: int, name: str, status: str = "connected") -> None:
    folder = root / "sys/class/drm" / f"card{card}-{name}"
    folder.mkdir(parents=True)
    (folder / "status").write_text(status + "\n")
    (root / "dev/dri").mkdir(parents=True, exist_ok=True)
    (root / "dev/dri" / f"card{card}").touch()


def input_device(root: Path, number: int, name: str, abs_bits=(), keys=(), props=(), fifo=False) -> Path:
    info = root / "sys/class/input" / f"event{number}" / "device"
    (info / "capabilities").mkdir(parents=True)
    (info / "name").write_text(name + "\n")
    (info / "capabilities/abs").write_text(bitmap(abs_bits) + "\n")
    (info / "capabilities/key").write_text(bitmap(keys) + "\n")
    (info / "properties").write_text(bitmap(props) + "\n")
    node = root / "dev/input" / f"event{number}"
    node.parent.mkdir(parents=True, exist_ok=True)
    if fifo:  # a reader of the device blocks on it as on a real one
        os.mkfifo(node)
    else:
        node.touch()
    return node


def touchscreen(root: Path, number: int = 4, name: str = "generic ft5x06 (79)", fifo=False) -> Path:
    """The official DSI touchscreen: multitouch (protocol B), a direct input device."""
    return input_device(root, number, name, fifo=fifo, keys={BTN_TOUCH}, props={INPUT_PROP_DIRECT},
                        abs_bits={ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y,
                                  ABS_MT_TRACKING_ID})


def keyboard_and_mouse(root: Path) -> None:
    input_device(root, 0, "Logitech USB Receiver", keys={KEY_A})
    input_device(root, 1, "Logitech USB Receiver Mouse", keys={BTN_LEFT})
    input_device(root, 2, "SynPS/2 Synaptics TouchPad", keys={BTN_TOUCH, BTN_TOOL_FINGER, BTN_LEFT},
                 props={INPUT_PROP_POINTER}, abs_bits={ABS_X, ABS_Y, ABS_MT_POSITION_X, ABS_MT_POSITION_Y})


def pi5_with_dsi(root: Path) -> None:
    """A Pi 5 with the DSI screen: the render-only GPU, the HDMI card with nothing plugged in and
    the DSI controller, in the order of this boot."""
    connector(root, 0, "HDMI-A-1", "disconnected")
    connector(root, 0, "HDMI-A-2", "disconnected")
    connector(root, 0, "Writeback-1", "unknown")
    (root / "dev/dri/card1").touch()  # v3d: no connectors
    connector(root, 2, "DSI-2")
    touchscreen(root)


def backlight(root: Path, name: str = "10-0045") -> Path:
    folder = root / "sys/class/backlight" / name
    folder.mkdir(parents=True)
    (folder / "bl_power").write_text("0\n")
    return folder / "bl_power"
