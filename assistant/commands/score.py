"""`table-assistant score GAME FILE`: score a finished round or sheet given as a file.

The games that score a file are those whose ``Game`` declares ``score_file``; each provides
``score_text(text, **options)`` (JSON-ready, ValueError naming what is wrong) and
``format_score(result)``. Options a file needs (``score_options``, e.g. Splitter's pad) are
given on the command line; the others come from the club's configuration.
"""
from __future__ import annotations

import json
from pathlib import Path

from engine import registry


def scorable() -> dict[str, type]:
    return {game.id: game for game in registry.games() if game.score_file}


def add_parser(sub) -> None:
    games = scorable()
    parser = sub.add_parser("score", help="score a finished round or sheet given as a file")
    parser.add_argument("game", choices=sorted(games))
    # FILE stays a required positional: an optional one would be taken as missing when options
    # come between GAME and FILE (argparse matches positionals chunk by chunk).
    parser.add_argument("file", metavar="FILE",
                        help="; ".join(f"{game_id}: {game.score_file}" for game_id, game in sorted(games.items())))
    parser.add_argument("--photo", action="store_true", help="splitter: FILE is a photo of the paper sheet")
    parser.add_argument("--match", metavar="FILE", help="with --photo: the saved match, whose rolls check the sheet")
    for option in command_line_options(games):
        parser.add_argument(f"--{option}", choices=choices(games, option) or None,
                            help=f"{', '.join(needing(games, option))}: the game's {option} option (required)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def command_line_options(games: dict[str, type]) -> list[str]:
    return sorted({option for game in games.values() for option in game.score_options})


def needing(games: dict[str, type], option: str) -> list[str]:
    return sorted(game_id for game_id, game in games.items() if option in game.score_options)


def choices(games: dict[str, type], option: str) -> list[str]:
    return sorted({c for game_id in needing(games, option) for c in games[game_id].option_choices.get(option, ())})


def run(args, settings) -> int:
    from assistant.cli import UsageError

    games = scorable()
    game = games[args.game]
    for option in command_line_options(games):
        given = getattr(args, option)
        if option in game.score_options and given is None:
            listed = " or ".join(f"--{option} {c}" for c in choices(games, option)) or f"--{option}"
            raise UsageError(f"{args.game} needs {listed}")
        if option not in game.score_options and given is not None:
            raise UsageError(f"--{option} is only for {', '.join(needing(games, option))}")
    if game.score_options:
        options = {option: getattr(args, option) for option in game.score_options}
    else:  # the club's configured options (Hilo: palette, removal rules)
        options = settings.section(f"games.{args.game}")
    if args.match is not None and not args.photo:
        raise UsageError("--match goes with --photo")
    if args.photo:
        if args.game != "splitter":
            raise UsageError("--photo is only for splitter")
        from assistant.splitter_sheets import format_photo_score, score_photo

        result = score_photo(args.file, match=args.match, **options)
        print(json.dumps(result, ensure_ascii=False) if args.json else format_photo_score(result))
        return 0
    try:
        result = game.score_text(Path(args.file).read_text("utf-8"), **options)
    except (OSError, ValueError) as exc:
        raise ValueError(f"{args.file}: {getattr(exc, 'strerror', None) or exc}") from exc
    print(json.dumps(result, ensure_ascii=False) if args.json else game.format_score(result))
    return 0
