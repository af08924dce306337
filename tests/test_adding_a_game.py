"""docs/adding-a-game.md is followed as written: its files, and only they, are added to a copy of
the tree, and the new game is then found by the command line, the home screen and `replay`."""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "adding-a-game.md"
PACKAGES = ("assistant", "engine", "vision", "hardware", "config")
GAME = "highroll"
# The files a game may bring: nothing outside them is touched.
OWN_FILES = (rf"engine/{GAME}/[\w/]+\.py", rf"assistant/screens/{GAME}\.py", rf"assistant/kv/{GAME}\.kv",
             rf"assistant/locale/fr/{GAME}\.json", rf"config/mats/{GAME}\.toml")


def doc_files() -> dict[str, str]:
    """The fenced blocks of the page whose info string names a file: path -> text."""
    blocks = re.findall(r"^```\w+ (\S+)\n(.*?)^```$", DOC.read_text("utf-8"), re.M | re.S)
    return dict(blocks)


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    copy = tmp_path_factory.mktemp("tree")
    for name in PACKAGES:
        shutil.copytree(ROOT / name, copy / name, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for path, text in doc_files().items():
        target = copy / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, "utf-8")
    return copy


def run(tree: Path, *args: str, code: str | None = None) -> str:
    """The copy's `table-assistant ARGS` (or a script), in a fresh process; its output."""
    home = tree / "home"
    (home / "kivy").mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(tree), "XDG_STATE_HOME": str(home / "state"),
           "XDG_CONFIG_HOME": str(home / "config"), "KIVY_HOME": str(home / "kivy"), "KIVY_NO_CONSOLELOG": "1"}
    command = [sys.executable, "-c", code] if code else [
        sys.executable, "-c", "import sys; from assistant.cli import main; sys.exit(main())", *args]
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_page_adds_only_the_games_own_files():
    files = doc_files()
    assert f"engine/{GAME}/__init__.py" in files
    for path in files:
        assert any(re.fullmatch(pattern, path) for pattern in OWN_FILES), f"{path} is not one of the game's files"


def test_the_new_game_follows_the_shared_rules_checks(tree):
    out = run(tree, code="from engine import registry, testing\n"
                         f"print(testing.check_game(registry.make_game({GAME!r}, 2), games=20).games)")
    assert out.split() == ["20"]


def test_the_command_line_finds_it_and_replays_its_match(tree):
    assert GAME in run(tree, "replay", "--help")
    match = {"format": "table-assistant/match", "version": 1, "game": GAME, "options": {},
             "players": [{"name": "Ana"}, {"name": "Ben"}], "actions": ["go", "roll 6", "go", "roll 2", "go", "roll 5"]}
    path = tree / "match.json"
    path.write_text(json.dumps(match))
    report = json.loads(run(tree, "replay", GAME, str(path), "--json"))
    assert report["actions"] == 6 and report["scores"] == [11, 2] and report["to_play"] == -4
    assert run(tree, "replay", GAME, str(path)).strip() == "Ana 11, Ben 2"
    demo = run(tree, "--set", "app.language=fr", "demo", "--game", GAME, "--text", "--step", "0", "--seed", "3")
    assert re.search(r"\w+ \d+, \w+ \d+$", demo.strip()), demo[-300:]


def test_its_mat_prints(tree):
    out = run(tree, "print-mat", "--game", GAME, "--players", "2", "--paper", "A3", "--out", str(tree / "mat.png"))
    assert "markers 40, 41, 42, 43" in out and (tree / "mat.png").stat().st_size > 1000


@pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="the home screen needs a display (./dev test runs Xvfb)")
def test_the_home_screen_offers_it(tree):
    script = """
import json
from assistant.app import TableApp, configure_window
from assistant.session import Session
from assistant.store import IN_MEMORY, Store
from kivy.clock import Clock

configure_window(fullscreen=False, size=(800, 480), keyboard="system")
app = TableApp(Session(Store(IN_MEMORY)))

def check(dt):
    home = app.root.get_screen("home")
    home.pick_game("highroll")
    print(json.dumps({"games": [row["text"] for row in home.game_rows], "start": home.start_text}))
    app.stop()

Clock.schedule_once(check, 0.5)
app.run()
"""
    shown = json.loads(run(tree, code=script).strip().splitlines()[-1])
    assert "High Roll" in shown["games"] and "Hilo" in shown["games"]
    assert "High Roll" in shown["start"]
