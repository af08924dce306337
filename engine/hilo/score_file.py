"""`table-assistant score hilo ROUND.json`: score one finished round from the grids on the table.

ROUND.json: {"players": [{"name": "Ana", "grid": [["R7", "R2", "R9"], ...]}, ...], "trigger": 0,
"palette": optional}. Cards are colour initial(s) + value (the palette's initials; default R O Y
L G B P K); the palette is "name:initial, ..." or an object {"R": "red", ...}.
"""
from __future__ import annotations

from typing import Any

from engine import jsontext
from engine.core import parse_options
from engine.text import tr
from engine.hilo import grid as g
from engine.hilo.cards import Palette
from engine.hilo.game import HiloGame, HiloOptions
from engine.hilo.scoring import round_scores
from engine.hilo.words import line_name


def score_text(text: str, **options: Any) -> dict[str, Any]:
    """Remove the HILOs left (the choice giving each player the lowest score), apply the doubling
    rule and return {"names", "sums", "scores", "trigger", "doubled", "removed"}; ValueError naming
    the place in the file that is wrong."""
    data = jsontext.loads(text)
    if not isinstance(data, dict):
        raise ValueError("expected an object with \"players\" and \"trigger\"")
    unknown = set(data) - {"players", "trigger", "palette"}
    if unknown:
        raise ValueError(f"unknown field {sorted(unknown)[0]!r} (expected players, trigger, palette)")
    settings = parse_options(HiloOptions, options, HiloGame.id)
    palette = _palette(data.get("palette", settings.palette))
    players = data.get("players")
    if not isinstance(players, list) or not HiloGame.min_players <= len(players) <= HiloGame.max_players:
        raise ValueError(f"\"players\" must list {HiloGame.min_players} to {HiloGame.max_players} "
                         f"players, got {players!r:.80}")
    trigger = data.get("trigger")
    if not isinstance(trigger, int) or isinstance(trigger, bool) or not 0 <= trigger < len(players):
        raise ValueError(f"\"trigger\" must be the seat (0 to {len(players) - 1}) of the player "
                         f"who ended the round, got {trigger!r}")
    seen: dict[int, str] = {}
    names, grids = [], []
    for seat, entry in enumerate(players):
        where = f"players[{seat}]"
        name = entry.get("name") if isinstance(entry, dict) else None
        if not isinstance(name, str) or not name.strip() or not name.isprintable():
            raise ValueError(f"{where}: expected {{\"name\": ..., \"grid\": [[...], ...]}}")
        names.append(entry["name"])
        grids.append(_grid(entry.get("grid"), entry["name"], palette, seen))
    return score_grids(names, grids, trigger, palette)


def score_grids(names: list[str], grids: list[g.Grid], trigger: int | None, palette: Palette) -> dict[str, Any]:
    """``score_text``'s result for face-up grids of card ids; ``trigger`` None: nobody is said to
    have ended the round, so nothing is doubled."""
    removed, sums = [], []
    for grid in grids:
        total, removals, _ = g.best_removals(grid)
        sums.append(total)
        removed.append([_removal(r, palette) for r in removals])
    scores = round_scores(sums, trigger) if trigger is not None else tuple(sums)
    return {"names": names, "sums": sums, "scores": list(scores), "trigger": trigger,
            "doubled": scores != tuple(sums), "removed": removed}


def format_score(result: dict[str, Any]) -> str:
    lines = []
    for seat, name in enumerate(result["names"]):
        score, total = result["scores"][seat], result["sums"][seat]
        if seat == result["trigger"] and result["doubled"]:
            line = tr("{name}: {score} ({total} doubled: {name} ended the round without the strictly lowest total)",
                      name=name, score=score, total=total)
        elif seat == result["trigger"]:
            line = tr("{name}: {score} (ended the round, not doubled)", name=name, score=score)
        else:
            line = tr("{name}: {score}", name=name, score=score)
        removals = "; ".join(_removal_words(r) for r in result["removed"][seat])
        lines.append(tr("{line}; removed {removals}", line=line, removals=removals) if removals else line)
    return "\n".join(lines)


def _palette(raw: Any) -> Palette:
    if isinstance(raw, dict):
        raw = ", ".join(f"{name}:{initial}" for initial, name in raw.items())
    if not isinstance(raw, str):
        raise ValueError("\"palette\" is \"name:initial, ...\" or {\"R\": \"red\", ...}")
    try:
        return Palette.parse(raw)
    except ValueError as exc:
        raise ValueError(f"{exc}") from None


def _grid(raw: Any, name: str, palette: Palette, seen: dict[int, str]) -> g.Grid:
    problem = g.shape_problem(raw)
    if problem:
        raise ValueError(f"the grid of {name}: {problem}")
    rows = []
    for r, row in enumerate(raw):
        cells = []
        for c, text in enumerate(row):
            at = f"{name}'s grid, row {r + 1} column {c + 1}"
            if text == "??":
                raise ValueError(f"{at}: the card is face down; turn every card up before scoring")
            try:
                if not isinstance(text, str):
                    raise ValueError(f"{text!r} is not a card (write a card as text, such as \"R7\")")
                card = palette.read_code(text)
            except ValueError as exc:
                raise ValueError(f"{at}: {exc}") from None
            if card in seen:
                raise ValueError(f"{at}: {palette.code(card)} is also in {seen[card]}; "
                                 f"every card exists once")
            seen[card] = at
            cells.append(card)
        rows.append(tuple(cells))
    return tuple(rows)


def _removal(removal: g.Removal, palette: Palette) -> dict[str, Any]:
    entry = {"line": removal.line.notation(), "cards": [palette.code(c) for c in removal.cards]}
    if removal.slide:
        entry["slide"] = removal.slide
    return entry


def _removal_words(entry: dict[str, Any]) -> str:
    kind, _, index = entry["line"].partition(" ")
    line = line_name(g.Line(kind, int(index) - 1 if index else 0))
    cards = " ".join(entry["cards"])
    if "slide" in entry:
        return tr("{line} ({cards}), then the cards slid {direction}", line=line, cards=cards,
                  direction=tr("vertically") if entry["slide"] == g.VERTICAL else tr("horizontally"))
    return tr("{line} ({cards})", line=line, cards=cards)
