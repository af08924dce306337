"""The home screen and the generic game screen, driven by simulated touches (toy game)."""
from pathlib import Path

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


@pytest.fixture
def docked_keyboard():
    """The kiosk's on-screen keyboard (ui.keyboard = "dock"), docked at the bottom."""
    from kivy.config import Config
    from kivy.core.window import Window

    saved = Config.get("kivy", "keyboard_mode"), Window.allow_vkeyboard, Window.docked_vkeyboard
    Config.set("kivy", "keyboard_mode", "systemanddock")
    Window.allow_vkeyboard = Window.docked_vkeyboard = True
    yield Window
    Config.set("kivy", "keyboard_mode", saved[0])
    Window.allow_vkeyboard, Window.docked_vkeyboard = saved[1:]


def test_the_keyboard_leaves_the_new_player_field_in_sight_with_accents(ui, store, docked_keyboard):
    ui.resize(800, 480)
    ui.use(Session(store))
    home = ui.screen
    field = home.ids.new_name
    ui.tap(field)
    ui.settle(0.3)
    try:
        keyboard = next(w for w in docked_keyboard.children if type(w).__name__ == "VKeyboard")
        assert keyboard.y == 0 and keyboard.height * keyboard.scale > 200
        assert field.to_window(field.x, field.y)[1] >= keyboard.top - 1  # above the keyboard, not under it
        assert keyboard.layout == "names"
        letters = {key[0] for key in keyboard.available_layouts["names"]["normal_1"]}
        assert {"é", "è", "ê", "ë", "à", "ç", "ï", "ô", "ü"} <= letters
        target = ui.shot("home-typing-a-name")  # the window's picture: the keyboard is not in the app's
        Path(docked_keyboard.screenshot(name=str(target))).replace(target)
    finally:
        field.focus = False
        ui.frames(2)
    assert home.keyboard_room == 0 and field.to_window(field.x, field.y)[1] < 100  # back at the bottom


def test_the_options_show_whole_and_say_how_they_change(ui, store):
    from layout_check import findings

    ui.resize(800, 480)
    session = ui.use(Session(store))
    home = ui.screen
    ui.tap(ui.one("GameToggle", game_id="hilo"))
    options = home.ids.option_list
    ui.frames(2)
    assert len(options.data) == 4 and options.below == options.above == 0  # every option in sight
    removal = ui.one("OptionItem", key="optional_removal")
    assert removal.label == "Optional removal" and removal.kind == "switch"
    switch = ui.button("on", root=removal)
    assert switch.selected
    ui.tap(switch)
    removal = ui.one("OptionItem", key="optional_removal")  # the list shows the rows again
    assert home.options["optional_removal"] is False and not ui.button("off", root=removal).selected
    tie = ui.one("OptionItem", key="first_player_tie")
    assert ui.button("ask", root=tie).selected and not ui.button("first seat", root=tie).selected
    ui.tap_text("first seat", root=tie)
    tie = ui.one("OptionItem", key="first_player_tie")
    assert home.options["first_player_tie"] == "first_seat" and ui.button("first seat", root=tie).selected
    bar = next(w for w in home.walk() if type(w).__name__ == "MessageBar")
    assert bar.height == 0  # no empty bar at the bottom without a message
    assert findings(ui) == []
    ui.shot("home-options")
    session.save_player("Dev", "green")
    ui.frames(2)
    assert bar.height == 52 and "Dev is saved" in ui.app.message_text


def test_a_yellow_player_stays_in_sight_on_a_seated_row(ui, store):
    """A seated player's row is amber: a dark rim keeps a yellow spot apart from it."""
    ui.resize(800, 480)
    ui.use(Session(store))
    ui.tap(chip(ui, "Chloé"))  # yellow
    row = chip(ui, "Chloé")
    assert row.seat
    swatch = next(w for w in row.children if type(w).__name__ == "Swatch")
    image = row.export_as_image()
    pixels, (width, height) = image.texture.pixels, image.texture.size

    def at(x, y):  # widget coordinates of the row
        column, line = int(x - row.x), int(y - row.y)
        offset = 4 * (line * width + column)
        return [value / 255 for value in pixels[offset:offset + 3]]

    rim = at(swatch.x + 4.5 * ui.app.scale, swatch.center_y)
    spot = at(swatch.center_x, swatch.center_y)
    assert max(rim) < 0.2 and min(spot[:2]) > 0.7  # a dark ring round the yellow
