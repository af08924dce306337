"""Round and game scoring."""
from __future__ import annotations

from typing import Sequence

END_TOTAL = 100  # the game ends after a round in which a running total exceeds 99


def round_scores(sums: Sequence[int], trigger: int) -> tuple[int, ...]:
    """Each grid's total; the player who ended the round doubles theirs unless it is strictly the
    lowest (a tie for lowest still doubles); a negative total is never doubled."""
    scores = list(sums)
    own = sums[trigger]
    strictly_lowest = all(own < other for seat, other in enumerate(sums) if seat != trigger)
    if own > 0 and not strictly_lowest:
        scores[trigger] = 2 * own
    return tuple(scores)


def game_over(totals: Sequence[int]) -> bool:
    return max(totals) >= END_TOTAL

