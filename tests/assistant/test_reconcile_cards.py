"""Hilo cards seen on the mat -> the actions that explain them, and what the kiosk does with them."""
import random

import pytest

from assistant.camera_policy import AUTO, CONTRADICTION, OFFER, judge_cards
from assistant.i18n import translate
from assistant.reconcile_cards import explain, still_steps, why_unexplained
from engine import registry
from engine.match import Match
from engine.table import FACE_DOWN
from vision.synth.card_recording import play_round

LABELS = [f"{colour} {value}" for colour in ("red", "orange", "yellow", "lime", "green", "blue", "purple", "pink")
          for value in range(-1, 12)]


def read(view, unsure=0.0, rng=None):
    """A reading of a table view: each place sure of its card, or (``unsure``) giving up to that
    much of its probability to two other labels."""
    def place(label):
        if not unsure or label == "empty":
            return {label: 1.0}
        p, others = 1 - rng.uniform(0, unsure), rng.sample([*LABELS, FACE_DOWN], 2)
        spread = {label: p}
        for other, share in zip(others, (rng.uniform(0, 1 - p),) * 2):
            spread[other] = spread.get(other, 0.0) + share
        return {k: v / sum(spread.values()) for k, v in spread.items()}
    return {"players": [{"shape": grid["shape"], "cells": [[place(c) for c in row] for row in grid["cells"]]}
                        for grid in view["players"]],
            "discard": place(view["discard"])}


def steps_of(match):
    states, history = match.states(), match.history
    for first, end in still_steps(states, history):
        yield states[first], history[first:end], states[end - 1].table_after(history[end - 1])


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3)])
def test_every_step_of_a_round_is_explained_first_from_a_sure_reading_of_its_table(players, seed):
    match = play_round(players, seed) if players < 4 else _round(players, seed)
    steps = list(steps_of(match))
    kinds = {type(a).__name__ for _, done, _ in steps for a in done}
    assert {"Seen", "Reveal", "Take", "Draw", "Place"} <= kinds  # the round ends in its final reveal
    for state, done, table in steps:
        explained = explain(state, read(table))
        assert done in explained[0].chains, (done, explained[:2])


