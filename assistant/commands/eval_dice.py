"""`table-assistant eval dice DIR [--crops] [--json]`: the dice reader on DIR/labels.csv.

``labels.csv`` rows are ``filename,xmin,ymin,xmax,ymax,label`` with the top face as label. A die
is detected when a reading's centre lies inside its box (one-to-one). With ``--crops`` every
image is one die filling the frame and only its face is judged. Timing is single-threaded.
"""
from __future__ import annotations


import cv2

from assistant.commands.calibrate_dice import dice_reader
from assistant.commands.eval import print_report
from vision.evaluate import Found, evaluate, evaluate_crops


def add_parser(kinds) -> None:
    parser = kinds.add_parser("dice", help="dice reader on DIR/labels.csv (label = top face)")
    parser.add_argument("folder", metavar="DIR", help="photos and their labels.csv")
    parser.add_argument("--crops", action="store_true",
                        help="each image is one die filling the frame: judge only its face")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args, settings) -> int:
    cv2.setNumThreads(1)
    reader = dice_reader(settings, empty_table=False)  # photos from other cameras
    if args.crops:
        report = evaluate_crops(args.folder, lambda image: reader.read_whole(image).face)
    else:
        report = evaluate(args.folder, lambda image: [Found(r.x, r.y, r.face) for r in reader.read(image)])
    print_report(report, args.json)
    return 0
