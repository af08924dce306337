"""Hilo engine speed: random full games per second, the length of random games against the
engine's bound, advice and card-counting speed, and the cost of the invariant checks per state.

Seeded; prints figures, passes or fails nothing. Run: python bench/hilo.py
"""
from __future__ import annotations

import random
import statistics
import time
from collections import defaultdict

from engine.testing import check_game
from engine.hilo import HiloGame, advise, count_cards

from _games import bench_games

GAMES = 100
SEED = 3



def bench_advice(states: list) -> None:
    by_phase = defaultdict(list)
    for state in states:
        by_phase[state.phase].append(state)
    for phase, found in sorted(by_phase.items()):
        sample = random.Random(SEED).sample(found, min(60, len(found)))
        times = []
        for state in sample:
            start = time.perf_counter()
            advise(state)
            times.append(time.perf_counter() - start)
        print(f"advise() at a {phase!r} decision: median {1000 * statistics.median(times):.2f} ms, "
              f"max {1000 * max(times):.1f} ms ({len(sample)} positions, exact fractions)")
    sample = random.Random(SEED).sample(states, min(200, len(states)))
    start = time.perf_counter()
    for state in sample:
        count_cards(state).to_dict()
    print(f"count_cards(): {1000 * (time.perf_counter() - start) / len(sample):.2f} ms a position")


def bench_checks() -> None:
    start = time.process_time()
    summary = check_game(HiloGame(2), games=10, seed=SEED, apply_limit=2)
    seconds = time.process_time() - start
    print(f"invariant suite (engine.testing.check_game, 2 players, apply_limit=2): "
          f"{seconds / summary.games:.2f} s CPU a game, {1000 * seconds / summary.actions:.2f} ms a state")


def main() -> None:
    deciding = []
    for players in (2, 4, 6):
        deciding += bench_games(HiloGame, players, {}, GAMES, SEED)
    deciding += bench_games(HiloGame, 3, {"optional_removal": False, "auto_remove_at_reveal": False}, GAMES, SEED)
    bench_advice(deciding)
    bench_checks()


if __name__ == "__main__":
    main()
