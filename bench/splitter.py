"""Splitter: engine speed, scoring speed, and the placement advisor's strength and time.

Every policy plays the same seeded dice (game k uses the rolls of seed k), solo, through the
engine (each placement validated by ``apply``):
  random    any legal placement;
  greedy    the placement that scores the most points right now (ties at random);
  playout   the advisor's quick playout policy on its own (playout.Judge);
  advisor   ``advise()``, with its time per decision.
The advisor costs about a second of CPU a game at full strength, so by default it plays 100
games (--advisor-games 1000 takes some 20 minutes on one core).
Prints figures, passes or fails nothing. Run: python bench/splitter.py [--help]
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from engine.splitter import PADS, Place, SplitterGame, breakdown
from engine.splitter.advisor import SIMULATED_TURNS, advise, playout_judge
from engine.splitter.playout import Judge, Sim


def random_games_per_second(players: int, pad: str, games: int = 100) -> None:
    game, rng = SplitterGame(players, {"pad": pad}), random.Random(1)
    start = time.perf_counter()
    actions = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            action = state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
            state = state.apply(action)
            actions += 1
    seconds = time.perf_counter() - start
    print(f"engine, {players} player(s), pad {pad}: {games / seconds:,.1f} random full games/s "
          f"({actions / games:.0f} actions a game, {actions / seconds:,.0f} actions/s)")


def scoring_speed(sheets: int = 2000) -> None:
    rng = random.Random(2)
    for pad in PADS.values():
        values = [[rng.randint(1, 6) if pad.is_cell(p) else 0 for p in range(56)] for _ in range(sheets)]
        start = time.perf_counter()
        for sheet in values:
            breakdown(sheet, pad)
        seconds = time.perf_counter() - start
        print(f"scoring breakdown, pad {pad.name}: {sheets / seconds:,.0f} full sheets/s")


def policy_placement(judge: Judge):
    def choose(state, rng, timings):
        sim = Sim(state.pad, state.sheets[0])
        index, left_number, right_number = judge.best(sim.values, sim.masks, sim.empty,
                                                      state.roll.low, state.roll.high, rng)
        left, _ = sim.empty[index]
        return Place(0, left % 8, left // 8, left_number, right_number)
    return choose


def random_placement(state, rng, timings):
    return rng.choice(state.legal_actions())


def advisor_placement(simulated_turns: int):
    def choose(state, rng, timings):
        cpu, wall = time.process_time(), time.perf_counter()
        action = advise(state, 0, rng_seed=rng.getrandbits(32), simulated_turns=simulated_turns)[0].action
        timings.append((state.turn, time.perf_counter() - wall, time.process_time() - cpu))
        return action
    return choose


def solo_games(pad: str, choose, games: int, timings: list) -> list[int]:
    game = SplitterGame(1, {"pad": pad})
    finals = []
    for seed in range(games):
        dice, rng = random.Random(seed), random.Random(10_000 + seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            state = state.apply(state.sample_chance(dice) if state.is_chance_node() else choose(state, rng, timings))
        finals.append(int(state.returns()[0]))
    return finals


def report(name: str, finals: list[int], seconds: float) -> None:
    mean = statistics.fmean(finals)
    error = statistics.stdev(finals) / len(finals) ** 0.5
    print(f"  {name:34s} mean {mean:5.2f} ± {error:4.2f} (s.e.)  min {min(finals):2d}  max {max(finals):2d}  "
          f"over {len(finals):4d} games  [{seconds:6.1f} s]", flush=True)


def timing_report(timings: list) -> None:
    walls = sorted(1000 * w for _, w, _ in timings)
    cpus = sorted(1000 * c for _, _, c in timings)
    first = [1000 * w for turn, w, _ in timings if turn == 0]
    print(f"  advisor time per decision ({len(walls)} decisions): wall mean {statistics.fmean(walls):.0f} ms, "
          f"median {walls[len(walls) // 2]:.0f}, 95th percentile {walls[int(0.95 * len(walls))]:.0f}, "
          f"max {walls[-1]:.0f} ms; CPU mean {statistics.fmean(cpus):.0f} ms, max {cpus[-1]:.0f} ms; "
          f"first turn (44 candidates) wall mean {statistics.fmean(first):.0f} ms")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="solo games of each quick policy (default 1000)")
    parser.add_argument("--advisor-games", type=int, default=100, help="solo games of the advisor (default 100)")
    parser.add_argument("--simulated-turns", type=int, default=SIMULATED_TURNS,
                        help=f"the advisor's work per decision (default {SIMULATED_TURNS}, as shipped)")
    parser.add_argument("--pads", default="A", help="pads to play on (default A; AB for both)")
    args = parser.parse_args(argv)
    print(f"Splitter bench (load average {os.getloadavg()[0]:.2f}, seeded)")
    for players, pad in ((1, "A"), (4, "A"), (4, "B"), (12, "A")):
        random_games_per_second(players, pad, games=20 if players == 12 else 100)
    scoring_speed()
    for pad in args.pads:
        print(f"solo games on pad {pad}, the same dice for every policy:")
        policies = [("random", random_placement, args.games),
                    ("greedy", policy_placement(Judge(PADS[pad])), args.games),
                    ("playout policy", policy_placement(playout_judge(PADS[pad])), args.games),
                    (f"advisor ({args.simulated_turns} simulated turns)", advisor_placement(args.simulated_turns),
                     args.advisor_games)]
        for name, choose, games in policies:
            timings: list = []
            start = time.perf_counter()
            finals = solo_games(pad, choose, games, timings)
            report(name, finals, time.perf_counter() - start)
            if timings:
                timing_report(timings)


if __name__ == "__main__":
    main()
