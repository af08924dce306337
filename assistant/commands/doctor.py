"""`table-assistant doctor`: is this machine ready to be the kiosk?

Checks what the kiosk will use as the unit runs it (its state directory, the screen's DRM card,
the touchscreen, the pin factory gpiozero loads, the camera, the serial panel, the power button)
and the user's groups, and for each problem prints what is wrong and the command that fixes it.
Exit code 1 when something must be fixed. Every look at the machine goes through ``Probes``
(files through its ``root``), so the checks are tested with fakes.
"""
from __future__ import annotations

import contextlib
import copy
import glob
import grp
import os
import pwd
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from assistant import settings as settings_mod
from assistant.display import Screen, connectors

SERVICE_USER = "table-assistant"
CONFIG_FILE = "/etc/table-assistant/config.toml"
UNIT_FILE = "etc/systemd/system/table-assistant.service"
UNIT_STATE_DIR = "/var/lib/table-assistant"  # the unit's StateDirectory=
UNIT_ENV = {"SDL_VIDEODRIVER": "kmsdrm"}  # what the unit sets that changes what the checks see
POLKIT_RULE = "etc/polkit-1/rules.d/50-table-assistant.rules"  # where install.sh puts it
BOOT_CONFIGS = ("boot/firmware/config.txt", "boot/config.txt")  # Bookworm's, then older images'
SHUTDOWN_OVERLAY_PIN = 3  # dtoverlay=gpio-shutdown's default gpio_pin
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
    # the pin factory's name and gpiozero's reasons for falling back to it; raises when there is none
    load_gpio: Callable[[], tuple[str, list[str]]]
    panel_hello: Callable[[str, int], str]  # the panel's answer to HELLO; OSError
    root: str = "/"  # where /sys, /dev, /boot and /etc are read (sysfs, config.txt, the unit)

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


def _load_gpio() -> tuple[str, list[str]]:
    from hardware.gpio import load_pin_factory

    with _writable_working_directory():
        factory, fallbacks = load_pin_factory()
    return type(factory).__name__, fallbacks


@contextlib.contextmanager
def _writable_working_directory():
    """lgpio makes its notification pipe in the working directory: check from a writable one, as
    the unit's (its RuntimeDirectory), not from wherever doctor was started."""
    here = os.getcwd()
    try:
        with tempfile.TemporaryFile(dir=here):
            writable = True
    except OSError:
        writable = False
    if writable:
        yield
        return
    with tempfile.TemporaryDirectory(prefix="table-assistant-doctor-") as elsewhere:
        os.chdir(elsewhere)
        try:
            yield
        finally:
            os.chdir(here)


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
        library, fallbacks = probes.load_gpio()
    except Exception as exc:  # gpiozero and its pin libraries raise many kinds
        return [Finding(FAIL, "gpio", f"gpiozero finds no pin library: {exc}", _gpio_fix(str(exc)))]
    pins = ", ".join(f"{b.intent} GPIO{b.pin}" for b in wiring.buttons) or "no buttons"
    if fallbacks and library != "LGPIOFactory":
        reasons = "; ".join(fallbacks)
        return [Finding(WARN, "gpio", f"GPIO only through gpiozero's fallback {library} ({reasons}): {pins}",
                        _gpio_fix(reasons))]
    return [Finding(OK, "gpio", f"GPIO ready through {library}: {pins}")]


def _gpio_fix(reasons: str) -> str:
    from hardware.gpio import explain

    return explain(reasons) or ("sudo apt install python3-lgpio (the app's venv must see system packages, "
                                "as systemd/install.sh makes it)")


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


def kiosk_env(probes: Probes) -> Mapping[str, str]:
    """The environment the checks see: the unit's, when run as the kiosk's user."""
    return {**probes.env, **UNIT_ENV} if probes.user == SERVICE_USER else probes.env


