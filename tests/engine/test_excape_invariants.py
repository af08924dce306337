"""Excape under the shared invariant suite, random illegal actions, and positions read from files.

Each player count plays 200 seeded games: a few on the full 21-space track (they are long: about
100 actions with 3 players, 300 with 6) and the rest on short tracks, which reach every rule
(roll-off ties, busts, doubles, dislodging, wins on the advance and mid-turn) in far fewer actions.
"""
import json
import random

import pytest

from engine.core import IllegalActionError, InvalidStateError
from engine.excape import ALL_ROLLS, Again, ExcapeGame, Place, Roll
from engine.testing import check_game, random_playthrough

ALL_ON = {"double_x_variant": True, "must_beat_lower_rungs": True}

# (players, options, games, first seed): 200 games per player count, every option off and on.
SUITES = [
    (3, {}, 20, 0),
    (3, {**ALL_ON}, 10, 100),
    (3, {"track_length": 5}, 85, 200),
    (3, {**ALL_ON, "track_length": 5}, 85, 300),
    (6, {}, 5, 400),
    (6, {**ALL_ON}, 3, 500),
    (6, {"track_length": 4}, 96, 600),
    (6, {**ALL_ON, "track_length": 4}, 96, 700),
]


@pytest.mark.parametrize("players, options, games, seed", SUITES)
def test_invariant_suite(players, options, games, seed):
    summary = check_game(ExcapeGame(players, options), games=games, seed=seed, apply_limit=4)
    assert summary.games == games and summary.illegal_probes > summary.actions


def test_suites_cover_200_games_per_player_count_with_every_option_on_and_off():
    for players in (3, 6):
        suites = [s for s in SUITES if s[0] == players]
        assert sum(games for _, _, games, _ in suites) >= 200
        for option in ("double_x_variant", "must_beat_lower_rungs"):
            assert {opts.get(option, False) for _, opts, _, _ in suites} == {False, True}
        assert {opts.get("track_length", 21) == 21 for _, opts, _, _ in suites} == {False, True}


def every_action():
    """Every action of the game, and rolls no pair of Excape dice can show."""
    impossible = [Roll("7", "4"), Roll("5", "7"), Roll("6", "5"), Roll("9", "1"), Roll("x", "1")]
    return [*ALL_ROLLS, *impossible, Again(), *(Place(r) for r in range(-1, 8))]


@pytest.mark.parametrize("players, options", [(3, {}), (6, ALL_ON)])
def test_illegal_actions_never_change_the_state_and_are_explained(players, options):
    game = ExcapeGame(players, {**options, "track_length": 8})
    for seed in range(6):
        for state in random_playthrough(game, random.Random(seed)).states():
            before = state.to_dict()
            for action in every_action():
                if state.is_legal(action):
                    continue
                reason = state.explain_illegal(action)
                assert reason, f"no reason why {action} is illegal in {before}"
                with pytest.raises(IllegalActionError) as caught:
                    state.apply(action)
                assert caught.value.reason == reason
                assert state.to_dict() == before


def decide_dict():
    return {"phase": "decide", "seat": 0, "pawns": [3, 5, 0], "rolls": 1, "roll": ["7", "2"],
            "ladder": [None, {"rung": 3, "dice": ["4", "5"]}, {"rung": 0, "dice": ["X", "X"]}],
            "rolloff": None, "bust": None}


def test_a_consistent_position_is_read_back():
    state = ExcapeGame(3).state_from_dict(decide_dict())
    assert state.to_dict() == decide_dict()
    assert state.placed[1].roll == Roll("4", "5") and state.roll.value == 72


