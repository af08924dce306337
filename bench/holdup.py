"""Hold Up 4D6 engine speed: random full games per second (example deck), advice speed, and
the longest random game against the engine's length bound.

Seeded; prints figures, passes or fails nothing. Run: python bench/holdup.py
"""
from __future__ import annotations

import random
import time
from collections import defaultdict

from engine.holdup import HoldUpGame, advise

GAMES = 200
SEED = 4


def play(game: HoldUpGame, rng: random.Random) -> tuple[list, int]:
    """One random game to its end (every action validated by ``apply``); the decision states
    met and the number of actions."""
    state, actions, deciding = game.new_initial_state(), 0, []
    while not state.is_terminal():
        if state.is_chance_node():
            action = state.sample_chance(rng)
        else:
            deciding.append(state)
            action = rng.choice(state.legal_actions())
        state = state.apply(action)
        actions += 1
    return deciding, actions


def bench_games(players: int, options: dict) -> list:
    game, rng = HoldUpGame(players, options), random.Random(SEED)
    start, actions, deciding, longest = time.perf_counter(), 0, [], 0
    for _ in range(GAMES):
        states, length = play(game, rng)
        deciding += states
        actions += length
        longest = max(longest, length)
    seconds = time.perf_counter() - start
    label = ", ".join(f"{k}={v}" for k, v in options.items()) or "default options"
    print(f"{players} players, {label}: {GAMES / seconds:,.0f} random full games/s "
          f"({actions / GAMES:.0f} actions a game, {actions / seconds:,.0f} actions/s; "
          f"longest {longest} actions, bound {game.max_game_length})")
    return deciding


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
        deciding += bench_games(players, {})
    deciding += bench_games(4, {"keep_dice_between_rolls": True})
    bench_advice(deciding)


if __name__ == "__main__":
    main()
