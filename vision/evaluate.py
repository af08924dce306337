"""Accuracy and speed of a reader on a folder of labelled photographs.

The folder holds images and ``labels.csv`` (``filename,xmin,ymin,xmax,ymax,label``, one row per
object). A labelled object is *detected* when a detection's centre lies inside its box (each
detection matches at most one object; as many objects as can be are matched, nearest box centre
first); it is *correct* when that detection's label equals the object's label.
"""
from __future__ import annotations

import csv
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

import cv2
import numpy as np


class DatasetError(ValueError):
    """The labelled folder is missing, or labels.csv or an image cannot be read."""


@dataclass(frozen=True)
class Box:
    xmin: float
    ymin: float
    xmax: float
    ymax: float
    label: str

    def contains(self, x: float, y: float) -> bool:
        return self.xmin <= x <= self.xmax and self.ymin <= y <= self.ymax

    def centre(self) -> tuple[float, float]:
        return (self.xmin + self.xmax) / 2, (self.ymin + self.ymax) / 2


@dataclass(frozen=True)
class Found:
    """One detection as the evaluation sees it: a centre and a label."""

    x: float
    y: float
    label: str


def read_labels(folder: str | Path, need_boxes: bool = True) -> dict[str, list[Box]]:
    """Boxes by file name, in file order. With ``need_boxes=False`` box columns may be empty."""
    folder = Path(folder)
    path = folder / "labels.csv"
    if not path.is_file():
        raise DatasetError(f"{path}: no labels.csv in {folder}")
    labels: dict[str, list[Box]] = {}
    # utf-8-sig: spreadsheet programs start the file with a byte-order mark
    with open(path, newline="", encoding="utf-8-sig") as handle:
        try:
            reader = csv.DictReader(handle)
            reader.fieldnames = [name.strip() for name in reader.fieldnames or ()]
            missing = {"filename", "xmin", "ymin", "xmax", "ymax", "label"} - set(reader.fieldnames)
            if missing:
                raise DatasetError(f"{path}: missing columns {', '.join(sorted(missing))}")
            for line, row in enumerate(reader, start=2):
                labels.setdefault(_filename(row, path, line), []).append(_box(row, path, line, need_boxes))
        except UnicodeDecodeError as exc:
            raise DatasetError(f"{path}: not UTF-8 text (byte {exc.start})") from None
        except csv.Error as exc:
            raise DatasetError(f"{path}:{reader.line_num}: {exc}") from None
    return labels


def _filename(row: dict, path: Path, line: int) -> str:
    if None in row.values():  # csv fills the cells a short row lacks with None
        raise DatasetError(f"{path}:{line}: fewer cells than the header's columns")
    if not row["filename"].strip():
        raise DatasetError(f"{path}:{line}: no filename")
    return row["filename"]


def _box(row: dict, path: Path, line: int, need_boxes: bool) -> Box:
    try:
        coords = [float(row[k]) if row[k] != "" else float("nan") for k in ("xmin", "ymin", "xmax", "ymax")]
    except ValueError:
        raise DatasetError(f"{path}:{line}: box coordinates must be numbers") from None
    if need_boxes and any(np.isnan(coords)):
        raise DatasetError(f"{path}:{line}: empty box coordinates")
    return Box(*coords, label=_label(row["label"]))


def _label(text: str) -> str:
    """A label as the readers name it: a whole number written as a decimal ("3.0", as some
    tables save numbers) is that number ("3")."""
    text = text.strip()
    try:
        number = float(text)
    except ValueError:
        return text
    return str(int(number)) if number.is_integer() else text


