"""The settings screen driven by simulated touches: opened from home, the language switched for
every screen, the advice turned off, both kept for the next start (or said why not), the
camera's buttons, and Power off, which asks first and is there only when the kiosk is given a
way to power off."""
import argparse
import errno
import gc
import subprocess
import tempfile

import pytest

import assistant.app
from assistant import settings as settings_mod
from assistant.commands import run as run_command
from assistant.session import Session
from assistant.store import IN_MEMORY, Store
from layout_check import findings


@pytest.fixture
def session(ui):
    ui.resize(800, 480)
    session = ui.use(Session(Store(IN_MEMORY)))
    ui.tap_text("Settings")
    assert session.view.screen == "settings" and ui.screen.name == "settings"
    yield session
    ui.app.power_off, ui.app.can_power_off = None, False
    ui.app.learn_empty_table, ui.app.can_learn_table = None, False
    ui.app.settings = None
    ui.app.camera_feed = None
    ui.app.buzzer = None
    ui.app.set_language("en")
    session.advice_enabled = True
    session.close_screen()
    ui.frames()


def test_the_language_changes_every_screen(ui, session):
    assert findings(ui) == []
    ui.shot("settings")
    ui.tap_text("Français")
    assert ui.app.language == "fr" and ui.screen.name == "settings"
    assert ui.button("Retour") and ui.button("Français").selected
    assert findings(ui) == []
    ui.shot("settings-fr")
    ui.tap_text("Retour")
    assert session.view.screen == "home" and ui.button("Nouvelle partie")
    ui.tap_text("Paramètres")
    ui.tap_text("English")
    assert ui.app.language == "en" and ui.button("Back")


def test_screens_built_again_in_another_language_leave_nothing_bound_to_the_app(ui, session):
    """Kivy drops a discarded widget's kv bindings only when it sees the widget die, which it may
    not (a widget collected in a reference cycle): a binding left on the app's view then raises
    ReferenceError at the next move, once the widget is gone."""
    gc.collect()
    bound = len(ui.app.get_property_observers("view"))
    for language in ("fr", "en", "fr", "en"):
        ui.app.set_language(language)
        ui.frames()
    gc.collect()
    assert len(ui.app.get_property_observers("view")) <= bound
    session.close_screen()
    session.new_match("excape", ["Ana", "Ben"])
    session.play("roll 4 6")   # the view changes with every screen of the old language collected
    ui.frames()
    session.leave()


def test_advice_off_then_on(ui, session):
    ui.tap_text("off")
    assert not session.advice_enabled and ui.button("off").selected
    session.close_screen()
    session.new_match("excape", ["Ana", "Ben", "Chloé"])
    for line in ["roll 4 6", "roll 1 2", "roll 2 3", "roll 2 1"]:  # the roll-off, then Ana's first roll
        session.play(line)
    assert session.view.choices and not any(c.advice for c in session.view.choices)
    ui.frames()
    assert ui.screen.side_title == "Legal moves"  # no "best first" without the advice
    session.open_screen("settings")
    ui.tap_text("on")
    assert session.advice_enabled
    session.leave()


def user_settings(tmp_path):
    return settings_mod.load(env={}, system_file=tmp_path / "none.toml", user_path=tmp_path / "config.toml")


def test_the_changes_are_kept_for_the_next_start(ui, session, tmp_path):
    ui.app.settings = user_settings(tmp_path)
    session.open_screen("settings")  # its text names the file now
    ui.tap_text("off")
    ui.tap_text("Français")
    assert str(tmp_path / "config.toml") in ui.screen.keep_text and session.view.message is None
    assert findings(ui) == []
    ui.shot("settings-kept-fr")
    again = user_settings(tmp_path)  # the next start
    assert again["app.language"] == "fr" and again["ui.show_advice"] is False
    assert run_command.new_session(Store(IN_MEMORY), again).advice_enabled is False


def test_a_change_that_cannot_be_kept_is_said_and_still_holds(ui, session, tmp_path, monkeypatch):
    ui.app.settings = user_settings(tmp_path)

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    ui.tap_text("off")
    assert not session.advice_enabled and session.view.message.kind == "error"
    assert "Read-only file system); it holds until the app restarts." in ui.app.message_text
    assert findings(ui) == []
    ui.shot("settings-not-kept")
    assert user_settings(tmp_path)["ui.show_advice"] is True


def test_the_camera_auto_apply_level_changes_and_is_kept(ui, session, tmp_path):
    from assistant.camera_feed import CameraFeed

    with pytest.raises(AssertionError, match="no button '\\+'"):
        ui.button("+")  # no camera
    ui.app.settings = user_settings(tmp_path)
    feed = ui.app.camera_feed = CameraFeed(auto_apply=0.98)
    session.open_screen("settings")
    ui.tap_text("+")
    ui.tap_text("+")
    ui.tap_text("+")  # 100% at most
    assert feed.auto_apply == 1.0 and "when it is 100% sure" in ui.screen.auto_apply_text
    for _ in range(3):
        ui.tap_text("-")
    assert feed.auto_apply == pytest.approx(0.97)
    assert findings(ui) == []
    ui.shot("settings-camera")
    assert user_settings(tmp_path)["camera.auto_apply"] == pytest.approx(0.97)


