"""The card reader: every card in a frame, face up or down, with probabilities for its colour and value.

Usage::

    reader = CardReader.from_settings(settings.section("vision.cards"), state_dir)
    for card in reader.read(frame, pose=mat_pose, layout=mat_layout):
        card.corners, card.face_down, card.colours, card.values, card.label

Recognition needs an enrolment of the deck (:func:`enrol`, from labelled photos); see
``card_model``. With a located play mat (``pose`` and ``layout``) the reader knows how large a
card must look and uses only its fastest cue; without one it searches the frame with every cue and
with the learned card detector.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import cv2
import numpy as np

from engine.table import FACE_DOWN, Card
from vision import card_detect
from vision.card_detect import DetectParams
from vision.card_corners import (INDEX_FRACTION, card_corners, find_corners, index_features, index_patches,
                                 nudged)
from vision.card_features import (CARD_SIZE, colour_features, half_turn, part_slices, portrait, rectify,
                                  shape_features, soften)
from vision.card_detector import MODEL, CardDetector
from vision.card_model import NO_INDEX, NOT_A_CARD, CardModel, EnrolmentError, split_label, train
from vision.evaluate import Box, load_image, read_labels
from vision.mat import MatLayout, MatPose


# A card read by one corner has a guessed size: only the part of it within this fraction of its
# guessed sides from its index surely hides another index; an index farther in, still inside
# its guessed outline, must read at least HIDDEN_INDEX_CERTAINTY to be another card, unless it
# is turned as that card is and about as large (_lying_over).
SURELY_HIDDEN = 0.5
HIDDEN_INDEX_CERTAINTY = 0.99
LYING_OVER_TURN, LYING_OVER_SIZE = 0.9, 0.7  # see _lying_over
# A corner point is found to a pixel or so, and an index cut out from one exact placement reads
# differently as the photo's noise changes (the figures moved with a photo merely saved again as
# JPEG): each index is also read from its corner moved this fraction of the card's width either
# way along both diagonals, and the readings averaged.
CORNER_NUDGE = 0.005
_NUDGES = ((0, 0), (1, 1), (-1, -1), (1, -1), (-1, 1))
# How much less surely an index may show at another guessed card width and still count in the
# reading (see mix_widths): a width that shows it 0.1 less surely weighs 1/e as much.
WIDTH_SOFTNESS = 0.1
# A face-up card read whole off the mat is also read at its two index corners, for cards of these
# fractions of its width (see CardReader._with_indices); an index that shows not at all weighs as
# INDEX_FLOOR against one that shows surely.
INDEX_SCALES = (0.85, 1.0, 1.18)
INDEX_FLOOR = 0.05


@dataclass(frozen=True)
class CardReading:
    """One card: corners in frame pixels (clockwise, the first side a short side of the card),
    the probability it shows its back, and for a face-up card the probability of each colour
    and of each value (each summing to 1). ``certainty`` is the probability it is a card at all.

    A card read by one visible corner (the rest hidden under other cards or things) has
    ``hidden`` set; its corners are then where the card would be, and ``index_at`` its index.
    """

    corners: np.ndarray
    face_down: float
    colours: Mapping[str, float]
    values: Mapping[str, float]
    certainty: float = 1.0
    hidden: bool = False
    index_at: tuple[float, float] | None = None

    @property
    def centre(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])

    @property
    def anchor(self) -> tuple[float, float]:
        """A point on the visible part of the card: its centre, or its index when mostly hidden."""
        return self.index_at if self.index_at is not None else self.centre

    @property
    def colour(self) -> str:
        return max(self.colours, key=self.colours.get) if self.colours else ""

    @property
    def value(self) -> str:
        return max(self.values, key=self.values.get) if self.values else ""

    @property
    def is_face_down(self) -> bool:
        return self.face_down > 0.5

    @property
    def label(self) -> str:
        """``face-down``, ``"<colour> <value>"``, or the value alone for a deck without colours."""
        if self.is_face_down:
            return FACE_DOWN
        return f"{self.colour} {self.value}" if self.colour else self.value

    def card(self) -> Card | str:
        """The engine's vocabulary: ``Card(colour, value)`` or ``FACE_DOWN``."""
        return FACE_DOWN if self.is_face_down else Card(self.colour, self.value)


