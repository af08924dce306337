"""The systemd unit, udev rules and install script agree with each other and with the settings."""
import configparser
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from assistant import settings as settings_mod

ROOT = Path(__file__).resolve().parents[2]
SYSTEMD = ROOT / "systemd"
INSTALL = (SYSTEMD / "install.sh").read_text()


def directives(name: str) -> list[str]:
    """Every value given to ``name`` in the unit (configparser keeps only the last)."""
    text = (SYSTEMD / "table-assistant.service").read_text()
    return re.findall(rf"^{name}=(.*)$", text, flags=re.MULTILINE)


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str
    parser.read(SYSTEMD / "table-assistant.service")
    return parser


def script_value(name: str) -> str:
    value = re.search(rf"^{name}=(.+)$", INSTALL, flags=re.MULTILINE).group(1)
    return re.sub(r"\$(\w+)", lambda m: script_value(m.group(1)), value)


def test_the_unit_is_a_watched_notify_service_that_always_restarts():
    service = unit()["Service"]
    assert service["Type"] == "notify"
    assert int(service["WatchdogSec"]) > 0
    assert service["Restart"] == "always"
    assert service["StateDirectory"] == "table-assistant"
    assert unit()["Unit"]["StartLimitIntervalSec"] == "0"


def test_the_unit_runs_what_the_install_script_installs_as_the_user_it_creates():
    service = unit()["Service"]
    assert service["ExecStart"] == f"{script_value('VENV')}/bin/table-assistant run"
    assert service["User"] == script_value("APP_USER") == "table-assistant"
    assert script_value("STATE_DIR") == "/var/lib/table-assistant"
    assert "Environment=TABLE_ASSISTANT__APP__STATE_DIR=%S/table-assistant" in (
        SYSTEMD / "table-assistant.service").read_text()


def test_lgpio_gets_a_writable_working_directory_and_doctor_the_units_state_directory():
    from assistant.commands import doctor
    service = unit()["Service"]
    assert service["RuntimeDirectory"] == "table-assistant"
    assert service["WorkingDirectory"] == "%t/table-assistant"  # /run/table-assistant, the kiosk's to write
    assert "Environment=LG_WD=%t/table-assistant" in (SYSTEMD / "table-assistant.service").read_text()
    assert doctor.UNIT_STATE_DIR == script_value("STATE_DIR")
    assert all(f"{name}={value}" in (SYSTEMD / "table-assistant.service").read_text()
               for name, value in doctor.UNIT_ENV.items())


def test_the_unit_leaves_the_drm_card_to_the_app():
    """Card numbers change between boots: the app picks the card of the connected screen."""
    assert "SDL_KMSDRM_DEVICE_INDEX=" not in (SYSTEMD / "table-assistant.service").read_text()


def test_the_video_group_may_switch_the_backlight():
    rules = (SYSTEMD / "99-table-assistant.rules").read_text()
    (line,) = [line for line in rules.splitlines() if line.startswith('SUBSYSTEM=="backlight"')]
    assert "chgrp video /sys%p/bl_power" in line and "chmod g+w /sys%p/bl_power" in line
    assert "--subsystem-match=backlight" in INSTALL


def test_the_state_dir_override_in_the_unit_is_a_real_setting():
    loaded = settings_mod.load(env={"TABLE_ASSISTANT__APP__STATE_DIR": "/var/lib/table-assistant"},
                               system_file=Path("/nonexistent"), user_path=Path("/nonexistent"))
    assert loaded["app.state_dir"] == "/var/lib/table-assistant"


def test_the_install_script_installs_files_that_exist():
    shipped = re.findall(r'"\$SRC/systemd/([\w.-]+)"', INSTALL)
    assert sorted(shipped) == ["99-table-assistant.rules", "table-assistant.modules.conf",
                               "table-assistant.polkit.rules", "table-assistant.service"]
    assert all((SYSTEMD / name).is_file() for name in shipped)


def test_the_install_script_adds_the_groups_the_doctor_checks():
    from assistant.commands import doctor
    groups = re.search(r"^GROUPS_NEEDED=\((.+)\)$", INSTALL, flags=re.MULTILINE).group(1).split()
    assert groups == list(doctor.GROUPS)
    assert "--system-site-packages" in INSTALL  # picamera2 and lgpio come from apt


def test_the_udev_names_are_the_ones_the_settings_and_docs_use():
    rules = (SYSTEMD / "99-table-assistant.rules").read_text()
    active = [line for line in rules.splitlines() if line and not line.startswith("#")]
    links = {re.search(r'SYMLINK\+="([^"]+)"', line).group(1) for line in active if "SYMLINK" in line}
    assert links == {"table-assistant-camera", "table-assistant-panel"}
    defaults = settings_mod.load(env={}, system_file=Path("/nonexistent"), user_path=Path("/nonexistent"))
    assert defaults["camera.device"] == "/dev/table-assistant-camera"
    assert "/dev/table-assistant-panel" in (ROOT / "docs" / "serial-protocol.md").read_text()


