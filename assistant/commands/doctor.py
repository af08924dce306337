"""`table-assistant doctor`: is this machine ready to be the kiosk?

Checks the camera, GPIO, the serial panel, the display and the user's groups, and for each
problem prints what is wrong and the command that fixes it. Exit code 1 when something must
be fixed. Every look at the machine goes through ``Probes``, so the checks are tested with fakes.
"""
from __future__ import annotations

import glob
import grp
import os
import pwd
from dataclasses import dataclass
from typing import Any, Callable, Mapping

SERVICE_USER = "table-assistant"
CONFIG_FILE = "/etc/table-assistant/config.toml"
GROUPS = {  # group: what the kiosk needs it for
    "video": "cameras and the screen",
    "render": "the graphics processor",
    "input": "the touchscreen",
    "gpio": "buttons and lights",
    "dialout": "the serial panel",
}
OK, WARN, FAIL = "ok", "WARN", "FAIL"


@dataclass(frozen=True)
class Finding:
    level: str  # OK, WARN (works, but not as well as it could) or FAIL (must be fixed)
    area: str
    message: str
    fix: str = ""


@dataclass
class Probes:
    """What the checks may learn about the machine."""

    user: str
    env: Mapping[str, str]
    process_groups: set[str]  # groups this process has now
    account_groups: set[str]  # groups the user database gives the user (new ones need a new login)
    existing_groups: set[str]
    glob: Callable[[str], list[str]]
    exists: Callable[[str], bool]
    realpath: Callable[[str], str]
    can_use: Callable[[str], bool]  # may this process read and write the device?
    # the camera's name and a frame once its exposure settles (BGR); CaptureError, or ValueError
    # for camera settings that cannot work
    camera_frame: Callable[[Mapping[str, Any]], tuple[str, Any]]
    load_gpio: Callable[[], str]  # the pin library's name; raises when there is none
    panel_hello: Callable[[str, int], str]  # the panel's answer to HELLO; OSError

    @classmethod
    def of_this_machine(cls) -> "Probes":
        account = pwd.getpwuid(os.geteuid())
        return cls(
            user=account.pw_name,
            env=dict(os.environ),
            process_groups=_group_names(os.getgroups() + [os.getegid()]),
            account_groups=_group_names(os.getgrouplist(account.pw_name, account.pw_gid)),
            existing_groups={g.gr_name for g in grp.getgrall()},
            glob=lambda pattern: sorted(glob.glob(pattern)),
            exists=os.path.exists,
            realpath=os.path.realpath,
            can_use=lambda path: os.access(path, os.R_OK | os.W_OK),
            camera_frame=_camera_frame,
            load_gpio=_load_gpio,
            panel_hello=_panel_hello,
        )


def _group_names(gids) -> set[str]:
    names = set()
    for gid in gids:
        try:
            names.add(grp.getgrgid(gid).gr_name)
        except KeyError:
            pass
    return names


def _camera_frame(config: Mapping[str, Any]) -> tuple[str, Any]:
    from assistant.commands.calibrate_dice import camera_frames

    name, frames = camera_frames(config, 1)
    return name, frames[0]


def _load_gpio() -> str:
    from hardware.gpio import load_pin_factory

    return type(load_pin_factory()).__name__


def _panel_hello(port: str, baudrate: int) -> str:
    from hardware.serial_panel import handshake

    hello = handshake(port, baudrate)
    return f"{hello.panel} {hello.firmware}".strip() + f" (protocol {hello.version})"


# ---- the checks ------------------------------------------------------------------------


def check_groups(probes: Probes) -> list[Finding]:
    if probes.user == "root":
        return [Finding(OK, "groups", "running as root, which needs no groups; the kiosk runs as "
                        f"{SERVICE_USER}: check it with `sudo -u {SERVICE_USER} table-assistant doctor`")]
    needed = [g for g in GROUPS if g in probes.existing_groups]
    missing = [g for g in needed if g not in probes.account_groups]
    inactive = [g for g in needed if g in probes.account_groups and g not in probes.process_groups]
    findings = []
    if missing:
        uses = "; ".join(f"{g}: {GROUPS[g]}" for g in missing)
        findings.append(Finding(FAIL, "groups", f"{probes.user} is not in {', '.join(missing)} ({uses})",
                                f"sudo usermod -aG {','.join(missing)} {probes.user}, then log out and in again"))
    if inactive:
        findings.append(Finding(WARN, "groups", f"{probes.user} was added to {', '.join(inactive)} "
                                "but this session does not have it yet", "log out and in again (or reboot)"))
    if not findings:
        absent = [g for g in GROUPS if g not in probes.existing_groups]
        note = f" ({', '.join(absent)} does not exist on this system)" if absent else ""
        findings.append(Finding(OK, "groups", f"{probes.user} is in {', '.join(needed)}{note}"))
    return findings


