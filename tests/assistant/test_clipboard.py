"""A text field on a machine without xclip or xsel (a kiosk), or with an xclip that has no X
server to talk to (a kiosk drawing on the screen): no CRITICAL record, no traceback in the log,
and copy and paste work (SDL's clipboard). Run in its own process, as Kivy picks its clipboard
once, under the X server of the screen tests."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import logging
logging.basicConfig(level=logging.DEBUG, format="%(levelname)s %(name)s %(message)s")
import assistant.app
from kivy.uix.textinput import TextInput
field = TextInput(text="Chloé")
field.select_all()
field.copy()
field.text = ""
field.paste()
from kivy.core.clipboard import Clipboard
print("pasted", field.text, type(Clipboard).__name__)
"""


XCLIP_WITHOUT_X = """#!/bin/sh
[ "$1" = -version ] && exit 0
echo "Error: Can't open display: (null)" >&2
exit 1
"""


@pytest.mark.parametrize("tools", ["none", "xclip without X"])
def test_copy_and_paste_and_no_alarm_without_a_clipboard_tool(x_display, tmp_path, tools):
    tool_dir = tmp_path / "bin"  # the PATH: nothing else
    tool_dir.mkdir()
    if tools == "xclip without X":
        (tool_dir / "xclip").write_text(XCLIP_WITHOUT_X)
        (tool_dir / "xclip").chmod(0o755)
    env = {name: value for name, value in os.environ.items() if not name.startswith("KIVY_")}
    env.update(DISPLAY=x_display, KIVY_HOME=str(tmp_path / "kivy"), PATH=str(tool_dir))
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["pasted", "Chloé", "ClipboardSDL2"]
    assert "CRITICAL" not in done.stderr and "Traceback" not in done.stderr, done.stderr[-3000:]
