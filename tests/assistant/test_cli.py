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


def test_score_uses_the_configured_hilo_palette(tmp_path, capsys):
    grid = [["C7", "C2", "C9"], ["B1", "G0", "C-1"], ["B3", "G8", "C5"]]
    round_file = tmp_path / "round.json"
    other = [["Y4", "B4", "P2"], ["G7", "Y1", "O3"], ["O4", "P5", "Y6"]]
    round_file.write_text(json.dumps({"players": [{"name": "Ana", "grid": grid}, {"name": "Ben", "grid": other}],
                                      "trigger": 0}))
    palette = "crimson:C, orange:O, yellow:Y, lime:L, green:G, blue:B, purple:P, pink:K"
    assert cli.main(["--set", f"games.hilo.palette={palette}", "score", "hilo", str(round_file), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["scores"] == [16, 25]
    assert cli.main(["score", "hilo", str(round_file)]) == 1  # C is no colour of the default palette
    assert "C7" in capsys.readouterr().err
