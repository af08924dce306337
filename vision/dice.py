"""Find every six-sided die in a frame and read its top face and body colour.

Three kinds of small networks (ONNX, run by ``cv2.dnn``; trained by ``vision/training/train_dice.py``):

1. the *detector* looks at the frame reduced to ``detector_width`` px (more for frames wider
   than 640 px) and at half that width (where large dice come out whole) and proposes top-face
   centres with a rough die size (and looks again at a larger width when the dice come out small);
2. the *checker*, a tiny patch network, looks at each proposal at full resolution, says whether
   it is a die and corrects its centre and size;
3. the *face network*, a larger patch network run only on the dice the checker kept, gives a
   probability for each pip face and corrects the centre once more. A second face network,
   trained apart, judges every die the first two networks are not both sure of; a face read
   with doubt is read again in other views of its patch, also by a third, the *re-reading*
   network, which learnt most from the faces the first reads poorly.

All patch networks give the same outputs (die logit, six face logits, centre shift, size
ratio; ``vision.dice_patches``). The detector and the checker take their images folded into
2x2 blocks (``folded_blob``), which OpenCV runs faster.

Pip face probabilities are calibrated last by a temperature (``face_temperature``, fitted by
``vision/training/fit_temperature.py``): the face networks, trained with label smoothing and
averaged over views, are less sure than they are right.

The die's angle comes from the patch's edges, its colour from the median of its top face matched
against a palette. Dice with printed faces (the Excape 1-7 and X) are read against faces enrolled
from the user's own dice (``vision.dice_faces``) instead of the pip probabilities. With the empty
table learnt for a fixed camera (``vision.dice_background``), no die is reported where the frame
still shows it as it was: the mat's printed markers and lettering.
"""
from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Callable, Mapping, Sequence

import cv2
import numpy as np

from engine.table import Die
from vision.arrays import sigmoid, softmax
from vision.dice_background import TableBackground
from vision.dice_colours import Palette, body_colour
from vision.dice_faces import EnrolledFaces, face_square, face_squares
from vision.dice_patches import (DETECTOR_MULTIPLE, DETECTOR_STRIDE, FACE_OUTPUTS, PATCH_CONTEXT, PATCH_SIDE, PIP_FACES,
                                 blob, detector_input, folded_blob, patch, pyramid)

DETECTOR_MODEL = "dice_detector.onnx"
CHECKER_MODEL = "dice_checker.onnx"
FACE_MODEL = "dice_faces.onnx"
SECOND_FACE_MODEL = "dice_faces_second.onnx"
REREAD_FACE_MODEL = "dice_faces_reread.onnx"
FACE_MODES = ("game", "pips", "enrolled")  # vision.dice.faces
# a die's least and most side (px) at each of an (n, 2) array of a frame's points (see DiceReader.read)
Sides = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]


class DiceReaderError(ValueError):
    """The dice reader cannot be built: a model or enrolled-faces file is missing or unusable."""


@dataclass(frozen=True)
class DieReading:
    """One die as seen: where its top face is, how sure the reader is, and what it shows.

    ``box`` is an OpenCV rotated rectangle ``((x, y), (w, h), angle_degrees)`` around the top face;
    ``faces`` maps every face the reader knows to a probability (they sum to 1).
    """

    x: float
    y: float
    box: tuple[tuple[float, float], tuple[float, float], float]
    faces: Mapping[str, float]
    confidence: float
    colour: str

    @property
    def face(self) -> str:
        return max(self.faces, key=self.faces.__getitem__)

    def die(self) -> Die:
        return Die(self.face, self.colour)

    def corners(self) -> np.ndarray:
        return cv2.boxPoints(self.box)


def moved(reading: DieReading, dx: float, dy: float) -> DieReading:
    """``reading`` (of a part of a frame) placed (dx, dy) px further in the whole frame."""
    (bx, by), size, angle = reading.box
    return replace(reading, x=reading.x + dx, y=reading.y + dy, box=((bx + dx, by + dy), size, angle))


