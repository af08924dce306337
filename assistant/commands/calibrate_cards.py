"""`table-assistant calibrate cards DIR`: learn your deck from photos of a few of its cards.

Lay some cards on the table (on the mat or not), photograph them, and list them in
``DIR/labels.csv`` as ``filename,xmin,ymin,xmax,ymax,label``: one row per card with its box in
pixels, or with empty box columns when a photo shows a single card. The label is
``"<colour> <value>"`` (Hilo: the palette's colour names, e.g. ``red 7``, ``blue -1``; Hold Up:
``ruby 5``, ``gv G``), a single word for a deck without colours, or ``face-down`` for a card
back. Colour and value are learnt separately: show every colour a few times and every value
a few times (two or three cards each), not every pairing. Add a few backs so face-down cards are
recognised. ``--synthetic`` enrols the demo's synthetic deck instead.

Each game has its own deck (``--game``, Hilo by default): Hilo's enrolment is saved in
``app.state_dir`` as ``vision.cards.enrolment``, another game's beside it under its name.
"""
from __future__ import annotations

import os
from pathlib import Path

from assistant.commands.print_mat import mat_layout
from assistant.i18n import translate
from assistant.settings import state_dir
from engine.holdup.deck import EXAMPLE_DECK
from engine.table import FACE_DOWN
from engine.text import tr
from vision.card_model import split_label
from vision.cards import ReaderParams, enrol, labelled_photos
from vision.evaluate import Box, read_labels
from vision.synth.cards import HILO_VALUES, enrolment_tables
from vision.synth.holdup_tables import enrolment_scenes

CARD_GAMES = ("hilo", "holdup")  # the games whose cards the camera reads, each with its own deck


def add_parser(whats) -> None:
    parser = whats.add_parser("cards", help="learn your deck's colours and values from labelled photos")
    parser.add_argument("folder", nargs="?", metavar="DIR", help="photos and their labels.csv")
    parser.add_argument("--game", choices=CARD_GAMES,
                        help="the game whose deck this is (default hilo); also list its colours and values not shown")
    parser.add_argument("--synthetic", action="store_true", help="enrol the demo's synthetic deck of the game")
    parser.set_defaults(run=run)


def reader_params(settings) -> ReaderParams:
    return ReaderParams.from_settings(settings.section("vision.cards"))


def enrolment_path(settings, game: str = "hilo", env=os.environ) -> Path:
    """Where ``game``'s deck is learnt: ``vision.cards.enrolment`` in the state folder for Hilo,
    beside it with the game's name for another (``cards-holdup.npz``)."""
    path = state_dir(settings["app.state_dir"], env) / settings["vision.cards.enrolment"]
    return path if game == "hilo" else path.with_name(f"{path.stem}-{game}{path.suffix}")


def enrol_synthetic_deck(settings, game: str = "hilo"):
    """Enrol the demo's synthetic deck of ``game``, from three seeded photos of it on its mat,
    under the state folder; the model and the enrolment's report."""
    scenes = enrolment_tables(mat_layout("hilo", "A2", 2), seed=0) if game == "hilo" else enrolment_scenes(seed=0)
    photos = [(s.frame, [Box(*c.box(), label=c.label) for c in s.cards]) for s in scenes]
    model, report = enrol(photos, reader_params(settings))
    model.save(enrolment_path(settings, game))
    return model, report


def game_labels(settings, game: str) -> tuple[list[str], list[str]]:
    """The colours and values of ``game``'s cards: Hilo's palette and values; Hold Up's stones of
    its deck setting, the GV cards, and their values."""
    if game == "hilo":
        return hilo_colours(settings), list(HILO_VALUES)
    rows = _holdup_deck(settings)
    stones = list(dict.fromkeys(str(row[0]) for row in rows))
    values = sorted({str(row[1]) for row in rows}, key=_order)
    return stones + ["gv"], values + ["G", "V"]


def game_cards(settings, game: str) -> set[str] | None:
    """The labels of ``game``'s cards where its colours and values do not pair freely (Hold Up's
    gems of its deck setting and the GV faces); None where they do (Hilo)."""
    if game == "hilo":
        return None
    return set(holdup_gems(settings)) | {"gv G", "gv V"}


def holdup_gems(settings) -> list[str]:
    """The labels of Hold Up's gems ("ruby 5"), each once, in the order of its deck setting."""
    return [f"{stone} {value}" for stone, value, _ in _holdup_deck(settings)]


def _holdup_deck(settings) -> list:
    return settings.values.get("games", {}).get("holdup", {}).get("deck") or list(EXAMPLE_DECK)


def hilo_colours(settings) -> list[str]:
    """The colour names of the ``games.hilo.palette`` setting ("red:R, orange:O, ...")."""
    return [item.split(":")[0].strip() for item in settings["games.hilo.palette"].split(",") if item.strip()]


def run(args, settings) -> int:
    from assistant.cli import UsageError

    if args.synthetic == (args.folder is not None):
        raise UsageError("give either DIR (photos with labels.csv) or --synthetic")
    game = args.game or "hilo"
    path = enrolment_path(settings, game)
    if args.synthetic:
        model, report = enrol_synthetic_deck(settings, game)
    else:
        photo_names = list(read_labels(args.folder, need_boxes=False))
        model, report = enrol(labelled_photos(args.folder, photo_names), reader_params(settings))
        model.save(path)
    language = settings["app.language"]
    say = lambda text: print(translate(text, language))  # noqa: E731
    colours: dict[str, int] = {}
    values: dict[str, int] = {}
    for label, n in report.cards.items():
        colour, value = split_label(label)
        values[value] = values.get(value, 0) + n
        if colour is not None:
            colours[colour] = colours.get(colour, 0) + n
    say(tr("{file}: learnt {cards} cards ({backs} backs) and {negatives} outlines that are not cards",
           file=str(path), cards=sum(report.cards.values()), backs=values.pop(FACE_DOWN, 0),
           negatives=report.negatives))
    say(tr("values: {counts}", counts=_counts(values)))
    if colours:
        say(tr("colours: {counts}", counts=_counts(colours)))
    if report.missed:
        say(tr("{n} labelled cards were not found, so not learnt:", n=len(report.missed)))
        for missed in report.missed:
            photo = photo_names[missed.photo] if not args.synthetic else f"#{missed.photo + 1}"
            say(f"  {photo}: {missed.label}: " + translate(tr(missed.why), language))
    known_colours, known_values = game_labels(settings, game)
    missing = [c for c in known_colours if c not in colours] + [v for v in known_values if v not in values]
    if args.game and missing:
        say(tr("never shown, so never recognised: {missing}; add photos of them", missing=", ".join(missing)))
    if not model.knows_backs():
        say(tr("no card back was shown: face-down cards will not be recognised"))
    return 0


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} x{n}" for k, n in sorted(counts.items(), key=lambda kv: _order(kv[0])))


def _order(name: str):
    try:
        return (0, int(name), "")
    except ValueError:
        return (1, 0, name)
