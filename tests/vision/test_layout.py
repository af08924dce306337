"""Cards found on the mat, laid out by zone into card views in the engines' words."""
import numpy as np
import pytest

from assistant.commands.print_mat import mat_layout
from engine.table import EMPTY, FACE_DOWN, likeliest
from vision.cards import CardReading
from vision.live_cards import card_view
from vision.mat import MatPose

PX_PER_MM = 2.0
POSE = MatPose(np.diag([1 / PX_PER_MM, 1 / PX_PER_MM, 1.0]), 0.2, (0, 1, 2, 3), ())


def card_at(x_mm, y_mm, label, card=(56.0, 87.0)):
    """A reading of ``label`` centred on a sheet point (in a frame of PX_PER_MM)."""
    w, h = card
    corners = np.float32([[x_mm - w / 2, y_mm - h / 2], [x_mm + w / 2, y_mm - h / 2],
                          [x_mm + w / 2, y_mm + h / 2], [x_mm - w / 2, y_mm + h / 2]]) * PX_PER_MM
    if label == FACE_DOWN:
        return CardReading(corners, 0.97, {}, {"1": 1.0})
    colour, value = label.split()
    return CardReading(corners, 0.01, {colour: 0.9, "other": 0.1}, {value: 0.95, "x": 0.05})


def place(layout, zone_id, row, col, label, nudge=(0.0, 0.0)):
    cell = next(c for c in layout.zone(zone_id).cells() if (c.row, c.col) == (row, col))
    return card_at(cell.x + nudge[0], cell.y + nudge[1], label)


def seen(readings, layout):
    """The card view of ``readings`` with each place's likeliest label."""
    return likeliest(card_view(readings, POSE, layout))


def test_a_full_grid_and_the_piles():
    layout = mat_layout("hilo", "A2", 2)
    grid = [["red 7", "red 2", "red 9"], ["blue 1", FACE_DOWN, "red -1"], ["blue 3", "green 8", FACE_DOWN]]
    readings = [place(layout, "grid.0", r, c, grid[r][c], nudge=(3.0 * (c - 1), -2.0))
                for r in range(3) for c in range(3)]
    readings.append(card_at(layout.zone("discard").x + 4, layout.zone("discard").y, "yellow 1"))
    readings.append(card_at(layout.zone("draw").x, layout.zone("draw").y - 3, FACE_DOWN))
    view = seen(readings, layout)
    assert view["players"][0] == {"shape": [3, 3], "cells": grid}
    assert view["players"][1] == {"shape": [0, 0], "cells": []}
    assert view["discard"] == "yellow 1"


def test_a_removed_column_closes_up_and_a_missing_card_is_empty():
    layout = mat_layout("hilo", "A2", 2)
    # Player 1 (at the top, seeing the grid upside down) removed their middle column and has
    # not slid the cards together yet; one card of player 0 is in a hand.
    readings = [place(layout, "grid.1", r, c, f"green {r}{c}") for r in range(3) for c in (0, 2)]
    readings += [place(layout, "grid.0", r, c, f"pink {r}") for r in range(2) for c in range(3)
                 if (r, c) != (1, 1)]
    view = seen(readings, layout)
    assert view["players"][1] == {"shape": [3, 2], "cells": [[f"green {r}0", f"green {r}2"] for r in range(3)]}
    assert view["players"][0] == {"shape": [2, 3], "cells": [["pink 0"] * 3, ["pink 1", EMPTY, "pink 1"]]}
    assert view["discard"] == EMPTY


def test_the_grid_is_read_from_the_seated_players_side():
    layout = mat_layout("hilo", "A2", 3)
    seat = layout.zone("grid.0")  # at the top edge, rotation 180
    assert seat.rotation == 180
    readings = [place(layout, "grid.0", 0, 0, "red 1"), place(layout, "grid.0", 0, 1, "red 2"),
                place(layout, "grid.0", 1, 0, "red 3"), place(layout, "grid.0", 1, 1, "red 4")]
    first = next(c for c in seat.cells() if (c.row, c.col) == (0, 0))
    assert first.y > seat.y and first.x > seat.x  # their top-left is the sheet's lower right
    assert seen(readings, layout)["players"][0]["cells"] == [["red 1", "red 2"], ["red 3", "red 4"]]


def test_a_card_off_the_zones_is_in_no_place_and_said_by_the_nearest():
    layout = mat_layout("hilo", "A2", 2)
    grid = layout.zone("grid.0")
    off = card_at(grid.x - grid.w / 2 - 20, grid.y, "lime 4")  # pushed off the grid's outer side
    beside = card_at(layout.size[0] + 50, grid.y, "red 1")  # on the table, beside the mat
    view = seen([off, beside], layout)
    assert all(p["shape"] == [0, 0] for p in view["players"]) and view["discard"] == EMPTY
    assert view["off"] == ["grid.0"]
    assert seen([place(layout, "grid.0", 0, 0, "red 2")], layout)["off"] == []


def test_hold_up_rows_gv_faces_and_piles():
    layout = mat_layout("holdup", "A2", 3)
    card = layout.card

    def at(zone_id, slot, label):
        cell = next(c for c in layout.zone(zone_id).cells() if c.col == slot)
        return card_at(cell.x, cell.y, label, card)

    readings = [at("row.1", 1, "ruby 5"), at("row.1", 0, "diamond 2"),
                at("row.3", 0, "emerald 9"), at("row.3", 1, "ruby 1"), at("row.3", 2, "sapphire 4"),
                at("gv.0", 0, "gv V"), at("gv.0", 1, "gv G"), at("gv.0", 2, "gv V"),
                at("gv.2", 2, "gv G"), at("pile.1", 0, "ruby 8"), at("draw", 0, FACE_DOWN)]
    view = seen(readings, layout)
    assert view["rows"] == [["diamond 2", "ruby 5"], [], ["emerald 9", "ruby 1", "sapphire 4"]]
    assert [p["gv"] for p in view["players"]] == [["gv V", "gv G", "gv V"], [], ["gv G"]]
    assert [p["pile_top"] for p in view["players"]] == [EMPTY, "ruby 8", EMPTY]
    assert view["draw_pile"] == FACE_DOWN and view["off"] == []


def test_games_without_cards_have_no_card_view():
    layout = mat_layout("splitter", "A3", 2)
    with pytest.raises(KeyError, match="splitter has no cards"):
        card_view([], POSE, layout)
