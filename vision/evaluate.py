"""Accuracy and speed of a reader on a folder of labelled photographs.

The folder holds images and ``labels.csv`` (``filename,xmin,ymin,xmax,ymax,label``, one row per
object). A labelled object is *detected* when a detection's centre lies inside its box (each
detection matches at most one object, nearest box centre first); it is *correct* when that
detection's label equals the object's label.
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
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        missing = {"filename", "xmin", "ymin", "xmax", "ymax", "label"} - set(reader.fieldnames or ())
        if missing:
            raise DatasetError(f"{path}: missing columns {', '.join(sorted(missing))}")
        for line, row in enumerate(reader, start=2):
            try:
                coords = [float(row[k]) if row[k] not in ("", None) else float("nan")
                          for k in ("xmin", "ymin", "xmax", "ymax")]
            except ValueError:
                raise DatasetError(f"{path}:{line}: box coordinates must be numbers") from None
            if need_boxes and any(np.isnan(coords)):
                raise DatasetError(f"{path}:{line}: empty box coordinates")
            labels.setdefault(row["filename"], []).append(Box(*coords, label=row["label"].strip()))
    return labels


def load_image(folder: Path, name: str) -> np.ndarray:
    image = cv2.imread(str(folder / name), cv2.IMREAD_COLOR)
    if image is None:
        raise DatasetError(f"{folder / name}: cannot read image")
    return image


def match(found: Sequence[Found], boxes: Sequence[Box]) -> tuple[list[tuple[Box, Found]], int]:
    """One-to-one pairs (box, detection) and the number of unmatched detections."""
    candidates = []
    for bi, box in enumerate(boxes):
        cx, cy = box.centre()
        for fi, f in enumerate(found):
            if box.contains(f.x, f.y):
                candidates.append(((f.x - cx) ** 2 + (f.y - cy) ** 2, bi, fi))
    used_boxes: set[int] = set()
    used_found: set[int] = set()
    pairs = []
    for _, bi, fi in sorted(candidates):
        if bi not in used_boxes and fi not in used_found:
            used_boxes.add(bi)
            used_found.add(fi)
            pairs.append((boxes[bi], found[fi]))
    return pairs, len(found) - len(used_found)


def evaluate(
    folder: str | Path,
    read: Callable[[np.ndarray], Iterable[Found]],
    images: Sequence[str] | None = None,
) -> dict:
    """Run ``read`` on every labelled image (or the named subset) and count the results."""
    folder = Path(folder)
    labels = read_labels(folder)
    names = list(images) if images is not None else list(labels)
    counts = _Counts()
    for name in names:
        image = load_image(folder, name)
        start = time.perf_counter()
        found = list(read(image))
        counts.times.append((time.perf_counter() - start) * 1000)
        pairs, extra = match(found, labels[name])
        counts.add(labels[name], pairs, extra)
    return counts.report(len(names))


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
