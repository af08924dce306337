"""`table-assistant score GAME FILE`: score a finished round or sheet given as a file.

The games that score a file are those whose ``Game`` declares ``score_file``; each provides
``score_text(text, **options)`` (JSON-ready, ValueError naming what is wrong) and
``format_score(result)``. Options a file needs (``score_options``, e.g. Splitter's pad) are
given on the command line; the others come from the club's configuration. With ``--photo``
FILE is a photo: of Splitter's paper sheet (``assistant.splitter_sheets``) or of a finished Hilo
table on its mat (``assistant.hilo_photos``).
"""
from __future__ import annotations

import json
import sys
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
    parser.add_argument("--photo", action="store_true",
                        help="FILE is a photo: splitter: of the paper sheet; hilo: of the finished table on its mat")
    parser.add_argument("--match", metavar="FILE", help="splitter --photo: the saved match, whose rolls check the sheet")
    parser.add_argument("--enrol", metavar="DIR", help="hilo --photo: learn the deck from DIR/labels.csv "
                        "(as `eval cards --enrol`) instead of the enrolment in the state directory")
    parser.add_argument("--ended-by", type=int, metavar="SEAT",
                        help="hilo --photo: the seat (from 0: the mat's Player 1 is 0) of the player who ended "
                             "the round, whose score may be doubled; without it nothing is doubled")
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
    for flag, photo_game in (("match", "splitter"), ("enrol", "hilo"), ("ended_by", "hilo")):
        if getattr(args, flag) is not None and not args.photo:
            raise UsageError(f"--{flag.replace('_', '-')} goes with --photo")
        if getattr(args, flag) is not None and args.game != photo_game:
            raise UsageError(f"--{flag.replace('_', '-')} is only for {photo_game}")
    if args.photo and args.game == "hilo":
        return score_hilo_photo(args, settings)
    if args.photo:  # splitter, the other game scored from a photo
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


def score_hilo_photo(args, settings) -> int:
    """Exit code 1 when a grid place could not be read (the result says which, and so does stderr)."""
    import cv2

    from assistant.commands.calibrate_cards import enrolment_path, reader_params
    from assistant.hilo_photos import format_photo_score, score_photo, unread_lines
    from engine.hilo import Palette
    from vision.cards import CardReader, enrol, labelled_photos
    from vision.card_model import CardModel

    def reader() -> CardReader:
        params = reader_params(settings)
        if args.enrol is None:
            return CardReader(CardModel.load(enrolment_path(settings)), params)
        return CardReader(enrol(labelled_photos(args.enrol), params)[0], params)

    cv2.setNumThreads(1)
    result = score_photo(args.file, reader, Palette.parse(settings["games.hilo.palette"]), args.ended_by)
    print(json.dumps(result, ensure_ascii=False) if args.json else format_photo_score(result))
    for line in unread_lines(result):
        print(f"table-assistant score: {args.file}: {line}", file=sys.stderr)
    return 1 if result["unread"] else 0
