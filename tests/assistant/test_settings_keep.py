"""Settings kept for the next starts (the settings screen's changes): written to the user file
atomically, its comments and other keys kept, and a clear ConfigError when it cannot be."""
import errno
import os
import tempfile
import tomllib

import pytest

from assistant import settings as settings_mod
from assistant.settings import ConfigError


def load(path, env=None):
    return settings_mod.load(env=env or {}, system_file=path.parent / "none.toml", user_path=path)


def test_kept_in_a_new_file_and_read_at_the_next_start(tmp_path):
    user = tmp_path / "config" / "table-assistant" / "config.toml"
    assert load(user).keep({"app.language": "fr", "camera.auto_apply": 1}) == []
    again = load(user)
    assert again["app.language"] == "fr" and again.sources["app.language"] == str(user)
    assert again["camera.auto_apply"] == 1.0
    assert tomllib.loads(user.read_text()) == {"app": {"language": "fr"}, "camera": {"auto_apply": 1.0}}


def test_the_comments_and_other_keys_stay(tmp_path):
    user = tmp_path / "config.toml"
    user.write_text('# my kiosk\n[app]\n# French at the club\nlanguage = "en"  # for now\nlog_level = "debug"\n'
                    "\n[gpio.buttons]\nconfirm = 4 # moved\n\n[ui]\nwidth = 1024\n")
    load(user).keep({"app.language": "fr", "gpio.beep": False, "ui.show_advice": False})
    assert user.read_text() == (
        '# my kiosk\n[app]\n# French at the club\nlanguage = "fr"  # for now\nlog_level = "debug"\n'
        "\n[gpio.buttons]\nconfirm = 4 # moved\n\n[ui]\nwidth = 1024\nshow_advice = false\n\n[gpio]\nbeep = false\n")
    again = load(user)
    assert (again["app.language"], again["app.log_level"], again["gpio.buttons.confirm"]) == ("fr", "debug", 4)
    assert again["gpio.beep"] is False and again["ui.show_advice"] is False and again["ui.width"] == 1024


def test_a_shape_beyond_a_line_edit_is_written_again_with_every_key(tmp_path):
    user = tmp_path / "config.toml"
    user.write_text('app = { log_level = "debug" }\n[gpio]\nbuttons.confirm = 4\n'
                    'led_ok = 12\n[vision.dice]\nbackground_file = """table\n.png"""\n')
    load(user).keep({"app.language": "fr", "gpio.buttons.undo": 3, "vision.dice.background_file": 'a "#" \\ é'})
    assert tomllib.loads(user.read_text()) == {
        "app": {"log_level": "debug", "language": "fr"},
        "gpio": {"buttons": {"confirm": 4, "undo": 3}, "led_ok": 12},
        "vision": {"dice": {"background_file": 'a "#" \\ é'}}}


def test_bad_changes_and_a_broken_file_change_nothing(tmp_path):
    user = tmp_path / "config.toml"
    user.write_text('[app]\nlanguage = "en"\n')
    with pytest.raises(ConfigError, match=r"config.toml: app.langauge: unknown setting \(did you mean 'app.language'\?\)"):
        load(user).keep({"app.langauge": "fr"})
    with pytest.raises(ConfigError, match=r"config.toml: ui.show_advice: expected true or false, got 'no'"):
        load(user).keep({"ui.show_advice": "no"})
    with pytest.raises(ConfigError, match=r"gpio.buttons: a table of settings, not one setting"):
        load(user).keep({"gpio.buttons": 3})
    settings = load(user)
    user.write_text("[app\n")  # broken since the start
    with pytest.raises(ConfigError, match=r"config.toml: not valid TOML, so not changed"):
        settings.keep({"app.language": "fr"})
    assert user.read_text() == "[app\n"


def test_a_read_only_disk_is_said_and_leaves_the_file_whole(tmp_path, monkeypatch):
    user = tmp_path / "config.toml"
    user.write_text('[app]\nlanguage = "en"\n')
    settings = load(user)

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    with pytest.raises(ConfigError, match=rf"^{user}: cannot be written: Read-only file system$"):
        settings.keep({"app.language": "fr"})
    assert settings["app.language"] == "en"


def test_a_failed_rename_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    user = tmp_path / "config.toml"
    user.write_text('[app]\nlanguage = "en"\n')
    user.chmod(0o640)
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd) or real_fsync(fd))
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(OSError(errno.EIO, "Input/output error")))
    with pytest.raises(ConfigError, match="cannot be written: Input/output error"):
        load(user).keep({"app.language": "fr"})
    assert user.read_text() == '[app]\nlanguage = "en"\n' and os.listdir(tmp_path) == ["config.toml"]
    assert synced  # the new text reached the disk before the rename
    monkeypatch.undo()
    load(user).keep({"app.language": "fr"})
    assert load(user)["app.language"] == "fr" and user.stat().st_mode & 0o777 == 0o640


def test_a_key_set_by_a_later_layer_is_named(tmp_path):
    user = tmp_path / "config.toml"
    settings = load(user, env={"TABLE_ASSISTANT__APP__LANGUAGE": "fr"})
    assert settings.keep({"app.language": "en", "ui.show_advice": False}) == ["app.language"]
    assert settings["app.language"] == "en"
    assert load(user)["ui.show_advice"] is False
