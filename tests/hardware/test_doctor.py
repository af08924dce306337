"""`table-assistant doctor` with injected probes: each problem is named with the command that fixes it."""
import dataclasses
import os
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from assistant import settings as settings_mod
from assistant.commands import doctor
from fake_pi import connector, pi5_with_dsi, touchscreen
from vision.capture import Attempt, CaptureError

REPO = Path(__file__).resolve().parents[2]

NOWHERE = Path("/nonexistent/table-assistant.toml")
ALL_GROUPS = {"video", "render", "input", "gpio", "dialout"}
BY_ID = "/dev/serial/by-id/usb-Club_Table_Panel_0001-if00"


@pytest.fixture(autouse=True)
def learnt_table(tmp_path, monkeypatch):
    """The kiosk's state directory, where the empty table has been learnt."""
    from vision.dice_background import TableBackground
    TableBackground(np.zeros((720, 1280), np.uint8)).save(tmp_path / "state" / "dice-background.png")
    monkeypatch.setattr(f"{__name__}.STATE", str(tmp_path / "state"))


@pytest.fixture(autouse=True)
def pi(tmp_path, monkeypatch):
    """The machine's files: a Pi 4 with the DSI touchscreen and a power button on GPIO3."""
    root = tmp_path / "pi"
    connector(root, 0, "HDMI-A-1", "disconnected")
    connector(root, 0, "DSI-1")
    touchscreen(root, 4)
    model(root, "Raspberry Pi 4 Model B Rev 1.5")
    boot_config(root, "dtoverlay=vc4-kms-v3d\ndtoverlay=gpio-shutdown\n")
    rule = root / doctor.POLKIT_RULE
    rule.parent.mkdir(parents=True)
    rule.write_text((REPO / "systemd/table-assistant.polkit.rules").read_text())
    monkeypatch.setattr(f"{__name__}.ROOT", str(root))
    return root


def model(root, name):
    (root / "proc/device-tree").mkdir(parents=True, exist_ok=True)
    (root / "proc/device-tree/model").write_text(name + "\0")


def boot_config(root, text):
    (root / "boot/firmware").mkdir(parents=True, exist_ok=True)
    (root / "boot/firmware/config.txt").write_text("[all]\n" + text)


STATE = ""
ROOT = ""


def settings(**overrides):
    values = {"serial.port": BY_ID, "app.state_dir": STATE, **overrides}
    return settings_mod.load(overrides={k: str(v) for k, v in values.items()}, env={},
                             system_file=NOWHERE, user_path=NOWHERE)


def healthy(**changes) -> doctor.Probes:
    """A Raspberry Pi where everything is in place."""
    devices = {
        "/dev/gpiochip*": ["/dev/gpiochip0"],
        "/dev/serial/by-id/*": [BY_ID],
    }
    probes = doctor.Probes(
        user="kiosk", env={}, process_groups=set(ALL_GROUPS), account_groups=set(ALL_GROUPS),
        existing_groups=ALL_GROUPS | {"sudo"},
        glob=lambda pattern: devices.get(pattern, []),
        exists=lambda path: path in {BY_ID, "/dev/ttyACM0"},
        realpath=lambda path: "/dev/ttyACM0" if path in {BY_ID, "/dev/ttyACM0"} else path,
        can_use=lambda path: True,
        camera_frame=lambda config: ("V4L2 camera /dev/video0", np.zeros((720, 1280, 3), np.uint8)),
        load_gpio=lambda: ("LGPIOFactory", []),
        panel_hello=lambda port, baud: "big-panel 2.0.1 (protocol 1)",
        root=ROOT,
    )
    return dataclasses.replace(probes, **changes)


def findings(area, probes, **overrides):
    return [f for f in doctor.diagnose(settings(**overrides), probes) if f.area == area]


def only(area, probes, **overrides):
    (finding,) = findings(area, probes, **overrides)
    return finding


