"""One module per `table-assistant` subcommand (see assistant/cli.py)."""
from __future__ import annotations

import importlib
from typing import Sequence


def add_group(sub, name: str, help: str, metavar: str, modules: Sequence[str]) -> None:
    """A subcommand made of others (`calibrate dice`, `eval cards`): each module in ``modules``
    (under assistant/commands/) registers its own with ``add_parser(subparsers)``."""
    parser = sub.add_parser(name, help=help)
    group = parser.add_subparsers(dest=f"{name}_{metavar.lower()}", metavar=metavar, required=True)
    for module in modules:
        importlib.import_module(f"assistant.commands.{module}").add_parser(group)