def check_display(probes: Probes) -> list[Finding]:
    env = kiosk_env(probes)
    screen = Screen.survey(env, probes.root)
    if not screen.on_screen:
        variable = "WAYLAND_DISPLAY" if env.get("WAYLAND_DISPLAY") else "DISPLAY"
        return [Finding(OK, "display", f"desktop display {variable}={env[variable]}")]
    found = connectors(probes.root)
    if not found:
        return [Finding(FAIL, "display", "no screen device (no DRM connector in /sys/class/drm)",
                        "connect the screen, keep dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt, "
                        "and reboot")]
    screen_on = screen.connector
    if screen_on is None:
        listing = ", ".join(f"{c.label} {c.status}" for c in found)
        return [Finding(FAIL, "display", f"no screen is connected ({listing})",
                        "connect the screen (a DSI ribbon with the Pi off) and reboot")]
    card = f"/dev/dri/card{screen_on.card}"
    if not probes.can_use(card):
        return [Finding(FAIL, "display", f"{probes.user} cannot use {card}",
                        f"sudo usermod -aG video,render {probes.user}, then log out and in again")]
    chosen = env.get("SDL_KMSDRM_DEVICE_INDEX")
    if chosen and chosen != str(screen_on.card):
        return [Finding(FAIL, "display", f"SDL_KMSDRM_DEVICE_INDEX={chosen} sends SDL to card{chosen}, but the "
                        f"screen is on {screen_on.label} (card numbers change between boots)",
                        "unset SDL_KMSDRM_DEVICE_INDEX: the kiosk picks the card of the connected screen "
                        "at each start")]
    return [Finding(OK, "display", f"screen {screen_on.label}: the kiosk draws on {card} "
                    f"(SDL_KMSDRM_DEVICE_INDEX={screen_on.card})")]


def check_touch(probes: Probes) -> list[Finding]:
    screen = Screen.survey(kiosk_env(probes), probes.root)
    if not screen.touch:
        return [Finding(WARN, "touch", "no touchscreen in /sys/class/input: only a mouse and the buttons "
                        "can play", "connect the touchscreen (a DSI ribbon with the Pi off) and reboot")]
    locked = [d for d in screen.touch if not probes.can_use(d.node)]
    if locked:
        return [Finding(FAIL, "touch", f"{probes.user} cannot read the touchscreen "
                        f"{', '.join(f'{d.name} ({d.node})' for d in locked)}",
                        f"sudo usermod -aG input {probes.user}, then log out and in again")]
    if screen.on_screen:
        read = "; ".join(f"{d.name} ({d.node}) read by Kivy's {screen.reader(d)}" for d in screen.touch)
        return [Finding(OK, "touch", f"{read}, and SDL makes no mouse events of it: a tap is one touch")]
    names = ", ".join(f"{d.name} ({d.node})" for d in screen.touch)
    return [Finding(OK, "touch", f"{names} reaches the kiosk as the desktop's pointer only: a tap is one touch")]


def check_state(settings, probes: Probes) -> list[Finding]:
    """The folder of the records and calibration: the unit's, and one this user may write."""
    path = settings_mod.state_dir(settings["app.state_dir"], probes.env)
    source = settings.sources.get("app.state_dir", "default")
    unit_installed = Path(probes.root, UNIT_FILE).is_file()
    if unit_installed and probes.user not in (SERVICE_USER, "root") and str(path) != UNIT_STATE_DIR:
        return [Finding(WARN, "state", f"records and calibration in {path}, not the kiosk's {UNIT_STATE_DIR}",
                        f"check as the kiosk: sudo -u {SERVICE_USER} table-assistant doctor")]
    if not probes.exists(str(path)):
        return [Finding(OK, "state", f"records and calibration go to {path} ({source}); it is made at the "
                        "first start")]
    if not probes.can_use(str(path)):
        owner = f"sudo chown -R {SERVICE_USER}: {path}" if probes.user == SERVICE_USER else (
            f"choose a folder {probes.user} may write: --set app.state_dir=FOLDER")
        return [Finding(FAIL, "state", f"{probes.user} cannot write {path}", owner)]
    return [Finding(OK, "state", f"records and calibration in {path} ({source})")]


