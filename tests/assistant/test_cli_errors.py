"""What the command line says when its configuration cannot be used: one line, exit 2."""
from assistant import cli


def test_an_unknown_log_level_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert cli.main(["--set", "app.log_level=loud", "config", "show"]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err == ("table-assistant: app.log_level: 'loud' is not a level; "
                       "choose one of debug, info, warning, error, critical\n")
