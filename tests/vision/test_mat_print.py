"""Printing the mat: a true-scale PDF and PNG, through `table-assistant print-mat`."""
import re
import struct
import zlib

import cv2
import numpy as np
import pytest

from assistant.cli import main
from vision.mat import MatLocator
from vision.mat_print import pdf_bytes, render, write_png, mat_drawing
from assistant.commands.print_mat import mat_layout

PT_PER_MM = 72 / 25.4


def pdf_objects(data: bytes) -> dict[int, bytes]:
    """Objects by number, located through the cross-reference table (as a reader does)."""
    start = int(re.search(rb"startxref\s+(\d+)", data).group(1))
    assert data[start:start + 4] == b"xref"
    header = re.match(rb"xref\s+0 (\d+)\s+", data[start:])
    count = int(header.group(1))
    table = data[start + header.end():].split(b"\n")[:count]
    objects = {}
    for number, line in enumerate(table[1:], start=1):
        offset = int(line[:10])
        assert data[offset:].startswith(f"{number} 0 obj".encode()), f"xref of object {number} is off"
        objects[number] = data[offset:data.index(b"endobj", offset)]
    return objects


def test_pdf_page_is_the_paper_size_and_draws_the_markers():
    layout = mat_layout("hilo", "A2", 2)
    data = pdf_bytes(mat_drawing(layout, {"draw": "Pioche"}), layout.size, "hilo A2")
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    objects = pdf_objects(data)
    box = [float(v) for v in re.search(rb"/MediaBox \[([^\]]+)\]", objects[3]).group(1).split()]
    assert box == pytest.approx([0, 0, 594 * PT_PER_MM, 420 * PT_PER_MM], abs=0.01)
    stream = objects[4]
    length = int(re.search(rb"/Length (\d+)", stream).group(1))
    body = stream[stream.index(b"stream\n") + 7:][:length]
    ops = zlib.decompress(body).decode("latin-1")
    # Every marker is a black square and its white cells: find marker 0's square, 40 mm wide.
    assert f"{40 * PT_PER_MM:.3f} {40 * PT_PER_MM:.3f} re f" in ops
    assert "(Pioche) Tj" in ops


def test_png_records_its_resolution_and_its_markers_are_found(tmp_path):
    layout = mat_layout("excape", "A3", 4)
    px_per_mm = 4.0
    image = render(mat_drawing(layout), layout.size, px_per_mm)
    assert image.shape[:2] == (round(297 * px_per_mm), round(420 * px_per_mm))
    path = tmp_path / "mat.png"
    write_png(path, image, px_per_mm)
    data = path.read_bytes()
    at = data.index(b"pHYs")
    x_ppm, y_ppm, unit = struct.unpack(">IIB", data[at + 4:at + 13])
    assert (x_ppm, y_ppm, unit) == (4000, 4000, 1)
    back = cv2.imread(str(path))
    assert np.array_equal(back, image)
    pose = MatLocator(layout).locate(back)
    corner_px = pose.to_px(np.array([[0.0, 0.0], [420.0, 297.0]]))
    assert corner_px == pytest.approx(np.array([[0, 0], [420 * px_per_mm, 297 * px_per_mm]]), abs=2.0)


def test_print_mat_command_writes_the_file(tmp_path, capsys):
    out = tmp_path / "hilo.pdf"
    assert main(["print-mat", "--game", "hilo", "--players", "3", "--paper", "A2", "--out", str(out)]) == 0
    assert out.read_bytes().startswith(b"%PDF")
    assert "markers 4, 5, 6, 7" in capsys.readouterr().out


def test_print_mat_without_paper_takes_the_smallest_that_holds_the_players(tmp_path, capsys):
    assert main(["print-mat", "--game", "hilo", "--players", "2", "--out", str(tmp_path / "two.pdf")]) == 0
    assert "A2, 2 players" in capsys.readouterr().out
    assert main(["print-mat", "--game", "hilo", "--players", "6", "--out", str(tmp_path / "six.pdf")]) == 0
    assert "A1, 6 players, markers 32, 33, 34, 35" in capsys.readouterr().out
    assert main(["print-mat", "--game", "hilo", "--players", "7", "--out", str(tmp_path / "seven.pdf")]) == 1
    assert "no A1 mat for 7 players" in capsys.readouterr().err


def test_print_mat_in_french_prints_french_zone_names(tmp_path):
    out = tmp_path / "holdup.pdf"
    assert main(["--set", "app.language=fr", "print-mat", "--game", "holdup", "--players", "3",
                 "--paper", "A2", "--out", str(out)]) == 0
    objects = pdf_objects(out.read_bytes())
    stream = objects[4]
    body = stream[stream.index(b"stream\n") + 7:stream.rindex(b"endstream")]
    ops = zlib.decompress(body.rstrip(b"\n"))
    # a row says where the cards go that its places cannot hold (the camera reads them there)
    assert "(Rangée 1 - plus de 8 cartes : empilez-les sur la dernière place) Tj".encode("cp1252") in ops


def test_print_mat_refuses_what_it_cannot_draw(tmp_path, capsys):
    assert main(["print-mat", "--game", "hilo", "--players", "5", "--paper", "A2",
                 "--out", str(tmp_path / "x.pdf")]) == 1
    assert "no A2 mat for 5 players" in capsys.readouterr().err
    assert main(["print-mat", "--game", "hilo", "--players", "2", "--paper", "A2",
                 "--out", str(tmp_path / "x.svg")]) == 2
    assert "--out must end in .pdf or .png" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("game, paper", [("excape", "A3"), ("excape", "A2"), ("holdup", "A2")])
def test_where_dice_lie_no_letters_are_printed_and_each_dice_zone_is_named_beside_it(game, paper):
    # the camera reads dice in the dice zones and AREA_MARGIN_MM around them: letters there read as dice
    from assistant.commands.print_mat import printed_names
    from assistant.i18n import translate
    from vision.live import AREA_MARGIN_MM
    from vision.mat_print import DICE_CLEAR_MM, Label

    layout = mat_layout(game, paper, 3)
    names = {zone: translate(text, "en") for zone, text in printed_names(layout).items()}
    labels = {shape.text: shape for shape in mat_drawing(layout, names) if isinstance(shape, Label)}
    dice_zones = [zone for zone in layout.zones if zone.kind == "dice"]
    assert DICE_CLEAR_MM > AREA_MARGIN_MM
    for zone in dice_zones:
        assert names[zone.id] in labels, f"{zone.id} is not named"
    for label in labels.values():
        half_w, half_h = 1.05 * label.size * len(label.text) / 2, label.size / 2
        corners = [(label.x + dx * half_w, label.y + dy * half_h) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        assert not any(zone.contains(point, AREA_MARGIN_MM) for zone in dice_zones for point in corners), label.text
