"""Final scoring (also shown as a running total during play): cards + VVV + stone sets - last card.

G G G is not worth points by itself: at the end it takes the top card of another player's pile
(see HoldUpState), so its effect is already in the piles that are scored here.
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

from engine.holdup.deck import Gem
from engine.holdup.rules import BONUS, SET_SIZE


def breakdown(pile: Sequence[Gem], gv: str, placed_last_card: bool, set_bonus_per_type: bool,
              set_pile: Sequence[Gem] | None = None) -> dict:
    """One player's score, part by part (JSON-ready).

    ``set_pile``: the cards that count for stone sets when they differ from ``pile`` (option
    steal_before_set_bonus off: sets are counted before the G G G steals).
    """
    stones = Counter(gem.stone for gem in (pile if set_pile is None else set_pile))
    sets = sorted(stone for stone, count in stones.items() if count >= SET_SIZE)
    if not set_bonus_per_type:
        sets = sets[:1]
    parts = {
        "cards": sum(gem.value for gem in pile),
        "vvv": BONUS if gv == "V" * len(gv) else 0,
        "sets": BONUS * len(sets),
        "last_card": -BONUS if placed_last_card else 0,
    }
    return {**parts, "total": sum(parts.values()), "set_stones": sets}


def piles_before_steals(piles: Sequence[Sequence[Gem]],
                        steals: Sequence[tuple[int, int, Gem]]) -> list[list[Gem]]:
    """Each player's cards as they were before the end-of-game G G G steals."""
    before = [list(pile) for pile in piles]
    for taker, victim, gem in reversed(steals):
        before[taker].remove(gem)
        before[victim].append(gem)
    return before
