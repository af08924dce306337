"""The ArUco play mat: its layout in millimetres, and locating it in a camera frame.

A mat is a sheet printed at true scale with four ArUco markers at known positions and the zones
of one game (card grids, piles, rows, dice areas). Layouts are data (``config/mats/<game>.toml``);
:func:`layout_from_data` turns one such table into a :class:`MatLayout` for a paper size and a
number of players. :class:`MatLocator` finds the markers in a frame and gives the homography from
frame pixels to mat millimetres (origin at the paper's top-left corner, x to the right, y down).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import cv2
import numpy as np

# The bare mat: its surface outside its zones, markers and printed edge. Under the camera's light
# a pixel of it is its median colour dimmed or brightened (shade, uneven light) and mixed with
# white (glare, its own printed lines): gain * colour + glare * white. A pixel farther than
# NOT_THE_MAT from every such mix, or one of it with a gain out of GAIN (a card's white, a dark
# sleeve; a card of the mat's hue but far deeper) or a glare out of GLARE, shows something on or
# over it. (Synthetic light varies the gain by 0.75-1.1, glare mixes in up to 0.6 of white; a
# card's white is 0.7 of white in dim light.)
NOT_THE_MAT = 24.0    # BGR levels
GAIN = (0.2, 1.6)
GLARE = (-0.1, 0.65)  # of white (255)
BARE_EDGE_MM = 10.0  # the printer's white margin and the markers' quiet zone, with room to spare
# A card place whose middle differs from the bare mat at fewer than MOSTLY of its pixels shows no
# card: a card's face or back differs over most of it, a printed place mark or name over little.
MOSTLY = 0.3
# ... unless its middle shows sharp edges at EDGES of its pixels or more (Canny, 50 / 150): a card's
# print (its value, the ellipse around it) has them, the bare mat, its glare and shade none. A card
# of the mat's own hue, its white ellipse taken for glare, differs in colour at under MOSTLY (an
# emerald card on the green Hold Up mat: 0.29; its edges 0.10, the bare places' 0.0).
EDGES = 0.03
# Landscape sizes in millimetres.
PAPERS = {"A3": (420.0, 297.0), "A2": (594.0, 420.0), "A1": (841.0, 594.0)}
ZONE_KINDS = ("grid", "pile", "row", "dice", "track")


class LayoutError(ValueError):
    """A mat layout file is inconsistent, or has no layout for the asked paper and players."""


class MatNotFound(ValueError):
    """Too few markers of the mat are visible and no earlier pose can stand in."""

    def __init__(self, missing: Sequence[int], seen: Sequence[int], foreign: Sequence[int] = (),
                 reason: str = ""):
        self.missing = tuple(missing)
        self.seen = tuple(seen)
        self.foreign = tuple(foreign)
        parts = [reason or "play mat not found"]
        if self.missing:
            parts.append(f"markers {_ids(self.missing)} not visible")
        parts.append(f"seen: {_ids(self.seen) or 'none'}")
        if self.foreign:
            parts.append(f"markers {_ids(self.foreign)} belong to another mat")
        super().__init__("; ".join(parts))


def _ids(ids: Sequence[int]) -> str:
    return ", ".join(str(i) for i in ids)


@dataclass(frozen=True)
class Marker:
    """An ArUco marker: ``id``, top-left corner (x, y) and side ``size``, in mm."""

    id: int
    x: float
    y: float
    size: float

    def corners(self) -> np.ndarray:
        """Corners in ArUco order (top-left, top-right, bottom-right, bottom-left), mm."""
        x, y, s = self.x, self.y, self.size
        return np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], np.float64)


@dataclass(frozen=True)
class Cell:
    """One card place of a zone: ``row``/``col`` as the seated player sees them, centre in mm."""

    row: int
    col: int
    x: float
    y: float


@dataclass(frozen=True)
class Zone:
    """A rectangle of the mat, seen upright by the player it faces.

    ``x``, ``y`` is the centre in mm; ``w``, ``h`` the size in the zone's own upright frame;
    ``rotation`` (0, 90, 180, 270, counter-clockwise on the printed sheet) turns that frame so a
    player on another side of the table reads it upright. Card zones hold ``rows`` x ``cols``
    card places of ``card`` size (width, height) separated by ``gap``.
    """

    id: str
    kind: str
    x: float
    y: float
    w: float
    h: float
    rotation: int = 0
    seat: int | None = None
    rows: int = 1
    cols: int = 1
    card: tuple[float, float] = (0.0, 0.0)
    gap: float = 0.0

    def axes(self) -> tuple[np.ndarray, np.ndarray]:
        """Unit vectors on the sheet of the zone's own right (u) and down (v) directions."""
        a = np.deg2rad(self.rotation)
        # Counter-clockwise on the sheet, whose y axis points down.
        u = np.array([np.cos(a), -np.sin(a)])
        v = np.array([np.sin(a), np.cos(a)])
        return u, v

    def to_local(self, point: Sequence[float]) -> tuple[float, float]:
        """Sheet mm -> zone frame mm (origin at the zone centre, upright for its player)."""
        u, v = self.axes()
        d = np.asarray(point, np.float64) - (self.x, self.y)
        return float(d @ u), float(d @ v)

    def to_sheet(self, local: Sequence[float]) -> tuple[float, float]:
        u, v = self.axes()
        p = np.array([self.x, self.y]) + local[0] * u + local[1] * v
        return float(p[0]), float(p[1])

    def contains(self, point: Sequence[float], margin: float = 0.0) -> bool:
        lx, ly = self.to_local(point)
        return abs(lx) <= self.w / 2 + margin and abs(ly) <= self.h / 2 + margin

    def corners(self) -> np.ndarray:
        """The zone's corners on the sheet, clockwise from its own top-left."""
        hw, hh = self.w / 2, self.h / 2
        return np.array([self.to_sheet(p) for p in ((-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh))])

    def cells(self) -> list[Cell]:
        """Card places, row by row from the player's far side, left to right as they see it."""
        if self.kind not in ("grid", "pile", "row"):
            return []
        cw, ch = self.card
        out = []
        for r in range(self.rows):
            for c in range(self.cols):
                lx = -self.w / 2 + cw / 2 + c * (cw + self.gap)
                ly = -self.h / 2 + ch / 2 + r * (ch + self.gap)
                out.append(Cell(r, c, *self.to_sheet((lx, ly))))
        return out

    def card_corners(self, cell: Cell, part: float = 1.0) -> np.ndarray:
        """The sheet corners (mm) of a card lying square on ``cell``, or of its middle ``part``."""
        w, h = self.card if self.rotation in (0, 180) else self.card[::-1]
        return np.array([[cell.x + dx * part * w / 2, cell.y + dy * part * h / 2]
                         for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])

    def nearest_cell(self, point: Sequence[float]) -> tuple[Cell, float]:
        """The card place nearest to a sheet point and its distance in mm."""
        cells = self.cells()
        d = [np.hypot(point[0] - c.x, point[1] - c.y) for c in cells]
        i = int(np.argmin(d))
        return cells[i], float(d[i])


