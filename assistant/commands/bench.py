"""`table-assistant bench [NAME ...]`: run the benchmark scripts in bench/ and print their figures."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parents[2] / "bench"


def available() -> list[str]:
    return sorted(p.stem for p in BENCH_DIR.glob("*.py") if not p.name.startswith("_"))


def add_parser(sub) -> None:
    parser = sub.add_parser("bench", help="run benchmarks (from a source checkout) and print figures")
    parser.add_argument("names", nargs="*", metavar="NAME", help="benchmarks to run (default: all)")
    parser.add_argument("--list", action="store_true", help="list the benchmarks")
    parser.set_defaults(run=run)


def run(args, settings) -> int:
    from assistant.cli import UsageError

    names = available()
    if not names:
        raise UsageError(f"no benchmarks in {BENCH_DIR}: they ship with the source tree, not the package")
    if args.list:
        print("\n".join(names))
        return 0
    unknown = [n for n in args.names if n not in names]
    if unknown:
        raise UsageError(f"unknown benchmark {unknown[0]!r}; choose from {', '.join(names)}")
    status = 0
    for name in args.names or names:
        print(f"== bench/{name}.py", flush=True)
        status |= subprocess.call([sys.executable, str(BENCH_DIR / f"{name}.py")])
    return status
