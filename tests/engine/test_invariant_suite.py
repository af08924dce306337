import pytest

from engine.core import CHANCE, Outcome
from engine.testing import InvariantError, check_game, random_playthrough
from toy_game import ToyGame, ToyState
import random


def test_toy_game_passes_the_invariant_suite():
    summary = check_game(ToyGame(2), games=200, seed=1)
    assert summary.games == 200 and summary.actions > 1000 and summary.illegal_probes > 100


def test_outcome_names_the_winners_and_ties_share():
    state = ToyState(ToyGame(2), scores=(10, 3))
    assert state.outcome() == Outcome("game over", (0,), (10.0, 3.0))
    tied = ToyState(ToyGame(2), scores=(6, 6), turns=8)
    assert tied.outcome().winners == (0, 1)


def test_random_playthrough_is_reproducible():
    a = random_playthrough(ToyGame(2), random.Random(7)).lines()
    b = random_playthrough(ToyGame(2), random.Random(7)).lines()
    assert a == b and len(a) > 2


class _Broken(ToyState):
    """Each mutation breaks one invariant; the suite must catch every one."""

    mutation = ""

    def _wrap(self, state):
        state.__class__ = type(self)
        return state

    def _apply(self, action):
        return self._wrap(super()._apply(action))

    def legal_actions(self):
        legal = super().legal_actions()
        if self.mutation == "unsorted" and len(legal) > 1:
            return tuple(reversed(legal))
        return legal

    def chance_outcomes(self):
        outcomes = super().chance_outcomes()
        if self.mutation == "probabilities" and outcomes:
            return outcomes[:-1]
        return outcomes

    def to_dict(self):
        data = super().to_dict()
        if self.mutation == "lossy_dict":
            data.pop("pending")
            data["pending"] = 0
        return data

    def explain_illegal(self, action):
        return "" if self.mutation == "no_reason" else super().explain_illegal(action)


@pytest.mark.parametrize("mutation, message", [
    ("unsorted", "not unique and sorted"),
    ("probabilities", "sum to exactly 1"),
    ("lossy_dict", "behaves differently"),
    ("no_reason", "no explanation"),
])
def test_the_suite_catches_a_broken_game(mutation, message):
    broken = type("Broken", (_Broken,), {"mutation": mutation})

    class Game(ToyGame):
        def new_initial_state(self):
            return broken(self)

        def state_from_dict(self, data):
            state = super().state_from_dict(data)
            state.__class__ = broken
            return state

    with pytest.raises(InvariantError, match=message):
        check_game(Game(2), games=20)


def test_the_chance_player_is_minus_one():
    assert ToyGame(2).new_initial_state().current_player() == CHANCE