@dataclass(frozen=True)
class MatLayout:
    """One printable mat: game, paper, markers and zones, all in millimetres."""

    game: str
    paper: str
    players: int
    size: tuple[float, float]
    card: tuple[float, float]
    dictionary: str
    markers: tuple[Marker, ...]
    zones: tuple[Zone, ...]
    style: Mapping[str, Any] = field(default_factory=dict)
    serves: tuple[int, ...] = ()  # every number of players this printed mat is for

    def zone(self, zone_id: str) -> Zone:
        for z in self.zones:
            if z.id == zone_id:
                return z
        raise KeyError(f"mat {self.game} has no zone {zone_id!r}")

    def zone_at(self, point: Sequence[float], margin: float = 0.0) -> Zone | None:
        """The zone holding a sheet point (the nearest centre wins where zones overlap)."""
        inside = [z for z in self.zones if z.contains(point, margin)]
        if not inside:
            return None
        return min(inside, key=lambda z: np.hypot(point[0] - z.x, point[1] - z.y))

    def marker_ids(self) -> tuple[int, ...]:
        return tuple(m.id for m in self.markers)


def layout_from_data(data: Mapping[str, Any], paper: str, players: int, source: str = "mat") -> MatLayout:
    """Select and check the layout for ``paper`` and ``players`` in one mat file's data.

    The file holds ``game``, ``card_mm`` (width, height), optional ``dictionary`` and ``[style]``,
    and ``[[layout]]`` tables with ``paper``, ``players`` (list), ``markers`` and ``zones``.
    Zones with a ``seat`` at or beyond ``players`` are left out.
    """
    try:
        game = str(data["game"])
        card = _pair(data["card_mm"], f"{source}: card_mm")
        dictionary = str(data.get("dictionary", "DICT_4X4_50"))
        entries = list(data["layout"])
    except (KeyError, TypeError) as exc:
        raise LayoutError(f"{source}: missing or malformed {exc}") from None
    if paper not in PAPERS:
        raise LayoutError(f"unknown paper {paper!r}; choose one of {', '.join(PAPERS)}")
    supported = []
    for entry in entries:
        counts = [int(n) for n in entry.get("players", [])]
        supported.append(f"{entry.get('paper')} for {'/'.join(map(str, counts))} players")
        if entry.get("paper") == paper and players in counts:
            return _build(game, paper, players, card, dictionary, entry, data.get("style", {}), source,
                          tuple(sorted(counts)))
    raise LayoutError(
        f"{game}: no {paper} mat for {players} players (the cards would not fit); "
        f"available: {'; '.join(supported) or 'none'}"
    )


