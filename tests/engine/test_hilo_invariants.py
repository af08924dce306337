"""Hilo over seeded random games: the shared invariant suite, card conservation, random illegal actions."""
import json
import random

import pytest

from engine.core import IllegalActionError
from engine.testing import check_game, random_playthrough
from engine.hilo import Draw, Flip, HiloGame, Keep, Place, Remove, Reveal, Seen, Slide, Take, Youngest
from engine.hilo import grid as g
from engine.hilo import phases as ph
from engine.hilo.cards import DECK_SIZE, HIDDEN, value_of

# 150 games in all: most with two players (the cheapest to check), every option that changes the
# play, and larger tables. (Each two-player game takes 0.3-0.45 s: a chance node lists every card
# left, and each is checked and probed again at the next state.)
SUITES = [
    (2, {}, 90),
    (2, {"optional_removal": False, "auto_remove_at_reveal": False}, 35),
    (3, {"first_player_tie": "first_seat", "reshuffle_discards": False}, 20),
    (4, {}, 3),
    (6, {}, 2),
]


@pytest.mark.parametrize("players, options, games", SUITES)
def test_invariant_suite(players, options, games):
    summary = check_game(HiloGame(players, options), games=games, seed=1000 * players, apply_limit=2)
    assert summary.games == games and summary.illegal_probes > summary.actions


def _cards_in_play(state):
    """Every card's place: draw pile, discard (which holds the removed lines), grids, hand, in flight."""
    cells = [cell for grid in state.grids for row in grid for cell in row]
    face_up = [cell for cell in cells if cell >= 0]
    known = face_up + list(state.discard) + list(state.recycled) + ([state.drawn] if state.drawn is not None else [])
    in_flight = 1 if state.phase == ph.SWAP_REVEAL else 0  # a face-down card on its way to the discard
    return known, cells.count(HIDDEN), in_flight


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_the_104_cards_are_conserved_at_every_step(players):
    for seed in range(3):
        match = random_playthrough(HiloGame(players), random.Random(seed))
        for before, action, state in zip(match.states(), match.history, match.states()[1:]):
            known, hidden, in_flight = _cards_in_play(state)
            assert len(known) == len(set(known)), f"a card is in two places after {action}"
            assert len(known) + hidden + in_flight + state.fresh == DECK_SIZE, f"cards lost after {action}"
            assert len(state.unseen()) == hidden + in_flight + state.fresh
            view = state.table_view()
            assert sum(row.count("face-down") for grid in view["players"] for row in grid["cells"]) == hidden
            json.dumps([view, state.summary()])
            if isinstance(action, Remove):  # a removed line goes onto the discard, lowest on top
                grid = before.grids[before.player]
                line = {grid[r][c] for r, c in g.line_cells(grid, action.line)}
                assert line == set(state.discard[-3:]) and state.discard[-1] == min(line, key=value_of)
        assert match.state.is_terminal()
        assert match.state.describe([f"P{i + 1}" for i in range(players)]).startswith("Game over")


def _random_action(rng, palette):
    cell = lambda: rng.randrange(-1, 4)
    kind = rng.randrange(11)
    return [
        lambda: Seen(rng.choice(palette.names + ("mauve",)), rng.randrange(-2, 13)),
        lambda: Reveal(rng.randrange(-1, 7), cell(), cell()),
        lambda: Youngest(rng.randrange(-1, 7)),
        lambda: Take(cell(), cell()),
        lambda: Draw(),
        lambda: Place(cell(), cell()),
        lambda: Flip(cell(), cell()),
        lambda: Remove(rng.choice(("row", "col", "diag", "anti", "zigzag")), rng.randrange(-1, 4)),
        lambda: Keep(),
        lambda: Slide(rng.choice(("vertical", "horizontal", "sideways"))),
        lambda: Reveal(0, 0, 0),
    ][kind]()


@pytest.mark.parametrize("players, options", [(2, {}), (3, {"optional_removal": False})])
def test_random_illegal_actions_never_change_the_state_and_are_explained(players, options):
    game = HiloGame(players, options)
    rng = random.Random(players)
    probes = 0
    for seed in range(3):
        for state in random_playthrough(game, random.Random(seed)).states():
            before = state.to_dict()
            for _ in range(6):
                action = _random_action(rng, game.palette)
                if state.is_legal(action):
                    assert state.explain_illegal(action) == ""
                    continue
                probes += 1
                reason = state.explain_illegal(action)
                assert reason and reason != "that action is not allowed now", action
                with pytest.raises(IllegalActionError):
                    state.apply(action)
                assert state.to_dict() == before
    assert probes > 1000
