"""Shared by the engine benchmarks: seeded random full games, timed in CPU seconds (so other
work on a shared machine does not distort them)."""
from __future__ import annotations

import random
import time


def play(game, rng: random.Random) -> tuple[list, int]:
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


def bench_games(game_class, players: int, options: dict, games: int, seed: int) -> list:
    """Print random full games per second for one set-up; return the decision states met."""
    game, rng = game_class(players, options), random.Random(seed)
    start, lengths, deciding = time.process_time(), [], []
    for _ in range(games):
        states, length = play(game, rng)
        deciding += states
        lengths.append(length)
    seconds = time.process_time() - start
    label = ", ".join(f"{k}={v}" for k, v in options.items()) or "default options"
    print(f"{players} players, {label}: {games / seconds:,.1f} random full games/s "
          f"({sum(lengths) / games:.0f} actions a game, {sum(lengths) / seconds:,.0f} actions/s; "
          f"longest {max(lengths)} actions, bound {game.max_game_length}; CPU time)")
    return deciding
