"""Fuzzed files for every command that reads one, and for the calibration files the kiosk keeps
(tests/fuzz_support.py): each mutated file is read, or refused in one line naming it; never a
traceback.

For each reading command, N seeded mutations of a valid file (bits flipped, spans cut or
repeated, odd text typed in, truncation, lines removed or swapped, values replaced in a JSON
tree; for photos, bytes flipped, overwritten, repeated or cut) are given to the command as a
person would give them. Printed per command: files read, refused in one line naming the file,
unclear (several lines, or the file not named), tracebacks, and milliseconds a file (median);
then the first problems found.

    .venv/bin/python bench/fuzz.py [--files 1000] [--seed 0]
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "tests")]

from fuzz_support import corpora  # noqa: E402

VERDICTS = ("read", "refused", "unclear", "traceback")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=1000, help="mutated files per command")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    problems = []
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        os.environ["XDG_CONFIG_HOME"] = str(folder / "xdg")  # this machine's own settings stay out
        print(f"{'command':<38} {'read':>6} {'refused':>8} {'unclear':>8} {'traceback':>10} {'ms a file':>10}")
        for corpus in corpora(folder):
            rng, seen, times = random.Random(f"{args.seed} {corpus.name}"), Counter(), []
            for number in range(args.files):
                start = time.perf_counter()
                verdict, said = corpus.run(folder / f"file-{number}{corpus.suffix}", rng)
                times.append(time.perf_counter() - start)
                seen[verdict] += 1
                if verdict in ("unclear", "traceback"):
                    problems.append(f"{corpus.name}, file {number}: {verdict}: {said.strip()[:200]}")
            print(f"{corpus.name:<38} " + " ".join(f"{seen[v]:>{w}}" for v, w in zip(VERDICTS, (6, 8, 8, 10)))
                  + f" {statistics.median(times) * 1000:>10.1f}", flush=True)
    for problem in problems[:20]:
        print("  " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
