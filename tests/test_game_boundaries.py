"""Screens see a game only through what its package exports: its ``__all__`` (the board view
model among it), never its modules, and never an engine state through the view."""
import ast
import importlib
from pathlib import Path

from engine import registry

ROOT = Path(__file__).resolve().parents[1]
SCREENS = ROOT / "assistant" / "screens"


def game_packages() -> set[str]:
    return {registry.game_class(game_id).__module__.rsplit(".", 1)[0] for game_id in registry.game_ids()}


def crossings(source: str, packages: set[str]) -> list[str]:
    """Imports in ``source`` that reach past a game package's ``__all__``, and reads of
    ``view.state``, as "line: what"."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            inside = [p for p in packages if node.module.startswith(p + ".")]
            if inside:
                found.append(f"{node.lineno}: from {node.module} (a module inside {inside[0]})")
            elif node.module in packages:
                exported = set(importlib.import_module(node.module).__all__)
                found += [f"{node.lineno}: {node.module}.{a.name} is not in its __all__"
                          for a in node.names if a.name not in exported]
        elif isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {a.name}" for a in node.names
                      if any(a.name.startswith(p + ".") for p in packages)]
        elif isinstance(node, ast.Attribute) and node.attr == "state" and isinstance(node.value, ast.Name) \
                and node.value.id == "view":
            found.append(f"{node.lineno}: view.state (screens read view.board)")
    return found


def test_screens_import_only_what_game_packages_export():
    packages = game_packages()
    found = [f"{path.relative_to(ROOT)}:{line}" for path in sorted(SCREENS.glob("*.py"))
             for line in crossings(path.read_text("utf-8"), packages)]
    assert found == []


def test_the_check_sees_a_crossing():
    source = ("from engine.excape.state import DECIDE\nfrom engine.excape import Place, _private\n"
              "def update(view):\n    return view.state\n")
    found = crossings(source, {"engine.excape"})
    assert [line.split(":")[0] for line in found] == ["1", "2", "4"]