def check_camera(probes: Probes, config: Mapping[str, Any]) -> tuple[list[Finding], Any]:
    """The camera's findings, and the frame it gave (None without one), which the table check
    compares with the empty table: the camera is opened once."""
    from vision.capture import CaptureError
    from vision.dice_background import frame_size

    if config["source"] == "none":
        return [Finding(OK, "camera", 'off (camera.source = "none"): readings are entered by touch')], None
    try:
        name, frame = probes.camera_frame(config)
    except ValueError as exc:
        return [Finding(FAIL, "camera", str(exc), f"fix [camera] in {CONFIG_FILE}")], None
    except CaptureError as exc:
        return [Finding(FAIL, "camera", f"{a.source}: {a.problem}", a.fix) for a in exc.attempts], None
    return [Finding(OK, "camera", f"{name} gives {frame_size(frame.shape)} frames")], frame


def check_gpio(probes: Probes, config: Mapping[str, Any]) -> list[Finding]:
    from hardware.gpio import GpioConfig

    if not config["enabled"]:
        return [Finding(OK, "gpio", "off (gpio.enabled = false)")]
    try:
        wiring = GpioConfig.from_mapping(config)
    except ValueError as exc:
        return [Finding(FAIL, "gpio", str(exc), f"fix [gpio] in {CONFIG_FILE}")]
    chips = probes.glob("/dev/gpiochip*")
    if not chips:
        return [Finding(WARN, "gpio", "no GPIO chip (/dev/gpiochip*): not a Raspberry Pi? "
                        "Buttons and lights will be off; touch and the serial panel still work")]
    locked = [c for c in chips if not probes.can_use(c)]
    if locked:
        return [Finding(FAIL, "gpio", f"{probes.user} cannot use {', '.join(locked)}",
                        f"sudo usermod -aG gpio {probes.user}, then log out and in again")]
    try:
        library = probes.load_gpio()
    except Exception as exc:  # gpiozero and its pin libraries raise many kinds
        return [Finding(FAIL, "gpio", f"gpiozero finds no pin library: {exc}",
                        "sudo apt install python3-lgpio (the app's venv must see system packages, "
                        "as systemd/install.sh makes it)")]
    pins = ", ".join(f"{b.intent} GPIO{b.pin}" for b in wiring.buttons) or "no buttons"
    return [Finding(OK, "gpio", f"GPIO ready through {library}: {pins}")]


def check_serial(probes: Probes, config: Mapping[str, Any]) -> list[Finding]:
    from hardware.serial_panel import AUTO, BY_ID_DIR

    port = config["port"]
    if not port:
        return [Finding(OK, "serial", 'no serial panel configured (serial.port = "")')]
    devices = probes.glob(f"{BY_ID_DIR}/*")
    listing = ", ".join(devices) if devices else "none"
    findings = []
    if port == AUTO:
        if len(devices) != 1:
            problem = "no USB serial device is plugged in" if not devices else f"several devices: {listing}"
            return [Finding(FAIL, "serial", f'serial.port = "auto" but {problem}',
                            "plug the panel in, or set serial.port to its /dev/serial/by-id name "
                            f"in {CONFIG_FILE}")]
        port = devices[0]
    elif not probes.exists(port):
        return [Finding(FAIL, "serial", f"{port} does not exist (devices in {BY_ID_DIR}: {listing})",
                        f"plug the panel in, or set serial.port in {CONFIG_FILE}")]
    elif port.startswith("/dev/tty"):
        stable = [d for d in devices if probes.realpath(d) == probes.realpath(port)]
        findings.append(Finding(WARN, "serial", f"{port} may get another number when replugged",
                                f'set serial.port = "{stable[0]}" in {CONFIG_FILE}' if stable
                                else f"use its name in {BY_ID_DIR}"))
    if not probes.can_use(port):
        return findings + [Finding(FAIL, "serial", f"{probes.user} cannot open {port}",
                                   f"sudo usermod -aG dialout {probes.user}, then log out and in again")]
    try:
        answer = probes.panel_hello(port, config["baudrate"])
    except OSError as exc:
        return findings + [Finding(FAIL, "serial", f"{port}: {exc}",
                                   f"check that the panel's firmware speaks docs/serial-protocol.md at "
                                   f"{config['baudrate']} baud, and that no other program holds the port "
                                   f"(`sudo systemctl stop table-assistant` while checking)")]
    return findings + [Finding(OK, "serial", f"panel on {port}: {answer}")]