class FakeBuzzer:
    """The GPIO lights' buzzer, as the settings screen uses it."""

    def __init__(self, beep=True, busy=False):
        self.beep, self.busy = beep, busy

    def set_beep(self, on):
        if self.busy:
            raise RuntimeError("GPIO13 is busy")
        self.beep = on


def test_the_sound_turned_off_and_on_and_kept(ui, session, tmp_path):
    with pytest.raises(AssertionError, match="no button 'on'"):
        ui.button("on", root=ui.one("Txt", text="Sound (buzzer)").parent)  # no buzzer
    ui.app.settings = user_settings(tmp_path)
    buzzer = ui.app.buzzer = FakeBuzzer()
    session.open_screen("settings")
    line = ui.one("Txt", text="Sound (buzzer)").parent
    assert ui.button("on", root=line).selected
    ui.tap_text("off", root=line)
    assert not buzzer.beep and ui.button("off", root=line).selected
    assert user_settings(tmp_path)["gpio.beep"] is False
    buzzer.busy = True
    ui.tap_text("on", root=line)
    assert not buzzer.beep and ui.button("off", root=line).selected
    assert session.view.message.kind == "error" and "The buzzer cannot be used: GPIO13 is busy" in ui.app.message_text


def test_every_setting_at_once_fits(ui, session, tmp_path):
    from assistant.camera_feed import CameraFeed

    ui.app.settings = user_settings(tmp_path)
    ui.app.buzzer, ui.app.camera_feed = FakeBuzzer(), CameraFeed(auto_apply=0.98)
    ui.app.learn_empty_table, ui.app.can_learn_table = lambda: None, True
    ui.app.power_off, ui.app.can_power_off = lambda: None, True
    ui.app.settings.user_path = tmp_path / "var" / "lib" / "table-assistant" / ".config" / "table-assistant" / "x.toml"
    session.open_screen("settings")
    session.tell("Table: roll 3 5")  # the message bar takes its room
    for language in ("en", "fr"):
        ui.app.set_language(language)
        assert findings(ui) == []
        ui.shot(f"settings-all-{language}")
    ui.tap_text("Éteindre" if ui.app.language == "fr" else "Power off")
    assert findings(ui) == []
    ui.shot("settings-all-power-off-sure")


def test_the_kiosk_gives_the_app_its_settings(tmp_path, monkeypatch):
    made = {}
    monkeypatch.setattr(assistant.app, "configure_window", lambda **kwargs: None)
    monkeypatch.setattr(assistant.app, "TableApp", lambda session, **kwargs: made.update(kwargs))
    settings = user_settings(tmp_path)
    run_command.make_app(argparse.Namespace(size=None, fullscreen=False), settings, None)
    assert made["settings"] is settings and made["language"] == "en"


def test_power_off_asks_first_and_is_hidden_without_a_way_to_power_off(ui, session):
    with pytest.raises(AssertionError, match="no button 'Power off'"):
        ui.button("Power off")  # the demo, a desktop
    calls = []
    ui.app.power_off, ui.app.can_power_off = lambda: calls.append("poweroff"), True
    ui.tap_text("Power off")
    assert calls == [] and ui.button("Sure?")
    assert findings(ui) == []
    ui.shot("settings-power-off-sure")
    ui.tap_text("Sure?")
    assert calls == ["poweroff"] and ui.button("Power off")


def test_a_refused_power_off_is_said(ui, session):
    def refused():
        raise OSError("Interactive authentication required.")

    ui.app.power_off, ui.app.can_power_off = refused, True
    ui.tap_text("Power off")
    ui.tap_text("Sure?")
    assert session.view.message.kind == "error"
    assert "Interactive authentication required." in ui.app.message_text


def test_the_camera_buttons(ui, session):
    with pytest.raises(AssertionError, match="no button 'Empty table'"):
        ui.button("Empty table")  # no camera to learn it
    asked = []
    ui.app.learn_empty_table, ui.app.can_learn_table = lambda: asked.append(True), True
    ui.tap_text("Empty table")
    assert asked == [True]
    ui.tap_text("Camera view")
    assert session.view.screen == "camera"


def test_power_off_runs_systemctl_and_says_why_it_could_not(monkeypatch):
    ran = []

    def fake(command, **kwargs):
        ran.append(command)
        return subprocess.CompletedProcess(command, 1, "", "Interactive authentication required.\n")

    monkeypatch.setattr(subprocess, "run", fake)
    with pytest.raises(OSError, match="Interactive authentication required."):
        run_command.power_off()
    assert ran == [["systemctl", "poweroff"]]