@dataclass(frozen=True)
class ReaderParams:
    detect: DetectParams = field(default_factory=DetectParams)
    # "both": off the mat, card_detect's outline cues and the cards the learned card_detector finds
    # that no cue outlines (a card whose print splits its outline into pieces, a white card on white
    # paper); "outlines": the cues alone (no network run). On a mat, the cues alone either way.
    detector: str = "both"
    detector_model: str = ""          # the network's ONNX file; empty: the packaged one
    min_score: float = 0.3            # least network score (0..1) of a card
    min_certainty: float = 0.9        # below this a candidate is "not a card"
    mat_size_range: float = 1.8       # on the mat, a card's area may differ this much from the layout's
    mat_aspect_tolerance: float = 0.2  # and its proportions by this fraction
    partial_cards: bool = True         # off the mat, also read cards of which only a corner shows
    partial_certainty: float = 0.9     # least certainty of a card read by one corner (less evidence)

    @classmethod
    def from_settings(cls, section: Mapping[str, Any]) -> "ReaderParams":
        detector = str(section.get("detector", cls.detector))
        if detector not in ("both", "outlines"):
            raise ValueError(f"vision.cards.detector: {detector!r} is not 'both' or 'outlines'")
        return cls(DetectParams.from_settings(section), detector,
                   str(section.get("detector_model", cls.detector_model)),
                   float(section.get("min_score", cls.min_score)),
                   float(section.get("min_certainty", cls.min_certainty)),
                   float(section.get("mat_size_range", cls.mat_size_range)),
                   float(section.get("mat_aspect_tolerance", cls.mat_aspect_tolerance)),
                   bool(section.get("partial_cards", cls.partial_cards)),
                   float(section.get("partial_certainty", cls.partial_certainty)))


