"""`table-assistant calibrate WHAT ...`: teach the camera readers about this table's objects.

Each kind of calibration has its module ``assistant/commands/calibrate_<kind>.py`` providing
``add_parser(whats)``, which registers its ``calibrate`` actions and sets ``run``.
"""
from __future__ import annotations

import importlib

KINDS = ("calibrate_dice", "calibrate_cards")


def add_parser(sub) -> None:
    parser = sub.add_parser("calibrate", help="learn the table's dice or cards from photos")
    whats = parser.add_subparsers(dest="calibrate_what", metavar="WHAT", required=True)
    for name in KINDS:
        importlib.import_module(f"assistant.commands.{name}").add_parser(whats)
