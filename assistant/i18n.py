"""Translation of engine and screen text: English templates looked up in JSON catalogues.

Catalogues live in ``assistant/locale/<language>/<area>.json`` as ``{"English template":
"translated template"}``; every file of a language is merged. Text made with
``engine.text.tr`` is translated field by field (a field may itself be translated Text).
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any, Sequence

from engine.text import Text

LANGUAGES = ("en", "fr")


@lru_cache(maxsize=None)
def catalogue(language: str) -> dict[str, str]:
    if language not in LANGUAGES:
        raise ValueError(f"language {language!r} is not shipped; choose one of {', '.join(LANGUAGES)}")
    merged: dict[str, str] = {}
    folder = resources.files("assistant") / "locale" / language
    if language != "en":
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.name.endswith(".json"):
                merged.update(json.loads(entry.read_text("utf-8")))
    return merged


def translate(text: Any, language: str) -> str:
    """``text`` in ``language``; templates missing from the catalogue stay in English."""
    if language == "en":
        return str(text)
    if isinstance(text, Text):
        template = catalogue(language).get(text.template, text.template)
        fields = {k: translate(v, language) if isinstance(v, Text) else v for k, v in text.fields.items()}
        return template.format(**fields) if fields else template
    return catalogue(language).get(str(text), str(text))


def with_names(text: Any, names: Sequence[str]) -> Any:
    """``text`` with each nested ``tr("player {number}", number=n)`` replaced by player n's name."""
    if not isinstance(text, Text):
        return text
    if text.template == "player {number}" and isinstance(text.fields.get("number"), int) \
            and 1 <= text.fields["number"] <= len(names):
        return names[text.fields["number"] - 1]
    return Text(text.template, {k: with_names(v, names) for k, v in text.fields.items()})
