"""The placement advisor: legal placements ranked by the expected final score of the sheet.

Each candidate placement is followed by playouts to the end of the game: future rolls drawn
at random (seeded), written by a quick policy (``playout.Judge``: the largest gain in the
sheet's worth). Every candidate meets the same rolls, so their averages differ by the
placements, not by luck. Candidates are narrowed by successive halving: each round shares out
playouts among the survivors and keeps the better half; the last one standing is advised
first. The work is a fixed number of simulated turns per decision (at least one playout per
candidate), so the answer is reproducible and its time bounded; late in the game, when
playouts are short, there are more of them.
"""
from __future__ import annotations

import random
from typing import Sequence

from engine.core import Advice
from engine.text import tr
from engine.splitter.actions import Place
from engine.splitter.game import TURNS, SplitterState
from engine.splitter.pads import Pad, position
from engine.splitter.playout import Judge, Sim, random_rolls

SIMULATED_TURNS = 2000   # the work per decision (see bench/splitter.py for time and strength)
PLAYOUT_OVERHEAD = 2     # ... counting each playout as this many turns more than it simulates
# The playout policy's worth of incomplete groups and agreeing hearts (see playout.Judge), chosen
# by the mean final score of the policy on its own over seeded games.
PARTIAL = 0.7
HEARTS_PARTIAL = 0.2

_judges: dict[str, Judge] = {}


def playout_judge(pad: Pad) -> Judge:
    if pad.name not in _judges:
        _judges[pad.name] = Judge(pad, PARTIAL, HEARTS_PARTIAL)
    return _judges[pad.name]


def advise(state: SplitterState, player: int | None = None, rng_seed: int = 0,
           simulated_turns: int = SIMULATED_TURNS) -> list[Advice]:
    """``player``'s legal placements of this turn's roll, best first (none when they have nothing
    to write). ``player`` defaults to the first seat still to write. On paper the sheets are
    written away from the kiosk, which has nothing to advise."""
    if state.paper:
        return []
    waiting = state.waiting_for()
    if player is None:
        player = waiting[0] if waiting else 0
    if player not in waiting:
        return []
    placements = [a for a in state.legal_actions() if a.player == player]
    sim = Sim(state.pad, state.sheets[player])
    ranked = rank_placements(sim, [(position(a.x, a.y), position(a.mirror_x, a.y), a.left, a.right)
                                   for a in placements],
                             TURNS - state.turn - 1, random.Random(rng_seed), simulated_turns)
    return [Advice(placements[i], value, _reason(placements[i], value, playouts))
            for i, value, playouts in ranked]


def rank_placements(sim: Sim, placements: Sequence[tuple[int, int, int, int]], turns_left: int,
                    rng: random.Random, simulated_turns: int = SIMULATED_TURNS) -> list[tuple[int, float, int]]:
    """(index, expected final score, playouts) of each placement (left, right, left number,
    right number) of ``sim``, best first; exact scores when no turn is left."""
    judge = playout_judge(sim.pad)
    starts = []
    for left, right, first, second in placements:
        start = sim.copy()
        start.write(start.empty.index((left, right)), first, second)
        starts.append(start)
    if turns_left == 0:
        return sorted(((i, float(s.score()), 0) for i, s in enumerate(starts)), key=lambda r: -r[1])
    results: list[list[int]] = [[] for _ in starts]  # final scores, playout by playout
    alive = list(range(len(starts)))
    rounds = max(1, (len(alive) - 1).bit_length())
    # a playout also costs about two turns' work to set up and score
    per_round = simulated_turns // (rounds * (turns_left + PLAYOUT_OVERHEAD))
    seed = rng.getrandbits(32)
    done = 0
    for _ in range(rounds):
        extra = max(1, per_round // len(alive))
        for j in range(done, done + extra):
            rolls = random_rolls(random.Random(seed + j), turns_left)
            for i in alive:
                results[i].append(starts[i].copy().play(rolls, judge.best, random.Random(seed + j)))
        done += extra
        alive.sort(key=lambda i: -sum(results[i]))  # the survivors have played the same rolls
        alive = alive[:(len(alive) + 1) // 2]
    # A placement dropped early played only the first rolls: its estimate is the winner's mean
    # plus how it did against the winner on those rolls (never above the winner's, which beat it).
    winner = results[alive[0]]
    prefix = [0]
    for final in winner:
        prefix.append(prefix[-1] + final)
    estimates = [sum(r) / len(r) + prefix[-1] / len(winner) - prefix[len(r)] / len(r) for r in results]
    order = sorted(range(len(starts)), key=lambda i: (i != alive[0], -estimates[i]))
    return [(i, estimates[i], len(results[i])) for i in order]


def _reason(action: Place, value: float, playouts: int):
    where = tr("{left} at ({x},{y}) and {right} at ({mirror_x},{y})", left=action.left, right=action.right,
               x=action.x, y=action.y, mirror_x=action.mirror_x)
    if playouts == 0:
        return tr("write {where}: the sheet is then full and scores {score}", where=where, score=int(value))
    if playouts == 1:
        return tr("write {where}: expected final score {score} (from 1 simulated game)", where=where,
                  score=f"{value:.1f}")
    return tr("write {where}: expected final score {score} (from {playouts} simulated games)",
              where=where, score=f"{value:.1f}", playouts=playouts)
