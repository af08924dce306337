"""Hold Up 4D6 notation, positions read back from files, the table view, and `replay`."""
import json
import random
from pathlib import Path

import pytest

from assistant.cli import main
from engine.core import InvalidStateError, ParseError
from engine.holdup import Draw, Flip, HoldUpGame, Keep, Place, Reroll, Roll, Steal
from engine.match import Match
from engine.table import EMPTY, FACE_DOWN
from engine.testing import random_playthrough


@pytest.mark.parametrize("text, action", [
    ("draw ruby 7", Draw("ruby", 7)),
    ("roll 3 3 2 5", Roll((2, 3, 3, 5))),
    ("roll 6 1", Roll((1, 6))),
    ("keep", Keep()),
    ("reroll", Reroll()),
    ("reroll 6 5", Reroll((5, 6))),
    ("flip 3 1", Flip((1, 3))),
    ("place 2", Place(2)),
    ("steal 3", Steal(2)),
])
def test_notation_reads_and_writes_back(text, action):
    game = HoldUpGame(3)
    assert game.parse_action(text) == action
    assert game.parse_action(str(action)) == action


@pytest.mark.parametrize("text, message", [
    ("", "empty action"),
    ("roll", "name the faces rolled"),
    ("roll 1 2 3 7", "'7' is not a die face (1 to 6)"),
    ("roll 1 2 3 4 5", "at most 4 die face numbers"),
    ("reroll 1 2 3 4", "write 'reroll' alone"),
    ("flip", "name the GV cards"),
    ("flip 4", "'4' is not a GV card (1 to 3)"),
    ("place 0", "'0' is not a row (1 to 3)"),
    ("steal 6", "'6' is not a player (1 to 5)"),
    ("draw ruby seven", "'seven' is not a whole number"),
    ("bank", "cannot read 'bank'"),
])
def test_bad_notation_is_named(text, message):
    with pytest.raises(ParseError) as error:
        HoldUpGame(3).parse_action(text)
    assert message in str(error.value)


@pytest.fixture(scope="module")
def played():
    return random_playthrough(HoldUpGame(4), random.Random(3), names=["Ana", "Ben", "Cy", "Dee"])


def _mid_game(played, phase):
    return next(s for s in played.states() if s.phase == phase).to_dict()


@pytest.mark.parametrize("phase, change, field", [
    ("decide", {"phase": "bidding"}, "phase"),
    ("decide", {"seat": 4}, "seat"),
    ("decide", {"dice": [1, 2, 7, 3]}, "dice"),
    ("decide", {"dice": [1, 2, 3]}, "dice"),
    ("decide", {"rolls": 0}, "rolls"),
    ("decide", {"gv": ["VVV", "VXV", "VVV", "VVV"]}, "gv"),
    ("decide", {"held": "ruby 9"}, "cards"),
    ("decide", {"last_card_by": 1}, "last_card_by"),
    ("decide", {"steals": [[0, 1, "ruby 9"]]}, "steals"),
    ("decide", {"steals": [[0, 0, "ruby 9"]]}, "steals[0]"),
    ("decide", {"rows": [["ruby 99"], [], []]}, "rows[0][0]"),
    ("decide", {"piles": [[], [], []]}, "piles"),
    ("roll", {"turn": 0}, "turn"),
    ("place", {"held": None}, "cards"),
    ("place", {"phase": "draw"}, "held"),
    ("draw", {"to_place": 0}, "to_place"),
])
def test_inconsistent_positions_are_refused_naming_the_field(played, phase, change, field):
    data = {**_mid_game(played, phase), **change}
    with pytest.raises(InvalidStateError) as error:
        played.game.state_from_dict(data)
    assert str(error.value).startswith(f"{field}:")


def test_a_steal_of_a_card_the_thief_does_not_hold_is_refused(played):
    data = played.state.to_dict()
    victim = next(seat for seat in (1, 2, 3) if data["piles"][seat])
    data.update(gv=["GGG", "VVV", "VVV", "VVV"], steals=[[0, victim, "ruby 99"]])
    with pytest.raises(InvalidStateError, match="ruby 99"):
        played.game.state_from_dict(data)
    data["steals"] = [[0, victim, data["piles"][victim][-1]]]  # still in the victim's pile
    with pytest.raises(InvalidStateError, match="^steals: a taken card is not in the pile"):
        played.game.state_from_dict(data)


