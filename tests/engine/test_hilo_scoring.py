"""Hilo round and game scoring, and `table-assistant score hilo ROUND.json`."""
import json
import re

import pytest

from assistant import cli
from engine.core import rank_winners
from engine.hilo import format_score, score_text
from engine.hilo.scoring import game_over, round_scores


# --- worked example 3: the doubling rule ----------------------------------------------------------

@pytest.mark.parametrize("sums, expected", [
    ((12, 10, 15), (24, 10, 15)),   # not the lowest: doubled
    ((10, 10), (20, 10)),           # a tie for lowest still doubles
    ((8, 9, 12), (8, 9, 12)),       # strictly lowest: kept
    ((-2, -4), (-2, -4)),           # a negative score is never doubled
    ((0, -1), (0, -1)),             # 0 stays 0
])
def test_example_3_the_player_who_ends_the_round_doubles_unless_strictly_lowest(sums, expected):
    assert round_scores(sums, trigger=0) == expected


# --- worked example 4: the end of the game --------------------------------------------------------

@pytest.mark.parametrize("totals, over, winners", [
    ((48, 59, 32), False, (2,)),
    ((102, 90, 90), True, (1, 2)),
    ((99, 20), False, (1,)),
    ((100, 20), True, (1,)),
])
def test_example_4_game_end_and_shared_wins(totals, over, winners):
    assert game_over(totals) == over
    assert rank_winners(totals, lowest_wins=True) == winners


# --- score hilo ROUND.json ------------------------------------------------------------------------

ROUND = {
    "players": [
        {"name": "Ana", "grid": [["R7", "R2", "R9"], ["B1", "G0", "R-1"], ["B3", "G8", "R5"]]},
        {"name": "Ben", "grid": [["Y4", "B4", "R3"], ["G7", "Y1", "K2"], ["O3", "P5", "Y6"]]},
        {"name": "Cy", "grid": [["L1", "L2"], ["O7", "O8"], ["P9", "K11"]]},
    ],
    "trigger": 1,
}


def _score(tmp_path, capsys, data, *flags):
    path = tmp_path / "round.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, "utf-8")
    code = cli.main(["score", "hilo", str(path), *flags])
    return code, capsys.readouterr()


def test_score_removes_the_hilos_left_for_the_lowest_score_and_doubles():
    result = score_text(json.dumps(ROUND))
    # Ana: row 1 (R7 R2 R9 = 18) beats column 3 (R9 R-1 R5 = 13): 1+0-1+3+8+5 = 16.
    # Ben: the yellow diagonal goes, then the best slide; 4+3+7+2+3+5 = 24, not the lowest: 48.
    # Cy: a 3x2 grid with no HILO: 38.
    assert result["sums"] == [16, 24, 38] and result["scores"] == [16, 48, 38] and result["doubled"]
    assert result["removed"][0] == [{"line": "row 1", "cards": ["R9", "R7", "R2"]}]
    assert result["removed"][1][0]["line"] == "diag" and result["removed"][1][0]["cards"][-1] == "Y1"
    assert result["removed"][1][0]["slide"] in ("vertical", "horizontal") and result["removed"][2] == []


def test_score_command_prints_json_or_each_player_for_people(tmp_path, capsys):
    code, out = _score(tmp_path, capsys, ROUND, "--json")
    assert code == 0 and json.loads(out.out) == score_text(json.dumps(ROUND))
    code, out = _score(tmp_path, capsys, ROUND)
    assert code == 0
    assert out.out.splitlines()[0] == "Ana: 16; removed row 1 (R9 R7 R2)"
    assert out.out.splitlines()[1].startswith(
        "Ben: 48 (24 doubled: Ben ended the round without the strictly lowest total); removed the diagonal")
    assert out.out.splitlines()[2] == "Cy: 38"


def test_a_cascade_after_a_slide_is_removed_too():
    text = json.dumps({"players": [{"name": "A", "grid": [["Y4", "G2", "G3"], ["G1", "Y5", "B1"], ["B2", "K3", "Y6"]]},
                                   {"name": "B", "grid": []}], "trigger": 1})
    result = score_text(text)
    assert [r["line"] for r in result["removed"][0]] == ["diag", "row 1"]
    assert result["removed"][0][0]["slide"] == "vertical" and result["sums"] == [6, 0]
    assert result["scores"] == [6, 0]  # B ended the round with 0, never doubled
    assert "then the cards slid vertically" in format_score(result)


def test_a_palette_of_the_club_gives_other_initials():
    palette = {"Ro": "rouge", "Or": "orange", "Ja": "jaune", "Ci": "citron", "Ve": "vert", "Bl": "bleu",
               "Vi": "violet", "Rs": "rose"}
    text = json.dumps({"players": [{"name": "A", "grid": [["Ro1", "Ro2", "Ro3"]]}, {"name": "B", "grid": [["Bl4"]]}],
                       "trigger": 0, "palette": palette})
    with pytest.raises(ValueError, match="grid of B: a grid is 3x3"):
        score_text(text)
    text = text.replace('[["Bl4"]]', '[["Bl4", "Vi5", "Ja6"]]')
    assert score_text(text)["scores"] == [0, 15]
    with pytest.raises(ValueError, match="palette: expected 8 colours"):
        score_text(text.replace('"palette": {', '"palette": {"Zz": "zinc", '))


@pytest.mark.parametrize("data, message", [
    ("{not json", "not valid JSON"),
    ({"players": [], "trigger": 0}, "must list 2 to 6 players"),
    ({"players": ROUND["players"], "trigger": 3}, "\"trigger\" must be the seat \\(0 to 2\\)"),
    ({"players": [{"name": "A", "grid": [["R1", "??", "R3"]]}, {"name": "B", "grid": []}], "trigger": 0},
     "A's grid, row 1 column 2: the card is face down"),
    ({"players": [{"name": "A", "grid": [["R1", "X2", "R3"]]}, {"name": "B", "grid": []}], "trigger": 0},
     "'X2' is not a card"),
    ({"players": [{"name": "A", "grid": [["R1", "R12", "R3"]]}, {"name": "B", "grid": []}], "trigger": 0},
     "card values run from -1 to 11"),
    ({"players": [{"name": "A", "grid": [["R1", "R2", "R3"]]}, {"name": "B", "grid": [["R1", "B2", "B3"]]}],
      "trigger": 0}, "R1 is also in A's grid, row 1 column 1"),
    ({"players": [{"name": "A", "grid": [["R1", "R2"]]}, {"name": "B", "grid": []}], "trigger": 0},
     "a grid is 3x3, 2x3, 3x2, 1x3, 3x1 or empty"),
    ({"players": ROUND["players"], "trigger": 0, "palette": "red:R"}, "palette: expected 8 colours"),
    ({"players": ROUND["players"], "trigger": 0, "score": 3}, "unknown field 'score'"),
])
def test_bad_round_files_are_refused_with_the_reason(tmp_path, capsys, data, message):
    code, out = _score(tmp_path, capsys, data)
    assert code == 1 and out.out == ""
    assert out.err.startswith(f"table-assistant score: {tmp_path / 'round.json'}: ") and re.search(message, out.err), out.err
