"""Hold Up 4D6: the game with its options (every [decision] of the spec is one)."""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Mapping

from engine.core import Advice, Game, OptionError
from engine.holdup.actions import Draw, Flip, Place, Reroll, Roll, parse_action
from engine.holdup.deck import EXAMPLE_DECK, deck_gems, parse_deck
from engine.holdup.position import state_from_dict
from engine.holdup.rules import DICE, MAX_PLAYERS, MAX_ROLLS, MIN_PLAYERS, ROWS, OPENING_PER_ROW
from engine.holdup.state import HoldUpState

LOST_CARD_CHOICES = ("removed", "draw_pile")


@dataclass(frozen=True)
class HoldUpOptions:
    # The PP deck as (stone, value, count) rows; the spec's example deck by default.
    deck: tuple = EXAMPLE_DECK
    # Between rolls, keep some dice and roll only the others (the spec rolls all four again).
    keep_dice_between_rolls: bool = False
    # The whole pile ordered by value, highest on top (false: each capture goes on top, strongest uppermost).
    pile_sorted: bool = True
    # +10 for each stone type with at least 4 cards (false: at most one +10).
    set_bonus_per_type: bool = True
    # Where the card lost to four 4s goes: "removed" from the game, or shuffled back into the
    # "draw_pile" (while it still has cards; after the last card was placed it leaves the game).
    lost_card: str = "removed"
    # After the last draw-pile card is placed, finish the round so everyone plays as many turns.
    complete_round: bool = True
    # G G G steals happen before the stone sets are counted (false: sets count the cards as
    # they were before the steals).
    steal_before_set_bonus: bool = True


class HoldUpGame(Game):
    id = "holdup"
    title = "Hold Up 4D6"
    min_players, max_players = MIN_PLAYERS, MAX_PLAYERS
    Options = HoldUpOptions
    max_game_length = 0  # set per deck in __init__
    option_choices = {"lost_card": LOST_CARD_CHOICES}
    camera_actions = (Roll, Reroll, Draw, Place, Flip)
    camera_reads = ("dice", "cards")  # the dice in the mat's dice zone, the cards around it

    def advise(self, state: HoldUpState) -> list[Advice]:
        from engine.holdup.advice import advise
        return advise(state)

    def __init__(self, num_players: int, options: Mapping[str, Any] | None = None):
        given = dict(options or {})
        if "deck" in given:  # an empty list (the settings' default) means the example deck
            given["deck"] = EXAMPLE_DECK if given["deck"] in ([], ()) else parse_deck(given["deck"])
        super().__init__(num_players, given)
        if self.options.lost_card not in LOST_CARD_CHOICES:
            raise OptionError(f"holdup: option 'lost_card' is {self.options.lost_card!r};"
                              f" choose {' or '.join(map(repr, LOST_CARD_CHOICES))}")
        counts = deck_gems(parse_deck(self.options.deck))
        self.gems = tuple(sorted(counts))
        self.gem_index = {gem: index for index, gem in enumerate(self.gems)}
        self.gem_names = {gem: str(gem) for gem in self.gems}
        self.deck_counts = tuple(counts[gem] for gem in self.gems)
        self.max_game_length = self._length_bound()

    def _length_bound(self) -> int:
        # The rules set no limit (a player may never roll a 5 or 6). A turn takes at most
        # 4 rolls + 3 re-rolls + 1 flip + 2 actions per 5/6 die; a turn places 4/3 cards on
        # average, so 10 turns per card to draw is far beyond any real or random game.
        to_draw = sum(self.deck_counts) - ROWS * OPENING_PER_ROW
        per_turn = MAX_ROLLS + (MAX_ROLLS - 1) + 1 + 2 * DICE
        return ROWS * OPENING_PER_ROW + per_turn * (10 * to_draw + self.num_players) + self.num_players

    def options_dict(self) -> dict[str, Any]:
        # Built by hand: dataclasses.asdict deep-copies the deck, and the checks call this often.
        options = {field.name: getattr(self.options, field.name) for field in fields(self.options)}
        options["deck"] = [list(row) for row in self.options.deck]
        return options

    def new_initial_state(self) -> HoldUpState:
        return HoldUpState.initial(self)

    def parse_action(self, text: str):
        return parse_action(text)

    def state_from_dict(self, data: Mapping[str, Any]) -> HoldUpState:
        return state_from_dict(self, data)
