"""`table-assistant score splitter --pad A --photo IMAGE`: the score of a photographed paper sheet."""
import json

import cv2
import pytest

from assistant.cli import main
from assistant.splitter_sheets import splitter_sheet
from engine.match import Match
from engine.splitter import PADS, Place, Roll, SplitterGame, breakdown
from engine.splitter.pads import POSITIONS, position, xy
from vision.synth.sheets import sheet_photo

TEST_WRITER = 2_000_000


@pytest.fixture(scope="module")
def photo_b(tmp_path_factory):
    photo = sheet_photo(splitter_sheet("B"), 11, TEST_WRITER + 11, blur=0.6)
    path = tmp_path_factory.mktemp("photos") / "sheet.jpg"
    cv2.imwrite(str(path), photo.image)
    return path, photo


def expected_total(values, pad):
    grid = [0] * POSITIONS
    for (x, y), v in values.items():
        grid[position(x, y)] = v
    return breakdown(grid, PADS[pad]).total


def test_json_has_the_score_the_cells_read_and_the_unsure(photo_b, capsys):
    path, photo = photo_b
    assert main(["score", "splitter", "--pad", "B", "--photo", str(path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["total"] == expected_total(photo.values, "B")
    assert {"groups", "hearts_bonus", "cells", "unsure", "seat", "rows"} <= set(result)
    assert len(result["cells"]) == 44 and result["seat"] == photo.seat
    assert {int(c["read"]) for c in result["cells"]} <= set(range(1, 7))
    assert all(0 < c["sureness"] <= 1 for c in result["cells"])


def test_text_shows_the_sheet_as_read_and_the_breakdown(photo_b, capsys):
    path, photo = photo_b
    assert main(["score", "splitter", "--pad", "B", "--photo", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == [str(photo.values.get((x, 0), 0)) for x in range(8)]
    assert f"total: {expected_total(photo.values, 'B')} points" in out


def test_the_wrong_pad_a_missing_image_and_an_empty_cell_are_one_line(photo_b, tmp_path, capsys):
    path, _ = photo_b
    assert main(["score", "splitter", "--pad", "A", "--photo", str(path)]) == 1
    assert capsys.readouterr().err.strip() == f"table-assistant score: {path}: this is a pad B sheet, not pad A"
    assert main(["score", "splitter", "--pad", "A", "--photo", str(tmp_path / "none.jpg")]) == 1
    assert "not a readable image" in capsys.readouterr().err
    layout = splitter_sheet("A")
    values = {xy: 4 for xy, _ in layout.cells}
    values[(0, 2)] = values[(7, 2)] = 0
    blank = tmp_path / "blank.jpg"
    cv2.imwrite(str(blank), sheet_photo(layout, 5, TEST_WRITER + 5, values, blur=0.5).image)
    assert main(["score", "splitter", "--pad", "A", "--photo", str(blank)]) == 1
    assert "cannot score the sheet, cell (0,2) is empty; cell (7,2) is empty" in capsys.readouterr().err


def test_a_match_goes_only_with_a_splitter_photo(photo_b, tmp_path, capsys):
    path, _ = photo_b
    with pytest.raises(SystemExit) as exited:  # argparse: FILE is missing
        main(["score", "splitter", "--pad", "B", "--photo"])
    assert exited.value.code == 2
    assert main(["score", "hilo", "--photo", str(path), "--match", str(tmp_path / "m.json")]) == 2
    assert "--match is only for splitter" in capsys.readouterr().err
    assert main(["score", "splitter", "--pad", "B", str(path), "--match", str(tmp_path / "m.json")]) == 2
    assert "--match goes with --photo" in capsys.readouterr().err


def kept_match(values, pad, path, change=None):
    """The saved one-player match that wrote ``values``, one pair a turn (``change``: a pair's
    roll replaced, as if the paper held something no roll explains)."""
    match = Match(SplitterGame(1, {"pad": pad}), ["Ana"])
    for left, right in PADS[pad].pairs:
        (x, y), (rx, ry) = xy(left), xy(right)
        a, b = values[(x, y)], values[(rx, ry)]
        if change and change[0] == (x, y):
            a, b = change[1]
        match.push(Roll(a, b))
        match.push(Place(0, x, y, a, b))
    match.save(path)
    return path


def test_the_kept_rolls_flag_a_pair_no_roll_explains(photo_b, tmp_path, capsys):
    path, photo = photo_b
    good = kept_match(photo.values, "B", tmp_path / "good.json")
    assert main(["score", "splitter", "--pad", "B", "--photo", str(path), "--match", str(good), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["unexplained"] == []
    left = PADS["B"].pairs[0][0]
    (x, y) = xy(left)
    old = (photo.values[(x, y)], photo.values[(7 - x, y)])
    other = next((a, b) for a in range(1, 7) for b in range(1, 7) if sorted((a, b)) != sorted(old))
    bad = kept_match(photo.values, "B", tmp_path / "bad.json", change=((x, y), other))
    assert main(["score", "splitter", "--pad", "B", "--photo", str(path), "--match", str(bad)]) == 0
    out = capsys.readouterr().out
    assert f"({x},{y})" in out.split("no roll of the game explains the cells")[1].splitlines()[0]


def test_match_without_photo_is_refused(tmp_path, capsys):
    assert main(["score", "splitter", str(tmp_path / "s.txt"), "--pad", "A", "--match", str(tmp_path / "m")]) == 2
    assert "--match goes with --photo" in capsys.readouterr().err
