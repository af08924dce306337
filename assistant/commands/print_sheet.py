"""`table-assistant print-sheet --pad A|B [--count N] --out FILE.pdf|.png`: Splitter score sheets.

A page of up to four sheets at true scale (print at 100 %, "actual size"), to be cut apart: each
sheet has the pad's 44 cells, four ArUco markers by which the camera finds and straightens it,
and a row of seat boxes the player crosses. Print the page as many times as the table needs.
The geometry is ``config/sheets/splitter.toml``; a PNG is rendered at ``vision.mat.png_dpi``.
"""
from __future__ import annotations

from pathlib import Path

from assistant.i18n import translate
from assistant.splitter_sheets import splitter_sheet
from engine.splitter import PADS
from engine.text import tr
from vision.mat_print import save_drawing
from vision.sheet_print import page_drawing


def add_parser(sub) -> None:
    parser = sub.add_parser("print-sheet", help="draw a page of Splitter score sheets (PDF or PNG, true scale)")
    parser.add_argument("--pad", required=True, choices=sorted(PADS))
    parser.add_argument("--count", type=int, metavar="N", help="sheets on the page (default: as many as fit)")
    parser.add_argument("--out", required=True, metavar="FILE", help="FILE.pdf or FILE.png")
    parser.set_defaults(run=run)


def sheet_texts(pad: str, cell_mm: float, language: str) -> dict[str, str]:
    texts = {"title": tr("Splitter pad {pad}", pad=pad), "seat": tr("Seat: cross yours"),
             "footer": tr("Print at 100 %: each cell is {size} mm wide.", size=f"{cell_mm:g}")}
    return {key: translate(text, language) for key, text in texts.items()}


def run(args, settings) -> int:
    from assistant.cli import UsageError

    out = Path(args.out)
    kind = out.suffix.lower()
    if kind not in (".pdf", ".png"):
        raise UsageError(f"--out must end in .pdf or .png, got {args.out!r}")
    layout = splitter_sheet(args.pad)
    columns, rows = layout.per_page()
    count = columns * rows if args.count is None else args.count
    if not 1 <= count <= columns * rows:
        raise UsageError(f"--count: a page holds 1 to {columns * rows} sheets, not {count} "
                         "(print the page as many times as needed)")
    language = settings["app.language"]
    shapes = page_drawing(layout, count, sheet_texts(args.pad, layout.cell_mm, language))
    save_drawing(out, shapes, layout.page, settings["vision.mat.png_dpi"], f"splitter pad {args.pad}")
    print(translate(tr("{file}: {count} Splitter pad {pad} sheets, markers {markers}", file=str(out), count=count,
                       pad=args.pad, markers=", ".join(str(m.id) for m in layout.markers)), language))
    return 0
