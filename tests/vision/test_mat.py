"""The play mat: layouts as data, drawing at true scale, finding it in a frame."""
import tomllib
from pathlib import Path

import cv2
import numpy as np
import pytest

from assistant.commands.print_mat import smallest_mat
from vision.mat import LayoutError, MatLocator, MatNotFound, Zone, find_mat, layout_from_data
from vision.mat_print import mat_drawing, render

MATS = Path(__file__).resolve().parents[2] / "config" / "mats"


def mat_data(game):
    return tomllib.loads((MATS / f"{game}.toml").read_text("utf-8"))


def every_layout():
    for path in sorted(MATS.glob("*.toml")):
        data = tomllib.loads(path.read_text("utf-8"))
        for entry in data["layout"]:
            for players in entry["players"]:
                yield data, entry["paper"], players


@pytest.mark.parametrize("data, paper, players", list(every_layout()),
                         ids=lambda v: str(v) if not isinstance(v, dict) else v["game"])
def test_every_shipped_layout_fits_its_sheet(data, paper, players):
    layout = layout_from_data(data, paper, players)
    assert len(layout.markers) == 4
    seats = {z.seat for z in layout.zones if z.seat is not None}
    assert seats <= set(range(players))


def test_hilo_has_a_mat_for_every_number_of_players_with_a_grid_a_seat():
    for players in range(2, 7):
        layout = smallest_mat("hilo", players)
        assert sorted(z.seat for z in layout.zones if z.kind == "grid") == list(range(players))
        assert players in layout.serves


def test_marker_ids_are_unique_across_all_mats():
    seen = {}
    for data, paper, players in every_layout():
        layout = layout_from_data(data, paper, players)
        key = (layout.game, paper)
        for marker_id in layout.marker_ids():
            assert seen.setdefault(marker_id, key) == key, f"marker {marker_id} on two mats"


def test_a_player_count_that_does_not_fit_names_what_is_available():
    with pytest.raises(LayoutError, match=r"no A2 mat for 4 players.*A2 for 2 players"):
        layout_from_data(mat_data("hilo"), "A2", 4)
    with pytest.raises(LayoutError, match="unknown paper"):
        layout_from_data(mat_data("hilo"), "A4", 2)


def test_overlapping_zones_are_refused():
    data = mat_data("hilo")
    entry = dict(data["layout"][0])
    entry["zones"] = list(entry["zones"]) + [{"id": "extra", "kind": "pile", "x": 147.0, "y": 278.5}]
    with pytest.raises(LayoutError, match="overlaps"):
        layout_from_data({**data, "layout": [entry]}, "A2", 2)


def test_zone_cells_are_seen_from_the_seated_player():
    # A player at the top edge (rotation 180): their first row is the one nearest the middle of
    # the sheet, i.e. the lowest on the sheet, and their left is the sheet's right.
    zone = Zone("grid.1", "grid", x=100.0, y=100.0, w=180.0, h=270.0, rotation=180, rows=3, cols=3,
                card=(56.0, 87.0), gap=6.0)
    cells = {(c.row, c.col): (c.x, c.y) for c in zone.cells()}
    assert cells[(0, 0)][1] > cells[(2, 0)][1]
    assert cells[(0, 0)][0] > cells[(0, 2)][0]
    assert zone.to_local(zone.to_sheet((12.0, -30.0))) == pytest.approx((12.0, -30.0))
    right_edge = Zone("z", "dice", x=0.0, y=0.0, w=10.0, h=20.0, rotation=90)
    assert right_edge.contains((9.0, 0.0)) and not right_edge.contains((0.0, 9.0))


def photograph(layout, quad_px, size=(1280, 720)):
    """The rendered mat put into a frame so that its sheet corners land on ``quad_px``."""
    s = 3.0
    image = render(mat_drawing(layout), layout.size, s)
    w, h = layout.size
    sheet = np.float32([[0, 0], [w * s, 0], [w * s, h * s], [0, h * s]])
    m = cv2.getPerspectiveTransform(sheet, np.float32(quad_px))
    frame = cv2.warpPerspective(image, m, size, borderValue=(60, 90, 120))
    mm_to_px = m @ np.diag([s, s, 1.0])
    return frame, mm_to_px


QUAD = [[180, 40], [1110, 70], [1190, 690], [100, 660]]


def test_locate_maps_frame_pixels_to_millimetres():
    layout = layout_from_data(mat_data("hilo"), "A2", 2)
    frame, mm_to_px = photograph(layout, QUAD)
    pose = MatLocator(layout).locate(frame)
    assert pose.seen == (0, 1, 2, 3) and pose.missing == () and not pose.held
    assert pose.reprojection_px < 1.0
    points_mm = np.array([[297.0, 163.5], [50.0, 400.0], [550.0, 30.0]])
    points_px = cv2.perspectiveTransform(points_mm.reshape(-1, 1, 2), mm_to_px).reshape(-1, 2)
    assert np.abs(pose.to_mm(points_px) - points_mm).max() < 1.5
    flat = pose.rectify(frame, layout.size, 1.0)
    assert flat.shape[:2] == (420, 594)


