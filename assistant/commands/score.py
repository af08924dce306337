"""`table-assistant score GAME FILE`: score a finished round or sheet given as a file.

Each scorable game module provides ``score_text(text: str, **options) -> dict`` (JSON-ready,
raises ValueError naming what is wrong) and ``format_score(result: dict) -> str``.
"""
from __future__ import annotations

import importlib
import json
from pathlib import Path

SCORABLE = {"hilo": "engine.hilo", "splitter": "engine.splitter"}


def add_parser(sub) -> None:
    parser = sub.add_parser("score", help="score a finished Hilo round or Splitter sheet")
    parser.add_argument("game", choices=sorted(SCORABLE))
    parser.add_argument("file", help="hilo: ROUND.json; splitter: SHEET (7 lines of 8 numbers)")
    parser.add_argument("--pad", choices=("A", "B"), help="splitter: the score pad (required)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def run(args, settings) -> int:
    from assistant.cli import UsageError

    if args.game == "splitter":
        if args.pad is None:
            raise UsageError("splitter sheets need --pad A or --pad B")
        options = {"pad": args.pad}
    elif args.pad is not None:
        raise UsageError("--pad is only for splitter")
    else:  # the club's configured options (Hilo: palette, removal rules)
        options = settings.section(f"games.{args.game}")
    module = importlib.import_module(SCORABLE[args.game])
    result = module.score_text(Path(args.file).read_text("utf-8"), **options)
    print(json.dumps(result, ensure_ascii=False) if args.json else module.format_score(result))
    return 0
