import json

import pytest

from engine.core import IllegalActionError, RulesError
from engine.match import Match, MatchFileError, Player
from toy_game import Decide, Roll, ToyGame


def toy_games(game_id):
    assert game_id == "toy"
    return ToyGame


def new_match():
    return Match(ToyGame(2), ["Ana", Player("Ben", colour="blue")])


def test_push_undo_redo_keep_history_and_states():
    match = new_match()
    match.push("roll 4")
    match.push(Decide(False))
    assert match.lines() == ["roll 4", "bank"]
    assert match.state.scores == (4, 0)
    assert match.undo() == Decide(False)
    assert match.state.scores == (0, 0) and match.state.pending == 4
    assert match.redo() == Decide(False)
    assert match.state.scores == (4, 0)
    match.undo()
    match.push("again")  # a new action forgets what was undone
    assert not match.can_redo()
    with pytest.raises(RulesError, match="nothing to redo"):
        match.redo()


def test_undo_at_start_is_refused():
    with pytest.raises(RulesError, match="nothing to undo"):
        new_match().undo()


def test_illegal_action_leaves_the_match_unchanged():
    match = new_match()
    match.push("roll 3")
    with pytest.raises(IllegalActionError, match="roll 5: the player must decide first"):
        match.push(Roll(5))
    assert match.lines() == ["roll 3"] and not match.state.rolling


def test_save_and_load_replay_to_the_same_state(tmp_path):
    match = new_match()
    for line in ["roll 4", "again", "roll 5", "bank", "roll 1"]:
        match.push(line)
    path = tmp_path / "game.json"
    match.save(path)
    loaded = Match.load(path, games=toy_games)
    assert loaded.state == match.state
    assert loaded.players == (Player("Ana"), Player("Ben", "blue"))
    assert loaded.lines() == match.lines()
    assert json.loads(path.read_text())["game"] == "toy"


@pytest.mark.parametrize("content, message", [
    ('{"format": "table-assistant/match", "version": 1, "ga', "not valid JSON: Unterminated string"),
    ('[1, 2]', "not a Table Assistant match"),
    ('{"format": "table-assistant/match", "version": 9}', "version 9 is not supported"),
    ('{"format": "table-assistant/match", "version": 1, "game": "toy", "options": {}, '
     '"players": [{"name": "A"}, {"name": "B"}], "actions": ["roll 3", "roll 2"]}', "action 2 'roll 2' does not replay"),
    ('{"format": "table-assistant/match", "version": 1, "game": "toy", "options": {}, '
     '"players": [{"name": "A"}, {"name": "B"}], "actions": ["roll 3", "fold"]}', "action 2 'fold' does not replay: toy: cannot read"),
    ('{"format": "table-assistant/match", "version": 1, "game": "toy", "options": {"gaol": 5}, '
     '"players": [{"name": "A"}, {"name": "B"}], "actions": []}', "unknown option 'gaol' \\(did you mean 'goal'\\?\\)"),
    ('{"format": "table-assistant/match", "version": 1, "game": "toy", "options": {}, '
     '"players": [{"name": "A"}, {"name": ""}], "actions": []}', 'players\\[1\\]: "name": a player needs a non-empty name'),
    ('{"format": "table-assistant/match", "version": 1, "game": "toy", "options": {}, "notes": "x", '
     '"players": [{"name": "A"}, {"name": "B"}], "actions": []}', "unknown field 'notes'"),
    ('{"format": "table-assistant/match", "version": 1, "game": "toy", "options": {}, '
     '"players": ["A", "B"], "actions": []}', "players\\[0\\]: a player is .*, not 'A'"),
    ('{"format": "table-assistant/match", "version": 1, "game": "toy", "options": {}, '
     '"players": [{"name": "A", "colour": 3}, {"name": "B"}], "actions": []}', 'players\\[0\\]: "colour": .* got 3'),
    ('{"format": "table-assistant/match", "version": 1, "game": "toy", "options": {}, '
     '"players": [{"name": "\\ud800"}, {"name": "B"}], "actions": []}', 'players\\[0\\]: "name"'),
    ('{"format": "table-assistant/match", "version": 1, "game": "toy", "options": {"goal": ' + "[" * 5000 + '}',
     "nested more than 20 levels deep"),
    ('{"format": "table-assistant/match", "version": 1, "game": "toy", "options": {"goal": ' + "[" * 30 + "]" * 30
     + '}, "players": [{"name": "A"}, {"name": "B"}], "actions": []}', "nested more than 20 levels deep"),
])
def test_bad_files_are_refused_with_a_reason(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(MatchFileError, match=message):
        Match.load(path, games=toy_games)
    assert path.read_text() == content


@pytest.mark.parametrize("content", ['{"format": "table-assistant/match", "vers', '{"notes": 1}', "hello"])
def test_save_never_overwrites_a_corrupt_or_foreign_file(tmp_path, content):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(MatchFileError, match="not overwriting"):
        new_match().save(path)
    assert path.read_text() == content
    assert [p.name for p in tmp_path.iterdir()] == ["bad.json"]


def test_missing_file_is_named(tmp_path):
    with pytest.raises(MatchFileError, match="no such file"):
        Match.load(tmp_path / "nope.json", games=toy_games)


def test_options_are_saved_and_used(tmp_path):
    match = Match(ToyGame(2, {"goal": 5}), ["A", "B"])
    match.push("roll 5")
    match.push("bank")
    assert match.state.is_terminal()
    match.save(tmp_path / "g.json")
    assert Match.load(tmp_path / "g.json", games=toy_games).state.is_terminal()