class CardReader:
    def __init__(self, model: CardModel, params: ReaderParams = ReaderParams()):
        self.model = model
        self.params = params

    @cached_property
    def network(self) -> CardDetector | None:
        """The learned card detector, loaded when a frame off the mat is first read: on a mat the
        outline cues alone find the cards, and the kiosk's live loop never needs it."""
        return network(self.params)

    @classmethod
    def from_settings(cls, section: Mapping[str, Any], state_dir: str | Path) -> "CardReader":
        """The reader of ``[vision.cards]`` with the enrolment saved under ``state_dir``."""
        return cls(CardModel.load(Path(state_dir) / section["enrolment"]), ReaderParams.from_settings(section))

    def read(self, frame: np.ndarray, pose: MatPose | None = None,
             layout: MatLayout | None = None) -> list[CardReading]:
        """Every card in ``frame``; with the mat's pose and layout, only card-sized outlines
        (cards on a mat lie apart), otherwise also cards of which only a corner shows."""
        readings = self._classified(frame, self._candidates(frame, pose, layout), on_mat=pose is not None)
        if pose is None and self.params.partial_cards and self.model.corners is not None:
            readings += self._partial_cards(frame, readings)
        return readings

    def read_places(self, frame: np.ndarray, places: Sequence[np.ndarray]) -> list[CardReading]:
        """The cards lying on mat places where a reading found none (``places``: a card's corners
        at each place, frame pixels): each place's outline moved onto the card's edges nearby and
        read as a whole card (a card whose outline the detection lost: its rim against a white
        margin, its panel cut in two by glare)."""
        if not places:
            return []
        quads = card_detect.snap_outlines(frame, np.array(places, np.float32), self.params.detect)
        return self._classified(frame, [portrait(q) for q in quads], on_mat=True)

    def _classified(self, frame, candidates: list[np.ndarray], on_mat: bool) -> list[CardReading]:
        """The candidate outlines that are cards (the likeliest of overlapping ones), read."""
        if not candidates:
            return []
        faces = rectify(frame, candidates)
        features = shape_features(faces, self.model.shape_parts_used(part_slices()))
        values = self.model.values.proba(features)
        classes = self.model.values.classes
        not_card = values[:, classes.index(NOT_A_CARD)] if NOT_A_CARD in classes else np.zeros(len(faces))
        certainty = 1 - not_card
        order = sorted(range(len(candidates)), key=lambda i: (-round(certainty[i], 1), -_area(candidates[i])))
        chosen = [order[k] for k in _non_overlapping([candidates[i] for i in order], self.params.detect.overlap)]
        chosen = [i for i in chosen if certainty[i] >= self.params.min_certainty]
        if not chosen:
            return []
        backs = np.zeros(len(chosen))
        if self.model.backs is not None:
            backs = self.model.backs.proba(features[chosen])[:, self.model.backs.classes.index(FACE_DOWN)]
        colours = [None] * len(chosen)
        face_up = [k for k in range(len(chosen)) if backs[k] <= 0.5]
        if self.model.colours is not None and face_up:
            for k, p in zip(face_up, self.model.colours.proba(colour_features(faces[[chosen[k] for k in face_up]]))):
                colours[k] = p
        if not on_mat and self.model.corners is not None and face_up:
            rows = [chosen[k] for k in face_up]
            values[rows] = self._with_indices(frame, [candidates[i] for i in rows], values[rows])
        return [self._reading(candidates[i], values[i], certainty[i], colours[k], backs[k])
                for k, i in enumerate(chosen)]

    def _with_indices(self, frame, quads: list[np.ndarray], values: np.ndarray) -> np.ndarray:
        """The value probabilities of face-up cards read whole (rows, in the values model's
        classes) weighed by what their two index corners show: each value's times the corners'
        summed probability of it (as at several widths, see mix_widths), plus INDEX_FLOOR. Inside
        the outline of a card partly under another, the other card's index and picture may show
        and mislead the reading of the whole; its own index corner still shows its value. An index
        that does not show (hidden, cut off) leaves the reading as it was."""
        corners = [c for q in quads for c in card_corners(q)[:2]]
        widths = np.repeat([float(np.linalg.norm(q[1] - q[0])) for q in quads], 2)
        readings = np.stack([self._index_readings(frame, corners, widths * k) for k in INDEX_SCALES])
        classes = self.model.corners.classes
        shown, _ = mix_widths(readings, classes.index(NO_INDEX))
        shown = shown.reshape(len(quads), 2, -1).sum(axis=1)
        value_classes = self.model.values.classes
        # a value whose index the enrolment never showed (its cards outlined by the network alone)
        # is left as read: the corners cannot tell it
        unseen = [name not in classes and name not in (FACE_DOWN, NOT_A_CARD) for name in value_classes]
        evidence = np.tile(np.where(unseen, 1.0, INDEX_FLOOR), (len(values), 1))
        for k, name in enumerate(c for c in classes if c != NO_INDEX):
            if name in value_classes:
                evidence[:, value_classes.index(name)] += shown[:, k]
        return values * evidence

    def _candidates(self, frame, pose, layout) -> list[np.ndarray]:
        """Card outlines, corners reordered so the first side is short (on a located mat, only
        those whose size in millimetres is a card's)."""
        if pose is None or layout is None:
            cues, found = outlines(frame, self.params.detect, self.network)
            return cues + found
        params, (w, h) = self._mat_params(frame.shape, pose, layout)
        # cards on a mat lie apart, each outlined by the cues; the network finds small ones less well
        quads = card_detect.find_quads(frame, params, select=False)
        if not quads:
            return []
        corners = np.array([q.corners for q in quads])
        mm = pose.to_mm(corners.reshape(-1, 2)).reshape(-1, 4, 2)
        sides = np.linalg.norm(mm[:, [1, 2, 3, 0]] - mm, axis=2)                # n x 4
        across, along = (sides[:, 0] + sides[:, 2]) / 2, (sides[:, 1] + sides[:, 3]) / 2
        short, long_ = np.minimum(across, along), np.maximum(across, along)
        tol = self.params.mat_aspect_tolerance
        fits = (np.abs(short / w - 1) <= tol) & (np.abs(long_ / h - 1) <= tol)
        return [portrait(c, s) for c, s, ok in zip(corners, sides, fits) if ok]

    def _mat_params(self, shape, pose: MatPose, layout: MatLayout) -> tuple[DetectParams, tuple]:
        """Detection tuned to the mat: the fast cue only, and a card's expected size in pixels."""
        w, h = layout.card
        sheet = np.array([[0, 0], [layout.size[0], 0], [layout.size[0], layout.size[1]], [0, layout.size[1]]])
        px_per_mm2 = cv2.contourArea(pose.to_px(sheet).astype(np.float32)) / (layout.size[0] * layout.size[1])
        card_share = w * h * px_per_mm2 / (shape[0] * shape[1])
        r = self.params.mat_size_range
        params = replace(self.params.detect, white_levels=(), canny=(0, 0),
                         min_area=card_share / r, max_area=card_share * r)
        return params, (w, h)

    def _partial_cards(self, frame, whole: list[CardReading]) -> list[CardReading]:
        """Cards read by an index corner outside every card already read. Their size is the
        typical size of the cards read whole, or else the one of a few that reads best."""
        typical = float(np.median([np.linalg.norm(r.corners[1] - r.corners[0]) for r in whole])) if whole else 0.0
        polygons = [r.corners.reshape(-1, 1, 2).astype(np.float32) for r in whole]
        # A corner of a card already read is no other card (_another_card); nor is one on the
        # frame's border (where anything bright that the frame cuts makes a right angle, and a
        # card's index would be cut off).
        h, w = frame.shape[:2]
        margin = 0.01 * max(h, w)
        corners = [c for c in find_corners(frame, self.params.detect)
                   if margin <= c.point[0] <= w - 1 - margin and margin <= c.point[1] <= h - 1 - margin
                   and all(_another_card(p, c.point, typical) for p in polygons)]
        if not corners:
            return []
        widths = [typical * 0.85, typical, typical * 1.18] if whole else \
            list(max(frame.shape[:2]) * np.geomspace(0.12, 0.45, 6))
        probabilities, sizes = self._corner_values(frame, corners, widths)
        readings: list[CardReading] = []
        for i in np.argsort(-probabilities.sum(axis=1)):
            certainty = float(probabilities[i].sum())
            if certainty < max(self.params.min_certainty, self.params.partial_certainty):
                break
            reading = self._corner_reading(frame, corners[i], sizes[i], probabilities[i] / certainty, certainty)
            # An index under a card already read would not show (corners of one card - its other
            # index, a pip, the picture - would otherwise each read as a card).
            if any(cv2.pointPolygonTest(q, reading.anchor, False) >= 0 for q in polygons):
                continue
            if any(_iou(reading.corners, k.corners) > 0.5 for k in whole):
                continue
            pair = next((k for k, other in enumerate(readings) if _opposite_indices(other, reading)), None)
            if pair is not None:
                readings[pair] = _read_by_both_indices(readings[pair], reading)
                polygons.append(readings[pair].corners.reshape(-1, 1, 2).astype(np.float32))
                continue
            if any(_one_card(reading, k) for k in readings):
                continue
            if certainty < HIDDEN_INDEX_CERTAINTY and any(
                    cv2.pointPolygonTest(k.corners.reshape(-1, 1, 2), reading.anchor, False) >= 0
                    and not _lying_over(reading, k) for k in readings):
                continue
            readings.append(reading)
            near = reading.corners[:1] + SURELY_HIDDEN * (reading.corners - reading.corners[:1])
            polygons.append(near.reshape(-1, 1, 2).astype(np.float32))
        return readings

    def _corner_values(self, frame, corners, widths) -> tuple[np.ndarray, np.ndarray]:
        """For each corner, the probability of each value (NO_INDEX left out, so a row sums to
        the probability that an index shows), read at each of the card ``widths`` (and averaged
        over the corner nudged, see CORNER_NUDGE), and the width that reads best."""
        readings = np.stack([self._index_readings(frame, corners, [w] * len(corners)) for w in widths])
        values, best = mix_widths(readings, self.model.corners.classes.index(NO_INDEX))
        return values, np.asarray(widths)[best]

    def _index_readings(self, frame, corners, widths) -> np.ndarray:
        """The corner model's probabilities (corners x classes) of the index beside each corner,
        for a card ``widths`` px wide (one per corner), averaged over the corner nudged (see
        CORNER_NUDGE)."""
        placed = [nudged(c, a * CORNER_NUDGE * w, b * CORNER_NUDGE * w) for a, b in _NUDGES
                  for c, w in zip(corners, widths)]
        patches = index_patches(frame, placed, list(widths) * len(_NUDGES), self.model.aspect)
        p = self.model.corners.proba(index_features(patches))
        return p.reshape(len(_NUDGES), len(corners), -1).mean(axis=0)

    def _corner_reading(self, frame, corner, width: float, values: np.ndarray, certainty: float) -> CardReading:
        """A card of ``width`` pixels placed by its index corner (the rest may be hidden)."""
        p, r, d = np.array(corner.point), np.array(corner.right), np.array(corner.down)
        height = width * self.model.aspect
        quad = np.array([p, p + r * width, p + r * width + d * height, p + d * height], np.float32)
        index_at = p + r * width * INDEX_FRACTION[0] / 2 + d * height * INDEX_FRACTION[1] / 2
        classes = [c for c in self.model.corners.classes if c != NO_INDEX]
        colours: dict[str, float] = {}
        if self.model.colours is not None:
            patch = index_patches(frame, [corner], [width], self.model.aspect)[0]
            face = cv2.resize(patch, CARD_SIZE, interpolation=cv2.INTER_LINEAR)[None]
            p_colour = self.model.colours.proba(colour_features(face))[0]
            colours = dict(zip(self.model.colours.classes, map(float, p_colour)))
        return CardReading(quad, 0.0, colours, dict(zip(classes, map(float, values))), certainty, True,
                           (float(index_at[0]), float(index_at[1])))

    def _reading(self, corners, value_p, certainty, colour_p, back_p) -> CardReading:
        classes = self.model.values.classes
        real = [i for i, c in enumerate(classes) if c not in (FACE_DOWN, NOT_A_CARD)]
        face_down = float(back_p)
        total = value_p[real].sum()
        values = {classes[i]: float(value_p[i] / total) for i in real}
        colours: dict[str, float] = {}
        if colour_p is not None:
            colours = {c: float(v) for c, v in zip(self.model.colours.classes, colour_p)}
        return CardReading(corners.astype(np.float32), min(face_down, 1.0), colours, values, float(certainty))


