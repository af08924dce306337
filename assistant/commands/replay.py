"""`table-assistant replay GAME FILE`: replay a saved match through the rules and report it."""
from __future__ import annotations

import json

from engine import registry
from engine.match import Match


def add_parser(sub) -> None:
    parser = sub.add_parser("replay", help="replay a saved match and print where it stands")
    parser.add_argument("game", choices=registry.game_ids())
    parser.add_argument("file", help="a match file (see docs/notation.md)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def run(args, settings) -> int:
    from assistant.cli import UsageError

    match = Match.load(args.file)
    if match.game.id != args.game:
        raise UsageError(f"{args.file} is a {match.game.id} match, not {args.game}")
    names = [p.name for p in match.players]
    if args.json:
        report = {"game": match.game.id, "players": names, "actions": len(match.history),
                  **match.state.summary()}
        print(json.dumps(report, ensure_ascii=False, default=str))
    else:
        print(match.state.describe(names))
    return 0
