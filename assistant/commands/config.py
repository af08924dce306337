"""`table-assistant config show`: the effective configuration and where each value came from."""
from __future__ import annotations

import json


def add_parser(sub) -> None:
    parser = sub.add_parser("config", help="show the effective configuration")
    actions = parser.add_subparsers(dest="config_action", metavar="ACTION", required=True)
    show = actions.add_parser("show", help="print every setting, its value and its source")
    show.add_argument("--json", action="store_true", help="print JSON")
    show.set_defaults(run=show_config)


def show_config(args, settings) -> int:
    flat = settings.flat()
    if args.json:
        print(json.dumps({k: {"value": v, "source": settings.sources[k]} for k, v in flat.items()}, indent=2))
        return 0
    width = max(map(len, flat))
    for key, value in flat.items():
        print(f"{key:<{width}} = {json.dumps(value, ensure_ascii=False)}  # {settings.sources[key]}")
    return 0
