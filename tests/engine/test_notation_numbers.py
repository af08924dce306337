"""Every game's parser reads numbers in ASCII digits only, and a few of them: "²" (which
str.isdigit takes), "٣" and a number of 5,000 digits (which int refuses) are ParseErrors."""
import pytest

from engine import registry
from engine.core import ParseError
from engine.numbers import whole

ODD = ["²", "1²", "٣", "1" * 5000, "-", "--1", "1_0", "+1", "０"]
LINES = {
    "excape": ["place {n}", "roll {n} 2"],
    "hilo": ["take r{n}c1", "reveal p{n} r1c1", "youngest p{n}", "remove row {n}", "card R{n}", "card red {n}"],
    "holdup": ["roll {n} 2 3 4", "reroll {n}", "flip {n}", "place {n}", "steal {n}", "draw ruby {n}"],
    "splitter": ["roll {n} 4", "P{n} writes 4 at (2,1) and 1 at (5,1)", "P1 writes 4 at ({n},1) and 1 at (5,1)"],
}


@pytest.mark.parametrize("game_id", sorted(LINES))
def test_unreadable_numbers_are_parse_errors(game_id):
    game_class = registry.game_class(game_id)
    game = game_class(game_class.min_players)
    for template in LINES[game_id]:
        for odd in ODD:
            with pytest.raises(ParseError):
                game.parse_action(template.format(n=odd))


def test_whole_numbers_are_short_ascii_digits():
    assert whole("42") == 42 and whole("-3", signed=True) == -3 and whole("007") == 7
    assert [whole(w) for w in ("-3", "²", "٣", "1" * 10, "", " 1", "1.0")] == [None] * 7
