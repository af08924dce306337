"""`table-assistant eval KIND ...`: how well a reader does on a folder of labelled photographs.

Each kind of reader has its module ``assistant/commands/eval_<kind>.py`` providing
``add_parser(kinds)``, which registers ``eval <kind>`` and sets ``run=function(args, settings)``.
"""
from __future__ import annotations

import importlib

KINDS = ("eval_dice", "eval_cards")


def add_parser(sub) -> None:
    parser = sub.add_parser("eval", help="measure a reader's accuracy and speed on labelled photos")
    kinds = parser.add_subparsers(dest="eval_kind", metavar="KIND", required=True)
    for name in KINDS:
        importlib.import_module(f"assistant.commands.{name}").add_parser(kinds)