def _build(game, paper, players, card, dictionary, entry, style, source, serves) -> MatLayout:
    size = PAPERS[paper]
    where = f"{source} ({paper}, {players} players)"
    markers = []
    for m in entry.get("markers", []):
        try:
            markers.append(Marker(int(m["id"]), float(m["x"]), float(m["y"]), float(m["size"])))
        except (KeyError, TypeError, ValueError):
            raise LayoutError(f"{where}: marker {m!r} needs id, x, y and size") from None
    if len(markers) != 4 or len({m.id for m in markers}) != 4:
        raise LayoutError(f"{where}: needs four markers with distinct ids")
    zones = []
    for z in entry.get("zones", []):
        zone = _zone(z, card, where)
        if zone.seat is None or zone.seat < players:
            zones.append(zone)
    if len({z.id for z in zones}) != len(zones):
        raise LayoutError(f"{where}: zone ids must be unique")
    layout = MatLayout(game, paper, players, size, card, dictionary, tuple(markers), tuple(zones),
                       dict(style), serves)
    _check_fits(layout, where)
    return layout


def _zone(z: Mapping[str, Any], card: tuple[float, float], where: str) -> Zone:
    try:
        zid, kind = str(z["id"]), str(z["kind"])
        x, y = float(z["x"]), float(z["y"])
    except (KeyError, TypeError, ValueError):
        raise LayoutError(f"{where}: zone {z!r} needs id, kind, x and y") from None
    if kind not in ZONE_KINDS:
        raise LayoutError(f"{where}: zone {zid}: kind must be one of {', '.join(ZONE_KINDS)}")
    rotation = int(z.get("rotation", 0))
    if rotation not in (0, 90, 180, 270):
        raise LayoutError(f"{where}: zone {zid}: rotation must be 0, 90, 180 or 270")
    seat = z.get("seat")
    gap = float(z.get("gap", 0.0))
    cw, ch = card
    if kind == "grid":
        rows, cols = int(z.get("rows", 3)), int(z.get("cols", 3))
    elif kind == "row":
        rows, cols = 1, int(z.get("slots", 1))
    elif kind == "pile":
        rows, cols = 1, 1
    else:
        rows, cols = 1, int(z.get("spaces", 1))
    if kind in ("grid", "row", "pile"):
        w, h = cols * cw + (cols - 1) * gap, rows * ch + (rows - 1) * gap
    elif kind == "track":
        space = float(z.get("space", 20.0))
        w, h = cols * space, space
    else:
        try:
            w, h = float(z["w"]), float(z["h"])
        except (KeyError, TypeError, ValueError):
            raise LayoutError(f"{where}: dice zone {zid} needs w and h") from None
    return Zone(zid, kind, x, y, w, h, rotation, None if seat is None else int(seat), rows, cols,
                card if kind in ("grid", "row", "pile") else (0.0, 0.0), gap)


def _check_fits(layout: MatLayout, where: str) -> None:
    """Every zone and marker lies on the paper and no two of them overlap."""
    width, height = layout.size
    boxes = [(f"marker {m.id}", (m.x, m.y, m.x + m.size, m.y + m.size)) for m in layout.markers]
    for z in layout.zones:
        c = z.corners()
        boxes.append((f"zone {z.id}", (*c.min(axis=0), *c.max(axis=0))))
    for name, (x0, y0, x1, y1) in boxes:
        if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
            raise LayoutError(f"{where}: {name} lies off the {layout.paper} sheet")
    for i, (a, ba) in enumerate(boxes):
        for b, bb in boxes[i + 1:]:
            if min(ba[2], bb[2]) - max(ba[0], bb[0]) > 0.01 and min(ba[3], bb[3]) - max(ba[1], bb[1]) > 0.01:
                raise LayoutError(f"{where}: {a} overlaps {b}")


