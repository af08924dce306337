"""Splitter (roll-and-write): rules, scoring breakdown, sheet entry and the placement advisor."""
from engine.splitter.actions import Place, Roll
from engine.splitter.board import SplitterBoard, SplitterSheet
from engine.splitter.game import TURNS, SplitterGame, SplitterOptions, SplitterState
from engine.splitter.pads import PADS, Pad
from engine.splitter.scoring import Breakdown, Group, breakdown, format_score, score_text
from engine.splitter.sheet import SheetError, values_from_grid
from engine.splitter.advisor import advise

__all__ = ["PADS", "TURNS", "Breakdown", "Group", "Pad", "Place", "Roll", "SheetError", "SplitterBoard",
           "SplitterGame", "SplitterOptions", "SplitterSheet", "SplitterState", "advise", "breakdown", "format_score",
           "score_text", "values_from_grid"]
