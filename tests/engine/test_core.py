import pytest

from engine.core import OptionError, ParseError, parse_options, rank_winners
from engine import registry
from toy_game import Decide, Roll, ToyGame, ToyOptions


def test_notation_round_trips_and_bad_text_is_named():
    game = ToyGame(2)
    for action in (Roll(3), Decide(True), Decide(False)):
        assert game.parse_action(str(action)) == action
    with pytest.raises(ParseError, match="cannot read 'roll x'"):
        game.parse_action("roll x")


def test_options_name_unknown_keys_and_wrong_types():
    assert parse_options(ToyOptions, {"goal": 5}, "toy").goal == 5
    with pytest.raises(OptionError, match="unknown option 'gole' \\(did you mean 'goal'\\?\\)"):
        parse_options(ToyOptions, {"gole": 5}, "toy")
    with pytest.raises(OptionError, match="option 'goal' expects int, got '5'"):
        parse_options(ToyOptions, {"goal": "5"}, "toy")
    with pytest.raises(OptionError, match="option 'goal' expects int, got True"):
        parse_options(ToyOptions, {"goal": True}, "toy")


def test_player_count_is_checked():
    with pytest.raises(OptionError, match="Toy Pig is for 2 to 2 players, not 3"):
        ToyGame(3)


def test_state_from_dict_names_the_field():
    game = ToyGame(2)
    data = game.new_initial_state().to_dict()
    data["player"] = 5
    with pytest.raises(ValueError, match="^player: 0 or 1"):
        game.state_from_dict(data)
    del data["rolls"]
    data["player"] = 0
    with pytest.raises(ValueError, match="^rolls: missing"):
        game.state_from_dict(data)


def test_rank_winners():
    assert rank_winners([3, 5, 5]) == (1, 2)
    assert rank_winners([3, 5, 3], lowest_wins=True) == (0, 2)


def test_registry_names_unknown_games():
    with pytest.raises(OptionError, match="unknown game 'chess'"):
        registry.game_class("chess")
