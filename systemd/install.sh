#!/usr/bin/env bash
# Install Table Assistant as a kiosk on Raspberry Pi OS Bookworm, from this source tree:
#
#     sudo ./systemd/install.sh [--power-button GPIO] [--read-only RECORDS_PARTITION]
#
#   --power-button GPIO   a button between that GPIO (BCM number; 3 also wakes a halted Pi) and
#                         ground shuts the Pi down safely (dtoverlay=gpio-shutdown; reboot once)
#   --read-only PART      read-only root (an overlay spares the SD card), with the records on the
#                         ext4 partition PART (e.g. LABEL=records) mounted at /var/lib/table-assistant
#
# It installs the system packages, creates the user table-assistant with the groups it needs,
# puts the app in a virtual environment in /opt/table-assistant/venv, installs the udev rules,
# the polkit rule that lets that user power off and the locked-down systemd unit, enables the
# unit, checks the machine and (re)starts the kiosk, unless a desktop holds the screen until the
# next boot. Running it again (after a `git pull`, say) updates everything and changes nothing
# else. DESTDIR, when set, stands for / (the tests install into a folder, with stand-ins for the
# system's commands).
set -euo pipefail

APP_USER=table-assistant
PREFIX=/opt/table-assistant
VENV=$PREFIX/venv
STATE_DIR=/var/lib/table-assistant
CONFIG=/etc/table-assistant/config.toml
UNIT=/etc/systemd/system/table-assistant.service
GROUPS_NEEDED=(video render input gpio dialout)
MARK="table-assistant: written by its install.sh"
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=${DESTDIR:-}

usage() {
    echo "usage: sudo $0 [--power-button GPIO] [--read-only RECORDS_PARTITION]" >&2
    exit 2
}

power_pin=""
records=""
while [[ $# -gt 0 ]]; do
    case $1 in
        --power-button)
            [[ ${2:-} =~ ^[0-9]+$ && $2 -ge 1 && $2 -le 27 ]] || { echo "--power-button: a GPIO number, 1-27" >&2; usage; }
            power_pin=$2
            shift 2 ;;
        --read-only)
            [[ -n ${2:-} ]] || { echo "--read-only: the records partition, e.g. LABEL=records" >&2; usage; }
            records=$2
            shift 2 ;;
        *) usage ;;
    esac
done

step() { printf '\n== %s\n' "$*"; }

