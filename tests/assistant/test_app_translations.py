"""The screens' own texts have French: kv templates, option names and choices, stone names, the
colours of Hilo's palette.
(Templates in Python code are checked for the whole repository by test_translations.py.)"""
import dataclasses
import re
import string
from pathlib import Path

import pytest

from assistant.i18n import catalogue, translate, with_names
from engine import registry
from engine.hilo import DEFAULT_PALETTE, Palette
from engine.hilo.cards import card_id
from engine.hilo.words import card_name
from engine.holdup.deck import EXAMPLE_STONES
from engine.text import tr

KV = Path(__file__).resolve().parents[2] / "assistant" / "kv"


def kv_templates():
    found = {}
    for path in sorted(KV.glob("*.kv")):
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
            for match in re.finditer(r"app\.tr\((['\"])(.*?)\1", line):
                found.setdefault(match.group(2), f"{path.name}:{number}")
    return found


def fields(template):
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_kv_templates_are_found_and_translated():
    templates = kv_templates()
    assert "Why not?" in templates and "Resume ({count})" in templates
    french = catalogue("fr")
    missing = [f"{where}: {t!r}" for t, where in templates.items() if t not in french]
    assert not missing, "\n".join(missing)
    assert [t for t in templates if fields(french[t]) != fields(t)] == []


@pytest.mark.parametrize("game_id", ["hilo", "splitter", "excape", "holdup"])
def test_option_names_and_choices_shown_at_home_are_translated(game_id):
    french = catalogue("fr")
    game = registry.game_class(game_id)
    for field in dataclasses.fields(game.Options):
        if isinstance(field.default, (bool, int)) or field.name in game.option_choices:
            assert game.option_word(field.name) in french, field.name
    for choices in game.option_choices.values():
        assert all(choice in french for choice in choices)


def test_example_stones_are_translated():
    assert all(stone in catalogue("fr") for stone in EXAMPLE_STONES)


def test_engine_texts_name_the_players():
    text = tr("{placement}; dislodges {returned}", placement=tr("rung 0: no move at your next turn"),
              returned=tr("{owner}'s {value} on rung {rung}", owner=tr("player {number}", number=2), value=54, rung=3))
    named = with_names(text, ["Ana", "Ben"])
    assert str(named) == "rung 0: no move at your next turn; dislodges Ben's 54 on rung 3"
    assert "Ben" in translate(named, "fr")
    assert with_names(tr("player {number}", number=7), ["Ana"]) == "player 7"  # no such seat: unchanged


def test_hilo_cards_are_named_in_french():
    palette = Palette.parse(DEFAULT_PALETTE)
    assert all(colour in catalogue("fr") for colour in palette.names)
    card = card_name(palette, card_id(palette.colour_index("yellow"), 6))
    assert card == "yellow 6"  # the English text as before
    assert translate(tr("the {card}", card=card), "fr") == "la carte jaune 6"