def test_a_healthy_pi_passes_every_check(capsys):
    assert doctor.run(None, settings(), healthy()) == 0
    out = capsys.readouterr().out
    for area in ("state", "camera", "table", "gpio", "power", "serial", "display", "touch", "groups"):
        assert f"ok    {area}" in out
    assert "panel on /dev/serial/by-id/usb-Club_Table_Panel_0001-if00: big-panel 2.0.1" in out
    assert "confirm GPIO17" in out and out.rstrip().endswith("Everything is ready.")


def test_problems_print_their_fix_and_exit_1(capsys):
    probes = healthy(account_groups={"video"}, process_groups={"video"})
    assert doctor.run(None, settings(), probes) == 1
    out = capsys.readouterr().out
    assert "FAIL  groups" in out and "fix: sudo usermod -aG render,input,gpio,dialout kiosk" in out
    assert "1 to fix, 0 warning(s)." in out


def test_missing_groups_are_named_with_their_use():
    finding = only("groups", healthy(account_groups={"video", "render"}, process_groups={"video", "render"},
                                     existing_groups=ALL_GROUPS - {"gpio"}))
    assert finding.level == doctor.FAIL
    assert "not in input, dialout (input: the touchscreen; dialout: the serial panel)" in finding.message
    assert finding.fix == "sudo usermod -aG input,dialout kiosk, then log out and in again"


def test_a_group_added_but_not_yet_active_asks_for_a_new_login():
    finding = only("groups", healthy(process_groups=ALL_GROUPS - {"dialout"}))
    assert finding.level == doctor.WARN and "dialout" in finding.message
    assert "log out and in again" in finding.fix


def test_groups_that_this_system_does_not_have_are_not_asked_for():
    finding = only("groups", healthy(existing_groups=ALL_GROUPS - {"gpio"}, account_groups=ALL_GROUPS - {"gpio"}))
    assert finding.level == doctor.OK and "gpio does not exist on this system" in finding.message


def test_root_is_pointed_to_the_service_user():
    finding = only("groups", healthy(user="root", account_groups=set(), process_groups=set()))
    assert finding.level == doctor.OK and "sudo -u table-assistant table-assistant doctor" in finding.message


def test_a_camera_failure_lists_every_attempt_with_its_fix():
    def fail(config):
        raise CaptureError([Attempt("Raspberry Pi camera (picamera2)", "no camera detected", "check the ribbon cable"),
                            Attempt("V4L2 camera /dev/video0", "permission denied", "sudo usermod -aG video $USER")])
    found = findings("camera", healthy(camera_frame=fail))
    assert [(f.level, f.message, f.fix) for f in found] == [
        (doctor.FAIL, "Raspberry Pi camera (picamera2): no camera detected", "check the ribbon cable"),
        (doctor.FAIL, "V4L2 camera /dev/video0: permission denied", "sudo usermod -aG video $USER"),
    ]
    table = only("table", healthy(camera_frame=fail))
    assert table.level == doctor.OK and table.message.endswith("no camera frame to compare it with")


def test_the_camera_is_opened_once_for_both_the_camera_and_the_table_checks(capsys):
    opened = []

    def camera_frame(config):
        opened.append(config["source"])
        return "V4L2 camera /dev/video0", np.zeros((720, 1280, 3), np.uint8)

    assert doctor.run(None, settings(), healthy(camera_frame=camera_frame)) == 0
    out = capsys.readouterr().out
    assert "camera   V4L2 camera /dev/video0 gives 1280x720 frames" in out
    assert "table    the empty table is learnt (1280x720 frames" in out
    assert len(opened) == 1


def test_camera_turned_off_and_camera_settings_that_cannot_work():
    assert only("camera", healthy(), **{"camera.source": "none"}).level == doctor.OK
    real = healthy(camera_frame=doctor._camera_frame)
    finding = only("camera", real, **{"camera.source": "synthetic"})
    assert finding.level == doctor.FAIL and "needs a scene renderer" in finding.message
    assert "[camera]" in finding.fix


