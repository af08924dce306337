"""The home screen and the generic game screen, driven by simulated touches (toy game)."""
import pytest

from assistant.session import Session
from assistant.store import Store
from engine import registry
from engine.core import CHANCE
from toy_game import ToyGame

registry.register(ToyGame)


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "records.sqlite3") as opened:
        for name, colour in [("Ana", "red"), ("Ben", "blue"), ("Chloé", "yellow")]:
            opened.save_player(name, colour)
        yield opened


def chip(ui, name):
    return ui.one("PlayerChip", name=name)


def test_seat_players_start_play_and_undo_by_touch(ui, store):
    session = ui.use(Session(store))
    home = ui.screen
    assert home.name == "home"
    ui.tap(ui.one("GameToggle", game_id="toy"))
    ui.tap(chip(ui, "Ben"))
    ui.tap(chip(ui, "Ana"))
    assert [p.name for p in home.seated] == ["Ben", "Ana"] and chip(ui, "Ben").seat == 1
    ui.assert_touch_targets()
    ui.shot("home-new-game")
    ui.tap_text("Start Toy Pig with 2 players")
    view = session.view
    assert view.screen == "game" and view.names == ("Ben", "Ana") and view.to_play == CHANCE
    assert ui.screen.name == "game:toy"
    ui.tap_text("roll 5")
    assert session.view.last == "roll 5" and session.view.to_play == 0
    assert store.load_match(view.match_id).lines == ("roll 5",)
    ui.shot("toy-choices")
    ui.tap(ui.choice("bank"))
    assert session.view.seats[0].score == 5
    ui.tap_text("Undo")
    assert session.view.moves == 1 and store.load_match(view.match_id).lines == ("roll 5",)


def test_why_not_mode_explains_instead_of_playing(ui, store):
    session = ui.use(Session(store))
    session.new_match("toy", ["Ana", "Ben"])
    ui.frames()
    ui.tap_text("Why not?")
    assert ui.screen.why_mode
    ui.tap_text("roll 3")  # the choices list shows in "why not?" mode
    assert session.view.moves == 0 and session.view.message.kind == "explain"
    assert session.view.message.text == "roll 3 is allowed now" and not ui.screen.why_mode


def test_resume_tab_reopens_an_unfinished_game(ui, store):
    first = Session(store)
    first.new_match("toy", ["Ana", "Ben"])
    first.play("roll 4")
    session = ui.use(Session(store))
    ui.tap_text("Resume (1)")
    ui.shot("home-resume")
    ui.tap_text("Resume")
    assert session.view.screen == "game" and session.view.moves == 1


def test_finished_game_shows_the_ranking_and_goes_to_results(ui, store):
    session = ui.use(Session(store))
    session.new_match("toy", ["Ana", "Ben"], {"goal": 5})
    for line in ["roll 6", "bank"]:
        session.play(line)
    ui.frames()
    assert [row["text"] for row in ui.screen.ranking_rows] == ["1. Ana: 6", "2. Ben: 0"]
    ui.shot("toy-game-over")
    ui.tap_text("Home")
    ui.tap_text("Results")
    assert "won by Ana" in ui.screen.result_rows[0]["text"]
    ui.shot("home-results")


def test_new_player_by_keyboard_is_saved_and_seated(ui, store):
    session = ui.use(Session(store))
    home = ui.screen
    home.show("new")
    home.ids.new_name.text = "Dev"
    ui.tap_text("Add")
    assert "Dev" in [p.name for p in store.players()] and home.seated[-1].name == "Dev"
    assert session.view.message.text == "Dev is saved"


def test_the_empty_table_button_shows_with_a_camera_and_asks_it_to_learn(ui, store):
    ui.use(Session(store))
    with pytest.raises(AssertionError, match="no button 'Empty table'"):
        ui.button("Empty table")  # the demo and a kiosk without a camera have nothing to learn
    asked = []
    ui.app.learn_empty_table, ui.app.can_learn_table = lambda: asked.append(True), True
    try:
        ui.assert_touch_targets()
        ui.shot("home-with-camera")
        ui.tap_text("Empty table")
        assert asked == [True]
    finally:
        ui.app.learn_empty_table, ui.app.can_learn_table = None, False
