#!/usr/bin/env bash
# Install Table Assistant as a kiosk on Raspberry Pi OS Bookworm, from this source tree:
#
#     sudo ./systemd/install.sh
#
# It installs the system packages, creates the user table-assistant with the groups it needs,
# puts the app in a virtual environment in /opt/table-assistant/venv, installs the udev rules
# and the systemd unit, enables the unit, checks the machine and (re)starts the kiosk.
# Running it again (after a `git pull`, say) updates everything and changes nothing else.
set -euo pipefail

APP_USER=table-assistant
PREFIX=/opt/table-assistant
VENV=$PREFIX/venv
STATE_DIR=/var/lib/table-assistant
CONFIG=/etc/table-assistant/config.toml
GROUPS_NEEDED=(video render input gpio dialout)
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

step() { printf '\n== %s\n' "$*"; }

if [[ $EUID -ne 0 ]]; then
    echo "Run it as root: sudo $0" >&2
    exit 1
fi
# shellcheck source=/dev/null
. /etc/os-release
if [[ ${VERSION_CODENAME:-} != bookworm ]]; then
    echo "Note: this script is written for Raspberry Pi OS Bookworm; this is ${PRETTY_NAME:-unknown}."
fi

step "System packages"
apt-get update
# python3-numpy: the numpy picamera2 is built for; the libraries: Kivy's screen (KMS/DRM, OpenGL ES)
# and touch input.
apt-get install -y --no-install-recommends \
    python3 python3-venv python3-pip python3-numpy \
    libgl1 libegl1 libgles2 libgbm1 libdrm2 libmtdev1
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
if [[ ! -x $VENV/bin/python ]]; then
    python3 -m venv --system-site-packages "$VENV"
fi
# Keep the system's numpy: picamera2 and its helpers from apt are compiled against it.
constraints=$(mktemp)
trap 'rm -f "$constraints"' EXIT
python3 -c 'import numpy; print(f"numpy=={numpy.__version__}")' >"$constraints"
"$VENV/bin/pip" install --upgrade --constraint "$constraints" "$SRC"

step "Configuration"
if [[ ! -e $CONFIG ]]; then
    install -d -m 0755 "$(dirname "$CONFIG")"
    cat >"$CONFIG" <<'TOML'
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

step "Device names (udev)"
install -m 0644 "$SRC/systemd/99-table-assistant.rules" /etc/udev/rules.d/99-table-assistant.rules
udevadm control --reload-rules
udevadm trigger --subsystem-match=tty --subsystem-match=video4linux

step "Screen"
# The kiosk draws on the screen itself: a desktop started at boot would hold it.
if [[ $(systemctl get-default) == graphical.target ]]; then
    systemctl set-default multi-user.target
    echo "The desktop no longer starts at boot (to undo: sudo systemctl set-default graphical.target)."
    echo "Reboot once the install is over, so that the kiosk gets the screen: sudo reboot"
fi

step "Service"
install -m 0644 "$SRC/systemd/table-assistant.service" /etc/systemd/system/table-assistant.service
systemctl daemon-reload
systemctl enable table-assistant.service
systemctl stop table-assistant.service  # frees the camera and the panel for the checks below

step "Checks"
runuser -u "$APP_USER" -- "$VENV/bin/table-assistant" doctor ||
    echo "The kiosk starts all the same; fix the above and run: sudo systemctl restart table-assistant"

step "Starting the kiosk"
systemctl start table-assistant.service
echo "Done. Logs: journalctl -u table-assistant -f"