def test_the_real_camera_probe_reads_one_frame_of_a_recording(tmp_path):
    import cv2
    import numpy as np
    cv2.imwrite(str(tmp_path / "table.png"), np.zeros((30, 40, 3), np.uint8))
    finding = only("camera", healthy(camera_frame=doctor._camera_frame),
                   **{"camera.source": "images", "camera.path": str(tmp_path)})
    assert finding.level == doctor.OK and finding.message.endswith("gives 40x30 frames")


@pytest.mark.parametrize("changes, level, message, fix", [
    ({"glob": lambda p: []}, doctor.WARN, "no GPIO chip", ""),
    ({"can_use": lambda p: not p.startswith("/dev/gpiochip")}, doctor.FAIL, "cannot use /dev/gpiochip0",
     "sudo usermod -aG gpio kiosk"),
    ({"load_gpio": lambda: (_ for _ in ()).throw(ImportError("No module named 'lgpio'"))}, doctor.FAIL,
     "no pin library: No module named 'lgpio'", "sudo apt install python3-lgpio"),
    ({"load_gpio": lambda: (_ for _ in ()).throw(ImportError(
        "Unable to load any default pin factory!; Falling back from lgpio: [Errno 2] No such file or directory: "
        "'.lgd-nfy-3'; Falling back from native: unable to locate Pi revision"))}, doctor.FAIL,
     "'.lgd-nfy-3'", "notification pipe in the working directory"),
    ({"load_gpio": lambda: ("NativeFactory", ["Falling back from lgpio: [Errno 2] No such file or directory: "
                                              "'.lgd-nfy-3'"])}, doctor.WARN,
     "only through gpiozero's fallback NativeFactory (Falling back from lgpio", "(the unit runs in /run/table-assistant)"),
])
def test_gpio_problems(changes, level, message, fix):
    finding = only("gpio", healthy(**changes))
    assert finding.level == level and message in finding.message and fix in finding.fix


def test_gpio_off_and_gpio_settings_that_clash():
    assert only("gpio", healthy(), **{"gpio.enabled": "false"}).message.startswith("off")
    finding = only("gpio", healthy(), **{"gpio.buzzer": "17"})
    assert finding.level == doctor.FAIL and "GPIO17 is already used" in finding.message


def test_serial_panel_problems():
    assert only("serial", healthy(), **{"serial.port": ""}).level == doctor.OK
    none_plugged = only("serial", healthy(glob=lambda p: []), **{"serial.port": "auto"})
    assert none_plugged.level == doctor.FAIL and "no USB serial device is plugged in" in none_plugged.message
    two = healthy(glob=lambda p: [BY_ID, "/dev/serial/by-id/usb-Modem-if00"] if "serial" in p else ["x"])
    assert "several devices" in only("serial", two, **{"serial.port": "auto"}).message
    assert only("serial", healthy(), **{"serial.port": "auto"}).level == doctor.OK
    missing = only("serial", healthy(), **{"serial.port": "/dev/ttyUSB7"})
    assert missing.level == doctor.FAIL and f"devices in /dev/serial/by-id: {BY_ID}" in missing.message
    locked = only("serial", healthy(can_use=lambda p: p != BY_ID))
    assert locked.fix.startswith("sudo usermod -aG dialout kiosk")
    silent = only("serial", healthy(panel_hello=lambda port, baud: (_ for _ in ()).throw(OSError("no HELLO"))))
    assert silent.level == doctor.FAIL and "115200 baud" in silent.fix


def test_an_unstable_tty_name_gets_its_stable_by_id_name():
    warn, ok = findings("serial", healthy(), **{"serial.port": "/dev/ttyACM0"})
    assert warn.level == doctor.WARN and warn.fix == f'set serial.port = "{BY_ID}" in /etc/table-assistant/config.toml'
    assert ok.level == doctor.OK


def test_the_real_serial_probe_talks_to_a_panel(pty_panel):
    def answer():
        pty_panel.receive("HELLO")
        pty_panel.send("HELLO 1 pty-panel fw-9")
    responder = threading.Thread(target=answer)
    responder.start()
    probes = healthy(panel_hello=doctor._panel_hello, exists=lambda p: True, glob=lambda p: [])
    finding = only("serial", probes, **{"serial.port": str(pty_panel.link)})
    responder.join()
    assert finding.level == doctor.OK and finding.message.endswith("pty-panel fw-9 (protocol 1)")


