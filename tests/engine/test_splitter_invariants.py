"""Splitter under the shared invariant suite, and random illegal actions.

Each player count (1, 4, 12) plays 200 seeded games on pads A and B: some from the first roll,
the rest from a position a few turns before the end (sheets filled by seeded random play),
which reaches the same rules (rolls, writing in any order, the end of the game, scoring) in
far fewer actions: a full 12-player game is 286 actions with up to 528 legal ones each.
"""
import random

import pytest

from engine.core import IllegalActionError
from engine.splitter import Place, Roll, SplitterGame
from engine.testing import check_game, random_playthrough


def late_start(turn: int, seed: int) -> type:
    """A SplitterGame whose games start after ``turn`` turns of seeded random play."""
    starts = {}  # states are immutable: play the first turns once per player count and pad

    def new_initial_state(self):
        key = (self.num_players, self.pad.name)
        if key not in starts:
            rng = random.Random(seed)
            state = SplitterGame.new_initial_state(self)
            while state.turn < turn:
                state = state.apply(state.sample_chance(rng) if state.is_chance_node()
                                    else rng.choice(state.legal_actions()))
            starts[key] = state
        return starts[key]

    return type(f"SplitterFromTurn{turn}", (SplitterGame,), {"new_initial_state": new_initial_state})


# (players, pad, first turn, games, seed): 200 games per player count, both pads.
SUITES = [
    (1, "A", 0, 40, 0), (1, "B", 0, 40, 100), (1, "A", 14, 60, 200), (1, "B", 14, 60, 300),
    (4, "A", 0, 8, 400), (4, "B", 0, 8, 500), (4, "A", 19, 92, 600), (4, "B", 19, 92, 700),
    (12, "A", 0, 2, 800), (12, "B", 0, 2, 900), (12, "A", 21, 98, 1000), (12, "B", 21, 98, 1100),
]


@pytest.mark.parametrize("players, pad, turn, games, seed", SUITES)
def test_invariant_suite(players, pad, turn, games, seed):
    game_class = late_start(turn, seed) if turn else SplitterGame
    summary = check_game(game_class(players, {"pad": pad}), games=games, seed=seed, apply_limit=3)
    assert summary.games == games and summary.illegal_probes > 0


def test_suites_cover_200_games_per_player_count_on_both_pads():
    for players in (1, 4, 12):
        suites = [s for s in SUITES if s[0] == players]
        assert sum(s[3] for s in suites) >= 200
        assert {s[1] for s in suites} == {"A", "B"} and min(s[2] for s in suites) == 0


def random_action(rng, players):
    if rng.random() < 0.2:
        return Roll(rng.randint(0, 7), rng.randint(0, 7))
    return Place(rng.randint(-1, players), rng.randint(-1, 8), rng.randint(-1, 7),
                 rng.randint(0, 7), rng.randint(0, 7))


@pytest.mark.parametrize("players", [1, 4])
def test_random_illegal_actions_change_nothing_and_are_explained(players):
    rng = random.Random(players)
    refused = 0
    for seed in range(6):
        match = random_playthrough(SplitterGame(players, {"pad": "AB"[seed % 2]}), random.Random(seed))
        for state in match.states()[::3]:
            before = state.to_dict()
            for _ in range(30):
                action = random_action(rng, players)
                if state.is_legal(action):
                    continue
                refused += 1
                reason = state.explain_illegal(action)
                assert reason, f"no reason given for {action}"
                with pytest.raises(IllegalActionError):
                    state.apply(action)
                assert state.to_dict() == before
    assert refused > 1000
