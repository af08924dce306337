"""The invariant checks every game must pass over seeded random playthroughs.

``check_game(game, games=200, seed=0)`` plays seeded random games and raises AssertionError
naming the seed, the move number and the broken invariant.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass
from fractions import Fraction

from engine.core import CHANCE, IllegalActionError, SIMULTANEOUS, TERMINAL, Game, State, sorted_actions
from engine.match import Match


@dataclass
class Summary:
    games: int = 0
    actions: int = 0
    illegal_probes: int = 0


class InvariantError(AssertionError):
    pass


def random_playthrough(game: Game, rng: random.Random, names=None) -> Match:
    """One seeded random game played to its end (chance outcomes drawn from their probabilities)."""
    match = Match(game, names or [f"P{i + 1}" for i in range(game.num_players)])
    while not match.state.is_terminal():
        match.push(choose_action(match.state, rng))
        if len(match.history) > game.max_game_length:
            raise InvariantError(f"{game!r}: more than {game.max_game_length} actions")
    return match


def choose_action(state: State, rng: random.Random):
    if state.is_chance_node():
        return state.sample_chance(rng)
    return rng.choice(state.legal_actions())


def check_game(game: Game, games: int = 200, seed: int = 0, apply_limit: int | None = None) -> Summary:
    """Play ``games`` seeded random games of ``game`` checking every invariant at every state.

    ``apply_limit`` caps how many legal actions are applied per state (all when None), for games
    whose states have hundreds of legal actions.
    """
    summary = Summary()
    for index in range(games):
        game_seed = seed + index
        rng = random.Random(game_seed)
        match = Match(game, [f"P{i + 1}" for i in range(game.num_players)])
        foreign: list = []  # actions legal elsewhere, probed as likely-illegal here
        while True:
            state = match.state
            where = f"{game!r} seed {game_seed} move {len(match.history) + 1}"
            try:
                legal = _check_state(game, state, rng, foreign, apply_limit, summary)
            except AssertionError as exc:
                raise InvariantError(f"{where}: {exc}") from None
            if state.is_terminal():
                break
            action = choose_action(state, rng)
            foreign = list(legal)
            before = state.to_dict()
            match.push(action)
            match.undo()
            _expect(match.state.to_dict() == before, f"{where}: undo of {action} did not restore the state")
            match.redo()
            _expect(len(match.history) <= game.max_game_length,
                    f"{where}: longer than max_game_length={game.max_game_length}")
            summary.actions += 1
        saved = json.loads(json.dumps(match.to_dict()))
        replayed = Match.from_dict(saved, games=lambda _id: type(game))
        _expect(replayed.state == match.state, f"{game!r} seed {game_seed}: save -> load changed the state")
        summary.games += 1
    return summary


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise InvariantError(message)


def _check_state(game, state: State, rng, foreign, apply_limit, summary) -> tuple:
    player = state.current_player()
    legal = state.legal_actions()
    assert isinstance(legal, tuple), "legal_actions() must return a tuple"
    assert legal == sorted_actions(legal), "legal actions are not unique and sorted"
    assert (player == TERMINAL) == state.is_terminal() == (not legal), \
        f"terminal={state.is_terminal()} but player={player} and {len(legal)} legal actions"
    assert (state.outcome() is None) != state.is_terminal(), "outcome() must be None exactly while the game goes on"
    assert player in (CHANCE, SIMULTANEOUS, TERMINAL) or 0 <= player < game.num_players, f"bad player {player}"
    assert len(state.returns()) == game.num_players, "returns() must have one score per player"

    outcomes = state.chance_outcomes()
    if state.is_chance_node():
        assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes), "chance probabilities must be positive Fractions"
        assert sum(p for _, p in outcomes) == 1, "chance probabilities do not sum to exactly 1"
        assert sorted_actions(a for a, _ in outcomes) == legal, "chance outcomes differ from legal actions"
    else:
        assert not outcomes, "chance_outcomes() must be empty at a decision node"

    data = json.loads(json.dumps(state.to_dict()))
    restored = game.state_from_dict(data)
    assert restored == state and restored.legal_actions() == legal, "to_dict -> state_from_dict does not round-trip"
    assert restored.returns() == state.returns(), "to_dict -> state_from_dict changes returns()"

    for action in legal:
        assert state.is_legal(action), f"is_legal({action}) is False for a listed action"
        assert state.explain_illegal(action) == "", f"explain_illegal({action}) is not empty for a legal action"
        assert game.parse_action(str(action)) == action, f"notation of {action!r} does not read back"
    to_apply = legal if apply_limit is None or len(legal) <= apply_limit else rng.sample(legal, apply_limit)
    for action in to_apply:  # the restored state must also behave the same, not just look the same
        assert state.apply(action).to_dict() == restored.apply(action).to_dict(), \
            f"the state read back from to_dict() behaves differently on {action}"

    before = state.to_dict()
    for action in foreign:
        if action in legal:
            continue
        summary.illegal_probes += 1
        assert not state.is_legal(action), f"is_legal({action}) is True but it is not listed"
        assert state.explain_illegal(action), f"no explanation why {action} is illegal"
        try:
            state.apply(action)
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"apply({action}) accepted an unlisted action")
        assert state.to_dict() == before, f"a refused {action} changed the state"
    return legal