@pytest.mark.parametrize("change, message", [
    ({"phase": "placing"}, "^phase: one of rolloff, roll, decide, over, got 'placing'"),
    ({"seat": 3}, "^seat: a seat from 0 to 2, got 3"),
    ({"pawns": [3, 5]}, "^pawns: 3 spaces from 0 \\(START\\) to 21"),
    ({"pawns": [3, 22, 0]}, "^pawns: 3 spaces"),
    ({"pawns": [3, True, 0]}, "^pawns: 3 spaces"),
    ({"pawns": [21, 21, 0], "phase": "over", "roll": None, "rolls": 0}, "^pawns: .*only one can be there"),
    ({"pawns": [3, 21, 0]}, "^phase: the game is over exactly when a pawn is at the exit"),
    ({"pawns": [3, 21, 0], "phase": "over", "roll": None, "rolls": 0}, "^seat: once over, the winner's seat \\(1\\)"),
    ({"ladder": [None, {"rung": 3, "dice": ["4", "5"]}, {"rung": 3, "dice": ["1", "2"]}]},
     "^ladder\\[2\\].rung: rung 3 holds one combination and seat 1 is already there"),
    ({"ladder": [None, {"rung": 6, "dice": ["4", "5"]}, None]}, "^ladder\\[1\\].rung: a rung from 0 to 5, got 6"),
    ({"ladder": [None, {"rung": 2, "dice": ["4", "7"]}, None]},
     "^ladder\\[1\\].dice: 4 and 7 cannot come from one die A and one die B"),
    ({"ladder": [{"rung": 2, "dice": ["4", "5"]}, None, None]}, "^ladder: seat 0 is playing"),
    ({"ladder": [None, None]}, "^ladder: one entry per seat \\(3\\), got 2"),
    ({"roll": ["X", "5"], "rolls": 2}, "^roll: an X after the first roll ends the turn"),
    ({"roll": None}, "^roll: the player deciding has a roll showing"),
    ({"rolls": -1}, "^rolls: a count of rolls, got -1"),
    ({"roll": ["5", "7"]}, "^roll: die A has no 5"),
    ({"rolloff": {"group": [0, 1, 2], "rolls": []}}, "^rolloff: present exactly in the roll-off phase"),
    ({"bust": {"seat": 2, "dice": ["X", "1"], "roll_number": 2}}, "^bust: only at the start of the next"),
    ({"phase": "roll", "roll": None, "rolls": 0, "bust": {"seat": 1, "dice": ["X", "1"], "roll_number": 2}},
     "^bust: the previous player is seat 2"),
    ({"phase": "roll", "roll": None, "rolls": 0, "bust": {"seat": 2, "dice": ["2", "1"], "roll_number": 2}},
     "^bust.dice: a turn ends only on a roll showing X"),
])
def test_inconsistent_positions_are_refused_naming_the_field(change, message):
    data = {**decide_dict(), **change}
    with pytest.raises(InvalidStateError, match=message):
        ExcapeGame(3).state_from_dict(data)


def test_missing_fields_are_named():
    for field in ("phase", "seat", "pawns", "ladder", "rolls", "roll", "rolloff", "bust"):
        data = decide_dict()
        del data[field]
        with pytest.raises(InvalidStateError, match=f"^{field}: missing"):
            ExcapeGame(3).state_from_dict(data)


def test_roll_off_positions_are_checked():
    game = ExcapeGame(4)
    data = json.loads(json.dumps(game.new_initial_state().to_dict()))
    assert game.state_from_dict(data) == game.new_initial_state()
    data["rolloff"] = {"group": [1, 3], "rolls": [["7", "6"]]}
    with pytest.raises(InvalidStateError, match="^seat: the next to roll in the roll-off is seat 3"):
        game.state_from_dict(data)
    data["rolloff"] = {"group": [3, 1], "rolls": []}
    with pytest.raises(InvalidStateError, match="^rolloff.group: two or more seats"):
        game.state_from_dict(data)
    data.update(rolloff={"group": [0, 1, 2, 3], "rolls": []}, pawns=[0, 2, 0, 0])
    with pytest.raises(InvalidStateError, match="^pawns: every pawn is at START during the roll-off"):
        game.state_from_dict(data)
