"""Hold Up 4D6 engine speed: random full games per second (example deck), advice speed, and
the longest random game against the engine's length bound.

Seeded; prints figures, passes or fails nothing. Run: python bench/holdup.py
"""
from __future__ import annotations

import random
import time
from collections import defaultdict

from engine.holdup import HoldUpGame, advise

from _games import bench_games

GAMES = 200
SEED = 4



def bench_advice(states: list) -> None:
    by_phase = defaultdict(list)
    for state in states:
        by_phase[state.phase].append(state)
    for phase, found in sorted(by_phase.items()):
        sample = random.Random(SEED).sample(found, min(100, len(found)))
        start = time.perf_counter()
        for state in sample:
            advise(state)
        seconds = time.perf_counter() - start
        print(f"advise() at a {phase!r} decision: {1000 * seconds / len(sample):.2f} ms each "
              f"({len(sample)} positions, exact fractions)")


def main() -> None:
    deciding = []
    for players in (3, 4, 5):
        deciding += bench_games(HoldUpGame, players, {}, GAMES, SEED)
    deciding += bench_games(HoldUpGame, 4, {"keep_dice_between_rolls": True}, GAMES, SEED)
    bench_advice(deciding)


if __name__ == "__main__":
    main()
