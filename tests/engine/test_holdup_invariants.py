"""Hold Up 4D6 over seeded random games: the shared invariant suite, card conservation, and
random illegal actions."""
import math
import random
from collections import Counter

import pytest

from engine.core import IllegalActionError, State
from engine.holdup import Draw, Flip, HoldUpGame, Keep, Place, Reroll, Roll, Steal
from engine.testing import check_game, random_playthrough

# A short deck keeps each game to a few turns (the invariant suite checks every action of every
# state); a stone with four cards makes stone sets possible and onyx 5 x 2 tests counts above 1.
SHORT_DECK = [["ruby", v, 1] for v in range(1, 5)] + [["jade", v, 1] for v in range(1, 5)] + [["onyx", 5, 2]]

# Each option away from its default, one at a time (the defaults are the first entry).
OPTION_SETS = [
    {},
    {"keep_dice_between_rolls": True},
    {"pile_sorted": False},
    {"set_bonus_per_type": False},
    {"lost_card": "draw_pile"},
    {"complete_round": False},
    {"steal_before_set_bonus": False},
]


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: next(iter(o), "defaults"))
def test_invariant_suite_short_deck(players, options):
    game = HoldUpGame(players, {"deck": SHORT_DECK, **options})
    summary = check_game(game, games=10, seed=1000 * players + OPTION_SETS.index(options) * 10, apply_limit=3)
    assert summary.games == 10 and summary.illegal_probes > 0


@pytest.mark.parametrize("players", [3, 5])
def test_invariant_suite_example_deck(players):
    summary = check_game(HoldUpGame(players), games=2, seed=players, apply_limit=2)
    assert summary.games == 2 and summary.actions > 100


def _deck_counter(game):
    return Counter({(stone, value): count for stone, value, count in game.options.deck})


def _cards_in_play(state):
    seen = Counter()
    for group in (*state.rows, *state.piles, state.removed, (state.held,) if state.held else ()):
        seen.update((gem.stone, gem.value) for gem in group)
    for gem, count in zip(state.game.gems, state.draw):
        seen[(gem.stone, gem.value)] += count
    return seen


@pytest.mark.parametrize("players", [3, 4, 5])
def test_cards_are_conserved_in_every_state_of_random_games(players):
    rng = random.Random(players)
    for index in range(40):
        options = {name: value for option in OPTION_SETS for name, value in option.items() if rng.random() < 0.5}
        game = HoldUpGame(players, options if index % 2 else {"deck": SHORT_DECK, **options})
        deck = _deck_counter(game)
        match = random_playthrough(game, random.Random(index))
        for state in match.states():
            assert _cards_in_play(state) == deck, f"{game!r} seed {index}: cards appeared or vanished"
        final = match.state
        assert final.draw_total() == 0 and final.last_card_by is not None
        assert all(len(faces) == 3 for faces in final.gv)
        scores = final.summary()["scores"]
        for seat, score in enumerate(scores):
            assert score["cards"] == sum(gem.value for gem in final.piles[seat])
            assert score["total"] == score["cards"] + score["vvv"] + score["sets"] + score["last_card"]
        assert sum(s["last_card"] for s in scores) == -10


def _random_action(rng):
    kind = rng.randrange(7)
    if kind == 0:
        return Draw(rng.choice(["ruby", "jade", "topaz", "diamond"]), rng.randint(-1, 12))
    if kind == 1:
        return Roll(tuple(rng.randint(0, 7) for _ in range(rng.randint(1, 5))))
    if kind == 2:
        return Keep()
    if kind == 3:
        return Reroll(tuple(rng.randint(1, 6) for _ in range(rng.randint(0, 4))))
    if kind == 4:
        return Flip(tuple(rng.randint(0, 4) for _ in range(rng.randint(1, 3))))
    if kind == 5:
        return Place(rng.randint(0, 4))
    return Steal(rng.randint(-1, 5))


def test_random_illegal_actions_change_nothing_and_are_explained():
    rng = random.Random(5)
    probes = 0
    for index in range(12):
        game = HoldUpGame(3 + index % 3, {"deck": SHORT_DECK, "keep_dice_between_rolls": index % 2 == 0})
        for state in random_playthrough(game, random.Random(index)).states():
            before = state.to_dict()
            for _ in range(6):
                action = _random_action(rng)
                if state.is_legal(action):
                    assert state.explain_illegal(action) == ""
                    continue
                probes += 1
                reason = state.explain_illegal(action)
                assert reason and reason != "that action is not allowed now", f"{action} in {before}"
                with pytest.raises(IllegalActionError):
                    state.apply(action)
                assert state.to_dict() == before
    assert probes > 500


class _Fixed:
    """A stand-in for random.Random whose random() returns chosen points."""

    def __init__(self, point):
        self.point = point

    def random(self):
        return self.point


def test_fast_chance_sampling_picks_exactly_what_the_generic_sampler_picks():
    game = HoldUpGame(3, {"deck": [["ruby", 1, 3], ["jade", 2, 1], ["onyx", 3, 5]], "keep_dice_between_rolls": True})
    match = random_playthrough(game, random.Random(2))
    states = [s for s in match.states() if s.is_chance_node()]
    assert {s.phase for s in states} == {"deal", "roll", "draw"}
    for state in states:
        points = [0.0, 0.5, math.nextafter(1.0, 0.0)]
        running = 0
        for _, probability in state.chance_outcomes():  # every boundary, and the floats beside it
            running += probability
            points += [float(running), math.nextafter(float(running), 0.0), math.nextafter(float(running), 1.0)]
        for point in (p for p in points if 0.0 <= p < 1.0):
            assert state.sample_chance(_Fixed(point)) == State.sample_chance(state, _Fixed(point)), point
