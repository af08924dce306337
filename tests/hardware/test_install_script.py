"""systemd/install.sh run into a fake root (DESTDIR), with stand-ins for the system's commands that
write down how they were called: twice gives the same files, a desktop is left the screen until
the reboot, the power button and the read-only root are set once however often it runs, the
kiosk's user may power off, and the unit's lock-down is checked."""
import hashlib
import os
import stat
import subprocess
from pathlib import Path

import pytest

ROOT_DIR = Path(__file__).resolve().parents[2]
INSTALL = ROOT_DIR / "systemd" / "install.sh"

STUBS = {
    # the fake machine keeps its state in $FAKE (the default target, the users, what is active)
    "apt-get": "",
    "apt-cache": "",
    "getent": "",
    "usermod": "",
    "udevadm": "",
    "runuser": 'while [ "$1" != "--" ]; do shift; done; shift; "$@"',
    "raspi-config": "",
    "mount": "",
    "mountpoint": "exit 1",
    "systemd-analyze": '[ ! -e "$FAKE/unit-loosened" ]',
    "id": 'grep -qx "$2" "$FAKE/users" 2>/dev/null',
    "useradd": 'echo "${!#}" >>"$FAKE/users"',
    "systemctl": """case $1 in
    get-default) cat "$FAKE/default-target" ;;
    set-default) echo "$2" >"$FAKE/default-target" ;;
    is-active) [ -e "$FAKE/desktop-running" ] ;;
esac""",
    "python3": """case $1 in
    -m) mkdir -p "$4/bin"; for tool in python pip table-assistant; do
            printf '#!/bin/sh\\necho "%s $*" >>"$FAKE/calls"\\n' "$tool" >"$4/bin/$tool"; chmod +x "$4/bin/$tool"
        done ;;
    -c) echo "numpy==1.24.2" ;;
esac""",
}


@pytest.fixture
def machine(tmp_path):
    root, fake, bin_dir = tmp_path / "root", tmp_path / "fake", tmp_path / "bin"
    for folder in (root / "etc", root / "proc", root / "boot/firmware", fake, bin_dir):
        folder.mkdir(parents=True)
    (root / "etc/os-release").write_text('VERSION_CODENAME=bookworm\nPRETTY_NAME="Raspberry Pi OS"\n')
    (root / "etc/fstab").write_text("proc /proc proc defaults 0 0\nPARTUUID=1-02 / ext4 defaults,noatime 0 1\n")
    (root / "proc/mounts").write_text("/dev/mmcblk0p2 / ext4 rw 0 0\n")
    (root / "boot/firmware/config.txt").write_text("[all]\ndtoverlay=vc4-kms-v3d\n[cm4]\notg_mode=1\n")
    (fake / "default-target").write_text("multi-user.target\n")
    for name, body in STUBS.items():
        path = bin_dir / name
        path.write_text(f'#!/bin/bash\necho "{name} $*" >>"$FAKE/calls"\n{body}\n')
        path.chmod(path.stat().st_mode | stat.S_IEXEC)

    class Machine:
        def __init__(self):
            self.root, self.fake = root, fake

        def install(self, *options, expect=0):
            env = dict(os.environ, DESTDIR=str(root), FAKE=str(fake), PATH=f"{bin_dir}:{os.environ['PATH']}")
            (fake / "calls").write_text("")
            done = subprocess.run(["bash", str(INSTALL), *options], env=env, capture_output=True, text=True,
                                  timeout=60)
            assert done.returncode == expect, done.stdout + done.stderr
            self.calls = (fake / "calls").read_text().splitlines()
            return done.stdout + done.stderr

        def files(self):
            return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
                    for p in sorted(root.rglob("*")) if p.is_file()}
    return Machine()


def test_a_second_run_changes_no_file_and_starts_the_kiosk_again(machine):
    machine.install()
    first = machine.files()
    assert {"etc/systemd/system/table-assistant.service", "etc/udev/rules.d/99-table-assistant.rules",
            "etc/polkit-1/rules.d/50-table-assistant.rules", "etc/modules-load.d/table-assistant.conf",
            "etc/table-assistant/config.toml", "opt/table-assistant/venv/bin/table-assistant"} <= set(first)
    assert "systemctl start table-assistant.service" in machine.calls
    assert "table-assistant doctor" in machine.calls
    machine.install()
    assert machine.files() == first
    assert sum(call.startswith("useradd") for call in machine.calls) == 0  # the user is there already
    assert "systemctl start table-assistant.service" in machine.calls