def _round(players, seed):
    rng, match = random.Random(seed), Match(registry.make_game("hilo", players), [f"P{n}" for n in range(players)])
    while match.state.round_no == 1:
        state = match.state
        match.push(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    return match


def test_the_seats_of_a_mat_beyond_the_players_are_not_read():
    match = _round(5, 6)
    state, done, table = next(steps_of(match))
    sixth = {"shape": [1, 1], "cells": [[{"red 3": 1.0}]]}  # a card lies on the sixth seat
    seen = read(table)
    seen["players"].append(sixth)
    event = judge_cards(state, seen, 0.98)
    assert event.kind == AUTO and done in event.candidates[0].chains
    unchanged = read(state.table_view())
    unchanged["players"].append(sixth)
    assert judge_cards(state, unchanged, 0.98) is None


def test_unsure_readings_still_rank_the_truth_first_and_apply_nothing_wrong():
    rng, kinds, first = random.Random(4), [], 0
    steps = list(steps_of(play_round(3, 5)))
    for state, done, table in steps:
        event = judge_cards(state, read(table, 0.3, rng), 0.98)
        assert event.kind != AUTO or done in event.candidates[0].chains
        kinds.append(event.kind)
        first += event.kind != CONTRADICTION and done in event.candidates[0].chains
    assert first >= 0.95 * len(steps) and kinds.count(AUTO) >= 10


def test_a_card_read_between_two_is_offered_with_both_and_nothing_new_is_no_event():
    match = play_round(2, 1)
    states, history = match.states(), match.history
    first, end = next((f, e) for f, e in still_steps(states, history) if str(history[f]) == "draw")
    state, done, table = states[first], history[first:end], states[end - 1].table_after(history[end - 1])
    seen = read(table)
    drawn = match.game.palette.name(states[first + 1].card_for(history[first + 1]))
    other = next(label for label in LABELS if label not in str(table) and label != drawn)
    for grid in seen["players"]:
        for row in grid["cells"]:
            for k, place in enumerate(row):
                if drawn in place:
                    row[k] = {drawn: 0.5, other: 0.5}
    if drawn in seen["discard"]:
        seen["discard"] = {drawn: 0.5, other: 0.5}
    event = judge_cards(state, seen, 0.98)
    assert event.kind == OFFER and len(event.candidates) == 2
    assert any(done in c.chains for c in event.candidates)
    assert [any(f"card {other}" in map(str, chain) for chain in c.chains) for c in event.candidates].count(True) == 1
    assert judge_cards(states[end], read(states[end].table_view()), 0.98) is None


def test_a_face_up_card_read_as_another_but_plausibly_itself_has_not_changed():
    match = play_round(2, 1)
    state = next(s for s in reversed(match.states()) if s.phase == "turn")
    view = state.table_view()
    seat, row, col = next((seat, r, c) for seat, grid in enumerate(view["players"])
                          for r, cells in enumerate(grid["cells"]) for c, label in enumerate(cells)
                          if label not in (FACE_DOWN, "empty"))
    lying = view["players"][seat]["cells"][row][col]
    other = next(label for label in LABELS if label != lying)

    def reading(place):
        seen = read(view)
        seen["players"][seat]["cells"][row][col] = place
        return judge_cards(state, seen, 0.98)

    assert reading({other: 0.8, lying: 0.2}) is None
    said = reading({other: 0.99, lying: 0.01})
    assert said.kind == CONTRADICTION and other in translate(said.reason, "en")
    assert reading({FACE_DOWN: 0.8, lying: 0.2}) is not None  # a card turned over has changed


def test_a_place_that_lost_its_card_is_named_and_the_card_asked_back():
    match = play_round(2, 1)
    state = next(s for s in reversed(match.states()) if s.phase == "turn")
    seen = read(state.table_view())
    seen["players"][1]["cells"][0][0] = {"empty": 1.0}  # pushed off the mat: no card anywhere near
    reason = why_unexplained(state, seen)
    assert translate(reason, "en") == "no card lies at player 2's row 1, column 1: lay it back in its place"
    assert "reposez-la" in translate(reason, "fr")


def test_a_card_pushed_off_its_place_is_said_where_it_lies_when_nothing_explains_the_table():
    match = play_round(2, 1)
    state = next(s for s in reversed(match.states()) if s.phase == "turn")
    seen = read(state.table_view())
    seen["players"][1]["cells"][0][0] = {"empty": 1.0}  # the card lies beside its grid
    event = judge_cards(state, {**seen, "off": ["grid.1"]}, 0.98)
    assert event.kind == CONTRADICTION
    assert str(event.reason) == "a card lies off its place, by player 2's grid: lay it in its place"
    assert "lies off" not in str(judge_cards(state, seen, 0.98).reason)
    assert judge_cards(state, {**read(state.table_view()), "off": []}, 0.98) is None


def test_two_cards_of_a_grid_swapped_is_said_as_such_and_other_changes_by_place():
    match = play_round(2, 1)
    state = next(s for s in reversed(match.states()) if s.phase == "turn")
    table = state.table_view()
    cells = table["players"][state.player]["cells"]
    up = [(r, c) for r, row in enumerate(cells) for c, label in enumerate(row) if label != FACE_DOWN]
    (r1, c1), (r2, c2) = up[:2]
    cells[r1][c1], cells[r2][c2] = cells[r2][c2], cells[r1][c1]
    event = judge_cards(state, read(table), 0.98)
    assert event.kind == CONTRADICTION
    who = f"player {state.player + 1}"
    assert str(event.reason) == (f"{who} swapped two cards of their grid (row {r1 + 1}, column {c1 + 1} and "
                                 f"row {r2 + 1}, column {c2 + 1}): only one card moves in a turn")
    assert translate(event.reason, "fr") == (f"joueur {state.player + 1} a échangé deux cartes de sa grille "
                                             f"(rangée {r1 + 1}, colonne {c1 + 1} et rangée {r2 + 1}, colonne {c2 + 1})"
                                             " : une seule carte bouge par tour")
    table = state.table_view()
    cells = table["players"][state.player]["cells"]
    fresh = [label for label in LABELS if label not in str(table)]
    changed = [(r, c) for r in range(3) for c in range(3)][:3]  # three cards changed: one move changes one
    for (r, c), label in zip(changed, fresh):
        cells[r][c] = label
    event = judge_cards(state, read(table), 0.98)
    assert event.kind == CONTRADICTION
    assert str(event.reason) == (f"{who}'s row 1, column 1 ({fresh[0]}), {who}'s row 1, column 2 ({fresh[1]}) and "
                                 f"{who}'s row 1, column 3 ({fresh[2]}) changed, and no move of Hilo explains it")
    assert translate(event.reason, "fr").startswith(f"ont changé : joueur {state.player + 1}, ligne 1, colonne 1")


def test_a_round_ended_by_its_last_card_turned_up_shows_its_grids_revealed():
    match = play_round(2, 1)
    before, last = match.states()[-2], match.history[-1]
    assert match.state.phase == "over" or match.state.round_no == 2  # the rules have moved on
    table = before.table_after(last)
    assert all(label != FACE_DOWN for grid in table["players"] for row in grid["cells"] for label in row)
    assert table["players"] != match.state.table_view()["players"]