# Replace the lines between our marks in FILE by the rest of the arguments (none: remove them).
managed_block() {
    local file=$1
    shift
    local kept
    kept=$(sed "/^# >>> $MARK/,/^# <<< $MARK/d" "$file" 2>/dev/null || true)
    {
        [[ -z $kept ]] || printf '%s\n' "$kept"
        if [[ $# -gt 0 ]]; then
            printf '# >>> %s\n' "$MARK"
            printf '%s\n' "$@"
            printf '# <<< %s\n' "$MARK"
        fi
    } >"$file.new"
    mv "$file.new" "$file"
}

if [[ $EUID -ne 0 && -z $ROOT ]]; then
    echo "Run it as root: sudo $0" >&2
    exit 1
fi
if [[ $(awk '$2 == "/" {print $3}' "$ROOT/proc/mounts" 2>/dev/null) == overlay ]]; then
    echo "The root file system is read-only (an overlay): what is installed now would be gone at the next boot." >&2
    echo "Turn the overlay off, reboot and run this again: sudo raspi-config nonint do_overlayfs 1" >&2
    exit 1
fi
# shellcheck source=/dev/null
. "$ROOT/etc/os-release"
if [[ ${VERSION_CODENAME:-} != bookworm ]]; then
    echo "Note: this script is written for Raspberry Pi OS Bookworm; this is ${PRETTY_NAME:-unknown}."
fi
reboot_needed=""

step "System packages"
apt-get update
# python3-numpy: the numpy picamera2 is built for; the libraries: Kivy's screen (KMS/DRM, OpenGL ES)
# and touch input; polkitd: it lets the kiosk's user power off (below).
apt-get install -y --no-install-recommends \
    python3 python3-venv python3-pip python3-numpy \
    libgl1 libegl1 libgles2 libgbm1 libdrm2 libmtdev1 polkitd
# From Raspberry Pi's own repository: the camera library and the GPIO library gpiozero uses.
for package in python3-picamera2 python3-lgpio; do
    if apt-cache show "$package" >/dev/null 2>&1; then
        apt-get install -y --no-install-recommends "$package"
    else
        echo "$package is not available here: the Pi camera or the GPIO buttons will be off."
    fi
done

step "User $APP_USER"
if ! id -u "$APP_USER" >/dev/null 2>&1; then
    useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
        --shell /usr/sbin/nologin "$APP_USER"
fi
for group in "${GROUPS_NEEDED[@]}"; do
    if getent group "$group" >/dev/null; then
        usermod -aG "$group" "$APP_USER"
    else
        echo "No group $group on this system: skipped."
    fi
done

step "App in $VENV"
# System site packages make the apt-installed picamera2 and lgpio visible in the venv.
if [[ ! -x $ROOT$VENV/bin/python ]]; then
    python3 -m venv --system-site-packages "$ROOT$VENV"
fi
# Keep the system's numpy: picamera2 and its helpers from apt are compiled against it.
constraints=$(mktemp)
trap 'rm -f "$constraints"' EXIT
python3 -c 'import numpy; print(f"numpy=={numpy.__version__}")' >"$constraints"
"$ROOT$VENV/bin/pip" install --upgrade --constraint "$constraints" "$SRC"

step "Configuration"
if [[ ! -e $ROOT$CONFIG ]]; then
    install -d -m 0755 "$(dirname "$ROOT$CONFIG")"
    cat >"$ROOT$CONFIG" <<'TOML'
# This club's settings for Table Assistant. Every setting, with its default and a comment, is
# listed by `table-assistant config show`; set here only what differs, for example:
#
# [app]
# language = "fr"
#
# [serial]
# port = "auto"
TOML
fi

step "Device names and the backlight (udev)"
install -D -m 0644 "$SRC/systemd/99-table-assistant.rules" "$ROOT/etc/udev/rules.d/99-table-assistant.rules"
udevadm control --reload-rules
udevadm trigger --subsystem-match=tty --subsystem-match=video4linux --subsystem-match=backlight

step "Power off from the screen (polkit)"
install -D -m 0644 "$SRC/systemd/table-assistant.polkit.rules" "$ROOT/etc/polkit-1/rules.d/50-table-assistant.rules"

step "Screen"
# The kiosk draws on the screen itself: a desktop holds it until the next boot without one.
if [[ $(systemctl get-default) == graphical.target ]]; then
    systemctl set-default multi-user.target
    echo "The desktop no longer starts at boot (to undo: sudo systemctl set-default graphical.target)."
fi
if systemctl is-active --quiet display-manager.service; then
    reboot_needed="the desktop holds the screen"
fi

if [[ -n $power_pin ]]; then
    step "Power button on GPIO$power_pin"
    boot_config=$ROOT/boot/firmware/config.txt
    [[ -e $boot_config ]] || boot_config=$ROOT/boot/config.txt
    # The kernel turns the button into the power key, on which systemd-logind shuts down.
    managed_block "$boot_config" "[all]" "dtoverlay=gpio-shutdown,gpio_pin=$power_pin"
    reboot_needed="the power button works from the next boot"
fi

step "Service"
install -D -m 0644 "$SRC/systemd/table-assistant.service" "$ROOT$UNIT"
# The unit allows only the devices whose drivers are loaded when it starts: load these at boot.
install -D -m 0644 "$SRC/systemd/table-assistant.modules.conf" "$ROOT/etc/modules-load.d/table-assistant.conf"
systemctl restart systemd-modules-load.service
if [[ -n $records ]]; then
    install -d -m 0755 "$ROOT$STATE_DIR" "$ROOT$UNIT.d"
    managed_block "$ROOT/etc/fstab" "$records $STATE_DIR ext4 defaults,noatime 0 2"
    printf '[Unit]\n# The records are on their own partition: never write them to the overlay.\nRequiresMountsFor=%s\n' \
        "$STATE_DIR" >"$ROOT$UNIT.d/records.conf"
fi
systemctl daemon-reload
systemctl enable table-assistant.service
systemctl stop table-assistant.service  # frees the camera and the panel for the checks below

if [[ -n $records ]]; then
    step "Read-only root, records on $records"
    mountpoint -q "$ROOT$STATE_DIR" || mount "$ROOT$STATE_DIR" ||
        { echo "Cannot mount $records on $STATE_DIR: make it an ext4 partition first (mkfs.ext4 -L records ...)." >&2; exit 1; }
    raspi-config nonint do_overlayfs 0
    reboot_needed="the root file system is read-only from the next boot"
fi

step "Checks"
# 40: an exposure of 4.0, "OK"; more means the unit's locks were loosened (a drop-in, say).
systemd-analyze security --threshold=40 table-assistant.service >/dev/null ||
    echo "table-assistant.service is less locked down than it should be: systemd-analyze security table-assistant.service"
runuser -u "$APP_USER" -- "$ROOT$VENV/bin/table-assistant" doctor ||
    echo "The kiosk starts all the same; fix the above and run: sudo systemctl restart table-assistant"

if [[ -n $reboot_needed ]]; then
    step "Reboot to start the kiosk ($reboot_needed)"
    echo "The kiosk starts at the next boot: sudo reboot"
else
    step "Starting the kiosk"
    systemctl start table-assistant.service
fi
echo "Done. Logs: journalctl -u table-assistant -f"