def test_the_kiosks_user_may_power_off_and_the_locked_down_unit_is_checked(machine):
    out = machine.install()
    rule = machine.root / "etc/polkit-1/rules.d/50-table-assistant.rules"
    assert rule.read_bytes() == (ROOT_DIR / "systemd/table-assistant.polkit.rules").read_bytes()
    assert stat.S_IMODE(rule.stat().st_mode) == 0o644  # polkitd reads it as its own user
    modules = machine.root / "etc/modules-load.d/table-assistant.conf"
    assert "cdc_acm" in modules.read_text().split() and stat.S_IMODE(modules.stat().st_mode) == 0o644
    assert "systemctl restart systemd-modules-load.service" in machine.calls
    assert "systemd-analyze security --threshold=40 table-assistant.service" in machine.calls
    assert "less locked down" not in out
    (machine.fake / "unit-loosened").touch()  # e.g. a drop-in that turns the locks off
    assert "table-assistant.service is less locked down than it should be" in machine.install()
    assert "systemctl start table-assistant.service" in machine.calls


def test_on_a_desktop_the_kiosk_waits_for_the_reboot(machine):
    (machine.fake / "default-target").write_text("graphical.target\n")
    (machine.fake / "desktop-running").touch()
    out = machine.install()
    assert "systemctl set-default multi-user.target" in machine.calls
    assert "systemctl enable table-assistant.service" in machine.calls
    assert "systemctl start table-assistant.service" not in machine.calls
    assert "Reboot to start the kiosk (the desktop holds the screen)" in out
    machine.install()  # again before the reboot: the desktop still holds the screen
    assert "systemctl start table-assistant.service" not in machine.calls


def test_the_power_button_is_set_once_for_every_pi_however_often_it_runs(machine):
    machine.install("--power-button", "3")
    machine.install("--power-button", "21")
    config = (machine.root / "boot/firmware/config.txt").read_text()
    assert config.count("gpio-shutdown") == 1 and "[cm4]\notg_mode=1\n" in config
    assert config.endswith("[all]\ndtoverlay=gpio-shutdown,gpio_pin=21\n# <<< table-assistant: written by its install.sh\n")
    from assistant.commands.doctor import shutdown_pins
    assert shutdown_pins(str(machine.root)) == [21]
    assert "systemctl start table-assistant.service" not in machine.calls  # it works from the next boot
    machine.install()
    assert shutdown_pins(str(machine.root)) == [21]


def test_read_only_root_keeps_the_records_on_their_partition(machine):
    machine.install("--read-only", "LABEL=records")
    machine.install("--read-only", "LABEL=records")
    fstab = (machine.root / "etc/fstab").read_text()
    assert fstab.count("LABEL=records /var/lib/table-assistant ext4 defaults,noatime 0 2") == 1
    assert fstab.startswith("proc /proc proc defaults 0 0\nPARTUUID=1-02 / ext4")
    drop_in = (machine.root / "etc/systemd/system/table-assistant.service.d/records.conf").read_text()
    assert "RequiresMountsFor=/var/lib/table-assistant" in drop_in
    assert f"mount {machine.root}/var/lib/table-assistant" in machine.calls
    assert "raspi-config nonint do_overlayfs 0" in machine.calls
    assert "systemctl start table-assistant.service" not in machine.calls


def test_on_a_read_only_root_it_refuses_to_install_into_the_overlay(machine):
    (machine.root / "proc/mounts").write_text("overlay / overlay rw 0 0\n")
    out = machine.install(expect=1)
    assert "sudo raspi-config nonint do_overlayfs 1" in out and machine.calls == []


@pytest.mark.parametrize("options", [["--power-button", "40"], ["--power-button"], ["--read-only"], ["--now"]])
def test_options_that_cannot_work_are_refused(machine, options):
    assert "usage: sudo" in machine.install(*options, expect=2)