def _pair(value: Any, where: str) -> tuple[float, float]:
    try:
        a, b = (float(v) for v in value)
    except (TypeError, ValueError):
        raise LayoutError(f"{where}: expected two numbers, got {value!r}") from None
    return a, b


def aruco_dictionary(name: str):
    if not name.startswith("DICT_") or not hasattr(cv2.aruco, name):
        raise LayoutError(f"unknown ArUco dictionary {name!r}")
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))


def marker_bits(dictionary: str, marker_id: int) -> np.ndarray:
    """The marker as a boolean grid (True = white), including its black border."""
    dic = aruco_dictionary(dictionary)
    cells = dic.markerSize + 2
    image = cv2.aruco.generateImageMarker(dic, marker_id, cells)
    return image > 127


@dataclass(frozen=True)
class MatPose:
    """Where the mat lies in a frame: homography from frame pixels to sheet mm and back.

    ``reprojection_px`` is the RMS distance between the detected marker corners and the layout's
    corners mapped into the frame. ``held`` says the pose was measured ``age`` frames ago and
    reused because too few markers are visible now; ``missing`` lists the hidden markers.
    """

    to_mm_h: np.ndarray
    reprojection_px: float
    seen: tuple[int, ...]
    missing: tuple[int, ...]
    held: bool = False
    age: int = 0

    @property
    def to_px_h(self) -> np.ndarray:
        return np.linalg.inv(self.to_mm_h)

    def to_mm(self, points_px: np.ndarray) -> np.ndarray:
        pts = np.asarray(points_px, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.to_mm_h).reshape(-1, 2)

    def to_px(self, points_mm: np.ndarray) -> np.ndarray:
        pts = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.to_px_h).reshape(-1, 2)

    def rectify(self, frame: np.ndarray, size_mm: tuple[float, float], px_per_mm: float) -> np.ndarray:
        """The mat seen from straight above, ``px_per_mm`` pixels per millimetre."""
        scale = np.diag([px_per_mm, px_per_mm, 1.0])
        size = (int(round(size_mm[0] * px_per_mm)), int(round(size_mm[1] * px_per_mm)))
        return cv2.warpPerspective(frame, scale @ self.to_mm_h, size, flags=cv2.INTER_LINEAR)


class MatLocator:
    """Finds a layout's markers in frames and keeps the last good pose while some are hidden.

    ``min_markers``: markers needed to measure a new pose. ``max_reprojection_px``: a pose whose
    marker corners miss by more is rejected. ``hold_frames``: how many frames the last good pose
    may stand in when too few markers are visible (a hand over the mat).
    """

    def __init__(self, layout: MatLayout, min_markers: int = 3, max_reprojection_px: float = 3.0,
                 hold_frames: int = 150):
        if not 1 <= min_markers <= len(layout.markers):
            raise ValueError(f"min_markers must be 1..{len(layout.markers)}, got {min_markers}")
        self.layout = layout
        self.min_markers = min_markers
        self.max_reprojection_px = max_reprojection_px
        self.hold_frames = hold_frames
        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        self._detector = cv2.aruco.ArucoDetector(aruco_dictionary(layout.dictionary), params)
        self._corners_mm = {m.id: m.corners() for m in layout.markers}
        self._last: MatPose | None = None

    @classmethod
    def from_settings(cls, layout: MatLayout, section: Mapping[str, Any]) -> "MatLocator":
        """The locator of a ``[vision.mat]`` settings table."""
        return cls(layout, int(section["min_markers"]), float(section["max_reprojection_px"]),
                   int(section["hold_frames"]))

    def reset(self) -> None:
        """Forget the last good pose (the camera or the mat was moved)."""
        self._last = None

    def detect(self, frame: np.ndarray) -> dict[int, np.ndarray]:
        """Visible marker corners in pixels by id (every id, also those of other mats)."""
        gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        corners, ids, _ = self._detector.detectMarkers(gray)
        if ids is None:
            return {}
        return {int(i): c.reshape(4, 2).astype(np.float64) for i, c in zip(ids.ravel(), corners)}

    def locate(self, frame: np.ndarray) -> MatPose:
        """The mat's pose in ``frame``; raises MatNotFound naming the missing markers."""
        return self.pose_of(self.detect(frame))

    def pose_of(self, found: Mapping[int, np.ndarray]) -> MatPose:
        """The mat's pose from the marker corners ``found`` in a frame (``detect``'s)."""
        ours = sorted(i for i in found if i in self._corners_mm)
        foreign = sorted(i for i in found if i not in self._corners_mm)
        missing = tuple(i for i in self.layout.marker_ids() if i not in found)
        reason = ""
        if len(ours) >= self.min_markers:
            px = np.vstack([found[i] for i in ours])
            mm = np.vstack([self._corners_mm[i] for i in ours])
            h, _ = cv2.findHomography(px, mm, 0)
            if h is not None:
                back = cv2.perspectiveTransform(mm.reshape(-1, 1, 2), np.linalg.inv(h)).reshape(-1, 2)
                error = float(np.sqrt(np.mean(np.sum((back - px) ** 2, axis=1))))
                if error <= self.max_reprojection_px:
                    self._last = MatPose(h, error, tuple(ours), missing)
                    return self._last
                reason = f"markers do not agree (reprojection error {error:.1f} px)"
        if self._last is not None and self._last.age < self.hold_frames:
            last = self._last
            self._last = MatPose(last.to_mm_h, last.reprojection_px, tuple(ours), missing, True,
                                 last.age + 1)
            return self._last
        raise MatNotFound(missing, ours, foreign, reason)


