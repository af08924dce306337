"""The kiosk app: cold start to the first frame on screen, and memory (RSS).

Starts `table-assistant run` in a fresh process (no camera, no GPIO, a new records file) and
times it until the first frame is on screen, which the app reports over systemd's notify socket
(READY=1), as it does under the kiosk's unit. Then plays a simulated table (`demo`) of each game
and samples the process's resident memory. With ``--minutes M`` it plays the whole demo (every game
in turn, its dice filmed and read by the camera path) for M minutes instead, at the demo's own
pace, and prints the memory every few minutes: anonymous (heaps, arrays), in mapped files (code),
and of those the software OpenGL renderer's, which runs under Xvfb and not on a Pi. Needs an X
display: uses $DISPLAY, else starts Xvfb. Prints figures; asserts nothing.

    .venv/bin/python bench/app.py [--minutes 30]
"""
from __future__ import annotations

import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine import registry

ROOT = Path(__file__).resolve().parents[1]
STARTS = 3
DEMO_MOVES = 60  # per game
QUIET = ["--set", "camera.source=none", "--set", "gpio.enabled=false", "--set", "app.log_level=error"]


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "assistant.cli", *QUIET, *args]


def rss_kib(pid: int) -> tuple[int, int]:
    """(current RSS, peak RSS) of a process in KiB, from /proc."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.split()[0] if value.split() else "0"
    return int(fields.get("VmRSS", 0)), int(fields.get("VmHWM", 0))


SOFTWARE_GL = ("libLLVM", "_dri.so")  # Mesa's software renderer under Xvfb, which a Pi's GPU driver replaces


def resident_parts(pid: int) -> dict[str, int]:
    """KiB resident in the process's anonymous memory (heaps, arrays), in files it maps (the
    libraries' code), and of those in the software OpenGL renderer's libraries."""
    parts = {"anonymous": 0, "files": 0, "software GL code": 0}
    name = ""
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        fields = line.split()
        if fields and "-" in fields[0] and not fields[0].endswith(":"):
            name = fields[5] if len(fields) > 5 and not fields[5].startswith("[") else ""
        elif fields and fields[0] == "Rss:":
            parts["files" if name else "anonymous"] += int(fields[1])
            if any(key in name for key in SOFTWARE_GL):
                parts["software GL code"] += int(fields[1])
    return parts


def cold_start(state_dir: str) -> tuple[float, int]:
    """Seconds from launching `run` to its first frame, and its RSS (KiB) then."""
    with tempfile.TemporaryDirectory() as folder:
        address = os.path.join(folder, "notify")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        listener.bind(address)
        listener.settimeout(120)
        env = {**os.environ, "NOTIFY_SOCKET": address, "KIVY_NO_CONSOLELOG": "1",
               "KIVY_HOME": os.path.join(folder, "kivy")}
        started = time.perf_counter()
        process = subprocess.Popen(cli("--set", f"app.state_dir={state_dir}", "run"), env=env, cwd=ROOT,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            while b"READY=1" not in listener.recv(4096):
                pass
            seconds = time.perf_counter() - started
            rss, _ = rss_kib(process.pid)
        except socket.timeout:
            process.kill()
            raise SystemExit(f"bench/app.py: the app gave no first frame: {process.communicate()[1].decode()[-2000:]}")
        finally:
            listener.close()
        process.terminate()
        process.wait(timeout=30)
        return seconds, rss


def demo_memory(game: str) -> tuple[int, int, float]:
    """(last RSS sampled, peak RSS, seconds) of a demo of ``game`` playing DEMO_MOVES moves."""
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "KIVY_NO_CONSOLELOG": "1", "KIVY_HOME": folder}
        started = time.perf_counter()
        process = subprocess.Popen(cli("demo", "--game", game, "--seed", "1", "--step", "0.02",
                                       "--moves", str(DEMO_MOVES)),
                                   env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        last = peak = 0
        while process.poll() is None:
            try:
                rss, hwm = rss_kib(process.pid)
            except (FileNotFoundError, ProcessLookupError):
                break
            if rss:  # 0 once the process has exited
                last, peak = rss, max(peak, hwm)
            time.sleep(0.2)
        return last, peak, time.perf_counter() - started


def long_play(minutes: float, every: float = 300.0) -> list[tuple[float, int, int, dict[str, int]]]:
    """(seconds, RSS, peak RSS, resident_parts) of the demo: after 10 s, then every ``every``
    seconds for ``minutes``."""
    with tempfile.TemporaryDirectory() as folder:
        # MALLOC_ARENA_MAX as the kiosk's unit sets it
        env = {**os.environ, "KIVY_NO_CONSOLELOG": "1", "KIVY_HOME": folder, "MALLOC_ARENA_MAX": "2"}
        process = subprocess.Popen(cli("demo", "--seed", "1"), env=env, cwd=ROOT,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        started, samples = time.perf_counter(), []
        try:
            while time.perf_counter() - started < minutes * 60 and process.poll() is None:
                time.sleep(min(every, minutes * 60 - (time.perf_counter() - started)) if samples else 10)
                rss, peak = rss_kib(process.pid)
                samples.append((time.perf_counter() - started, rss, peak, resident_parts(process.pid)))
        finally:
            process.terminate()
            process.wait(timeout=30)
        return samples


def update_times(moves: int = 80) -> dict[str, list[float]]:
    """Milliseconds the session and the screen take to show each move (drawing excluded), by
    game, in this process: seeded random moves, no advice."""
    import random

    os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp())
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    from kivy.base import EventLoop

    from assistant.app import TableApp, configure_window
    from assistant.session import Session
    from assistant.store import IN_MEMORY, Store

    configure_window(fullscreen=False, size=(800, 480), keyboard="system")
    app = TableApp(Session(Store(IN_MEMORY), advice=False))
    app._run_prepare()
    times: dict[str, list[float]] = {}
    for game in registry.game_ids():
        session = Session(Store(IN_MEMORY), advice=False)
        app.attach(session)
        session.new_match(game, ["Ana", "Ben", "Chloé"])
        EventLoop.idle()
        rng = random.Random(1)
        for _ in range(moves):
            state = session.position
            if state.is_terminal():
                break
            action = state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
            started = time.perf_counter()
            session.play(action)
            times.setdefault(game, []).append((time.perf_counter() - started) * 1000)
    app.stop()
    return times


def with_display() -> subprocess.Popen | None:
    """Start Xvfb when there is no display (returns it to stop at the end)."""
    if os.environ.get("DISPLAY"):
        return None
    if not shutil.which("Xvfb"):
        raise SystemExit("bench/app.py: no DISPLAY and no Xvfb: run it under X or xvfb-run")
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                              pass_fds=(write,), stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as pipe:
        os.environ["DISPLAY"] = ":" + pipe.readline().strip()
    return server


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, help="play the demo this long and follow its memory instead")
    args = parser.parse_args()
    server = with_display()
    try:
        if args.minutes:
            for seconds, rss, peak, parts in long_play(args.minutes):
                print(f"demo (every game in turn, camera on) after {seconds / 60:.1f} min: RSS {rss / 1024:.0f} MiB, "
                      f"peak {peak / 1024:.0f} MiB; of the RSS: " +
                      ", ".join(f"{part} {kib / 1024:.0f} MiB" for part, kib in parts.items()), flush=True)
            return
        starts = []
        for _ in range(STARTS):
            with tempfile.TemporaryDirectory() as state_dir:
                starts.append(cold_start(state_dir))
        seconds = [s for s, _ in starts]
        print(f"cold start to first frame (`run`, {STARTS} starts): median {statistics.median(seconds):.2f} s, "
              f"min {min(seconds):.2f} s, max {max(seconds):.2f} s")
        print(f"RSS at first frame: {statistics.median(r for _, r in starts) / 1024:.0f} MiB")
        for game, samples in update_times().items():
            print(f"{game}: a move shown in {statistics.median(samples):.1f} ms median, "
                  f"{max(samples):.1f} ms max ({len(samples)} moves, 3 players; drawing not included)")
        for game in registry.game_ids():
            last, peak, took = demo_memory(game)
            print(f"demo --game {game}, {DEMO_MOVES} moves: RSS at the end {last / 1024:.0f} MiB, "
                  f"peak {peak / 1024:.0f} MiB ({took:.1f} s)")
    finally:
        if server is not None:
            server.terminate()


if __name__ == "__main__":
    main()
