"""Splitter scoring: the rules' worked examples, the breakdown, sheet entry errors, `score` CLI."""
import json

import pytest

from assistant import cli
from engine.splitter import PADS, SheetError, breakdown, format_score, score_text, values_from_grid
from engine.splitter.pads import position, xy
from engine.splitter.scoring import mask_score, number_masks, score
from engine.splitter.sheet import read_grid_text

EXAMPLE_1 = """\
0 0 1 6 6 1 0 0
0 1 1 1 2 2 5 0
1 1 1 1 6 5 5 5
3 1 1 6 6 3 5 4
5 6 1 1 1 1 5 5
0 1 3 3 3 1 1 0
0 0 2 4 5 1 0 0
"""
EXAMPLE_2 = """\
0 0 5 5 5 5 0 0
0 6 6 5 1 3 3 0
2 6 6 4 4 1 3 6
2 1 3 4 4 2 1 1
3 1 1 1 2 2 5 6
0 3 2 5 6 2 5 0
0 0 4 1 3 4 0 0
"""
EXAMPLE_3 = """\
3 3 3 0 0 6 5 1
6 6 5 4 4 2 6 5
0 5 6 4 4 3 2 0
0 1 6 0 0 5 1 0
0 3 2 6 5 3 6 0
4 5 1 3 2 4 3 5
2 2 3 0 0 4 1 3
"""


def test_pads_are_drawn_as_in_the_rules():
    def row_lengths(pad):
        return [sum(pad.is_cell(position(x, y)) for x in range(8)) for y in range(7)]
    assert row_lengths(PADS["A"]) == [4, 6, 8, 8, 8, 6, 4]
    assert row_lengths(PADS["B"]) == [6, 8, 6, 4, 6, 8, 6]
    assert [xy(p) for p in PADS["A"].stars] == [(0, 3), (7, 3)] and PADS["A"].hearts == ()
    assert [xy(p) for p in PADS["B"].stars] == [(1, 6), (6, 6)]
    assert sorted(xy(p) for p in PADS["B"].hearts) == [(1, 2), (4, 4), (6, 0)]
    for pad in PADS.values():
        assert len(pad.cells) == 44 and len(pad.pairs) == 22
        assert all(xy(right) == (7 - xy(left)[0], xy(left)[1]) for left, right in pad.pairs)


def scoring_groups(result):
    """{(number, frozenset of cells): points} of the groups that score."""
    return {(g["number"], frozenset(map(tuple, g["cells"]))): g["points"] for g in result["groups"] if g["points"]}


def group_of(result, cell):
    return next(g for g in result["groups"] if list(cell) in g["cells"])


def test_example_1_pad_a_scores_7():
    assert score_text(EXAMPLE_1, "A")["total"] == 7


def test_example_2_pad_a_scores_19_group_by_group():
    result = score_text(EXAMPLE_2, "A")
    assert scoring_groups(result) == {
        (5, frozenset({(2, 0), (3, 0), (4, 0), (5, 0), (3, 1)})): 5,
        (1, frozenset({(4, 1)})): 1,
        (3, frozenset({(5, 1), (6, 1), (6, 2)})): 3,
        (2, frozenset({(0, 2), (0, 3)})): 4,  # on the star: 2 x 2
        (4, frozenset({(3, 2), (4, 2), (3, 3), (4, 3)})): 4,
        (1, frozenset({(5, 2)})): 1,
        (1, frozenset({(3, 6)})): 1,
    }
    assert result["total"] == 19 and result["hearts_bonus"] == 0
    four_twos = group_of(result, (5, 3))
    assert (four_twos["number"], len(four_twos["cells"]), four_twos["points"]) == (2, 4, 0)
    touching_sixes = group_of(result, (1, 1))
    assert (touching_sixes["number"], len(touching_sixes["cells"]), touching_sixes["points"]) == (6, 4, 0)


def test_example_3_pad_b_scores_22_with_the_hearts():
    result = score_text(EXAMPLE_3, "B")
    assert result["total"] == 22 and result["hearts_bonus"] == 5
    groups = scoring_groups(result)
    assert groups[(3, frozenset({(0, 0), (1, 0), (2, 0)}))] == 3
    assert groups[(4, frozenset({(3, 1), (4, 1), (3, 2), (4, 2)}))] == 4
    assert groups[(2, frozenset({(0, 6), (1, 6)}))] == 4      # the 2-pair on the star at (1,6)
    assert groups[(1, frozenset({(6, 6)}))] == 2              # a lone 1 on the star at (6,6)
    lone_ones = [cells for (number, cells), points in groups.items() if number == 1 and points == 1]
    assert len(lone_ones) == 4


def test_json_shape_is_exactly_the_documented_one():
    result = json.loads(json.dumps(score_text(EXAMPLE_2, "A")))
    assert set(result) == {"total", "groups", "hearts_bonus"}
    for group in result["groups"]:
        assert set(group) == {"number", "cells", "points", "star"}
        assert isinstance(group["star"], bool) and all(len(cell) == 2 for cell in group["cells"])
    assert result["total"] == sum(g["points"] for g in result["groups"]) + result["hearts_bonus"]
    star_pair = group_of(result, (0, 3))
    assert star_pair["star"] is True and star_pair["points"] == 4


def test_every_cell_is_in_exactly_one_group():
    for text, pad in ((EXAMPLE_1, "A"), (EXAMPLE_3, "B")):
        cells = [tuple(c) for g in score_text(text, pad)["groups"] for c in g["cells"]]
        assert sorted(cells) == sorted(xy(p) for p in PADS[pad].cells)