def network(params: ReaderParams) -> CardDetector | None:
    """The learned card detector when the settings ask for it."""
    return CardDetector(params.detector_model or MODEL, params.min_score) if params.detector == "both" else None


SAME_CARD = 0.5  # least overlap (IoU) of the network's outline with a cue's for both to be one card


def outlines(frame: np.ndarray, detect: DetectParams, finder: CardDetector | None
             ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Card outlines, the first side a short one: the outline cues' (each on edges the photo
    shows), and the cards that the network, when there is one, finds and no cue outlines (its
    outline is its guess of the whole card; where a cue outlines the card, the cue's is kept)."""
    cues = [portrait(q.corners) for q in card_detect.find_quads(frame, detect, select=False)]
    if finder is None:
        return cues, []
    found = [portrait(c.corners) for c in finder.find(frame)]
    return cues, [q for q in found if not any(_iou(q, c) > SAME_CARD for c in cues)]


def _lying_over(reading: CardReading, under: CardReading) -> bool:
    """Whether a card read by a corner inside the guessed outline of another, ``under``, beyond
    the part that surely hides an index, lies over it: it is turned as ``under`` is, and about
    as large. Within a card, what reads as an index otherwise is its other index (turned half
    round), its picture's frame (whose corners turned as the card are near its index), or a pip
    or part of the picture that reads as an index far smaller than a card."""
    a, b = reading.corners[1] - reading.corners[0], under.corners[1] - under.corners[0]  # their first sides
    ratio = float(np.linalg.norm(a) / np.linalg.norm(b))
    turned_alike = float(a @ b) / (np.linalg.norm(a) * np.linalg.norm(b)) >= LYING_OVER_TURN
    return turned_alike and LYING_OVER_SIZE <= ratio <= 1 / LYING_OVER_SIZE


def _another_card(outline: np.ndarray, point, typical: float) -> bool:
    """Whether a corner at ``point`` may be another card's than the one read whole in ``outline``
    (n x 1 x 2), ``typical`` px wide: a corner of that card, even one its outline misses by a
    little (a tenth of the width), is not. But just outside its outline's side, away from its
    corners (a fifth of the width), is where another card goes under it."""
    outside = -cv2.pointPolygonTest(outline, point, True)
    if outside > 0.1 * typical:
        return True
    nearest = float(np.min(np.linalg.norm(outline.reshape(-1, 2) - np.asarray(point), axis=1)))
    return outside > 0 and nearest > 0.2 * typical


def mix_widths(readings: np.ndarray, no_index: int) -> tuple[np.ndarray, np.ndarray]:
    """One reading per corner from its readings at several guessed card widths (widths x
    corners x classes, column ``no_index`` the probability that no index shows): the index
    shows as surely as at the width where it shows best, and the values are those of every
    width, each weighed by how nearly it shows an index as well (WIDTH_SOFTNESS). A single
    guessed width may cut the index a little off and misread it; the widths around it agree.
    Also the best width's index, per corner."""
    absent = readings[:, :, no_index]
    best = absent.argmin(axis=0)
    values = np.delete(readings, no_index, axis=2)
    shares = values / np.maximum(values.sum(axis=2, keepdims=True), 1e-9)
    weights = np.exp((absent.min(axis=0) - absent) / WIDTH_SOFTNESS)[:, :, None]
    mixed = (shares * weights).sum(axis=0) / weights.sum(axis=0)
    return mixed * (1 - absent.min(axis=0))[:, None], best


def _card_frame(reading: CardReading) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """A card read by one corner: that corner point, unit vectors along its two edges, its guessed width."""
    p = reading.corners[0]
    right, down = reading.corners[1] - p, reading.corners[3] - p
    width = float(np.linalg.norm(right))
    return p, right / width, down / float(np.linalg.norm(down)), width


def _opposite_indices(a: CardReading, b: CardReading) -> bool:
    """Whether cards read by one corner each are one card seen at both its index corners: they
    face opposite ways (within about 18 degrees), and the corners are a card's diagonal apart
    (the card they span has the cards' proportions, within 15 % - a photo taken at a slant
    changes them -, and about the guessed width, which is itself a guess)."""
    _, ra, da, wa = _card_frame(a)
    _, rb, db, _ = _card_frame(b)
    if (np.dot(ra, rb) + np.dot(da, db)) / 2 > -0.95:
        return False
    width, height = _spanned(a, b)
    aspect = np.linalg.norm(a.corners[3] - a.corners[0]) / wa
    return bool(0.8 * wa <= width <= 1.6 * wa and abs(height / (width * aspect) - 1) <= 0.15)


def _spanned(a: CardReading, b: CardReading) -> tuple[float, float]:
    """Width and height of the card from ``a``'s corner along its edges to ``b``'s corner."""
    p, right, down, _ = _card_frame(a)
    width, height = np.linalg.solve(np.column_stack([right, down]), b.corners[0] - p)
    return float(width), float(height)


def _read_by_both_indices(a: CardReading, b: CardReading) -> CardReading:
    """One card from the readings of its two index corners: the outline they span, and each
    class's probability from both readings (as independent evidence)."""
    pa, ra, da, _ = _card_frame(a)
    width, height = _spanned(a, b)
    quad = np.array([pa, pa + ra * width, b.corners[0], pa + da * height], np.float32)
    return replace(a, corners=quad, values=_joint(a.values, b.values), colours=_joint(a.colours, b.colours),
                   certainty=1 - (1 - a.certainty) * (1 - b.certainty), index_at=None)


def _joint(p: Mapping[str, float], q: Mapping[str, float]) -> dict[str, float]:
    return {k: (p[k] + q.get(k, 0.0)) / 2 for k in p}


def _one_card(a: CardReading, b: CardReading) -> bool:
    """Whether two cards read by one corner each are one card: they mostly overlap, or they show
    one value from opposite corners about the same place (a card prints its index in two
    opposite corners; fanned cards of one value show the same corner, side by side)."""
    overlap = _iou(a.corners, b.corners)
    facing = float(np.dot(a.corners[1] - a.corners[0], b.corners[1] - b.corners[0])) < 0
    return overlap > 0.5 or (a.value == b.value and facing and overlap > 0.1)


def _area(q: np.ndarray) -> float:
    return float(cv2.contourArea(q.astype(np.float32)))


def _non_overlapping(quads: Sequence[np.ndarray], overlap: float) -> list[int]:
    """Greedy: keep each quad (in the given order) that does not overlap a kept one."""
    quads = [q.astype(np.float32) for q in quads]
    areas = [_area(q) for q in quads]
    boxes = [(*q.min(axis=0).tolist(), *q.max(axis=0).tolist()) for q in quads]
    kept: list[int] = []
    for i, q in enumerate(quads):
        x0, y0, x1, y1 = boxes[i]
        if all(boxes[j][0] >= x1 or boxes[j][2] <= x0 or boxes[j][1] >= y1 or boxes[j][3] <= y0
               or cv2.intersectConvexConvex(q, quads[j])[0] <= overlap * min(areas[i], areas[j]) for j in kept):
            kept.append(i)
    return kept


# ---- enrolment -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Missed:
    """A labelled card that enrolment could not use: the photo's place in the photos given
    (0, 1, ...), the card's label, and why."""

    photo: int
    label: str
    why: str


@dataclass
class EnrolReport:
    """What an enrolment used: cards per label, labelled cards whose outline was not found,
    and the non-card outlines it learnt to reject."""

    cards: dict[str, int] = field(default_factory=dict)
    missed: list[Missed] = field(default_factory=list)
    negatives: int = 0


def enrol(photos: Iterable[tuple[np.ndarray, Sequence[Box]]], params: ReaderParams = ReaderParams(),
          seed: int = 0, jitter: int = 2) -> tuple[CardModel, EnrolReport]:
    """Learn a deck from labelled photos: each photo with boxes around its cards, labelled
    ``"<colour> <value>"``, a single word such as ``king``, or ``face-down`` for a card back.
    A box with no coordinates (NaN) means the card is the largest outline in the photo, or the
    whole photo. ``jitter`` extra, slightly shifted outlines per card make the classifiers
    tolerant of imprecise corners; ``seed`` makes that repeatable."""
    rng = np.random.default_rng(seed)
    finder = cache(lambda: network(params))  # loaded for the first photo of one card
    report = EnrolReport()
    value_x, value_y, groups, colour_x, colour_y = [], [], [], [], []
    corner_patches, corner_y, aspects = [], [], []
    for number, (image, boxes) in enumerate(photos):
        cues, found = _enrolment_outlines(image, len(boxes), params, finder)
        quads = cues + found
        positives, unseen = [], []
        for box in boxes:
            colour, value = split_label(box.label)
            corners = _outline_for(box, quads, image.shape, alone=len(boxes) == 1)
            if corners is None:
                report.missed.append(Missed(number, box.label, _why_missed(box, quads)))
                unseen.append(box)
                continue
            positives.append(corners)
            report.cards[box.label] = report.cards.get(box.label, 0) + 1
            size = np.linalg.norm(corners[2] - corners[0])
            versions = [corners] + [corners + rng.uniform(-0.025, 0.025, (4, 2)).astype(np.float32) * size
                                    for _ in range(jitter)]
            faces = rectify(image, versions)
            faces = np.concatenate([faces, soften(faces[:1])])
            faces = np.concatenate([faces, half_turn(faces)])
            value_x.extend(shape_features(faces))
            value_y.extend([value] * len(faces))
            # One group per photographed card (1, 2, ...), one per non-card outline (-1, -2, ...).
            groups.extend([sum(report.cards.values())] * len(faces))
            if colour is not None and value != FACE_DOWN:
                colour_x.extend(colour_features(faces[:1]))
                colour_y.append(colour)
            aspects.append(_aspect(corners))
            if not any(corners is q for q in found):
                # an index corner is learnt where it lies exactly: not on the network's guess of
                # the whole card
                patches, labels = _corner_examples(image, corners, value)
                corner_patches.append(patches)
                corner_y.extend(labels)
        negatives = [q for q in quads if not any(_iou(q, p) > 0.6 for p in positives)]
        if negatives:
            value_x.extend(shape_features(rectify(image, negatives)))
            value_y.extend([NOT_A_CARD] * len(negatives))
            groups.extend(range(-report.negatives - len(negatives), -report.negatives))
            report.negatives += len(negatives)
        if positives:
            patches = _corner_negatives(image, positives, unseen, params, float(np.median(aspects)))
            corner_patches.append(patches)
            corner_y.extend([NO_INDEX] * len(patches))
    if not value_x:
        raise EnrolmentError("no labelled card was found in the enrolment photos")
    corner_x = index_features(np.concatenate(corner_patches)) if corner_patches else None
    model = train(np.array(value_x), value_y, groups, part_slices(),
                  np.array(colour_x) if colour_x else None, colour_y, corner_x, corner_y,
                  float(np.median(aspects)) if aspects else 1.4, dict(report.cards))
    return model, report


def unfound(image: np.ndarray, boxes: Sequence[Box], params: ReaderParams = ReaderParams()) -> list[tuple[Box, str]]:
    """The labelled boxes of one enrolment photo whose card :func:`enrol` would not find, each
    with why (a photo checked before it is kept)."""
    cues, found = _enrolment_outlines(image, len(boxes), params, lambda: network(params))
    quads = cues + found
    return [(box, _why_missed(box, quads)) for box in boxes
            if _outline_for(box, quads, image.shape, alone=len(boxes) == 1) is None]


def _enrolment_outlines(image: np.ndarray, boxes: int, params: ReaderParams,
                        finder: Callable[[], CardDetector | None]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The outlines that enrolment learns from in a photo of ``boxes`` labelled cards: the outline
    cues', and the network's (see :func:`outlines`) in a photo of one card only. Several cards in
    a photo lie in a hand, a pile or on a mat's places: the cues outline each whole card there,
    and the network's guess of a partly hidden card's outline would teach the deck the cards over
    it. ``finder`` gives the network, asked for only in a photo of one card."""
    return outlines(image, params.detect, finder() if boxes == 1 else None)


def _aspect(quad: np.ndarray) -> float:
    """Height / width of a card's outline (its first side a short one)."""
    sides = np.linalg.norm(quad[[1, 2, 3, 0]] - quad, axis=1)
    return float((sides[1] + sides[3]) / (sides[0] + sides[2]))


def _corner_examples(image, quad, value) -> tuple[np.ndarray, list[str]]:
    """Index patches of an enrolled card's four corners at its size and a little smaller and
    larger (the size of a partly hidden card is guessed): its two index corners show its value,
    the other two nothing; a back shows nothing anywhere."""
    sides = np.linalg.norm(quad[[1, 2, 3, 0]] - quad, axis=1)
    width, aspect = (sides[0] + sides[2]) / 2, _aspect(quad)
    corners = card_corners(quad)
    shown = [value, value, NO_INDEX, NO_INDEX] if value != FACE_DOWN else [NO_INDEX] * 4
    patches, labels = [], []
    for scale in (1.0, 0.85, 1.18):
        patches.append(index_patches(image, corners, [width * scale] * 4, aspect))
        labels += shown
    patches.append(soften(patches[0][:2]))
    labels += shown[:2]
    return np.concatenate(patches), labels


def _corner_negatives(image, cards: list[np.ndarray], unseen: list[Box], params: ReaderParams,
                      aspect: float) -> np.ndarray:
    """Index patches of the photo's corners that are not corners of a labelled card. Corners in
    the box of a labelled card whose outline was not found may be its index: they are left out."""
    points = np.concatenate([q for q in cards])
    width = float(np.median([np.linalg.norm(q[1] - q[0]) for q in cards]))
    others = [c for c in find_corners(image, params.detect)
              if np.min(np.linalg.norm(points - np.array(c.point), axis=1)) > 0.25 * width
              and not any(b.contains(*c.point) for b in unseen)]
    if not others:
        return np.zeros((0, *index_patches(image, [], [], aspect).shape[1:]), np.uint8)
    return index_patches(image, others, [width] * len(others), aspect)


def labelled_photos(folder: str | Path, names: Sequence[str] | None = None):
    """(image, boxes) of each photo listed in ``folder/labels.csv`` (or of ``names``), read one at a
    time; boxes may be empty (NaN): one card per photo."""
    folder = Path(folder)
    labels = read_labels(folder, need_boxes=False)
    for name in names if names is not None else labels:
        yield load_image(folder, name, labels[name]), labels[name]


def _outline_for(box: Box, quads: list[np.ndarray], shape, alone: bool = False) -> np.ndarray | None:
    """The candidate outline of a labelled card: centre inside the box and the best overlap.
    The only box of a photo may be much larger than its card (a photo of one card labelled
    with the whole image as its box): then the best overlap need not be a close one."""
    if np.isnan(box.xmin):
        if quads:
            return max(quads, key=_area)
        h, w = shape[:2]
        return portrait(np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]]))
    best, best_iou = None, 0.0 if alone else 0.5
    bq = np.float32([[box.xmin, box.ymin], [box.xmax, box.ymin], [box.xmax, box.ymax], [box.xmin, box.ymax]])
    for q in quads:
        c = q.mean(axis=0)
        if not box.contains(float(c[0]), float(c[1])):
            continue
        lo, hi = q.min(axis=0), q.max(axis=0)
        iou = _iou(np.float32([[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]]]), bq)
        if iou > best_iou:
            best, best_iou = q, iou
    return best


def _why_missed(box: Box, quads: list[np.ndarray]) -> str:
    if not quads:
        return "no card found in the photo"
    if not any(box.contains(*map(float, q.mean(axis=0))) for q in quads):
        return "no card found in its box"
    return "the cards found in its box do not fill it (is the box drawn round one card?)"


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    inter = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))[0]
    union = _area(a) + _area(b) - inter
    return inter / union if union > 0 else 0.0