def load_image(folder: Path, name: str, boxes: Sequence[Box] = ()) -> np.ndarray:
    """The image as a viewer shows it (turned as its EXIF orientation says), unless its labelled
    ``boxes`` fit only the image as stored: labelling tools differ in whether they turn it."""
    path = str(folder / name)
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None:
        raise DatasetError(f"{folder / name}: cannot read image")
    if not _fits(image, boxes):
        stored = cv2.imread(path, cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
        if stored is not None and _fits(stored, boxes):
            return stored
    return image


def _fits(image: np.ndarray, boxes: Sequence[Box]) -> bool:
    h, w = image.shape[:2]
    slack = 0.01 * max(h, w)  # labelling tools round, and some let a box run over the edge
    return all(not b.xmax > w + slack and not b.ymax > h + slack for b in boxes)  # NaN: no box


def match(found: Sequence[Found], boxes: Sequence[Box]) -> tuple[list[tuple[Box, Found]], int]:
    """One-to-one pairs (box, detection), as many as there can be, and the number of unmatched
    detections.

    Each box first takes the nearest free detection inside it (nearest box centre first); then
    a box left without one takes a detection from a box that can take another instead (a
    detection inside two overlapping boxes must not leave the second empty while a detection
    only it holds goes unmatched).
    """
    inside = [sorted((fi for fi, f in enumerate(found) if box.contains(f.x, f.y)),
                     key=lambda fi: _distance(found[fi], box)) for box in boxes]
    owner: dict[int, int] = {}  # detection -> box
    nearest = sorted((_distance(found[fi], boxes[bi]), bi, fi) for bi in range(len(boxes)) for fi in inside[bi])
    for _, bi, fi in nearest:
        if fi not in owner and bi not in owner.values():
            owner[fi] = bi

    def take(bi: int, tried: set[int]) -> bool:
        """Give box ``bi`` a detection, moving others' along an augmenting path if needed."""
        for fi in inside[bi]:
            if fi not in tried:
                tried.add(fi)
                if fi not in owner or take(owner[fi], tried):
                    owner[fi] = bi
                    return True
        return False

    for bi in sorted(set(range(len(boxes))) - set(owner.values())):
        take(bi, set())
    pairs = [(boxes[bi], found[fi]) for fi, bi in sorted(owner.items(), key=lambda item: item[1])]
    return pairs, len(found) - len(owner)


def _distance(f: Found, box: Box) -> float:
    cx, cy = box.centre()
    return (f.x - cx) ** 2 + (f.y - cy) ** 2


def evaluate(
    folder: str | Path,
    read: Callable[[np.ndarray], Iterable[Found]],
    images: Sequence[str] | None = None,
    view: Callable[[np.ndarray, list[Box]], tuple[np.ndarray, list[Box]] | None] | None = None,
) -> dict:
    """Run ``read`` on every labelled image (or the named subset) and count the results; with
    ``view``, on what it makes of each image and its boxes (images it gives None are left out)."""
    folder = Path(folder)
    labels = read_labels(folder)
    names = list(images) if images is not None else list(labels)
    counts = _Counts()
    for name in names:
        boxes = labels[name]
        image = load_image(folder, name, boxes)
        if view is not None:
            seen = view(image, boxes)
            if seen is None:
                continue
            image, boxes = seen
        start = time.perf_counter()
        found = list(read(image))
        counts.times.append((time.perf_counter() - start) * 1000)
        pairs, extra = match(found, boxes)
        counts.add(boxes, pairs, extra)
    return counts.report(len(counts.times))  # one time per image judged


def enlarged_middle(image: np.ndarray, boxes: Sequence[Box]) -> tuple[np.ndarray, list[Box]] | None:
    """The middle half of a labelled photo enlarged to the photo's size, as a camera twice as
    near would see it, and the boxes in it; None when the cut goes through a box."""
    h, w = image.shape[:2]
    x0, y0 = w // 4, h // 4
    moved = [Box((b.xmin - x0) * 2, (b.ymin - y0) * 2, (b.xmax - x0) * 2, (b.ymax - y0) * 2, b.label) for b in boxes]
    inside = [0 <= b.xmin and b.xmax < w and 0 <= b.ymin and b.ymax < h for b in moved]
    outside = [b.xmax < 0 or b.xmin >= w or b.ymax < 0 or b.ymin >= h for b in moved]
    if not all(i or o for i, o in zip(inside, outside)):
        return None
    middle = cv2.resize(image[y0:y0 + h // 2, x0:x0 + w // 2], (w, h), interpolation=cv2.INTER_CUBIC)
    return middle, [b for b, i in zip(moved, inside) if i]


def reduced_to_middle(image: np.ndarray, boxes: Sequence[Box]) -> tuple[np.ndarray, list[Box]]:
    """A labelled photo reduced to half its size in the middle of a frame of its size, filled with
    its median colour, as a camera twice as far would see it (with nothing else around), and
    the boxes in it."""
    h, w = image.shape[:2]
    x0, y0 = w // 4, h // 4
    frame = np.empty_like(image)
    frame[:] = np.median(image.reshape(-1, image.shape[2]), axis=0).astype(image.dtype)
    frame[y0:y0 + h // 2, x0:x0 + w // 2] = cv2.resize(image, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    sx, sy = (w // 2) / w, (h // 2) / h
    return frame, [Box(x0 + b.xmin * sx, y0 + b.ymin * sy, x0 + b.xmax * sx, y0 + b.ymax * sy, b.label) for b in boxes]


def quarter_turned(image: np.ndarray, boxes: Sequence[Box]) -> tuple[np.ndarray, list[Box]]:
    """A labelled photo turned a quarter clockwise, as a camera turned on its side would take it
    (a landscape photo becomes a portrait one), and the boxes in it."""
    h = image.shape[0]
    return (cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE),
            [Box(h - 1 - b.ymax, b.xmin, h - 1 - b.ymin, b.xmax, b.label) for b in boxes])


def cut_out(image: np.ndarray, box: Box, margin: float = 1.0) -> np.ndarray:
    """The square around a labelled box's centre, ``margin`` times the box's longer side (less
    where the image ends): one die filling the frame, as a folder judged with ``--crops`` holds."""
    h, w = image.shape[:2]
    x, y = box.centre()
    half = max(box.xmax - box.xmin, box.ymax - box.ymin) * margin / 2
    return image[max(0, round(y - half)):min(h, round(y + half)), max(0, round(x - half)):min(w, round(x + half))]


def evaluate_crops(folder: str | Path, classify: Callable[[np.ndarray], str]) -> dict:
    """Each image is one object filling the frame: only its label is judged."""
    folder = Path(folder)
    labels = read_labels(folder, need_boxes=False)
    counts = _Counts()
    for name, boxes in labels.items():
        image = load_image(folder, name)
        start = time.perf_counter()
        label = classify(image)
        counts.times.append((time.perf_counter() - start) * 1000)
        box = boxes[0]
        counts.add([box], [(box, Found(0, 0, label))], 0)
    return counts.report(len(labels))


class _Counts:
    def __init__(self) -> None:
        self.objects = self.detected = self.correct = self.false_positives = 0
        self.part_total = self.colour_ok = self.value_ok = 0
        self.times: list[float] = []

    def add(self, boxes: Sequence[Box], pairs: list[tuple[Box, Found]], extra: int) -> None:
        self.objects += len(boxes)
        self.detected += len(pairs)
        self.false_positives += extra
        for box, found in pairs:
            self.correct += box.label == found.label
            parts = box.label.split()
            if len(parts) == 2:  # "<colour> <value>": judge each half too
                got = found.label.split() + ["", ""]
                self.part_total += 1
                self.colour_ok += parts[0] == got[0]
                self.value_ok += parts[1] == got[1]

    def report(self, images: int) -> dict:
        detections = self.detected + self.false_positives
        report = {
            "images": images,
            "objects": self.objects,
            "detected": self.detected,
            "correct": self.correct,
            "false_positives": self.false_positives,
            "recall": _ratio(self.detected, self.objects),
            "precision": _ratio(self.detected, detections),
            "accuracy": _ratio(self.correct, self.objects),
            "ms_per_image_median": round(statistics.median(self.times), 3) if self.times else 0.0,
        }
        if self.part_total:
            report["colour_accuracy"] = _ratio(self.colour_ok, self.part_total)
            report["value_accuracy"] = _ratio(self.value_ok, self.part_total)
        return report


def _ratio(a: int, b: int) -> float:
    return round(a / b, 4) if b else 0.0