def test_a_missing_or_duplicated_card_is_named(played):
    data = _mid_game(played, "decide")
    first = data["draw_pile"][0]
    data["draw_pile"][0] = [first[0], first[1], first[2] + 1]
    with pytest.raises(InvalidStateError, match=rf"cards: 2 x {first[0]} {first[1]} .* the deck has 1"):
        played.game.state_from_dict(data)
    data = _mid_game(played, "decide")
    data["draw_pile"] = data["draw_pile"][1:]
    with pytest.raises(InvalidStateError, match="cards: 0 x"):
        played.game.state_from_dict(data)


def test_an_unsorted_pile_is_refused_when_piles_are_sorted(played):
    data = played.state.to_dict()
    seat = next(i for i, pile in enumerate(data["piles"]) if len({c.split()[1] for c in pile}) > 1)
    data["piles"][seat] = list(reversed(data["piles"][seat]))
    with pytest.raises(InvalidStateError, match=rf"piles\[{seat}\]: not ordered by value"):
        played.game.state_from_dict(data)


def test_table_view_shows_rows_dice_and_each_players_gv_and_pile_top():
    game = HoldUpGame(3)
    state = game.new_initial_state()
    for card in ("ruby 1", "ruby 2", "emerald 3", "emerald 4", "sapphire 5", "sapphire 6"):
        stone, value = card.split()
        state = state.apply(Draw(stone, int(value)))
    state = state.apply(Roll((1, 1, 4, 5))).apply(Keep())  # flip choice pending
    view = state.table_view()
    assert view["rows"] == [[], ["emerald 3", "emerald 4"], ["sapphire 5", "sapphire 6"]]
    assert view["dice"] == ["1", "1", "4", "5"] and view["draw_pile"] == FACE_DOWN and view["held"] == EMPTY
    assert view["players"][0] == {"gv": ["gv V", "gv V", "gv V"], "pile_top": "ruby 2"}
    assert view["players"][1] == {"gv": ["gv V", "gv V", "gv V"], "pile_top": EMPTY}
    json.dumps(view)


def test_replay_json_reports_each_players_score_breakdown(played, tmp_path, capsys):
    path = tmp_path / "holdup.json"
    played.save(path)
    assert main(["replay", "holdup", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    final = played.state
    assert report["game"] == "holdup" and report["players"] == ["Ana", "Ben", "Cy", "Dee"]
    assert report["actions"] == len(played.history) and report["phase"] == "over"
    assert report["totals"] == [int(r) for r in final.returns()]
    assert report["winners"] == list(final.outcome().winners)
    for seat, score in enumerate(report["scores"]):
        assert set(score) >= {"cards", "vvv", "sets", "last_card", "total", "gv", "pile"}
        assert score["cards"] == sum(int(card.split()[1]) for card in score["pile"])
    assert report["last_card_by"] is not None and report["draw_pile"] == 0


def test_replay_text_names_the_players_and_their_points(played, tmp_path, capsys):
    path = tmp_path / "holdup.json"
    played.save(path)
    assert main(["replay", "holdup", str(path)]) == 0
    out = capsys.readouterr().out
    winner = played.players[played.state.outcome().winners[0]].name
    assert "game over" in out and f"{winner} won" in out
    for name, total in zip(["Ana", "Ben", "Cy", "Dee"], played.state.returns()):
        assert f"{name}: {int(total)} points" in out


def test_a_saved_match_with_its_own_deck_replays(tmp_path):
    game = HoldUpGame(3, {"deck": [["opal", 3, 4], ["jet", 10, 3], ["amber", 1, 2]], "pile_sorted": False})
    match = random_playthrough(game, random.Random(8))
    path = tmp_path / "own-deck.json"
    match.save(path)
    loaded = Match.load(path)
    assert loaded.state == match.state and loaded.game.options == game.options


def test_a_corrupted_action_line_is_named_on_replay(played, tmp_path, capsys):
    data = played.to_dict()
    data["actions"][10] = "roll 1 2 3 9"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data), "utf-8")
    assert main(["replay", "holdup", str(path)]) == 1
    assert "action 11 'roll 1 2 3 9' does not replay" in capsys.readouterr().err


def test_the_documented_example_replays_to_the_documented_description():
    doc = (Path(__file__).resolve().parents[2] / "docs" / "notation.md").read_text("utf-8")
    section = doc[doc.index("## Hold Up 4D6"):]
    blocks = section.split("```")
    lines = [line.split("  ")[0].strip() for line in blocks[1].strip().splitlines()]
    match = Match(HoldUpGame(3), ["Ana", "Ben", "Cy"])
    for line in lines:
        match.push(line)
    assert match.state.describe(["Ana", "Ben", "Cy"]) == blocks[3].strip()
