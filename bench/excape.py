"""Excape engine speed: random full games per second, advice per second, longest game seen;
and how often a player following advise() wins against players who always keep on the highest
free rung.

Seeded; prints figures, passes or fails nothing. Times are the process's CPU time, so other
work on a shared machine does not distort them. Run: python bench/excape.py
"""
from __future__ import annotations

import random
import time

from engine.excape import ExcapeGame, Place, advise
from engine.excape.game import MAX_TRACK_LENGTH

from _games import bench_games, play

GAMES = 300
SEED = 2024



def bench_advice(states: list) -> None:
    sample = random.Random(SEED).sample(states, min(300, len(states)))
    start = time.process_time()
    for state in sample:
        advise(state)
    seconds = time.process_time() - start
    print(f"advise(): {len(sample) / seconds:,.0f} calls/s "
          f"({1000 * seconds / len(sample):.2f} ms each, exact fractions)")


def longest_game() -> None:
    game, rng = ExcapeGame(6, {"track_length": MAX_TRACK_LENGTH, "double_x_variant": True,
                               "must_beat_lower_rungs": True}), random.Random(SEED)
    lengths = [play(game, rng)[1] for _ in range(20)]
    print(f"longest of 20 random 6-player games on a {MAX_TRACK_LENGTH}-space track: {max(lengths)} actions "
          f"(max_game_length = {ExcapeGame.max_game_length})")


def advice_strength(players: int = 3, games: int = 100) -> None:
    game, rng, wins = ExcapeGame(players), random.Random(SEED), 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = state.sample_chance(rng)
            elif state.seat == 0:
                action = advise(state)[0].action
            else:
                action = max((a for a in state.legal_actions() if isinstance(a, Place)), key=lambda a: a.rung)
            state = state.apply(action)
        wins += state.outcome().winners == (0,)
    print(f"seat following advise() against {players - 1} highest-free-rung players: won {wins} of {games} "
          f"games (an equal share would be {games / players:.0f})")


def main() -> None:
    deciding = []
    for players in (3, 6):
        deciding += bench_games(ExcapeGame, players, {}, GAMES, SEED)
        bench_games(ExcapeGame, players, {"double_x_variant": True, "must_beat_lower_rungs": True}, GAMES, SEED)
    bench_advice(deciding)
    longest_game()
    advice_strength()


if __name__ == "__main__":
    main()