@pytest.mark.parametrize("changes, level, message, fix", [
    ({"env": {"WAYLAND_DISPLAY": "wayland-1"}}, doctor.OK, "WAYLAND_DISPLAY=wayland-1", ""),
    ({"root": "/nonexistent"}, doctor.FAIL, "no screen device", "vc4-kms-v3d"),
    ({"can_use": lambda p: "dri" not in p}, doctor.FAIL, "cannot use /dev/dri/card0", "sudo usermod -aG video,render kiosk"),
    ({"env": {"SDL_KMSDRM_DEVICE_INDEX": "1"}}, doctor.FAIL, "SDL_KMSDRM_DEVICE_INDEX=1 sends SDL to card1, but the "
     "screen is on card0-DSI-1", "unset SDL_KMSDRM_DEVICE_INDEX"),
    ({}, doctor.OK, "screen card0-DSI-1: the kiosk draws on /dev/dri/card0 (SDL_KMSDRM_DEVICE_INDEX=0)", ""),
])
def test_display_problems(changes, level, message, fix):
    finding = only("display", healthy(**changes))
    assert finding.level == level and message in finding.message and fix in finding.fix


def test_a_screen_that_is_not_connected_is_said_with_the_state_of_each_connector(tmp_path):
    connector(tmp_path, 0, "HDMI-A-1", "disconnected")
    finding = only("display", healthy(root=str(tmp_path)))
    assert finding.level == doctor.FAIL and finding.message == "no screen is connected (card0-HDMI-A-1 disconnected)"


def test_on_a_pi5_the_card_of_the_dsi_screen_is_found_whatever_its_number(tmp_path):
    pi5_with_dsi(tmp_path)
    finding = only("display", healthy(root=str(tmp_path)))
    assert finding.level == doctor.OK and "the kiosk draws on /dev/dri/card2 (SDL_KMSDRM_DEVICE_INDEX=2)" in finding.message
    stale = only("display", healthy(root=str(tmp_path), env={"SDL_KMSDRM_DEVICE_INDEX": "0"}))
    assert stale.level == doctor.FAIL and "card numbers change between boots" in stale.message


def test_the_kiosks_user_is_checked_as_the_unit_runs_it_on_the_screen_even_from_a_desktop():
    finding = only("display", healthy(user="table-assistant", env={"DISPLAY": ":0"}))
    assert finding.message.startswith("screen card0-DSI-1")
    assert "read by Kivy's mtdev" in only("touch", healthy(user="table-assistant", env={"DISPLAY": ":0"})).message


@pytest.mark.parametrize("changes, level, message, fix", [
    ({}, doctor.OK, "generic ft5x06 (79) (%s/dev/input/event4) read by Kivy's mtdev, and SDL makes no mouse "
     "events of it: a tap is one touch", ""),
    ({"env": {"DISPLAY": ":0"}}, doctor.OK, "reaches the kiosk as the desktop's pointer only", ""),
    ({"can_use": lambda p: "input" not in p}, doctor.FAIL, "cannot read the touchscreen generic ft5x06 (79)",
     "sudo usermod -aG input kiosk"),
    ({"root": "/nonexistent"}, doctor.WARN, "no touchscreen", "connect the touchscreen"),
])
def test_touchscreen_problems(changes, level, message, fix):
    finding = only("touch", healthy(**changes))
    assert finding.level == level and message.replace("%s", ROOT) in finding.message and fix in finding.fix


