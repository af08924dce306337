"""Excape (Reiner Knizia): a dice race with a ladder. Rules: docs/notation.md and the spec.

The names the application, the CLI and the tests use are exported here.
"""
from engine.excape.actions import Again, Place, parse_action
from engine.excape.board import ExcapeBoard, LadderChip
from engine.excape.dice import ALL_ROLLS, DIE_A, DIE_B, X, Roll, combination_value, roll_from_faces
from engine.excape.game import ExcapeGame, ExcapeOptions
from engine.excape.ladder import Placement
from engine.excape.risk import Dislodged, PlacementRisk, Risk, advise, risk
from engine.excape.state import Bust, ExcapeState, RollOff
from engine.excape.words import chance_text

__all__ = [
    "ALL_ROLLS", "DIE_A", "DIE_B", "X", "Again", "Bust", "Dislodged", "ExcapeBoard", "ExcapeGame", "ExcapeOptions",
    "ExcapeState", "LadderChip", "Place", "Placement", "PlacementRisk", "Risk", "Roll", "RollOff", "advise",
    "chance_text", "combination_value", "parse_action", "risk", "roll_from_faces",
]
