"""Player-facing text that can be translated after it was written.

The engine speaks English through ``tr(template, **fields)``. The result is a plain ``str``
(the English text) that also remembers its template and fields, so the application can look
the template up in a catalogue (``assistant/locale/<lang>/*.json``) and format it again in
another language. Keep templates literal strings so the catalogue check can find them.
"""
from __future__ import annotations

from typing import Any, Sequence


class Text(str):
    """An English sentence with the template and fields it was made from."""

    template: str
    fields: dict[str, Any]

    def __new__(cls, template: str, fields: dict[str, Any]) -> "Text":
        text = super().__new__(cls, template.format(**fields) if fields else template)
        text.template = template
        text.fields = fields
        return text

    def __reduce__(self):
        return (Text, (self.template, self.fields))


def tr(template: str, **fields: Any) -> Text:
    """Mark a sentence for translation: ``tr("rung {rung} is taken", rung=3)``."""
    return Text(template, fields)


def listing(items: Sequence[Text | str]) -> Text | str:
    """"a", "a and b", "a, b and c", every joint translatable (and each item, when it is Text)."""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return tr("{first} and {last}", first=items[0], last=items[1])
    return tr("{first}, {rest}", first=items[0], rest=listing(items[1:]))
