"""Hilo (Gigamic): the rules engine, card counting, advice and round scoring.

See ../shared/rules/hilo.md for the rules and docs/notation.md for the action notation.
"""
from engine.hilo.actions import Draw, Flip, Keep, Place, Remove, Reveal, Seen, Slide, Take, Youngest
from engine.hilo.advice import advise
from engine.hilo.board import BoardCard, BoardGrid, HiloBoard
from engine.hilo.cards import DEFAULT_PALETTE, Palette
from engine.hilo.counting import CardCount, count_cards
from engine.hilo.game import HiloGame, HiloOptions
from engine.hilo.grid import VERTICAL
from engine.hilo.score_file import format_score, score_text
from engine.hilo.state import SETUP_REVEALS, HiloState
from engine.hilo.words import colour_name, line_name, place

__all__ = [
    "HiloGame", "HiloOptions", "HiloState", "SETUP_REVEALS", "advise", "count_cards", "CardCount", "score_text",
    "format_score", "Palette", "DEFAULT_PALETTE",
    "Seen", "Reveal", "Youngest", "Take", "Draw", "Place", "Flip", "Remove", "Keep", "Slide",
    "HiloBoard", "BoardGrid", "BoardCard", "VERTICAL", "place", "line_name", "colour_name",
]
