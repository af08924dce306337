"""The Hilo game: players, options (the spec's [decision]s) and the entry points of the engine."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from engine.core import Action, Advice, Game, OptionError
from engine.hilo.actions import Draw, Flip, Place, Remove, Reveal, Seen, Slide, Take, parse_action
from engine.hilo.cards import DECK, DEFAULT_PALETTE, Palette, colour_of, value_of
from engine.hilo.serialize import fields_from_dict
from engine.hilo.state import HiloState

FIRST_PLAYER_TIES = ("ask", "first_seat")


@dataclass(frozen=True)
class HiloOptions:
    # A completed HILO may be kept (the assistant proposes removal and counts who declines).
    optional_removal: bool = True
    # At the final reveal, HILOs are removed for the players, choosing what leaves each the lowest
    # score; False: each player decides (line, slide, keep) as during play.
    auto_remove_at_reveal: bool = True
    # Tie for the highest revealed sum: "ask" the table who is youngest, or "first_seat": the
    # tied player listed first starts (for tables that list players youngest first).
    first_player_tie: str = "ask"
    # An empty draw pile is refilled with the discards but the top one, shuffled; False: players
    # must take the discard while the pile is empty.
    reshuffle_discards: bool = True
    # The deck's eight colours, as "name:initial" (names as the camera reports them).
    palette: str = DEFAULT_PALETTE

    def __post_init__(self):
        if self.first_player_tie not in FIRST_PLAYER_TIES:
            raise OptionError(f"hilo: option 'first_player_tie' is one of {', '.join(FIRST_PLAYER_TIES)}, "
                              f"not {self.first_player_tie!r}")
        try:
            Palette.parse(self.palette)
        except ValueError as exc:
            raise OptionError(f"hilo: option {exc}") from None


class HiloGame(Game):
    id = "hilo"
    title = "Hilo"
    min_players = 2
    max_players = 6
    Options = HiloOptions
    # The rules allow endless rounds (players may swap face-up cards for ever); this bounds the
    # checks, far above the longest seeded random game (bench/hilo.py prints the longest seen).
    max_game_length = 20_000
    option_choices = {"first_player_tie": FIRST_PLAYER_TIES}
    score_file = "ROUND.json"
    camera_actions = (Seen, Take, Draw, Place, Flip, Remove, Slide, Reveal)
    camera_reads = ("cards",)

    def advise(self, state: HiloState) -> list[Advice]:
        from engine.hilo.advice import advise
        return advise(state)

    @staticmethod
    def score_text(text: str, **options: Any) -> dict[str, Any]:
        from engine.hilo.score_file import score_text
        return score_text(text, **options)

    @staticmethod
    def format_score(result: dict[str, Any]) -> str:
        from engine.hilo.score_file import format_score
        return format_score(result)

    def __init__(self, num_players: int, options: Mapping[str, Any] | None = None):
        super().__init__(num_players, options)
        self.palette = Palette.parse(self.options.palette)
        # every card's chance outcome, in legal-action order (chance nodes filter this list)
        seen = (Seen(self.palette.names[colour_of(card)], value_of(card)) for card in DECK)
        self.seen_actions = tuple(sorted(zip(DECK, seen), key=lambda pair: pair[1].sort_key()))
        self._parsed: dict[str, Action] = {}  # notation already read (a few hundred lines at most)

    def new_initial_state(self) -> HiloState:
        return HiloState.new_round(self)

    def parse_action(self, text: str) -> Action:
        action = self._parsed.get(text) if isinstance(text, str) else None
        if action is None:
            action = parse_action(text, self.palette)
            self._parsed[text] = action
        return action

    def state_from_dict(self, data: Mapping[str, Any]) -> HiloState:
        return HiloState(self, **fields_from_dict(self, data))
