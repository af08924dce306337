"""The Splitter placement advisor and the quick simulation behind it."""
import random

import pytest

from engine.core import Advice
from engine.splitter import PADS, Place, Roll, SplitterGame
from engine.splitter.advisor import advise, playout_judge
from engine.splitter.playout import Judge, Sim, random_rolls
from engine.splitter.scoring import score

SMALL = 300  # simulated turns per decision: enough to test the ranking, quick to run


def random_sheet(pad, rng, pairs):
    """A sheet with ``pairs`` random mirrored pairs filled (numbers biased to make groups)."""
    values = [0] * 56
    for left, right in rng.sample(pad.pairs, pairs):
        values[left], values[right] = rng.choice((1, 2, 3, 3, 4, 4, 5, 6)), rng.choice((1, 2, 2, 3, 4, 5, 6))
    return values


def options(empty, die1, die2):
    orders = {(die1, die2), (die2, die1)}
    return [(i, a, b) for i in range(len(empty)) for a, b in orders]


@pytest.mark.parametrize("pad", ["A", "B"])
def test_greedy_gain_is_the_exact_change_in_score(pad):
    pad, rng, judge = PADS[pad], random.Random(1), Judge(PADS[pad])
    for _ in range(300):
        sim = Sim(pad, random_sheet(pad, rng, rng.randint(0, 21)))
        die1, die2 = rng.randint(1, 6), rng.randint(1, 6)
        for index, a, b in options(sim.empty, die1, die2):
            left, right = sim.empty[index]
            after = list(sim.values)
            after[left], after[right] = a, b
            gain = judge.placement_gain(sim.values, sim.masks, left, right, a, b)
            assert gain == score(after, pad) - score(sim.values, pad)


@pytest.mark.parametrize("pad", ["A", "B"])
def test_the_quick_policy_picks_a_placement_of_the_largest_gain(pad):
    pad, rng = PADS[pad], random.Random(2)
    for judge in (Judge(pad), playout_judge(pad)):
        for _ in range(300):
            sim = Sim(pad, random_sheet(pad, rng, rng.randint(0, 21)))
            die1, die2 = rng.randint(1, 6), rng.randint(1, 6)
            gains = {option: judge.placement_gain(sim.values, sim.masks, *sim.empty[option[0]], *option[1:])
                     for option in options(sim.empty, die1, die2)}
            chosen = judge.best(sim.values, sim.masks, sim.empty, die1, die2, rng)
            assert gains[chosen] == pytest.approx(max(gains.values()))


def test_a_playout_fills_the_sheet_and_scores_it_exactly():
    pad = PADS["B"]
    sim = Sim(pad, [0] * 56)
    final = sim.play(random_rolls(random.Random(3), 22), Judge(pad).best, random.Random(3))
    assert not sim.empty and all(sim.values[p] for p in pad.cells)
    assert final == score(sim.values, pad)


def rolled_solo(pad="A", dice=Roll(2, 5)):
    return SplitterGame(1, {"pad": pad}).new_initial_state().apply(dice)


def test_advice_ranks_every_legal_placement_once_with_reasons():
    state = rolled_solo()
    advice = advise(state, 0, rng_seed=1, simulated_turns=SMALL)
    assert all(isinstance(a, Advice) for a in advice)
    assert sorted(a.action.sort_key() for a in advice) == [a.sort_key() for a in state.legal_actions()]
    best = advice[0]
    assert str(best.text).startswith(f"write {best.action.left} at ({best.action.x},{best.action.y})")
    assert "expected final score" in best.text


def test_advice_is_reproducible_and_follows_the_seed():
    state = rolled_solo()
    first = advise(state, 0, rng_seed=4, simulated_turns=SMALL)
    assert advise(state, 0, rng_seed=4, simulated_turns=SMALL) == first
    assert [a.value for a in advise(state, 0, rng_seed=5, simulated_turns=SMALL)] != [a.value for a in first]


def test_on_the_last_turn_the_values_are_the_exact_final_scores():
    game = SplitterGame(1, {"pad": "B"})
    rng = random.Random(6)
    state = game.new_initial_state()
    while state.turn < 21:
        state = state.apply(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    state = state.apply(Roll(3, 4))
    advice = advise(state, 0)
    finals = {a: state.apply(a).returns()[0] for a in state.legal_actions()}
    assert {a.action: a.value for a in advice} == finals
    assert advice[0].value == max(finals.values())


def best_last_turn_expectation(state):
    """The exact expected final score before the last roll, written as well as possible."""
    total = 0
    for roll, probability in state.chance_outcomes():
        rolled = state.apply(roll)
        total += probability * max(rolled.apply(a).returns()[0] for a in rolled.legal_actions())
    return float(total)


@pytest.mark.parametrize("seed", range(8))
def test_two_turns_before_the_end_the_advice_matches_the_exact_expectation(seed):
    game = SplitterGame(1, {"pad": "AB"[seed % 2]})
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not (state.turn == 20 and not state.is_chance_node()):
        state = state.apply(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    exact = {a: best_last_turn_expectation(state.apply(a)) for a in state.legal_actions()}
    advice = advise(state, 0, rng_seed=seed)
    assert exact[advice[0].action] >= max(exact.values()) - 0.25
    for a in advice:
        assert a.value == pytest.approx(exact[a.action], abs=0.75)


def test_who_is_advised():
    game = SplitterGame(3)
    state = game.new_initial_state()
    assert advise(state) == []  # the dice first
    state = state.apply(Roll(1, 6)).apply(Place(0, 2, 1, 1, 6))
    assert advise(state, 0) == []  # P1 has written
    assert {a.action.player for a in advise(state, simulated_turns=SMALL)} == {1}  # the first still to write


def test_the_advisor_beats_greedy_on_the_same_dice():
    """A few seeded solo games with a small budget (bench/splitter.py measures 1,000)."""
    totals = {"greedy": 0, "advisor": 0}
    game = SplitterGame(1)
    greedy = Judge(game.pad)
    for seed in range(6):
        for name in totals:
            dice, rng = random.Random(seed), random.Random(seed)
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state = state.apply(state.sample_chance(dice))
                elif name == "advisor":
                    state = state.apply(advise(state, 0, rng_seed=seed, simulated_turns=SMALL)[0].action)
                else:
                    sim = Sim(game.pad, state.sheets[0])
                    index, a, b = greedy.best(sim.values, sim.masks, sim.empty, state.roll.low, state.roll.high, rng)
                    left, right = sim.empty[index]
                    state = state.apply(Place(0, left % 8, left // 8, a, b))
            totals[name] += state.returns()[0]
    assert totals["advisor"] > totals["greedy"]