def test_the_install_script_is_valid_bash():
    subprocess.run(["bash", "-n", str(SYSTEMD / "install.sh")], check=True)


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_the_install_script_passes_shellcheck():
    result = subprocess.run(["shellcheck", str(SYSTEMD / "install.sh")], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_accepts_the_unit(tmp_path):
    # verify needs an existing program: stand /bin/true in for the app, which is not installed here
    text = (SYSTEMD / "table-assistant.service").read_text()
    copy = tmp_path / "table-assistant.service"
    copy.write_text(re.sub(r"^ExecStart=\S+", "ExecStart=/bin/true", text, flags=re.MULTILINE))
    result = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True)
    assert result.returncode == 0 and result.stderr == "", result.stderr


POWER_ACTIONS = {"org.freedesktop.login1.power-off", "org.freedesktop.login1.power-off-multiple-sessions",
                 "org.freedesktop.login1.reboot", "org.freedesktop.login1.reboot-multiple-sessions"}


def test_the_polkit_rule_names_the_kiosks_user_and_only_the_power_actions():
    rule = (SYSTEMD / "table-assistant.polkit.rules").read_text()
    assert set(re.findall(r'"(org\.freedesktop\.[\w.-]+)"', rule)) == POWER_ACTIONS
    assert re.findall(r'subject\.user === "([^"]+)"', rule) == [script_value("APP_USER")]
    assert "/etc/polkit-1/rules.d/50-table-assistant.rules" in INSTALL
    assert "polkitd" in INSTALL  # Raspberry Pi OS Lite may come without polkit


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_polkit_lets_the_kiosks_user_power_off_and_restart_and_nothing_more():
    """The rule run as polkit runs it: polkit.addRule(function (action, subject) {...})."""
    judge = """
const fs = require("fs"), vm = require("vm");
const rules = [];
const polkit = {Result: {YES: "yes", NO: "no", AUTH_ADMIN: "auth_admin"}, addRule: (rule) => rules.push(rule)};
vm.runInNewContext(fs.readFileSync(process.argv[1], "utf8"), {polkit}, {filename: process.argv[1]});
const asked = JSON.parse(process.argv[2]);
const answer = (user, id) => rules.map((rule) => rule({id}, {user})).find((r) => r !== undefined);
console.log(JSON.stringify(asked.map(([user, id]) => answer(user, id) ?? "polkit's default")));
"""
    others = ["org.freedesktop.login1.power-off-ignore-inhibit", "org.freedesktop.login1.suspend",
              "org.freedesktop.login1.halt", "org.freedesktop.systemd1.manage-units"]
    asked = ([["table-assistant", action] for action in sorted(POWER_ACTIONS) + others]
             + [["nobody", action] for action in sorted(POWER_ACTIONS)])
    done = subprocess.run(["node", "-e", judge, str(SYSTEMD / "table-assistant.polkit.rules"), json.dumps(asked)],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["yes"] * len(POWER_ACTIONS) + ["polkit's default"] * (len(others) + 4)


def test_the_locked_down_unit_still_reaches_what_the_kiosk_uses():
    service = unit()["Service"]
    # the idle blanker writes /sys/class/backlight/*/bl_power; gpiozero reads /proc/device-tree
    assert service.get("ProtectKernelTunables", "no") == "no" and service.get("ProcSubset", "all") == "all"
    # Power off: logind and polkit on the system bus; the watchdog: systemd's notify socket
    assert "AF_UNIX" in service["RestrictAddressFamilies"].split()
    assert service["DevicePolicy"] == "closed"
    kinds = {value.split()[0] for value in directives("DeviceAllow")}
    assert kinds == {"char-drm", "char-input", "char-video4linux", "char-media", "char-dma_heap", "char-gpiochip",
                     "char-ttyACM", "char-ttyUSB", "char-ttyAMA", "char-ttyS"}
    # a camera or panel plugged in after the start: its kind was known at the start
    modules = (SYSTEMD / "table-assistant.modules.conf").read_text().split("\n")
    assert {"videodev", "cdc_acm", "usbserial"} <= set(modules)
    assert service["SystemCallErrorNumber"] == "EPERM"  # a call outside the filter fails, without a kill
    assert service["UMask"] == "0077" and service["StateDirectoryMode"] == "0700"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_rates_the_unit_ok_or_better(tmp_path):
    text = (SYSTEMD / "table-assistant.service").read_text()
    copy = tmp_path / "table-assistant.service"
    copy.write_text(re.sub(r"^ExecStart=\S+", "ExecStart=/bin/true", text, flags=re.MULTILINE))
    result = subprocess.run(["systemd-analyze", "security", "--offline=yes", "--threshold=40", "--no-pager",
                             str(copy)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    assert "--threshold=40 table-assistant.service" in INSTALL  # install.sh checks the installed unit the same way
