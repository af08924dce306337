"""`table-assistant print-mat --game G --players N [--paper A3|A2|A1] --out FILE.pdf|.png`: the play mat.

The mat is drawn at true scale: print it at 100 % ("actual size", no fit-to-page). Its layout
(zones and ArUco markers) is data in ``config/mats/<game>.toml``: a game has a mat when its
file is there. Without ``--paper``, the smallest paper that holds the players' places. A PDF is
vector (sharp at any printer resolution); a PNG is rendered at ``vision.mat.png_dpi`` and
records that resolution.
"""
from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

from assistant.i18n import translate
from engine import registry
from engine.text import tr
from vision.mat import PAPERS, LayoutError, MatLayout, layout_from_data
from vision.mat_print import mat_drawing, save_drawing

MATS = resources.files("assistant.defaults") / "mats"


def mat_games() -> tuple[str, ...]:
    """The games of the registry whose mat layout is shipped."""
    return tuple(game_id for game_id in registry.game_ids() if (MATS / f"{game_id}.toml").is_file())


def add_parser(sub) -> None:
    parser = sub.add_parser("print-mat", help="draw a printable play mat (PDF or PNG, true scale)")
    parser.add_argument("--game", required=True, choices=mat_games())
    parser.add_argument("--players", required=True, type=int, metavar="N")
    parser.add_argument("--paper", choices=tuple(PAPERS), help="default: the smallest that holds the players' places")
    parser.add_argument("--out", required=True, metavar="FILE", help="FILE.pdf or FILE.png")
    parser.set_defaults(run=run)


def mat_layout(game: str, paper: str, players: int) -> MatLayout:
    """The packaged layout of a game's mat (raises vision.mat.LayoutError when none fits)."""
    source = MATS / f"{game}.toml"
    try:
        data = tomllib.loads(source.read_text("utf-8"))
    except FileNotFoundError:
        raise ValueError(f"no mat layout for {game} ({source})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{source}: not valid TOML: {exc}") from None
    return layout_from_data(data, paper, players, str(source))


def smallest_mat(game: str, players: int) -> MatLayout:
    """The layout of a game's mat for ``players`` on the smallest paper that holds it."""
    for paper in PAPERS:  # smallest first
        try:
            return mat_layout(game, paper, players)
        except LayoutError as exc:
            why = exc
    raise why


def all_mat_layouts() -> list[MatLayout]:
    """Every shipped mat (for each layout entry, at its largest number of players)."""
    layouts = []
    for game in mat_games():
        source = MATS / f"{game}.toml"
        data = tomllib.loads(source.read_text("utf-8"))
        for entry in data["layout"]:
            layouts.append(layout_from_data(data, entry["paper"], max(entry["players"]), str(source)))
    return layouts


def zone_names(layout: MatLayout) -> dict:
    """What is printed in each zone, as translatable text."""
    names = {}
    for zone in layout.zones:
        kind, _, number = zone.id.partition(".")
        if kind in ("grid", "gv", "pile") and number:
            n = int(number) + 1
            names[zone.id] = {"grid": tr("Player {n}", n=n), "gv": tr("Player {n}: GV", n=n),
                              "pile": tr("Pile {n}", n=n)}[kind]
        elif kind == "row":
            names[zone.id] = tr("Row {n}", n=int(number))
        elif kind == "ladder":
            names[zone.id] = tr("Rung {n}", n=int(number))
        elif zone.id in ("dice", "roll"):
            names[zone.id] = tr("Dice")
        elif zone.id == "draw":
            names[zone.id] = tr("Draw")
        elif zone.id == "discard":
            names[zone.id] = tr("Discard")
    return names


def printed_names(layout: MatLayout) -> dict:
    """What is printed in each zone of the mat: its name (``zone_names``), and in a row of the
    table where the cards beyond its places go (Hold Up's rows grow past them; the camera reads
    the pile on the last place as the row's right end)."""
    names = zone_names(layout)
    for zone in layout.zones:
        if zone.kind == "row" and zone.seat is None:
            names[zone.id] = tr("Row {n} - more than {places} cards: pile them on the last place",
                                n=int(zone.id.partition(".")[2]), places=zone.cols)
    return names


def run(args, settings) -> int:
    from assistant.cli import UsageError

    out = Path(args.out)
    kind = out.suffix.lower()
    if kind not in (".pdf", ".png"):
        raise UsageError(f"--out must end in .pdf or .png, got {args.out!r}")
    layout = (mat_layout(args.game, args.paper, args.players) if args.paper else
              smallest_mat(args.game, args.players))
    language = settings["app.language"]
    labels = {zid: translate(text, language) for zid, text in printed_names(layout).items()}
    width, height = layout.size
    footer = translate(tr("Print at 100 % (actual size): this sheet is {width} x {height} mm and each black "
                          "marker square is {size} mm wide.", width=f"{width:g}", height=f"{height:g}",
                          size=f"{layout.markers[0].size:g}"), language)
    shapes = mat_drawing(layout, labels, footer)
    save_drawing(out, shapes, layout.size, settings["vision.mat.png_dpi"], f"{layout.game} {layout.paper}")
    print(translate(tr("{file}: {game} mat, {paper}, {players} players, markers {markers}", file=str(out),
                       game=layout.game, paper=layout.paper, players=layout.players,
                       markers=", ".join(str(i) for i in layout.marker_ids())), language))
    return 0