def find_mat(frame: np.ndarray, layouts: Sequence[MatLayout]) -> tuple[MatPose, MatLayout] | None:
    """Which of ``layouts`` lies in ``frame`` (the one with most markers seen) and its pose, or
    None when no known mat shows enough markers."""
    if not layouts:
        return None
    found = MatLocator(layouts[0]).detect(frame)
    best = max(layouts, key=lambda layout: len(found.keys() & set(layout.marker_ids())))
    if not found.keys() & set(best.marker_ids()):
        return None
    try:
        return MatLocator(best).pose_of(found), best
    except MatNotFound:
        return None



def bare_mask(shape, pose: MatPose, layout: MatLayout) -> np.ndarray:
    """Where the bare mat lies in a frame of ``shape`` (255): outside its zones and markers."""
    mask = np.zeros(shape[:2], np.uint8)
    w, h, e = layout.size[0], layout.size[1], BARE_EDGE_MM
    cv2.fillConvexPoly(mask, np.int32(pose.to_px(np.array([[e, e], [w - e, e], [w - e, h - e], [e, h - e]]))), 255)
    for corners in [z.corners() for z in layout.zones] + [m.corners() for m in layout.markers]:
        middle = corners.mean(axis=0)
        grown = middle + (corners - middle) * (1 + 2 * BARE_EDGE_MM / np.ptp(corners, axis=0).max())
        cv2.fillConvexPoly(mask, np.int32(pose.to_px(grown)), 0)
    return mask


def bare_colour(frame: np.ndarray, pose: MatPose, layout: MatLayout) -> np.ndarray:
    """The bare mat's colour in ``frame`` (BGR): the median where it lies bare."""
    return np.median(frame[bare_mask(frame.shape, pose, layout) > 0], axis=0).astype(np.float32)


def not_the_mat(image: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """For each pixel of ``image`` (BGR), whether it shows something else than the bare mat of
    ``colour`` under any light: no mix of it, dimmed or brightened, with white (glare) explains it."""
    basis = np.stack([np.asarray(colour, np.float32), np.full(3, 255.0, np.float32)], axis=1)  # 3 x 2
    pixels = image.reshape(-1, 3).astype(np.float32)
    gain, glare = (pixels @ np.linalg.pinv(basis).T).T
    off = np.linalg.norm(pixels - np.outer(gain, basis[:, 0]) - np.outer(glare, basis[:, 1]), axis=1)
    mat = (off <= NOT_THE_MAT) & (gain >= GAIN[0]) & (gain <= GAIN[1]) & (glare >= GLARE[0]) & (glare <= GLARE[1])
    return ~mat.reshape(image.shape[:2])


def shows_bare_mat(frame: np.ndarray, corners_px: np.ndarray, colour: np.ndarray) -> bool:
    """Whether the part of ``frame`` within ``corners_px`` (the middle of a card place) is mostly
    the bare mat's ``colour``, and without sharp edges: no card lies there, nor a hand over it."""
    x0, y0 = np.maximum(np.floor(corners_px.min(axis=0)).astype(int), 0)
    x1, y1 = np.ceil(corners_px.max(axis=0)).astype(int) + 1
    part = frame[y0:y1, x0:x1]
    if part.size == 0:
        return True
    if not_the_mat(part, colour).mean() >= MOSTLY:
        return False
    return float(np.mean(cv2.Canny(cv2.cvtColor(part, cv2.COLOR_BGR2GRAY), 50, 150) > 0)) < EDGES
