import json
import subprocess
import sys

import pytest

from assistant import cli


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    for name in list(__import__("os").environ):
        if name.startswith("TABLE_ASSISTANT__"):
            monkeypatch.delenv(name)


def test_help_lists_every_subcommand(capsys):
    with pytest.raises(SystemExit) as done:
        cli.main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    for name in ("run", "demo", "score", "replay", "eval", "bench", "print-mat", "calibrate", "doctor", "config"):
        assert name in out


def test_version(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--version"])
    assert capsys.readouterr().out.startswith("table-assistant ")


def test_bad_usage_exits_2(capsys):
    with pytest.raises(SystemExit) as done:
        cli.main(["frobnicate"])
    assert done.value.code == 2


def test_config_show_gives_values_and_sources(capsys):
    assert cli.main(["--set", "app.language=fr", "config", "show"]) == 0
    out = capsys.readouterr().out
    assert 'app.language' in out and '"fr"  # command line' in out
    assert cli.main(["config", "show", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["app.language"] == {"value": "en", "source": "default"}


def test_bad_config_file_is_one_line_and_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('[app]\nlog_level = 5\n')
    assert cli.main(["--config", str(bad), "config", "show"]) == 2
    err = capsys.readouterr().err
    assert err == f"table-assistant: {bad}: app.log_level: expected a string, got 5\n"


def test_malformed_set_is_a_usage_error(capsys):
    assert cli.main(["--set", "app.language", "config", "show"]) == 2
    assert "--set expects KEY=VALUE" in capsys.readouterr().err


def test_console_script_runs_in_a_fresh_process():
    done = subprocess.run([sys.executable, "-m", "assistant.cli", "config", "show"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "app.language" in done.stdout


def test_bench_lists_the_benchmarks(capsys):
    assert cli.main(["bench", "--list"]) == 0
    names = capsys.readouterr().out.split()
    assert names and all(not n.startswith("_") for n in names)
    assert cli.main(["bench", "no-such-bench"]) == 2
