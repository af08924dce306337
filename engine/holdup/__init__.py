"""Hold Up 4D6 (dice and gem cards): rules, scoring, previews and advice.

The gem deck is an option (``deck``: [stone, value, count] rows); ``parse_deck`` and
``deck_from_config`` validate one given as data (e.g. a parsed ``holdup-example-deck.toml``).
"""
from engine.holdup.actions import Draw, Flip, Keep, Place, Reroll, Roll, Steal, parse_action
from engine.holdup.advice import advise
from engine.holdup.board import BoardPlayer, BoardRow, HoldUpBoard, Score
from engine.holdup.deck import EXAMPLE_DECK, Gem, deck_from_config, parse_deck
from engine.holdup.game import HoldUpGame, HoldUpOptions
from engine.holdup.preview import preview
from engine.holdup.state import HoldUpState

__all__ = [
    "Draw", "EXAMPLE_DECK", "Flip", "Gem", "HoldUpGame", "HoldUpOptions", "HoldUpState", "Keep", "Place",
    "Reroll", "Roll", "Steal", "advise", "deck_from_config", "parse_action", "parse_deck", "preview",
    "BoardPlayer", "BoardRow", "HoldUpBoard", "Score",
]