def check_power(probes: Probes, gpio: Mapping[str, Any]) -> list[Finding]:
    """A safe power-off: the kernel's gpio-shutdown button (systemd-logind powers off on it), or a
    Pi 5's own button. Off a Raspberry Pi, nothing is said."""
    model = _read(Path(probes.root, "proc/device-tree/model")).rstrip("\0")
    if not model.startswith("Raspberry Pi"):
        return []
    pins = shutdown_pins(probes.root)
    if not pins:
        if model.startswith("Raspberry Pi 5"):
            return [Finding(OK, "power", "the Pi 5's own power button shuts it down safely")]
        return [Finding(WARN, "power", "no safe power-off button: pulling the plug during a game may damage "
                        "the records", "wire a button from GPIO3 (header pin 5) to ground, then: "
                        "sudo ./systemd/install.sh --power-button 3, and reboot")]
    used = {pin: f"gpio.buttons.{name}" for name, pin in gpio["buttons"].items() if pin}
    used.update({gpio[k]: f"gpio.{k}" for k in ("led_ok", "led_alert", "buzzer") if gpio[k]})
    clashes = [f"GPIO{pin} is also {used[pin]}" for pin in pins if pin in used]
    if clashes:
        return [Finding(FAIL, "power", f"the power button (dtoverlay=gpio-shutdown): {'; '.join(clashes)}",
                        f"wire that part to another pin and set it in [gpio] in {CONFIG_FILE}")]
    return [Finding(OK, "power", f"power button on GPIO{', GPIO'.join(map(str, pins))}: it shuts the Pi down safely")]


def check_power_off(probes: Probes) -> list[Finding]:
    """The settings screen's Power off asks logind, which lets the kiosk's user (no root) do it
    only by the polkit rule that install.sh installs. Off a Raspberry Pi, nothing is said."""
    if not _read(Path(probes.root, "proc/device-tree/model")).startswith("Raspberry Pi"):
        return []
    if "org.freedesktop.login1.power-off" not in _read(Path(probes.root, POLKIT_RULE)):
        return [Finding(WARN, "polkit", "the settings screen's Power off will be refused: no polkit rule "
                        f"lets the kiosk's user power off (/{POLKIT_RULE})",
                        "sudo ./systemd/install.sh (it installs the rule)")]
    return [Finding(OK, "polkit", "the settings screen can power the Pi off (polkit rule in place)")]


def shutdown_pins(root: str = "/") -> list[int]:
    """The pins of dtoverlay=gpio-shutdown lines in the boot configuration."""
    for name in BOOT_CONFIGS:
        text = _read(Path(root, name))
        if text:
            break
    pins = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if re.match(r"dtoverlay\s*=\s*gpio-shutdown\b", line):
            pin = re.search(r"gpio_pin\s*=\s*(\d+)", line)
            pins.append(int(pin[1]) if pin else SHUTDOWN_OVERLAY_PIN)
    return pins


def _read(path: Path) -> str:
    try:
        return path.read_text("utf-8", "replace")
    except OSError:
        return ""


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


def kiosk_settings(settings, probes: Probes):
    """The settings as the kiosk has them: the unit sets app.state_dir to its StateDirectory, which
    doctor run as the kiosk's user (`sudo -u table-assistant`) would otherwise miss."""
    if settings["app.state_dir"] or probes.user != SERVICE_USER:
        return settings
    values = copy.deepcopy(settings.values)
    values["app"]["state_dir"] = UNIT_STATE_DIR
    return settings_mod.Settings(values, {**settings.sources, "app.state_dir": "the unit's StateDirectory"})


def diagnose(settings, probes: Probes) -> list[Finding]:
    settings = kiosk_settings(settings, probes)
    camera, frame = check_camera(probes, settings.section("camera"))
    return [
        *check_state(settings, probes),
        *camera,
        *check_empty_table(settings, frame),
        *check_gpio(probes, settings.section("gpio")),
        *check_power(probes, settings.section("gpio")),
        *check_power_off(probes),
        *check_serial(probes, settings.section("serial")),
        *check_display(probes),
        *check_touch(probes),
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
        "doctor", help="check what the kiosk will use (state, camera, GPIO, power button, serial panel, "
                       "screen, touchscreen) and the groups; say how to fix them")
    parser.set_defaults(run=run)


def run(args, settings, probes: Probes | None = None) -> int:
    probes = probes or Probes.of_this_machine()
    findings = diagnose(settings, probes)
    print(report(findings, probes.user))
    return 1 if any(f.level == FAIL for f in findings) else 0
