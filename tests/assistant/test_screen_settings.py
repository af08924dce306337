"""The settings screen driven by simulated touches: opened from home, the language switched for
every screen, the advice turned off, the camera's buttons, and Power off, which asks first and
is there only when the kiosk is given a way to power off."""
import subprocess

import pytest

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
