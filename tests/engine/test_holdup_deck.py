"""The Hold Up 4D6 deck as a setting: validation naming bad rows, the shipped example file, options."""
import json
import tomllib
from pathlib import Path

import pytest

from assistant import settings
from engine.core import OptionError
from engine.holdup import EXAMPLE_DECK, Draw, HoldUpGame, deck_from_config, parse_deck

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_FILE = ROOT / "config" / "holdup-example-deck.toml"


def test_the_example_deck_is_the_spec_s_36_cards():
    assert len(EXAMPLE_DECK) == 36 and sum(count for _, _, count in EXAMPLE_DECK) == 36
    assert {stone for stone, _, _ in EXAMPLE_DECK} == {"diamond", "ruby", "emerald", "sapphire"}
    assert sorted({value for _, value, _ in EXAMPLE_DECK}) == list(range(1, 10))


def test_the_shipped_example_file_is_labelled_and_holds_the_example_deck():
    text = EXAMPLE_FILE.read_text("utf-8")
    assert text.startswith("# EXAMPLE DECK")
    assert deck_from_config(tomllib.loads(text)) == EXAMPLE_DECK


def _load(cli_file=None):
    return settings.load(cli_file, env={}, system_file=Path("/nonexistent"), user_path=Path("/nonexistent"))


def test_the_deck_file_is_a_settings_layer_the_game_reads_as_an_option(tmp_path):
    assert HoldUpGame(3, _load().section("games.holdup")).options.deck == EXAMPLE_DECK  # [] = the example
    own = tmp_path / "my-deck.toml"
    own.write_text('[games.holdup]\ndeck = [["opal", 3, 4], ["jet", 10, 3]]\n', "utf-8")
    game = HoldUpGame(4, _load(own).section("games.holdup"))
    assert game.options.deck == (("opal", 3, 4), ("jet", 10, 3))
    assert set(dict(game.new_initial_state().chance_outcomes())) == {Draw("jet", 10), Draw("opal", 3)}
    assert HoldUpGame(3, _load(EXAMPLE_FILE).section("games.holdup")).options.deck == EXAMPLE_DECK


@pytest.mark.parametrize("rows, message", [
    ("ruby", "must be a list"),
    ([["ruby", 1, 1], ["ruby", 2]], "row 2 ['ruby', 2]: expected [stone, value, count]"),
    ([["ruby red", 1, 8]], "row 1 ['ruby red', 1, 8]: the stone type must be one word"),
    ([["ruby", "7", 8]], "row 1 ['ruby', '7', 8]: the value must be a whole number"),
    ([["ruby", 100, 8]], "the value must be a whole number from 0 to 99"),
    ([["ruby", 1, 8], ["jade", 2, 0]], "row 2 ['jade', 2, 0]: the count must be a whole number from 1"),
    ([["ruby", 1, True]], "the count must be a whole number"),
    ([["ruby", 1, 4], ["jade", 1, 4], ["ruby", 1, 1]], "row 3 ['ruby', 1, 1]: ruby 1 is already in row 1"),
    ([["ruby", 1, 3], ["jade", 1, 3]], "the deck has 6 cards; it needs at least 7"),
])
def test_bad_deck_rows_are_named(rows, message):
    with pytest.raises(OptionError) as error:
        parse_deck(rows)
    assert message in str(error.value)


def test_a_bad_deck_in_the_options_is_refused_with_the_row():
    with pytest.raises(OptionError, match="deck row 1"):
        HoldUpGame(3, {"deck": [["ruby", -1, 9]]})


def test_a_deck_file_without_the_table_is_refused():
    with pytest.raises(OptionError, match=r"\[games.holdup\] table with a 'deck' list"):
        deck_from_config({"games": {"hilo": {}}})


def test_options_are_named_and_checked():
    with pytest.raises(OptionError, match="lost_card"):
        HoldUpGame(3, {"lost_card": "bin"})
    with pytest.raises(OptionError, match="did you mean 'pile_sorted'"):
        HoldUpGame(3, {"pile_sorted_": True})
    with pytest.raises(OptionError, match="3 to 5 players"):
        HoldUpGame(6)


def test_options_round_trip_through_json_with_the_whole_deck():
    game = HoldUpGame(5, {"deck": [["opal", 3, 4], ["jet", 10, 3]], "complete_round": False})
    saved = json.loads(json.dumps(game.options_dict()))
    assert saved["deck"] == [["opal", 3, 4], ["jet", 10, 3]]
    assert HoldUpGame(5, saved).options == game.options
