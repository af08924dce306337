"""JSON that a person gave (a match file, a round to score): every problem one ValueError in one
line, deep nesting included, which ``json`` answers with a RecursionError."""
from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 20  # match and round files nest 4 deep


def loads(text: str) -> Any:
    """The document in ``text``; ValueError saying what is wrong and where."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON: {exc}") from None
    except RecursionError:
        raise ValueError(f"nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:  # a number of more than 4,300 digits
        raise ValueError(f"not valid JSON: {exc}") from None
    if _too_deep(data):
        raise ValueError(f"nested more than {MAX_DEPTH} levels deep")
    return data


def _too_deep(data: Any) -> bool:
    level = [data]
    for _ in range(MAX_DEPTH):
        level = [child for node in level if isinstance(node, (dict, list))
                 for child in (node.values() if isinstance(node, dict) else node)]
        if not level:
            return False
    return any(isinstance(node, (dict, list)) for node in level)
