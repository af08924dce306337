"""Printing Splitter score sheets: `table-assistant print-sheet`, the sheet layout and its drawing."""
import re
import tomllib
import zlib

import cv2
import numpy as np
import pytest

from assistant.cli import main
from assistant.commands.print_mat import all_mat_layouts
from assistant.splitter_sheets import SHEET_FILE, pad_cells, splitter_sheet
from engine.splitter import PADS
from vision.mat import MatLocator
from vision.mat_print import Outline, render
from vision.sheet_layout import SheetLayoutError, sheet_layout
from vision.sheet_print import LIGHT, page_drawing, sheet_drawing

PT_PER_MM = 72 / 25.4


def page_operators(data: bytes) -> str:
    body = data[data.index(b"stream\n") + 7:data.index(b"endstream")]
    return zlib.decompress(body).decode("latin-1")


def test_a_pdf_page_is_a4_with_four_sheets_of_four_markers(tmp_path, capsys):
    out = tmp_path / "a.pdf"
    assert main(["print-sheet", "--pad", "A", "--out", str(out)]) == 0
    data = out.read_bytes()
    box = [float(v) for v in re.search(rb"/MediaBox \[([^\]]+)\]", data).group(1).split()]
    assert box == pytest.approx([0, 0, 210 * PT_PER_MM, 297 * PT_PER_MM], abs=0.01)
    side = f"{12 * PT_PER_MM:.3f}"
    assert page_operators(data).count(f"{side} {side} re f") == 16  # the markers' black squares
    assert "4 Splitter pad A sheets, markers 40, 41, 42, 43" in capsys.readouterr().out


def test_count_beyond_a_page_is_refused(tmp_path, capsys):
    assert main(["print-sheet", "--pad", "B", "--count", "5", "--out", str(tmp_path / "b.pdf")]) == 2
    assert "a page holds 1 to 4 sheets, not 5" in capsys.readouterr().err
    assert not (tmp_path / "b.pdf").exists()


def test_french_sheets_are_titled_in_french(tmp_path):
    out = tmp_path / "b.pdf"
    assert main(["--set", "app.language=fr", "print-sheet", "--pad", "B", "--count", "1", "--out", str(out)]) == 0
    ops = page_operators(out.read_bytes())
    assert "(Splitter feuille B) Tj" in ops and "Tj" in ops


def test_a_png_sheet_is_found_where_it_was_drawn(tmp_path):
    out = tmp_path / "b.png"
    assert main(["--set", "vision.mat.png_dpi=150", "print-sheet", "--pad", "B", "--count", "2",
                 "--out", str(out)]) == 0
    image = cv2.imread(str(out))
    px_per_mm = 150 / 25.4
    assert image.shape[:2] == (round(297 * px_per_mm), round(210 * px_per_mm))
    layout = splitter_sheet("B")
    second = image[:, round(105 * px_per_mm):]  # the second sheet, right of the first
    pose = MatLocator(layout.mat()).locate(second)
    corners = pose.to_px(np.array([[0.0, 0.0], [105.0, 148.5]]))
    assert corners == pytest.approx(np.array([[0, 0], [105 * px_per_mm, 148.5 * px_per_mm]]), abs=2.5)


def test_stars_and_hearts_are_drawn_light_on_their_cells():
    for pad, light in (("A", 2), ("B", 5)):
        shapes = sheet_drawing(splitter_sheet(pad))
        assert sum(isinstance(s, Outline) and s.rgb == LIGHT for s in shapes) == light
        cells = sum(isinstance(s, Outline) and len(s.points) == 4 and s.rgb != LIGHT for s in shapes)
        assert cells == 44 + 12  # the cells and the seat boxes


def test_the_cells_are_the_engines():
    layout = splitter_sheet("B")
    assert len(layout.cells) == 44
    assert dict(layout.cells) == pad_cells(PADS["B"])
    assert dict(layout.cells)[(6, 0)] == "heart" and dict(layout.cells)[(1, 6)] == "star"
    assert layout.cells[0][0] == (0, 0) and layout.cells[-1][0] == (7, 6)  # reading order


def test_sheet_markers_are_no_mats():
    mats = {i for layout in all_mat_layouts() for i in layout.marker_ids()}
    sheets = {m.id for pad in PADS for m in splitter_sheet(pad).markers}
    assert len(sheets) == 8 and not sheets & mats


def test_a_cell_off_the_sheet_or_shared_markers_are_named():
    data = tomllib.loads(SHEET_FILE.read_text("utf-8"))
    with pytest.raises(SheetLayoutError, match=r"cell \(4,0\) lies off the 105 x 148.5 mm sheet"):
        sheet_layout({**data, "cell_mm": 20.0}, "A", pad_cells(PADS["A"]))
    shared = {**data, "pads": {"A": {"markers": [1, 2, 3, 4]}, "B": {"markers": [4, 5, 6, 7]}}}
    with pytest.raises(SheetLayoutError, match="marker ids of their own"):
        sheet_layout(shared, "A", pad_cells(PADS["A"]))
    with pytest.raises(SheetLayoutError, match="no sheet for pad 'C'"):
        sheet_layout(data, "C", {})


def test_cut_lines_part_the_sheets():
    layout = splitter_sheet("A")
    image = render(page_drawing(layout, 4), layout.page, 2.0)
    column = image[:, round(105 * 2.0)]
    assert (column < 250).any() and (column > 250).any()  # dashed
