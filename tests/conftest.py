"""Fixtures shared across the test folders."""
import contextlib
import io

import pytest


@pytest.fixture(scope="session")
def holdup_deck(tmp_path_factory):
    """A state folder where `calibrate cards --game holdup --synthetic` enrolled the synthetic Hold
    Up deck (it takes seconds, so once a run), and what the command printed."""
    from assistant import cli

    state = tmp_path_factory.mktemp("holdup-deck")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert cli.main(["--set", f"app.state_dir={state}", "calibrate", "cards", "--game", "holdup",
                         "--synthetic"]) == 0
    return state, printed.getvalue()
