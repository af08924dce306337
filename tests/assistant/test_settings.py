import pytest

from assistant import settings as settings_mod
from assistant.settings import ConfigError


def load(tmp_path, env=None, **kwargs):
    return settings_mod.load(env=env or {}, system_file=tmp_path / "none.toml",
                             user_path=tmp_path / "user.toml", **kwargs)


def test_defaults_carry_every_key_with_its_source(tmp_path):
    settings = load(tmp_path)
    assert settings["app.language"] == "en"
    assert settings.sources["app.language"] == "default"


def test_layers_apply_in_order(tmp_path):
    system = tmp_path / "system.toml"
    system.write_text('[app]\nlanguage = "fr"\nlog_level = "debug"\n')
    user = tmp_path / "user.toml"
    user.write_text('[app]\nlog_level = "warning"\n')
    cli = tmp_path / "cli.toml"
    cli.write_text('[app]\nstate_dir = "/srv/ta"\n')
    settings = settings_mod.load(
        cli, {"app.language": "en"}, env={"TABLE_ASSISTANT__APP__LOG_LEVEL": "error"},
        system_file=system, user_path=user)
    assert settings["app.language"] == "en" and settings.sources["app.language"] == "command line"
    assert settings["app.log_level"] == "error" and settings.sources["app.log_level"] == "environment"
    assert settings["app.state_dir"] == "/srv/ta" and settings.sources["app.state_dir"] == str(cli)


def test_unknown_key_names_file_key_and_suggestion(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[app]\nlangauge = "fr"\n')
    with pytest.raises(ConfigError) as err:
        load(tmp_path, cli_file=bad)
    assert str(err.value) == f"{bad}: app.langauge: unknown setting (did you mean 'app.language'?)"


def test_unknown_section_is_named(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[ap]\nlanguage = "fr"\n')
    with pytest.raises(ConfigError, match=r"bad.toml: ap: unknown setting \(did you mean 'app'\?\)"):
        load(tmp_path, cli_file=bad)


def test_wrong_type_names_the_expectation(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[app]\nlanguage = 3\n")
    with pytest.raises(ConfigError, match=r"bad.toml: app.language: expected a string, got 3"):
        load(tmp_path, cli_file=bad)


def test_broken_toml_is_reported_with_the_file(tmp_path):
    (tmp_path / "user.toml").write_text("[app\n")
    with pytest.raises(ConfigError, match=r"user.toml: not valid TOML"):
        load(tmp_path)


def test_environment_values_take_the_default_type(tmp_path):
    defaults = settings_mod.load(env={}, system_file=tmp_path / "x", user_path=tmp_path / "y").flat()
    key = next(k for k, v in defaults.items() if isinstance(v, bool))
    env_name = "TABLE_ASSISTANT__" + key.upper().replace(".", "__")
    assert load(tmp_path, env={env_name: "true"})[key] is True
    with pytest.raises(ConfigError, match=rf"environment variable {env_name}: {key}: expected true or false, got .yes."):
        load(tmp_path, env={env_name: "yes"})


def test_every_default_setting_has_a_comment():
    lines = settings_mod.default_text().splitlines()
    for number, line in enumerate(lines):
        if "=" in line and not line.lstrip().startswith("#"):
            above = lines[number - 1].strip() if number else ""
            assert above.startswith("#") or "#" in line, f"default.toml line {number + 1} has no comment: {line}"


def test_values_set_for_one_run_leave_the_settings_they_came_from(tmp_path):
    settings = load(tmp_path)
    demo = settings.with_values({"camera.source": "synthetic", "camera.fps": 30}, "demo")
    assert demo["camera.source"] == "synthetic" and demo["camera.fps"] == 30.0
    assert demo.sources["camera.source"] == "demo" and "camera.source" in demo.overridden
    assert settings["camera.source"] == "auto" and settings.sources["camera.source"] == "default"
    with pytest.raises(ConfigError, match="demo: camera.fps: expected a number"):
        settings.with_values({"camera.fps": "fast"}, "demo")
    with pytest.raises(ConfigError, match="demo: camera.sauce: unknown setting"):
        settings.with_values({"camera.sauce": 1}, "demo")


def wrong_values(default):
    """A value of another type than ``default``'s, as TOML text; and as --set / environment text
    (None for a string, which any text is)."""
    if isinstance(default, bool):
        return '"yes"', "maybe"
    if isinstance(default, (int, float)):
        return '"fast"', "fast"
    if isinstance(default, list):
        return "3", "three"
    return "[1, 2]", None


def every_key():
    return sorted(key for key, value in load_defaults().flat().items() if not isinstance(value, dict))


def load_defaults():
    return settings_mod.Settings(values=__import__("tomllib").loads(settings_mod.default_text()))


@pytest.mark.parametrize("key", every_key())
def test_every_setting_of_the_wrong_type_is_named_from_every_layer(tmp_path, key):
    in_file, as_text = wrong_values(load_defaults()[key])
    section, name = key.rsplit(".", 1)
    bad = tmp_path / "bad.toml"
    bad.write_text(f"[{section}]\n{name} = {in_file}\n")
    with pytest.raises(ConfigError, match=f"^{bad}: {key}: expected "):
        load(tmp_path, cli_file=bad)
    if as_text is None:
        return
    with pytest.raises(ConfigError, match=f"^command line: {key}: expected "):
        load(tmp_path, overrides={key: as_text})
    variable = "TABLE_ASSISTANT__" + key.upper().replace(".", "__")
    with pytest.raises(ConfigError, match=f"^environment variable {variable}: {key}: expected "):
        load(tmp_path, env={variable: as_text})
