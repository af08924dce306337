"""`table-assistant eval cards DIR --enrol ENROL_DIR [--json]`: the card reader on DIR/labels.csv.

The reader first enrols the deck from ``ENROL_DIR/labels.csv`` (same format; a label is the
card's identity: ``"<colour> <value>"``, a single word such as ``king``, or ``face-down``), then
reads every photo of DIR. A card is detected when a reading's centre lies inside its box
(one-to-one); for two-part labels colour and value are also judged apart. With ``--split``
ENROL_DIR and DIR are one folder: every other photo (1st, 3rd, ...) enrols, the rest are judged
(``--split-offset 1`` swaps the halves).
A photo showing one of the shipped play mats is read as on the table (cards of the mat's card
size); other photos are searched everywhere. Timing is single-threaded.
"""
from __future__ import annotations


import cv2

from assistant.commands.calibrate_cards import reader_params
from assistant.commands.print_mat import all_mat_layouts
from assistant.commands.eval import print_report
from vision.cards import CardReader, enrol, labelled_photos
from vision.evaluate import Found, evaluate, read_labels
from vision.mat import find_mat


def add_parser(kinds) -> None:
    parser = kinds.add_parser("cards", help="card reader on DIR/labels.csv, enrolled from ENROL_DIR")
    parser.add_argument("folder", metavar="DIR", help="photos and their labels.csv")
    parser.add_argument("--enrol", required=True, metavar="ENROL_DIR",
                        help="photos of the same deck with their labels.csv, to learn it from")
    parser.add_argument("--split", action="store_true",
                        help="DIR = ENROL_DIR: enrol on every other photo and judge the others")
    parser.add_argument("--split-offset", type=int, choices=(0, 1), default=0, metavar="0|1",
                        help="with --split, 1 swaps the halves: enrol on the 2nd, 4th, ... photo")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args, settings) -> int:
    from assistant.cli import UsageError

    cv2.setNumThreads(1)
    params = reader_params(settings)
    enrol_names = judged = None
    if args.split:
        names = sorted(read_labels(args.folder))
        enrol_names, judged = names[args.split_offset::2], names[1 - args.split_offset::2]
        if read_labels(args.enrol).keys() != read_labels(args.folder).keys():
            raise UsageError("--split judges and enrols from one folder: give the same DIR and ENROL_DIR")
    model, enrolled = enrol(labelled_photos(args.enrol, enrol_names), params)
    reader = CardReader(model, params)
    mats = all_mat_layouts()

    def read(image):
        on_mat = find_mat(image, mats)
        readings = reader.read(image, *on_mat) if on_mat else reader.read(image)
        return [Found(*r.anchor, r.label) for r in readings]

    report = evaluate(args.folder, read, images=judged)
    report["enrolled_cards"] = sum(enrolled.cards.values())
    report["enrol_missed"] = len(enrolled.missed)
    print_report(report, args.json)
    return 0
