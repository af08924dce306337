"""`table-assistant calibrate WHAT ...`: teach the camera readers about this table's objects.

Each kind of calibration has its module ``assistant/commands/calibrate_<kind>.py`` providing
``add_parser(whats)``, which registers its ``calibrate`` actions and sets ``run``.
"""
from __future__ import annotations

from assistant.commands import add_group


def add_parser(sub) -> None:
    add_group(sub, "calibrate", "learn the table's dice or cards from photos", "WHAT",
              ("calibrate_dice", "calibrate_cards"))