@pytest.mark.parametrize("config, pi_model, level, message", [
    ("dtoverlay=gpio-shutdown,gpio_pin=21\n", "Raspberry Pi 4 Model B", doctor.OK, "power button on GPIO21"),
    ("dtoverlay=gpio-shutdown,gpio_pin=17\n", "Raspberry Pi 4 Model B", doctor.FAIL,
     "GPIO17 is also gpio.buttons.confirm"),
    ("# dtoverlay=gpio-shutdown\n", "Raspberry Pi 4 Model B", doctor.WARN, "no safe power-off button"),
    ("", "Raspberry Pi 5 Model B Rev 1.0", doctor.OK, "the Pi 5's own power button"),
])
def test_the_power_button(pi, config, pi_model, level, message):
    boot_config(pi, config)
    model(pi, pi_model)
    finding = only("power", healthy())
    assert finding.level == level and message in finding.message
    if level == doctor.WARN:
        assert "sudo ./systemd/install.sh --power-button 3" in finding.fix


def test_the_screens_power_off_needs_the_polkit_rule(pi):
    assert only("polkit", healthy()).level == doctor.OK
    (pi / doctor.POLKIT_RULE).unlink()
    finding = only("polkit", healthy())
    assert finding.level == doctor.WARN and "Power off will be refused" in finding.message
    assert "sudo ./systemd/install.sh" in finding.fix


def test_no_power_check_off_a_pi():
    assert findings("power", healthy(root="/nonexistent")) == []


def test_the_kiosks_user_reads_the_units_state_directory_where_calibration_was_done(monkeypatch, tmp_path):
    """`sudo -u table-assistant table-assistant doctor`, as the docs say, lacks the unit's
    TABLE_ASSISTANT__APP__STATE_DIR: it must still look in /var/lib/table-assistant."""
    monkeypatch.setattr(doctor, "UNIT_STATE_DIR", STATE)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "elsewhere"))
    kiosk = healthy(user="table-assistant", exists=lambda p: True)
    assert only("table", kiosk, **{"app.state_dir": ""}).message.startswith("the empty table is learnt")
    state = only("state", kiosk, **{"app.state_dir": ""})
    assert state.level == doctor.OK and state.message == f"records and calibration in {STATE} (the unit's StateDirectory)"
    assert "not learnt" in only("table", healthy(), **{"app.state_dir": ""}).message  # another user: its own


def test_another_user_is_pointed_to_the_kiosks_state_directory(pi):
    (pi / "etc/systemd/system").mkdir(parents=True)
    (pi / "etc/systemd/system/table-assistant.service").touch()
    finding = only("state", healthy(user="pi"), **{"app.state_dir": ""})
    assert finding.level == doctor.WARN and "not the kiosk's /var/lib/table-assistant" in finding.message
    assert finding.fix == "check as the kiosk: sudo -u table-assistant table-assistant doctor"


def test_a_state_directory_that_cannot_be_written_is_said_with_its_fix():
    locked = only("state", healthy(user="table-assistant", exists=lambda p: True, can_use=lambda p: False),
                  **{"app.state_dir": ""})
    assert locked.level == doctor.FAIL and locked.fix == "sudo chown -R table-assistant: /var/lib/table-assistant"
    fresh = only("state", healthy(exists=lambda p: False))
    assert fresh.level == doctor.OK and fresh.message.endswith("it is made at the first start")


FAKE_LGPIO = """
import os
# as lgpio does on import: the C side makes the pipe in LG_WD or the working directory (-3 when it
# cannot), the Python side opens it relative to the working directory
try:
    os.mkfifo(".lgd-nfy0")
    _notify = 0
except OSError:
    _notify = -3
os.close(os.open(f".lgd-nfy{_notify}", os.O_RDONLY | os.O_NONBLOCK))
"""


