"""Every literal tr("...") template in the code has a French translation with the same fields."""
import ast
import string
from pathlib import Path

import pytest

from assistant.i18n import catalogue, translate
from engine.text import tr

ROOT = Path(__file__).resolve().parents[2]


def templates():
    found = {}
    for folder in ("engine", "assistant", "vision", "hardware"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "tr"
                        and node.args and isinstance(node.args[0], ast.Constant)
                        and isinstance(node.args[0].value, str)):
                    found.setdefault(node.args[0].value, f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def fields(template):
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_templates_are_found():
    assert "nothing to undo: the match is at its start" in templates()


@pytest.mark.parametrize("language", ["fr"])
def test_every_template_is_translated_with_the_same_fields(language):
    known, found = catalogue(language), templates()
    missing = [f"{where}: {t!r}" for t, where in found.items() if t not in known]
    assert not missing, f"{len(missing)} templates have no {language} translation:\n" + "\n".join(missing)
    wrong = [t for t in found if fields(known[t]) != fields(t)]
    assert not wrong, f"translations with other fields: {wrong}"


def test_translation_formats_nested_fields():
    text = tr("{what}: {reason}", what="x", reason=tr("nothing to redo"))
    assert str(text) == "x: nothing to redo"
    assert translate(tr("nothing to redo"), "fr") == "rien à rétablir"