def check_display(probes: Probes) -> list[Finding]:
    for variable in ("WAYLAND_DISPLAY", "DISPLAY"):
        if probes.env.get(variable):
            return [Finding(OK, "display", f"desktop display {variable}={probes.env[variable]}")]
    cards = probes.glob("/dev/dri/card*")
    if not cards:
        return [Finding(FAIL, "display", "no screen device (/dev/dri/card*)",
                        "connect the screen, keep dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt, "
                        "and reboot")]
    findings = []
    if not any(probes.can_use(card) for card in cards):
        findings.append(Finding(FAIL, "display", f"{probes.user} cannot use {', '.join(cards)}",
                                f"sudo usermod -aG video,render {probes.user}, then log out and in again"))
    inputs = probes.glob("/dev/input/event*")
    if not inputs:
        findings.append(Finding(WARN, "display", "no input device (/dev/input/event*): "
                                "is the touchscreen connected?"))
    elif not any(probes.can_use(device) for device in inputs):
        findings.append(Finding(FAIL, "display", f"{probes.user} cannot read the touchscreen "
                                "(/dev/input/event*)",
                                f"sudo usermod -aG input {probes.user}, then log out and in again"))
    return findings or [Finding(OK, "display", f"screen {cards[0]} and {len(inputs)} input device(s)")]


def check_empty_table(settings, frame) -> list[Finding]:
    """Whether the dice reader knows the empty table (see `calibrate dice-background`), and
    whether the camera's ``frame`` (None without one) still shows it where it was learnt."""
    from assistant.commands.calibrate_dice import empty_table_path
    from vision.dice_background import BackgroundError, TableBackground, frame_size

    path = empty_table_path(settings)
    if settings["camera.source"] == "none" or path is None:
        return []
    fix = "clear the table, then: table-assistant calibrate dice-background"
    if not path.is_file():
        return [Finding(WARN, "table", "the empty table is not learnt: the mat's markers and lettering "
                        "may be read as dice", fix)]
    try:
        background = TableBackground.load(path)
    except BackgroundError as exc:
        return [Finding(FAIL, "table", str(exc), fix)]
    learnt = f"the empty table is learnt ({frame_size(background.grey.shape)} frames, {path})"
    if frame is None:  # why is said by the camera check
        return [Finding(OK, "table", f"{learnt}; no camera frame to compare it with")]
    fit = background.fit(frame)
    if fit.other_size:
        return [Finding(WARN, "table", f"{learnt}, but the camera now gives {frame_size(frame.shape)} frames", fix)]
    if fit.stale:
        return [Finding(WARN, "table", f"{learnt}, but the camera or the mat has moved since ({fit.moved} "
                        f"places seen moved, {fit.in_place} in place): the mat's print may be read as dice", fix)]
    return [Finding(OK, "table", f"{learnt}; the camera still sees it in place ({fit.in_place} places)")]


def diagnose(settings, probes: Probes) -> list[Finding]:
    camera, frame = check_camera(probes, settings.section("camera"))
    return [
        *camera,
        *check_empty_table(settings, frame),
        *check_gpio(probes, settings.section("gpio")),
        *check_serial(probes, settings.section("serial")),
        *check_display(probes),
        *check_groups(probes),
    ]


def report(findings: list[Finding], user: str) -> str:
    lines = [f"Checking this machine for {user}:"]
    width = max(len(f.area) for f in findings)
    for finding in findings:
        lines.append(f"  {finding.level:<4}  {finding.area:<{width}}  {finding.message}")
        if finding.fix:
            lines.append(f"        {'':<{width}}  fix: {finding.fix}")
    failures = sum(f.level == FAIL for f in findings)
    warnings = sum(f.level == WARN for f in findings)
    lines.append(f"{failures} to fix, {warnings} warning(s)." if failures or warnings
                 else "Everything is ready.")
    return "\n".join(lines)


def add_parser(sub) -> None:
    parser = sub.add_parser(
        "doctor", help="check camera, GPIO, serial panel, display and groups; say how to fix them")
    parser.set_defaults(run=run)


def run(args, settings, probes: Probes | None = None) -> int:
    probes = probes or Probes.of_this_machine()
    findings = diagnose(settings, probes)
    print(report(findings, probes.user))
    return 1 if any(f.level == FAIL for f in findings) else 0