def test_hearts_bonus_needs_all_three_hearts_equal():
    values = list(values_from_grid(read_grid_text(EXAMPLE_3), PADS["B"], complete=True))
    heart = PADS["B"].hearts[0]
    values[heart] = 6 if values[heart] != 6 else 4
    assert breakdown(values, PADS["B"]).hearts_bonus == 0


def test_a_group_of_three_sixes_on_pad_a_star_scores_nothing():
    # a row of 6s touching the star (0,3) but not six of them: no doubling of nothing
    grid = read_grid_text(EXAMPLE_1)
    grid[3][0], grid[3][1], grid[2][0] = 6, 6, 6
    result = breakdown(values_from_grid(grid, PADS["A"], complete=True), PADS["A"]).to_dict()
    sixes = group_of(result, (0, 3))
    assert sixes["star"] is True and sixes["points"] == 0


def test_the_bitmask_score_agrees_with_the_breakdown_on_random_sheets():
    import random
    rng = random.Random(5)
    for pad in PADS.values():
        for _ in range(300):
            values = [0] * 56
            for p in pad.cells:
                values[p] = rng.choice((1, 2, 3, 4, 5, 6, 1, 2, 3))
            result = breakdown(values, pad)
            assert score(values, pad) == result.total
            assert mask_score(number_masks(values), pad) == result.total - result.hearts_bonus


def test_format_score_lists_scoring_groups_then_the_others_and_why():
    text = format_score(score_text(EXAMPLE_2, "A"))
    lines = text.splitlines()
    assert "2 touching 2s with a star at (0,2) (0,3): 2 × 2 = 4 points" in lines
    assert "4 touching 2s at (5,3) (4,4) (5,4) (5,5): nothing, 2s score only as exactly 2 touching" in lines
    assert "a lone 1 at (4,1): 1 point" in lines
    assert lines[-1] == "total: 19 points"
    assert lines.index("a lone 1 at (4,1): 1 point") < lines.index(
        "4 touching 6s at (1,1) (2,1) (1,2) (2,2): nothing, 6s score only as exactly 6 touching")
    assert "the three hearts hold the same number: +5 points" in format_score(score_text(EXAMPLE_3, "B"))


@pytest.mark.parametrize("text, message", [
    (EXAMPLE_1.replace("0 0 1 6 6 1 0 0", "7 0 1 6 6 1 0 0"), "row 0, column 0: pad A has no cell there"),
    (EXAMPLE_1.replace("0 1 3 3 3 1 1 0", "0 1 3 9 3 1 1 0"), "row 5, column 3: a cell holds 1 to 6"),
    (EXAMPLE_1.replace("5 6 1 1 1 1 5 5", "5 6 1 0 1 1 5 5"), "row 4, column 3: the cell is empty"),
    (EXAMPLE_1.replace("3 1 1 6 6 3 5 4", "3 1 x 6 6 3 5 4"), "row 3, column 2: 'x' is not a whole number"),
    (EXAMPLE_1.replace("0 1 1 1 2 2 5 0", "0 1 1 1 2 2 5"), "row 1 has 7 numbers"),
    ("\n".join(EXAMPLE_1.splitlines()[:6]), "this one has 6 rows"),
    (EXAMPLE_3, "row 0, column 0: pad A has no cell there, so it must be 0, not 3"),  # a pad B sheet
])
def test_a_sheet_that_does_not_fit_names_the_first_wrong_cell(text, message):
    with pytest.raises(SheetError) as error:
        score_text(text, "A")
    assert message in str(error.value)


def test_partial_sheets_fill_mirrored_pairs_together():
    grid = [[0] * 8 for _ in range(7)]
    grid[2][1] = 4
    with pytest.raises(SheetError, match=r"row 2, columns 1 and 6: a mirrored pair is filled together"):
        values_from_grid(grid, PADS["A"], complete=False)
    grid[2][6] = 2
    values = values_from_grid(grid, PADS["A"], complete=False)
    assert values[position(1, 2)] == 4 and values[position(6, 2)] == 2


def test_unknown_pad_is_refused():
    with pytest.raises(ValueError, match="there is no pad C"):
        score_text(EXAMPLE_1, "C")


# --- the `score` command -----------------------------------------------------------------------


@pytest.fixture
def sheet_file(tmp_path):
    def write(text):
        path = tmp_path / "sheet.txt"
        path.write_text(text, "utf-8")
        return str(path)
    return write


def test_score_cli_prints_the_breakdown(capsys, sheet_file):
    assert cli.main(["score", "splitter", "--pad", "A", sheet_file(EXAMPLE_2)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "total: 19 points"
    assert "5 touching 5s at (2,0) (3,0) (4,0) (5,0) (3,1): 5 points" in out


def test_score_cli_json(capsys, sheet_file):
    assert cli.main(["score", "splitter", "--pad", "B", sheet_file(EXAMPLE_3), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["total"] == 22 and result["hearts_bonus"] == 5
    assert {"number": 1, "cells": [[6, 6]], "points": 2, "star": True} in result["groups"]


def test_score_cli_names_the_wrong_cell_and_exits_1(capsys, sheet_file):
    bad = EXAMPLE_2.replace("0 0 4 1 3 4 0 0", "0 0 4 1 3 4 0 3")
    assert cli.main(["score", "splitter", "--pad", "A", sheet_file(bad)]) == 1
    assert "row 6, column 7: pad A has no cell there, so it must be 0, not 3" in capsys.readouterr().err


def test_score_cli_needs_a_pad(capsys, sheet_file):
    assert cli.main(["score", "splitter", sheet_file(EXAMPLE_1)]) == 2
    assert "--pad" in capsys.readouterr().err
