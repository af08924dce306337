"""The `table-assistant` command line.

Each subcommand lives in ``assistant/commands/<name>.py`` and provides
``add_parser(subparsers)``, which registers its parser and sets ``run=function(args, settings)``
returning the exit code.
"""
from __future__ import annotations

import argparse
import importlib
import logging
import sys

from assistant import __version__, logs, settings as settings_mod

# (subcommand module, in the order --help lists them)
COMMANDS = (
    "run", "demo", "watch", "score", "replay", "eval", "bench", "print_mat", "print_sheet", "calibrate", "doctor",
    "config",
)

log = logging.getLogger("table-assistant")


class UsageError(Exception):
    """The command line asks for something that cannot be done as asked (exit code 2)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="table-assistant",
        description="Reads dice and cards, referees and scores games at a club table.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--config", metavar="FILE", help="configuration file applied last")
    parser.add_argument(
        "--set", metavar="KEY=VALUE", action="append", default=[],
        help="override one setting, e.g. --set app.language=fr (repeatable)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        importlib.import_module(f"assistant.commands.{name}").add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        overrides = dict(_split_override(item) for item in args.set)
        settings = settings_mod.load(args.config, overrides)
        logs.setup("debug" if args.verbose else settings["app.log_level"])
    except (settings_mod.ConfigError, UsageError, logs.LevelError) as exc:
        print(f"table-assistant: {exc}", file=sys.stderr)
        return 2
    try:
        return args.run(args, settings)
    except UsageError as exc:
        print(f"table-assistant {args.command}: {exc}", file=sys.stderr)
        return 2
    except (ValueError, OSError) as exc:  # bad input files, unplugged devices: say what, no trace
        log.debug("command failed", exc_info=True)
        print(f"table-assistant {args.command}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def _split_override(item: str) -> tuple[str, str]:
    key, sep, value = item.partition("=")
    if not sep or not key:
        raise UsageError(f"--set expects KEY=VALUE, got {item!r}")
    return key.strip(), value


if __name__ == "__main__":
    sys.exit(main())