class DiceReader:
    """Reads dice from BGR frames. Build it once (loads the networks) and call ``read`` per frame."""

    def __init__(
        self,
        detector: cv2.dnn.Net,
        checker: cv2.dnn.Net,
        face_network: cv2.dnn.Net,
        palette: Palette,
        detector_width: int = 448,
        proposal_threshold: float = 0.1,
        min_confidence: float = 0.65,
        max_dice: int = 40,
        face_views: int = 1,
        enrolled: EnrolledFaces | None = None,
        second_faces: cv2.dnn.Net | None = None,
        reread_faces: cv2.dnn.Net | None = None,
        background: TableBackground | None = None,
        face_temperature: float = 1.0,
    ):
        if face_views not in range(1, 9):
            raise DiceReaderError(f"face_views must be 1 to 8, not {face_views}")
        if not face_temperature > 0:
            raise DiceReaderError(f"face_temperature must be above 0, not {face_temperature}")
        self.detector = detector
        self.checker = checker
        self.face_network = face_network
        self.palette = palette
        self.detector_width = detector_width
        self.proposal_threshold = proposal_threshold
        self.min_confidence = min_confidence
        self.max_dice = max_dice
        self.face_views = face_views
        self.enrolled = enrolled
        self.second_faces = second_faces
        self.reread_faces = reread_faces
        self.background = background
        self.face_temperature = face_temperature

    @classmethod
    def from_settings(cls, section: Mapping, state_dir: str | Path = "", empty_table: bool = True,
                      printed: bool = False) -> "DiceReader":
        """Build from the ``[vision.dice]`` settings, for dice with ``printed`` faces or pips (what
        faces = "game" follows); enrolled faces are read from ``state_dir``, and so is the empty
        table learnt for this camera, if any and ``empty_table`` (photos from elsewhere are read
        without it)."""
        background = None
        if empty_table and state_dir and section["background_file"] \
                and (Path(state_dir) / section["background_file"]).is_file():
            background = TableBackground.load(Path(state_dir) / section["background_file"])
        if section["faces"] not in FACE_MODES:
            raise DiceReaderError(f"vision.dice.faces must be one of {', '.join(FACE_MODES)}, not {section['faces']!r}")
        enrolled = None
        if section["faces"] == "enrolled" or (section["faces"] == "game" and printed):
            enrolled = EnrolledFaces.load(Path(state_dir) / section["faces_file"])
        return cls(
            detector=load_folded_network(section["detector_model"] or DETECTOR_MODEL, *_DETECTOR_PROBE),
            checker=load_folded_network(section["checker_model"] or CHECKER_MODEL, *_CHECKER_PROBE),
            face_network=load_network(section["face_model"] or FACE_MODEL, CLASSIC_ENGINE),
            second_faces=load_network(section["second_face_model"] or SECOND_FACE_MODEL, CLASSIC_ENGINE),
            reread_faces=load_network(section["reread_face_model"] or REREAD_FACE_MODEL, CLASSIC_ENGINE),
            palette=Palette.parse(section["palette"]),
            detector_width=section["detector_width"],
            proposal_threshold=section["proposal_threshold"],
            min_confidence=section["min_confidence"],
            max_dice=section["max_dice"],
            face_views=section["face_views"],
            enrolled=enrolled,
            background=background,
            face_temperature=section["face_temperature"],
        )

    def read(self, frame: np.ndarray, area: tuple[slice, slice] | None = None,
             sides: Sides | None = None) -> list[DieReading]:
        """Every die in a BGR frame (or in its ``area`` only, placed in the whole frame), most
        confident first (none where the frame shows the empty table as learnt, see
        ``vision.dice_background``). ``sides``, when known (the dice lie on a mat): the least and
        most side (px) a die has at each of an (n, 2) array of points of the frame; nothing else is
        taken for a die, and a larger "die" (two touching dice, a mat zone's outline around dice)
        hides none of the dice in it."""
        if sides is not None and area is not None:
            offset = np.array([area[1].start or 0, area[0].start or 0], np.float64)
            sides = functools.partial(_shifted, sides, offset)
        found = self._read(frame if area is None else frame[area], sides)
        readings = [self._calibrated(reading) for reading, _ in found]
        if area is not None:
            readings = [moved(reading, area[1].start or 0, area[0].start or 0) for reading in readings]
        return readings if self.background is None else self.background.keep(frame, readings)

    def _calibrated(self, reading: DieReading) -> DieReading:
        """The reading with its pip face probabilities tempered by ``face_temperature`` (applied
        last: the reader's own thresholds on them were set untempered). Enrolled faces are not."""
        if self.enrolled is not None or self.face_temperature == 1:
            return reading
        faces = temper(np.array([reading.faces[f] for f in PIP_FACES]), self.face_temperature)
        return replace(reading, faces=dict(zip(PIP_FACES, faces.round(4).tolist())))

    def enrol_faces(self, photos: Mapping[str, Sequence[np.ndarray]]) -> EnrolledFaces:
        """Learn printed faces from photos by face; every die in a photo must show that face.

        Raises ValueError naming the face whose photo shows no die.
        """
        samples: dict[str, list[np.ndarray]] = {}
        for face, frames in photos.items():
            for number, frame in enumerate(frames, start=1):
                found = self._read(frame)
                if not found:
                    raise ValueError(f"face {face}: no die found in photo {number}")
                samples.setdefault(face, []).extend(face_square(square, r.box[2]) for r, square in found)
        return EnrolledFaces.from_samples(samples)

    def learn_palette(self, photos: Mapping[str, Sequence[np.ndarray]]) -> list[str]:
        """Palette entries ("name #rrggbb") from photos by colour name; every die in a photo has it.

        Raises ValueError naming the colour whose photos show no die.
        """
        entries = []
        for name, frames in photos.items():
            colours = [body_colour(square) for frame in frames for _, square in self._read(frame)]
            if not colours:
                raise ValueError(f"colour {name}: no die found in its photos")
            b, g, r = np.median(colours, axis=0).astype(int).tolist()
            entries.append(f"{name} #{r:02x}{g:02x}{b:02x}")
        return entries

    def read_whole(self, image: np.ndarray) -> DieReading:
        """The one die filling ``image`` (a photo cropped around a single die), without the finder.

        How much of the crop the die fills is not known: a tight box may hold only its top face,
        or only its pips (a one's box, its pip alone), and a loose one the die and its shadow; the
        checker alone may place the die on a pip. So for pip dice the reading of the die as the
        checker placed it counts as much as the readings at several sizes of the crop
        (``_faces_at_sizes``)."""
        _check_frame(image)
        h, w = image.shape[:2]
        side = 0.8 * min(w, h)
        levels = pyramid(image, side * 1.5)
        checked, _, _ = self._look(levels, np.array([[(w - 1) / 2, (h - 1) / 2, side]]))
        checked, confidence, ones = self._look(levels, checked)
        placed = self._read_faces(levels, checked, confidence, ones, 0.0)[0][0]
        if self.enrolled is not None:
            return placed
        faces = (self._faces_at_sizes(image) + np.array([placed.faces[f] for f in PIP_FACES])) / 2
        return self._calibrated(replace(placed, faces=dict(zip(PIP_FACES, faces.round(4).tolist()))))

    def _faces_at_sizes(self, image: np.ndarray) -> np.ndarray:
        """Pip face probabilities of the die in the middle of a crop, read by all three face
        networks as _WHOLE_SIZES of the crop's side, each size weighted by how surely they see a die."""
        h, w = image.shape[:2]
        sizes = np.array([[(w - 1) / 2, (h - 1) / 2, k * min(w, h)] for k in _WHOLE_SIZES])
        levels = pyramid(image, float(sizes[:, 2].max()) * 1.5)
        patches = [patch(levels, *p) for p in sizes]
        networks = (self.face_network, self.second_faces, self.reread_faces)
        outs = [run_network(network, patches) for network in networks if network is not None]
        die = np.prod([sigmoid(out[:, 0]) for out in outs], axis=0) ** (1 / len(outs))
        faces = (np.mean([softmax(out[:, 1:7]) for out in outs], axis=0) * die[:, None]).sum(axis=0)
        return faces / faces.sum()

    def _read(self, frame: np.ndarray, sides: Sides | None = None) -> list[tuple[DieReading, np.ndarray]]:
        """Readings with the final patch each was read from (of a side within ``sides``, see ``read``)."""
        _check_frame(frame)
        width = self.first_width(frame)
        near = self.propose(frame, width)
        first = at_both_sizes(near)
        # A die large at the first width (a camera near the table) may be proposed there by its
        # pips alone, a one by its pip. At half that width the detector proposes the whole die,
        # or a few of its pips: its proposals at places the first look missed are also checked
        # at twice their size.
        farther = self.propose(frame, _detector_width(width * _FARTHER))
        proposals = np.vstack([first, farther, _unlike(farther, near) * (1, 1, _GROWN)])
        if not len(proposals):
            return []
        levels = pyramid(frame, float(proposals[:, 2].max()) * 1.5)
        checked, confidence, _ = self._look(levels, proposals)
        closer = self._closer_look(frame, width, checked[:len(first)], confidence[:len(first)])
        if len(closer):
            more, more_confidence, _ = self._look(levels, closer)
            checked, confidence = np.vstack([checked, more]), np.concatenate([confidence, more_confidence])
        # A second look, from where the first moved each hopeful patch, settles its centre and
        # size (a patch checked at twice a proposal's size may need the whole range of one move).
        hopeful = confidence >= _HOPEFUL
        if sides is not None:
            hopeful &= _of_a_die_s_size(checked, sides)
        if not hopeful.any():
            return []
        checked, confidence, ones = self._look(levels, checked[hopeful])
        found = self._read_faces(levels, checked, confidence, ones, self.min_confidence)
        if sides is None or not found:
            return found
        sized = _of_a_die_s_size(np.array([[r.x, r.y, r.box[1][0]] for r, _ in found]), sides)
        return [f for f, keep in zip(found, sized) if keep]

    def first_width(self, frame: np.ndarray) -> int:
        """The width the detector first sees ``frame`` at: ``detector_width`` for a frame up to
        _REFERENCE_WIDTH px wide, as the dice photos it was tuned on; proportionally more for a
        wider frame, up to _MOST_SCALED times (a kiosk camera's 1280x720 frame of a whole mat
        shows dice a fortieth of its width, which at 448 px would be under the 15 px the detector
        needs)."""
        scale = min(_MOST_SCALED, max(1.0, frame.shape[1] / _REFERENCE_WIDTH))
        return _detector_width(self.detector_width * scale)

    def _closer_look(self, frame: np.ndarray, width: int, checked: np.ndarray, confidence: np.ndarray) -> np.ndarray:
        """More proposals to check, from the detector at a larger width, when the dice the checker
        is sure of at its first look came out small at its first ``width`` (their median side under
        _SMALL_DIE px; as first checked, some still at twice their size): there the detector tells
        touching dice apart less well. At the larger width they would be _CLEAR_DIE px; it is at
        most the frame's own width, or _MOST_ENLARGED times it when the dice are small in the frame
        too (a camera far from the table). None when they are large enough. They are not also
        checked at twice their size (``at_both_sizes``): around dice this small, such a patch
        holds touching neighbours rather than a die whose pip was proposed."""
        sure = checked[confidence >= _SURE, 2]
        side = float(np.median(sure)) if len(sure) else math.inf  # in frame px
        seen = side * width / frame.shape[1]
        if seen < _SMALL_DIE:
            most = frame.shape[1] * (_MOST_ENLARGED if side < _SMALL_DIE else 1)
            larger = min(most, _detector_width(width * _CLEAR_DIE / seen))
            if larger > width:
                return self.propose(frame, larger)
        return np.empty((0, 3))

    def _look(self, levels: list[np.ndarray], proposals: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The checker's view of (x, y, side) proposals: each moved as it answers, the
        probability that it is a die, and whether it looks like a one."""
        out = run_network(self.checker, [patch(levels, *p) for p in proposals], folded_blob)
        return _moved(proposals, out), sigmoid(out[:, 0]), out[:, 1:7].argmax(axis=1) == PIP_FACES.index("1")

    def _read_faces(self, levels, proposals: np.ndarray, confidence: np.ndarray, ones: np.ndarray, minimum: float):
        """Keep the confident distinct dice among checked proposals (``ones``: those the
        checker sees as a one), and read their faces."""
        # for pip dice the face networks' opinions count too (the confidence reported is the
        # geometric mean of the networks' probabilities), so the checker alone only drops what no
        # face reading could lift
        confidence = np.where(_two_as_one(proposals, confidence, ones), 0.0, confidence)
        judged: dict[int, tuple[np.ndarray, float, np.ndarray]] = {}  # proposal: (moved, confidence, faces)
        # The checker may be surest of a patch that holds two touching dice (or a die and its
        # neighbour's half) and that the face networks then reject: the proposals it kept out are
        # looked at again, as if it had never been proposed.
        accepted: set[int] = set()
        for round_ in range(_REJECTED_ROUNDS):
            standing = confidence.copy()
            standing[[i for i in judged if i not in accepted]] = 0.0  # the rejected
            keep = _suppress(proposals, standing, minimum ** 2, nested=True)[: self.max_dice]
            new = [i for i in keep if i not in judged]
            if not new:
                break
            judged.update(zip(new, zip(*self._judge(levels, proposals[new], confidence[new], minimum))))
            least = minimum if round_ == 0 else max(minimum, _READMITTED)
            accepted.update(i for i in new if judged[i][1] >= least)
            if accepted.issuperset(new):
                break
        kept = sorted(accepted)
        moved = np.array([judged[i][0] for i in kept]).reshape(-1, 3)
        scores = np.array([judged[i][1] for i in kept])
        found = []
        for k in _suppress(moved, scores, minimum):  # answers the last move brought together
            proposal, score, probabilities = moved[k], scores[k], judged[kept[k]][2]
            if self.enrolled is not None:
                proposal = self._printed_size(levels, proposal)
            square = patch(levels, *proposal)
            if self.enrolled is None and probabilities.argmax() == PIP_FACES.index("1"):
                proposal, square = _on_the_pip(levels, proposal, square)
            found.append((self._reading(proposal, score, probabilities, square), square))
        if self.enrolled is not None:
            return self._symbols_grown(levels, found)
        flatness = functools.cache(lambda k: _pip_flatness(found[k][1]))  # measured where it matters
        readings = [reading for reading, _ in found]
        dropped = _side_faces(readings, flatness) | _specks(readings)
        return [f for k, f in enumerate(found) if k not in dropped]

    def _symbols_grown(self, levels, found: list[tuple[DieReading, np.ndarray]]) -> list[tuple[DieReading, np.ndarray]]:
        """``found`` with each printed die read at under _SYMBOL of the median side of the dice the
        networks are sure of read again at that side, centred where it was: what the networks
        found is a die's symbol alone, on a die whose body the table hides (a green die on green
        felt), and read at the symbol's size its colour is the symbol's ink. One that would then
        overlap another die is a part of that die, and goes."""
        readings = [reading for reading, _ in found]
        grown = list(found)
        for k, reading in enumerate(readings):
            others = [readings[i] for i in _sure_others(readings, k)]
            side = float(np.median([other.box[1][0] for other in others])) if others else 0.0
            if reading.box[1][0] >= _SYMBOL * side:
                continue
            if any(math.hypot(reading.x - other.x, reading.y - other.y) < _APART * side
                   for i, other in enumerate(readings) if i != k):
                grown[k] = None
                continue
            proposal = self._printed_size(levels, np.array([reading.x, reading.y, side]))
            square = patch(levels, *proposal)
            grown[k] = (self._reading(proposal, reading.confidence, None, square), square)
        return [f for f in grown if f is not None]

    def _judge(self, levels, proposals: np.ndarray, confidence: np.ndarray, minimum: float):
        """The face networks' view of checked proposals: each moved as they answer, its
        confidence (with the checker's) and its face probabilities."""
        patches = [patch(levels, *p) for p in proposals]
        out = run_network(self.face_network, patches)
        faces = softmax(out[:, 1:7])
        unsure = np.zeros(len(patches), bool)
        if self.enrolled is None:  # both networks must agree it is a die; the face network knows only pips
            confidence = np.sqrt(confidence * sigmoid(out[:, 0]))
            unsure = confidence < _SURE_DIE
        # The second face network judges the dice the first two networks are not both sure of
        # (most side faces that an oblique camera sees are, and it rejects them apart).
        if self.second_faces is not None and unsure.any():
            second = run_network(self.second_faces, [p for p, u in zip(patches, unsure) if u])
            confidence[unsure] = np.cbrt(confidence[unsure] ** 2 * sigmoid(second[:, 0]))
        # the faces of dice about to be dropped need no second reading
        doubtful = (faces.max(axis=1) < _DOUBT) & (confidence >= minimum)
        if doubtful.any():
            faces[doubtful] = self._read_again([p for p, d in zip(patches, doubtful) if d], faces[doubtful])
        return _moved(proposals, out), confidence, faces

    def _read_again(self, patches: list[np.ndarray], first: np.ndarray) -> np.ndarray:
        """Face probabilities of patches read with doubt: the face network's reading of each
        patch (``first``) averaged with its readings of the patch's other views, and with the
        re-reading network's of all of them (face_views views in all). A network trained apart
        errs apart, and this one learnt most from the faces the first reads poorly."""
        count = self.face_views
        views = [view for square in patches for view in _views(square)[:count]]
        readings = [first]
        if count > 1:
            others = [view for k, view in enumerate(views) if k % count]
            out = softmax(run_network(self.face_network, others)[:, 1:7]).reshape(len(patches), count - 1, -1)
            readings.extend(out.transpose(1, 0, 2))
        if self.reread_faces is not None:
            out = softmax(run_network(self.reread_faces, views)[:, 1:7]).reshape(len(patches), count, -1)
            readings.extend(out.transpose(1, 0, 2))
        return np.mean(readings, axis=0)

    def _printed_size(self, levels, proposal: np.ndarray) -> np.ndarray:
        """The proposal at the size at which its face best matches an enrolled face. The
        networks learnt mostly pips: they may size a printed die by its symbol alone, or too large."""
        x, y, side = proposal

        def match(k: float) -> float:
            square = patch(levels, x, y, side * k)
            return float(self.enrolled.scores(face_square(square, _edge_angle(square))).max())

        return np.array([x, y, side * max(_PRINTED_SIZES, key=match)])

    def propose(self, frame: np.ndarray, width: int | None = None) -> np.ndarray:
        """(x, y, side) rows in frame pixels: local maxima of the detector's centre map, the frame
        reduced to ``width`` px (by default ``first_width``)."""
        small, scale = detector_input(frame, width or self.first_width(frame))
        maps = detector_maps(self.detector, small)
        heat = sigmoid(maps[0])
        # maxima among the four nearest cells, not eight: where the marks of touching dice merge
        # into a ridge, one die's own maximum may have a higher diagonal neighbour on the ridge
        peaks = (heat >= self.proposal_threshold) & (heat >= cv2.dilate(heat, _CROSS))
        rows, cols = np.nonzero(peaks)
        order = np.argsort(-heat[rows, cols])[: self.max_dice * 2]
        rows, cols = rows[order], cols[order]
        x = (cols + 0.5 + maps[2, rows, cols]) * DETECTOR_STRIDE / scale
        y = (rows + 0.5 + maps[3, rows, cols]) * DETECTOR_STRIDE / scale
        side = np.exp(np.clip(maps[1, rows, cols], 1.0, 6.0)) / scale
        return np.stack([x, y, side], axis=1).astype(np.float64)

    def _reading(self, proposal, confidence: float, pips: np.ndarray, square: np.ndarray) -> DieReading:
        x, y, side = (float(v) for v in proposal)
        angle = _edge_angle(square)
        if self.enrolled is not None:
            faces = self.enrolled.probabilities(face_squares(square, angle))
        else:
            faces = dict(zip(PIP_FACES, pips.round(4).tolist()))
        return DieReading(
            x=round(x, 1), y=round(y, 1), box=((round(x, 1), round(y, 1)), (round(side, 1),) * 2, round(angle, 1)),
            faces=faces, confidence=round(float(confidence), 4), colour=self.palette.name(square))


# OpenCV 5 runs the face network's plain convolutions about a third faster on its classic engine
# than on its new one, and the two other networks a little slower (bench/dice.py). OpenCV 4 has
# only the classic engine and no choice.
CLASSIC_ENGINE = getattr(cv2.dnn, "ENGINE_CLASSIC", None)


def load_network(name_or_path: str, engine: int | None = None) -> cv2.dnn.Net:
    """An ONNX network from a path, or by file name from the packaged ``vision/models``, run by
    OpenCV's default engine or by ``engine``. The readers of a process share each network (the
    kiosk's pips and printed-dice readers: a second copy held ~44 MiB more of OpenCV's buffers),
    so they are run from one thread at a time; a file written anew is loaded anew."""
    path = Path(name_or_path)
    if not path.is_absolute() and not path.exists():
        path = Path(str(resources.files("vision").joinpath("models", name_or_path)))
    if not path.is_file():
        raise DiceReaderError(f"{path}: no such model file")
    stat = path.stat()
    return _loaded_network(str(path.resolve()), stat.st_mtime_ns, stat.st_size, engine)


@functools.lru_cache(maxsize=16)
def _loaded_network(path: str, modified_ns: int, size: int, engine: int | None) -> cv2.dnn.Net:
    try:
        return cv2.dnn.readNetFromONNX(path, *([] if engine is None else [engine]))
    except cv2.error as exc:
        raise DiceReaderError(f"{path}: not a readable ONNX model ({exc.msg.strip() or exc})") from None


# (side of a blank image, the shape of the answer to it) for load_folded_network: the detector
# answers four maps (centre, size, two offsets) on a grid of DETECTOR_STRIDE px, the checker a row
_DETECTOR_PROBE = (64, (1, 4, 64 // DETECTOR_STRIDE, 64 // DETECTOR_STRIDE))
_CHECKER_PROBE = (PATCH_SIDE, (1, FACE_OUTPUTS))


def load_folded_network(name_or_path: str, side: int, shape: tuple[int, ...]) -> cv2.dnn.Net:
    """``load_network`` for the detector or the checker, which take ``folded_blob`` input:
    raises DiceReaderError unless the network answers a blank image ``side`` px square, folded,
    with an output of ``shape``. (Given a network that takes its images unfolded, OpenCV may
    answer with nonsense rather than an error.)"""
    network = load_network(name_or_path)
    try:
        answer = run_network(network, [np.zeros((side, side, 3), np.uint8)], folded_blob).shape
    except cv2.error:
        answer = None
    if answer != shape:
        raise DiceReaderError(f"{name_or_path}: does not take images folded into 2x2 blocks; fold its first "
                              "convolution (fold_first_convolution in vision/training/train_dice.py)")
    return network


def run_network(network: cv2.dnn.Net, images: Sequence[np.ndarray],
                make_blob: Callable[[Sequence[np.ndarray]], np.ndarray] = blob) -> np.ndarray:
    """The network's output for same-sized BGR images, given as ``make_blob`` builds them
    (``vision.dice_patches``: the detector and the checker take ``folded_blob``), at most
    MOST_BATCH at a time: OpenCV keeps the memory of the largest batch it was given."""
    outputs = []
    for start in range(0, len(images), MOST_BATCH):
        network.setInput(make_blob(images[start:start + MOST_BATCH]))
        outputs.append(network.forward().astype(np.float64))
    return np.concatenate(outputs)


def detector_maps(network: cv2.dnn.Net, image: np.ndarray) -> np.ndarray:
    """The detector's maps of ``image`` (sides multiples of DETECTOR_MULTIPLE). An image of more
    than DETECTOR_MOST_PIXELS (the closer look enlarges the frame up to twice its width) is cut
    into as few tiles as keep each under it, each seeing DETECTOR_REACH px past its share inside
    the image: the maps are the same as in one pass (the detector's reach is shorter), and the
    memory OpenCV keeps for the network's largest input is bounded (reading 1280x720 frames of
    dice photos, RSS settled about 110 MiB lower)."""
    height, width = image.shape[:2]
    if height * width <= DETECTOR_MOST_PIXELS:
        return run_network(network, [image], folded_blob)[0]
    reach, unit, cells = DETECTOR_REACH, DETECTOR_MULTIPLE, DETECTOR_STRIDE
    across = down = 1
    while (width / across + 2 * reach) * (height / down + 2 * reach) > DETECTOR_MOST_PIXELS:
        if width / across >= height / down:
            across += 1
        else:
            down += 1
    share_w, share_h = -(-width // across // unit) * unit, -(-height // down // unit) * unit
    maps = np.empty((4, height // cells, width // cells))
    for top in range(0, height, share_h):
        for left in range(0, width, share_w):
            bottom, right = min(height, top + share_h), min(width, left + share_w)
            y0, x0 = max(0, top - reach), max(0, left - reach)
            tile = image[y0:min(height, bottom + reach), x0:min(width, right + reach)]
            out = run_network(network, [tile], folded_blob)[0]
            dy, dx = (top - y0) // cells, (left - x0) // cells
            maps[:, top // cells:bottom // cells, left // cells:right // cells] = \
                out[:, dy:dy + (bottom - top) // cells, dx:dx + (right - left) // cells]
    return maps


def temper(probabilities: np.ndarray, temperature: float) -> np.ndarray:
    """Probabilities (along the last axis) raised to 1 / ``temperature`` and renormalised: the
    softmax of their logits divided by it. Below 1 sharpens, above 1 flattens; the likeliest
    face stays the likeliest."""
    powered = probabilities ** (1 / temperature)
    return powered / powered.sum(axis=-1, keepdims=True)


def _moved(proposals: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Proposals with the centre shift and size ratio a patch network answered applied."""
    span = proposals[:, 2:3] * PATCH_CONTEXT
    return np.hstack([proposals[:, :2] + out[:, 7:9] * span,
                      proposals[:, 2:3] * np.exp(np.clip(out[:, 9:10], -0.7, 0.7))])


def at_both_sizes(proposals: np.ndarray) -> np.ndarray:
    """The (x, y, side) proposals the checker looks at: each as the finder gave it, and again at
    _GROWN times its size. The finder may mark one pip of a die as a die of its own (most often
    a die much larger than the others, as one near an oblique camera), and the checker may
    agree; the larger patch holds the whole die."""
    return np.vstack([proposals, proposals * (1, 1, _GROWN)])


def _detector_width(width: float) -> int:
    """The nearest width the detector takes (a multiple of DETECTOR_MULTIPLE, at least one)."""
    return max(DETECTOR_MULTIPLE, round(width / DETECTOR_MULTIPLE) * DETECTOR_MULTIPLE)


def _unlike(proposals: np.ndarray, others: np.ndarray) -> np.ndarray:
    """The proposals that are not one of ``others`` proposed again: about as large (within
    _ALIKE) and nearer than _APART sides."""
    if not len(proposals) or not len(others):
        return proposals
    distance = np.hypot(*(proposals[:, None, :2] - others[None, :, :2]).transpose(2, 0, 1))
    ratio = proposals[:, None, 2] / others[None, :, 2]
    same = (distance < _APART * np.maximum(proposals[:, None, 2], others[None, :, 2])) \
        & (ratio >= _ALIKE) & (ratio <= 1 / _ALIKE)
    return proposals[~same.any(axis=1)]


def _views(square: np.ndarray) -> list[np.ndarray]:
    """The patch in its four quarter turns, then mirrored in its four quarter turns: eight views
    of one face (a pip face looks the same in all)."""
    mirrored = square[:, ::-1]
    return [np.ascontiguousarray(np.rot90(s, k)) for s in (square, mirrored) for k in range(4)]


def _check_frame(frame) -> None:
    if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise ValueError("the dice reader needs an 8-bit BGR colour image")


_GROWN = 2.0    # size of the second patch checked at each proposal
_APART = 0.5    # least centre distance of two dice, in the larger one's sides
# Two touching dice taken for one (_two_as_one): least confidence of a sure proposal, least size
# of the one against the median sure proposal, sizes of the two against the one, least size of
# the smaller of the two against the larger, greatest distance of their middle from its centre.
_SURE, _LARGE, _HALF, _ALIKE, _CENTRED = 0.8, 1.4, (0.42, 0.7), 0.7, 0.25
_NEST_SURE, _NEST_RATIO = 0.97, 0.7  # see _suppress
_SIDE_NEAR, _SIDE_TURN, _SIDE_SURE = 0.7, 50, 0.98  # see _side_faces
_SLANT_NEAR, _SLANT = 1.0, 0.85  # see _side_faces
_SPECK, _SPECK_FACE = 0.55, 0.75  # see _specks
_SYMBOL = 0.4  # see _symbols_grown: a printed symbol is about a quarter of its die's side
# _read_faces: the most face readings of a frame's proposals (the first, then after rejections),
# and the least confidence of a die that a rejected patch had kept out (side faces seen by an
# oblique camera, kept out by their die's top face checked with them, are mostly less sure)
_REJECTED_ROUNDS, _READMITTED = 3, 0.98
_HOPEFUL = 0.05  # least checker confidence at the first look worth a second look
_CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
_SMALL_DIE, _CLEAR_DIE = 29, 40  # die sides in detector input px: see _closer_look
DETECTOR_MOST_PIXELS = 1024 * 576  # the largest input the detector sees in one pass (detector_maps)
MOST_BATCH = 64  # the most images a network is given at once (run_network)
DETECTOR_REACH = 48  # input px around a tile's share its maps depend on (at 48 they are the same as in one pass)
_MOST_ENLARGED = 2  # the closer look's largest width, in frame widths, for dice small in the frame
_FARTHER = 0.5   # the detector's second width, against its first (see _read)
_REFERENCE_WIDTH, _MOST_SCALED = 640, 2.0  # see first_width
_DOUBT = 0.95    # a face read less surely than this is read again in other views
_SURE_DIE = 0.99  # a die the checker and face network are less sure of is judged by the second too
# die sides, in crop sides, a crop is read at (read_whole); above 1 for a crop of the pips alone
_WHOLE_SIZES = (0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.5, 2.0)
# sizes, relative to the found one, a printed face is matched at: 9 % apart from 0.7 to 1.4, where the
# networks' side of a printed die errs (a face matches within a few per cent of its size, and at a
# wrong one a broad face, a 2, may match a 1 better than the 1 does: 40 % apart, a die sized a fifth
# short was read as a sure 2), and 2 (a die found by its symbol alone)
_PRINTED_SIZES = tuple(0.7 * 1.09 ** k for k in range(9)) + (2.0,)
_SIDE = PATCH_SIDE / PATCH_CONTEXT  # a die's side in its patch, px
_MIDDLE = (PATCH_SIDE - 1) / 2  # a patch's middle, px
_RADIUS = np.hypot(*np.mgrid[:PATCH_SIDE, :PATCH_SIDE] - _MIDDLE)  # from the patch's middle, px
_PIP_CONTRAST = 30  # least grey-level difference of a pip from its face
_ROUND_PIP, _ELLIPSE_FILL = 12, 0.1  # see _pip_flatness


def _of_a_die_s_size(proposals: np.ndarray, sides: Sides) -> np.ndarray:
    """Which (x, y, side) proposals have a side within ``sides`` where they lie."""
    low, high = sides(proposals[:, :2])
    return (proposals[:, 2] >= low) & (proposals[:, 2] <= high)


def _shifted(sides: Sides, offset: np.ndarray, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``sides`` for points of a frame's area whose corner is at ``offset``."""
    return sides(points + offset)


def _suppress(proposals: np.ndarray, confidence: np.ndarray, minimum: float, nested: bool = False) -> list[int]:
    """Indices of confident proposals, most confident first, dropping any whose centre is too
    near a surer one's; with ``nested``, a sure one (_NEST_SURE) is kept beside a surer one
    less than _NEST_RATIO or more than 1 / _NEST_RATIO its size (a pip and its die, a top face and
    the whole die an oblique camera sees, two touching dice and one of them).

    Two dice lying flat are at least a side apart; nearer answers are one die seen twice (or
    checked at two sizes), or a part of a die taken for a small die of its own, which the
    networks learnt to be less sure of than the whole die. The checker is not always: a die's
    pip and the whole die can both look sure to it, the pip a little surer, and only the face
    network, which reads both, tells them apart.
    """
    kept: list[int] = []
    for i in np.argsort(-confidence):
        if confidence[i] < minimum:
            break
        x, y, side = proposals[i]
        keep_nested = nested and confidence[i] >= _NEST_SURE
        if all(math.hypot(x - proposals[k, 0], y - proposals[k, 1]) >= _APART * max(side, proposals[k, 2])
               or (keep_nested and not _NEST_RATIO <= side / proposals[k, 2] <= 1 / _NEST_RATIO) for k in kept):
            kept.append(int(i))
    return kept


def _side_faces(readings: Sequence[DieReading], flatness: Callable[[int], list[float]] = lambda k: []) -> set[int]:
    """Indices of pip dice that are another die's side face. A camera looking down at a slant,
    its image upright, sees the side of a die that faces it just below the die's top face
    (less than _SIDE_NEAR sides from its centre, within _SIDE_TURN degrees of straight down),
    where two dice lying flat would not both fit: they are a side apart, and the reader sizes a
    die at most about a quarter too large. A side face shows neither its top face's value nor
    the opposite one (they add up to 7), so a reading there that does is another die; and a very
    sure one (_SIDE_SURE) is kept, as the networks are sure of few side faces.

    ``flatness(k)`` gives reading k's pips' height over width (``_pip_flatness``). Where the
    pips of the other dice the networks are sure of come out flattened (median under _SLANT;
    round from straight above), the camera leans far over: it sees more of each side face, the
    reader sizes a die by its foreshortened top face, and side faces lie up to _SLANT_NEAR of
    those sides below it. There side faces are many and some look very sure, so any reading
    there that could be one is taken for one. (In the tray photos, taken from straight above,
    the median is 0.95 or more in 19 photos of 20; in the webcam photos with side faces, 0.59 to
    0.82.)"""
    sides = set()
    for (_, top), (k, low) in itertools.permutations(enumerate(readings), 2):
        dx, dy = low.x - top.x, low.y - top.y
        distance = math.hypot(dx, dy) / max(top.box[1][0], low.box[1][0])  # in sides
        below = dy > 0 and abs(math.degrees(math.atan2(dx, dy))) <= _SIDE_TURN
        a, b = int(top.face), int(low.face)
        if not (below and distance < _SLANT_NEAR and a != b and a + b != 7):  # the larger limit
            continue
        if (distance < _SIDE_NEAR and low.confidence < _SIDE_SURE) or _slanted(readings, flatness, k):
            sides.add(k)
    return sides


def _slanted(readings: Sequence[DieReading], flatness: Callable[[int], list[float]], k: int) -> bool:
    """Whether the pips of the dice other than reading k that the networks are sure of come out
    flattened (see _side_faces)."""
    others = [ratio for i in _sure_others(readings, k) for ratio in flatness(i)]
    return bool(others) and float(np.median(others)) < _SLANT


def _specks(readings: Sequence[DieReading]) -> set[int]:
    """Indices of pip dice far smaller than the others and read with doubt: under _SPECK of
    the median side of the other dice the networks are sure of (_SIDE_SURE), their likeliest
    face under _SPECK_FACE. The dice of one table look about the same size; a reading much
    smaller is a one sized by its pip, which the networks read surely, or a part of something
    else: a key of a laptop beside the table, a letter. (In the dice photos, the 4 readings this
    small that were no die, laptop keys, read their face at most 0.69 sure; the 5 dice this
    small, ones, at least 0.83.)"""
    specks = set()
    for k, reading in enumerate(readings):
        if max(reading.faces.values()) >= _SPECK_FACE:
            continue
        others = [readings[i].box[1][0] for i in _sure_others(readings, k)]
        if others and reading.box[1][0] < _SPECK * float(np.median(others)):
            specks.add(k)
    return specks


def _sure_others(readings: Sequence[DieReading], k: int) -> list[int]:
    """Indices of the readings other than k that the networks are sure of (_SIDE_SURE): the
    dice the others are measured against."""
    return [i for i, reading in enumerate(readings) if i != k and reading.confidence >= _SIDE_SURE]


def _two_as_one(proposals: np.ndarray, confidence: np.ndarray, ones: np.ndarray) -> np.ndarray:
    """Which proposals are two touching dice checked as one: much larger than most sure
    proposals, with two sure proposals of about half its size and alike in size, a die apart
    and not both ones, either side of its centre.

    The patch grown around a die to hold all of it may hold a neighbour too, and the checker
    can take the pair for one large die, surer than of either. Two pips of one large die, each
    checked as a one of its own, would look like such a pair."""
    x, y, side = proposals.T
    merged = np.zeros(len(proposals), bool)
    sure = confidence >= _SURE
    if not sure.any():
        return merged
    for i in np.flatnonzero(side >= _LARGE * np.median(side[sure])):
        ratio = side / side[i]
        halves = np.flatnonzero(sure & (ratio >= _HALF[0]) & (ratio <= _HALF[1]))
        a, b = (halves[k] for k in np.triu_indices(len(halves), 1))  # every pair of them
        larger = np.maximum(side[a], side[b])
        merged[i] = np.any(~(ones[a] & ones[b]) & (np.minimum(side[a], side[b]) >= _ALIKE * larger)
                           & (np.hypot(x[a] - x[b], y[a] - y[b]) >= _APART * larger)
                           & (np.hypot((x[a] + x[b]) / 2 - x[i], (y[a] + y[b]) / 2 - y[i]) <= _CENTRED * side[i]))
    return merged


def _on_the_pip(levels, proposal: np.ndarray, square: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A die showing 1 centred on its pip, which is its top face's centre (the networks place a
    centre to within about a fifth of the side, more than a pip's radius), and its patch there;
    unchanged when no pip-sized blob stands out near the middle of ``square``."""
    pips = [(math.hypot(*(centre - _MIDDLE)), centre) for _, centre, _ in _pips(square, 0.45)]
    nearest = min(pips, key=lambda pip: pip[0], default=None)
    if nearest is None or nearest[0] >= 0.3 * _SIDE:
        return proposal, square
    x, y, side = proposal
    shift = (nearest[1] - _MIDDLE) * side * PATCH_CONTEXT / PATCH_SIDE
    moved = np.array([x + shift[0], y + shift[1], side])
    return moved, patch(levels, *moved)


def _pip_flatness(square: np.ndarray) -> list[float]:
    """Height over width of each pip of the die in the middle of ``square`` that is large
    enough (_ROUND_PIP px) and filled like an ellipse (within _ELLIPSE_FILL) to have a shape."""
    ratios = []
    for area, _, (xx, yy, xy) in _pips(square, 0.5):
        fill = area / (4 * math.pi * math.sqrt(max(xx * yy - xy * xy, 1e-9)))  # 1 for a filled ellipse
        if area >= _ROUND_PIP and abs(fill - 1) <= _ELLIPSE_FILL:
            ratios.append(math.sqrt(yy / xx))
    return ratios


def _pips(square: np.ndarray, reach: float) -> list[tuple[float, np.ndarray, tuple[float, float, float]]]:
    """The pip-sized blobs of the die in the middle of ``square`` within ``reach`` sides of the
    middle, that stand out from its face by half the strongest contrast there (at least
    _PIP_CONTRAST): (area in px, centre, (xx, yy, xy) variances about the centre) each."""
    gray = cv2.cvtColor(square, cv2.COLOR_BGR2GRAY).astype(np.float32)
    contrast = np.abs(gray - np.median(gray[_RADIUS < 0.3 * _SIDE]))
    strongest = contrast[_RADIUS < (reach - 0.1) * _SIDE].max()
    if strongest < _PIP_CONTRAST:
        return []
    marked = ((contrast > strongest / 2) & (_RADIUS < reach * _SIDE)).astype(np.uint8)
    count, labels, stats, centres = cv2.connectedComponentsWithStats(marked)
    pips = []
    for k in range(1, count):
        x, y, w, h, area = stats[k]
        if 0.005 <= area / _SIDE ** 2 <= 0.08:
            m = cv2.moments((labels[y:y + h, x:x + w] == k).astype(np.uint8), binaryImage=True)
            pips.append((area, centres[k], (m["mu20"] / area, m["mu02"] / area, m["mu11"] / area)))
    return pips


def _edge_angle(square: np.ndarray) -> float:
    """The die's rotation in [0, 90) degrees: the dominant edge direction near the patch centre.

    Square outlines put their gradient energy at four directions 90 degrees apart, so summing
    the gradient's direction at four times its angle (the complex gradient to the fourth power,
    over its squared length) weighted by the squared length cancels round pips and keeps the
    outline.
    """
    grey = cv2.cvtColor(square, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    c2, s2 = gx * gx - gy * gy, 2 * gx * gy
    weight = _WINDOW / (gx * gx + gy * gy + 1e-3)  # leaves the squared magnitude as the weight
    c = float(((c2 * c2 - s2 * s2) * weight).sum())
    s = float((2 * c2 * s2 * weight).sum())
    return math.degrees(math.atan2(s, c) / 4) % 90


def _window() -> np.ndarray:
    """Weights over the patch: a ring over the die outline (0.5 to 0.7 sides from the centre),
    clear of the pips (within 0.48 sides)."""
    radius = _RADIUS / _SIDE
    return np.exp(-((radius - 0.6) ** 2) / (2 * 0.1 ** 2)).astype(np.float32)


_WINDOW = _window()
