"""`table-assistant run` in a real process: it reopens an unfinished game, says once what is
missing (here the camera), reports its first frame to systemd, and stops cleanly on SIGTERM."""
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path


from assistant.session import Session
from assistant.store import FILE_NAME, Store

ROOT = Path(__file__).resolve().parents[2]


def test_run_reopens_the_game_and_reports_its_first_frame(tmp_path, x_display):
    with Store(tmp_path / FILE_NAME) as store:
        session = Session(store, advice=False)
        session.new_match("excape", ["Ana", "Ben", "Chloé"])
        for line in ["roll 4 6", "roll 1 2", "roll 2 3", "roll 2 1"]:
            session.play(line)
    address = str(tmp_path / "notify")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    listener.settimeout(120)
    env = {**os.environ, "NOTIFY_SOCKET": address, "KIVY_HOME": str(tmp_path / "kivy"), "KIVY_NO_CONSOLELOG": "1",
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    process = subprocess.Popen(
        [sys.executable, "-m", "assistant.cli", "--set", f"app.state_dir={tmp_path}", "--set", "camera.source=none",
         "--set", "gpio.enabled=false", "run"], env=env, cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        messages = []
        while not any("READY=1" in m for m in messages):
            messages.append(listener.recv(4096).decode())
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
        listener.close()
    assert process.returncode == 0, err[-3000:]
    assert "reopened game 1 (excape) after 4 moves" in err
    assert err.count("Camera off") == 1
    with Store(tmp_path / FILE_NAME) as store:
        assert [store.load_match(r.id).lines for r in store.unfinished()] == [("roll 4 6", "roll 1 2", "roll 2 3", "roll 2 1")]
