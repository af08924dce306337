"""Records damaged at random, hundreds of times: the kiosk starts on every one, and every lost
action is said (tests/damage_support.py makes, damages and judges each case).

Each case plays 2-5 toy matches through a Session, takes the files as a crash or a clean close
leaves them, damages them one way out of fifteen (bits flipped, a span overwritten, a page
zeroed, a file cut, emptied or deleted: in the database, its journal, its index or a backup; a
value changed through SQL), then starts the kiosk on them. Printed, by kind of damage: cases,
starts, cases where something acknowledged was lost, silent losses (lost and no notice), altered
matches (a line never acknowledged), cases where a match has fewer moves than the newest backup
held (not restored from it), and starts after the first that still had something to say;
then the actions lost in all and the median milliseconds to open damaged records.

    .venv/bin/python bench/damage.py [--cases 1050] [--seed 0]
"""
from __future__ import annotations

import argparse
import logging
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "tests")]

from damage_support import KINDS, one_case  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=70 * len(KINDS))
    parser.add_argument("--seed", type=int, default=0, help="the first case's seed; the others follow")
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)  # the records' own warnings: the verdicts say it
    rows: dict[str, list[int]] = defaultdict(lambda: [0] * 7)
    failures, lost, times = [], 0, []
    for seed in range(args.seed, args.seed + args.cases):
        with tempfile.TemporaryDirectory() as folder:
            start = time.perf_counter()
            verdict, done = one_case(Path(folder), seed)
            times.append(time.perf_counter() - start)
        row = rows[verdict.kind]
        row[0] += 1
        row[1] += verdict.started
        row[2] += verdict.lost > 0
        row[3] += verdict.lost > 0 and not verdict.said
        row[4] += verdict.altered
        row[5] += verdict.unrestored > 0
        row[6] += verdict.started and not verdict.quiet_after
        lost += verdict.lost
        if not verdict.started or not verdict.said or verdict.altered or verdict.unrestored or verdict.problem:
            failures.append(f"seed {seed}, {done}: {verdict.problem or verdict}")
    widths = (6, 8, 6, 7, 8, 11, 11)
    print(f"{'damage':<12} {'cases':>6} {'started':>8} {'lost':>6} {'silent':>7} {'altered':>8} "
          f"{'unrestored':>11} {'said again':>11}")
    for kind in KINDS:
        if kind in rows:
            print(f"{kind:<12} " + " ".join(f"{v:>{w}}" for v, w in zip(rows[kind], widths)))
    totals = [sum(r[i] for r in rows.values()) for i in range(7)]
    print(f"{'all':<12} " + " ".join(f"{v:>{w}}" for v, w in zip(totals, widths)))
    print(f"{lost} acknowledged actions lost in all (each one said unless counted silent above); "
          f"{statistics.median(times) * 1000:.0f} ms a case (play, damage and two starts, median)")
    for failure in failures[:20]:
        print("  " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
