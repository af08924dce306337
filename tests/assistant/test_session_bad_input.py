"""A line the table types that no parser can read is a message on the screen, never an exception
out of the session."""
import pytest

from assistant.session import Session
from assistant.store import IN_MEMORY, Store
from engine import registry

LINES = {"excape": "place ²", "hilo": "take r1c" + "1" * 5000, "holdup": "roll 1² 2 3 4", "splitter": "roll ٣ 4"}


@pytest.mark.parametrize("game_id", sorted(LINES))
def test_an_unreadable_number_is_said_and_nothing_is_played(game_id):
    session = Session(Store(IN_MEMORY), advice=False)
    players = ["Ana", "Ben", "Cy", "Di"][:registry.game_class(game_id).min_players]
    assert session.new_match(game_id, players).screen == "game"
    view = session.play(LINES[game_id])
    assert view.message.kind == "error" and view.moves == 0
    assert session.store.load_match(view.match_id).lines == ()