@pytest.fixture
def lgpio_on_this_machine(tmp_path, monkeypatch):
    """gpiozero's real fallback, with an lgpio that behaves as lgpio does about its pipe."""
    from gpiozero import Device
    (tmp_path / "fake-lgpio").mkdir()
    (tmp_path / "fake-lgpio" / "lgpio.py").write_text(FAKE_LGPIO)
    monkeypatch.syspath_prepend(str(tmp_path / "fake-lgpio"))
    for name in ("lgpio", "gpiozero.pins.lgpio"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.chdir("/proc")  # not writable, even by root: as / is for the kiosk's user
    yield
    for name in ("lgpio", "gpiozero.pins.lgpio"):
        sys.modules.pop(name, None)
    Device.pin_factory = None


def test_lgpio_in_an_unwritable_working_directory_is_named_as_the_cause(lgpio_on_this_machine):
    from gpiozero.exc import BadPinFactory
    from hardware.gpio import explain, load_pin_factory
    with pytest.raises(BadPinFactory) as failed:
        load_pin_factory()
    assert "Falling back from lgpio: [Errno 2] No such file or directory: '.lgd-nfy-3'" in str(failed.value)
    assert "in the working directory (/proc)" in explain(str(failed.value))


def test_doctor_loads_the_pin_factory_from_a_writable_directory_as_the_unit_does(lgpio_on_this_machine):
    finding = only("gpio", healthy(load_gpio=doctor._load_gpio))
    # lgpio got its pipe and failed further on, where this machine has no GPIO for it
    assert "Falling back from lgpio: module 'lgpio' has no attribute" in finding.message
    assert ".lgd-nfy" not in finding.message
    assert os.getcwd() == "/proc"


def test_the_probes_of_this_machine_work_here(capsys):
    probes = doctor.Probes.of_this_machine()
    assert probes.user and probes.existing_groups
    code = doctor.run(None, settings(**{"serial.port": "", "camera.source": "none"}), probes)
    out = capsys.readouterr().out
    assert code in (0, 1) and all(area in out for area in ("camera", "gpio", "serial", "display", "groups"))


def test_the_empty_table_not_learnt_or_unreadable_is_said_with_the_command(tmp_path):
    finding = only("table", healthy(), **{"app.state_dir": tmp_path / "new"})
    assert finding.level == doctor.WARN and "not learnt" in finding.message
    assert finding.fix.endswith("table-assistant calibrate dice-background")
    (tmp_path / "dice-background.png").write_text("scribbles")
    finding = only("table", healthy(), **{"app.state_dir": tmp_path})
    assert finding.level == doctor.FAIL and "dice-background.png: not an image" in finding.message
    assert only("table", healthy()).message.startswith("the empty table is learnt (1280x720 frames")
    assert findings("table", healthy(), **{"camera.source": "none"}) == []


def test_a_camera_or_mat_moved_since_the_empty_table_was_learnt_is_said_with_the_command(tmp_path):
    import cv2

    from vision.dice_background import TableBackground

    rng = np.random.default_rng(5)
    table = cv2.resize(rng.integers(0, 255, (45, 80, 3), np.uint8), (1280, 720), interpolation=cv2.INTER_NEAREST)
    TableBackground.from_frames([table]).save(tmp_path / "dice-background.png")

    def seen(frame):
        return only("table", healthy(camera_frame=lambda config: ("camera", frame)), **{"app.state_dir": tmp_path})

    assert seen(table).level == doctor.OK and "still sees it in place" in seen(table).message
    moved = seen(np.roll(table, (40, 64), axis=(0, 1)))
    assert moved.level == doctor.WARN and "has moved since" in moved.message
    assert moved.fix.endswith("table-assistant calibrate dice-background")
    resized = seen(cv2.resize(table, (640, 360)))
    assert resized.level == doctor.WARN and resized.message.endswith("but the camera now gives 640x360 frames")

    def unplugged(config):
        raise CaptureError([Attempt("V4L2 camera /dev/video0", "not found", "plug it in")])

    finding = only("table", healthy(camera_frame=unplugged), **{"app.state_dir": tmp_path})
    assert finding.level == doctor.OK and "no camera frame" in finding.message


def test_the_table_is_compared_with_a_frame_from_the_configured_camera(tmp_path):
    import cv2

    (tmp_path / "recording").mkdir()
    cv2.imwrite(str(tmp_path / "recording" / "table.png"), np.full((90, 160, 3), 77, np.uint8))
    name, frame = doctor._camera_frame(settings(**{"camera.source": "images", "camera.path": tmp_path / "recording"})
                                       .section("camera"))
    assert str(tmp_path / "recording") in name and frame.shape == (90, 160, 3) and frame[0, 0, 0] == 77
