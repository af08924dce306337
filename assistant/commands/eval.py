"""`table-assistant eval KIND ...`: how well a reader does on a folder of labelled photographs.

Each kind of reader has its module ``assistant/commands/eval_<kind>.py`` providing
``add_parser(kinds)``, which registers ``eval <kind>`` and sets ``run=function(args, settings)``.
"""
from __future__ import annotations

import json

from assistant.commands import add_group


def add_parser(sub) -> None:
    add_group(sub, "eval", "measure a reader's accuracy and speed on labelled photos", "KIND",
              ("eval_dice", "eval_cards"))


def print_report(report: dict, as_json: bool) -> None:
    """One JSON object (the contract used to measure the readers), or aligned lines for a person."""
    if as_json:
        print(json.dumps(report))
        return
    for key, value in report.items():
        print(f"{key:<20} {value}")