def test_a_hidden_marker_keeps_the_pose_and_is_named():
    layout = layout_from_data(mat_data("hilo"), "A2", 2)
    frame, mm_to_px = photograph(layout, QUAD)
    locator = MatLocator(layout)
    first = locator.locate(frame)
    hand = frame.copy()
    for marker in layout.markers[:2]:  # a forearm over markers 0 and 1
        corners = cv2.perspectiveTransform(marker.corners().reshape(-1, 1, 2), mm_to_px).reshape(-1, 2)
        x0, y0 = corners.min(axis=0).astype(int) - 12
        x1, y1 = corners.max(axis=0).astype(int) + 12
        cv2.rectangle(hand, (x0, y0), (x1, y1), (40, 70, 120), -1)
    held = locator.locate(hand)
    assert held.held and held.age == 1 and held.missing == (0, 1)
    assert np.allclose(held.to_mm_h, first.to_mm_h)
    with pytest.raises(MatNotFound, match="markers 0, 1 not visible") as error:
        MatLocator(layout).locate(hand)  # no earlier pose to stand in
    assert error.value.missing == (0, 1) and error.value.seen == (2, 3)


def test_one_hidden_marker_still_gives_a_fresh_pose():
    layout = layout_from_data(mat_data("hilo"), "A2", 2)
    frame, mm_to_px = photograph(layout, QUAD)
    corners = cv2.perspectiveTransform(layout.markers[3].corners().reshape(-1, 1, 2), mm_to_px).reshape(-1, 2)
    x0, y0 = corners.min(axis=0).astype(int) - 12
    x1, y1 = corners.max(axis=0).astype(int) + 12
    cv2.rectangle(frame, (x0, y0), (x1, y1), (40, 70, 120), -1)
    pose = MatLocator(layout).locate(frame)
    assert not pose.held and pose.missing == (3,) and pose.reprojection_px < 1.0


def test_another_games_mat_is_reported_as_foreign():
    splitter = layout_from_data(mat_data("splitter"), "A2", 2)
    frame, _ = photograph(splitter, QUAD)
    hilo = layout_from_data(mat_data("hilo"), "A2", 2)
    with pytest.raises(MatNotFound, match="markers 12, 13, 14, 15 belong to another mat"):
        MatLocator(hilo).locate(frame)


def test_an_empty_table_names_every_marker():
    layout = layout_from_data(mat_data("holdup"), "A2", 4)
    with pytest.raises(MatNotFound, match="markers 24, 25, 26, 27 not visible; seen: none"):
        MatLocator(layout).locate(np.full((480, 640, 3), 128, np.uint8))


def test_find_mat_tells_which_mat_is_on_the_table():
    layouts = [layout_from_data(data, paper, max(entry["players"]))
               for data in map(mat_data, ("hilo", "splitter", "excape", "holdup"))
               for entry in data["layout"] for paper in [entry["paper"]]]
    holdup = layout_from_data(mat_data("holdup"), "A2", 5)
    frame, _ = photograph(holdup, QUAD)
    pose, found = find_mat(frame, layouts)
    assert (found.game, found.paper) == ("holdup", "A2") and pose.reprojection_px < 1.0
    assert find_mat(np.full((480, 640, 3), 128, np.uint8), layouts) is None


def test_the_bare_mat_is_told_from_what_lies_on_it_under_any_light():
    from vision.mat import not_the_mat
    from vision.synth.cards import INKS

    felt = np.float32([78, 92, 58])  # the printed felt's colour as the camera sees it (BGR)
    mat_looks = {"as measured": felt, "under glare": 0.4 * felt + 0.6 * 255, "in shade": 0.75 * felt,
                 "brighter": 1.1 * felt, "its printed line": [155, 170, 138]}
    other = {"a card's white in dim light": [185, 185, 185], "a hand": [80, 110, 165], "a dark sleeve": [20, 22, 18],
             **{f"the ink {name}": ink for name, ink in INKS.items()}}

    def off_the_mat(bgr) -> bool:
        pixel = np.clip(np.float32(bgr), 0, 255).astype(np.uint8).reshape(1, 1, 3)
        return bool(not_the_mat(pixel, felt)[0, 0])

    assert [name for name, bgr in mat_looks.items() if off_the_mat(bgr)] == []
    assert [name for name, bgr in other.items() if not off_the_mat(bgr)] == []


def test_a_card_of_the_mats_own_hue_is_told_from_the_bare_mat_by_its_print():
    from vision.mat import shows_bare_mat

    felt = np.float32([60, 70, 41])
    frame = np.empty((200, 300, 3), np.float32)
    frame[:] = felt
    yy, xx = np.mgrid[0:200, 0:300]
    glow = np.exp(-((xx[:, 150:] - 225) ** 2 + (yy[:, 150:] - 100) ** 2) / 900.0)[..., None]
    frame[:, 150:] += 0.5 * (255 - felt) * glow  # a glare spot
    image = frame.clip(0, 255).astype(np.uint8)
    # a card as deep a green as the felt, its middle's white ellipse as pale as glare, a dark value
    cv2.ellipse(image, (75, 100), (35, 50), 0, 0, 360, (0.45 * felt + 0.5 * 255).tolist(), -1)
    cv2.putText(image, "8", (57, 122), cv2.FONT_HERSHEY_SIMPLEX, 1.8, (0.6 * felt).tolist(), 5)
    card = np.float32([[35, 40], [115, 40], [115, 160], [35, 160]])
    glare = np.float32([[185, 40], [265, 40], [265, 160], [185, 160]])
    assert not shows_bare_mat(image, card, felt)
    assert shows_bare_mat(image, glare, felt)  # a smooth glare is still the bare mat
