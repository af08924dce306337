"""kill -9 at random moments, hundreds of times on one database: every acknowledged action kept,
every start resuming exactly where the records are.

A child process (tests/crash_support.py) resumes the unfinished match and plays scripted toy
matches, reporting each action once the session acknowledged it; it is killed with SIGKILL after
a random number of actions (1 to 40) and a random pause (0 to 20 ms, so that the kill falls
anywhere inside a write), and the records are checked as the kiosk opens them, then the next
child starts on the same file. Printed: exact resumes out of the kills, the problems found (none
expected), actions acknowledged, and the seconds per cycle.

    .venv/bin/python bench/kill9.py [--kills 500] [--seed 1]
"""
from __future__ import annotations

import argparse
import random
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "tests")]

from crash_support import check, killed, read_reports, start_child  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    reported: dict[int, int] = {}
    exact, problems, cycles, acknowledged = 0, [], [], 0
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "records.sqlite3"
        for kill in range(args.kills):
            start = time.perf_counter()
            proc = start_child(database, args.seed)
            try:
                for _ in range(rng.randint(1, 40)):
                    line = proc.stdout.readline()
                    if not line:
                        problems.append(f"kill {kill}: the child stopped: {proc.stderr.read()[-300:]}")
                        break
                    acknowledged += read_reports(line, reported)
                time.sleep(rng.uniform(0, 0.02))
                proc.send_signal(signal.SIGKILL)
            finally:
                acknowledged += killed(proc, reported)
            found = check(database, args.seed, reported)
            problems.extend(f"kill {kill}: {p}" for p in found)
            exact += not found
            cycles.append(time.perf_counter() - start)
    print(f"kill -9: {exact} of {args.kills} starts resumed exactly; {len(problems)} problems; "
          f"{acknowledged} actions acknowledged in {len(reported)} matches; "
          f"{statistics.median(cycles):.2f} s a cycle (median)")
    for problem in problems[:20]:
        print("  " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
