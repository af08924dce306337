"""Train the sheet reader's digit model and write it to ``vision/models/digits.npz``.

Real digits: scikit-learn's ``load_digits`` (the UCI / NIST test set: 1,797 digits by 13 writers,
already in the reader's features, ``vision.sheet_digits``), its 1 to 6. It carries no writer ids,
but it is stored writer after writer (a digit's nearest neighbour of its class lies a median 85
digits away in file order, against ~600 by chance), so it is split in file order: the first 60 %
train, the next 10 % choose the model, the last 30 % (about four writers never seen) are only
measured. Synthetic digits: the cells of seeded synthetic sheet photos (``vision.synth.sheets``),
cut by the reader itself, written by training writers (seeds 0..) and, to choose the model, by
other writers (seeds 500000..); the bench's writers (seeds 2000000..) are never seen here.

Each candidate (kernel width x margin softness) is one Gaussian-kernel support vector machine per
digit, one against the others; the one with the best mean accuracy on the two choosing sets is
kept, as trained, and its softmax sharpness is fitted on them (least negative log-likelihood).
Deterministic: the same figures and weights on every run. Needs scikit-learn, which is NOT a
dependency of the application (the reader runs the model in numpy)::

    .venv/bin/pip install -e '.[train]'
    .venv/bin/python vision/training/train_digits.py          (from the repository root; ~3 min)
"""
from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
from sklearn.datasets import load_digits
from sklearn.svm import SVC

from assistant.splitter_sheets import splitter_sheet
from vision.sheet import SheetCutter, SheetNotFound, SheetUnreadable
from vision.sheet_digits import CLASSES, DigitModel, digit_features
from vision.synth.sheets import sheet_photo

MODELS = Path(__file__).resolve().parents[1] / "models"
TRAIN_WRITERS, CHOOSE_WRITERS = 0, 500_000
CHOOSE_PHOTOS = 100_000      # photo seeds of the choosing set
REAL_COPIES = 3              # the real digits weigh as much as this many synthetic ones
CANDIDATES = [(gamma, c) for gamma in (0.1, 0.2, 0.3) for c in (3.0, 10.0)]
SHARPNESS = np.geomspace(0.5, 50, 60)


def real_digits() -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """(features, labels 0..5) of the real 1..6's train, choose and held-out parts, in file order."""
    data = load_digits()
    a, b = int(0.6 * len(data.target)), int(0.7 * len(data.target))
    parts = []
    for part in (slice(0, a), slice(a, b), slice(b, None)):
        x, y = data.data[part] / 16, data.target[part]
        keep = (y >= 1) & (y <= 6)
        parts.append((x[keep].astype(np.float32), y[keep] - 1))
    return tuple(parts)


def synthetic_digits(photos: range, writer_base: int) -> tuple[np.ndarray, np.ndarray]:
    """The written cells of synthetic photos, pads A and B in turn, as (features, labels)."""
    cutters = [SheetCutter(splitter_sheet(pad)) for pad in ("A", "B")]
    features, labels, lost = [], [], 0
    for seed in photos:
        cutter = cutters[seed % 2]
        photo = sheet_photo(cutter.layout, seed, writer_base + seed)
        try:
            cut = cutter.cut(photo.image)
        except (SheetNotFound, SheetUnreadable):
            lost += 1
            continue
        for ((x, y), _), ink in zip(cutter.layout.cells, cut.cells):
            features.append(digit_features(ink))
            labels.append(photo.values[(x, y)] - 1)
    print(f"  {len(photos) - lost} of {len(photos)} photos read, {len(labels)} digits")
    return np.array(features), np.array(labels)


def accuracy(model: DigitModel, x: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean(model.scores(x).argmax(axis=1) == y))


def kernel_machines(x: np.ndarray, y: np.ndarray, gamma: float, c: float) -> DigitModel:
    """One support vector machine per digit against the others, sharing their support digits."""
    machines = [SVC(C=c, gamma=gamma).fit(x, (y == k).astype(int)) for k in range(len(CLASSES))]
    support = np.unique(np.concatenate([m.support_ for m in machines]))
    where = {index: row for row, index in enumerate(support)}
    coef = np.zeros((len(support), len(CLASSES)), np.float32)
    for k, m in enumerate(machines):
        coef[[where[i] for i in m.support_], k] = m.dual_coef_[0]
    return DigitModel(x[support], coef, np.array([m.intercept_[0] for m in machines], np.float32), gamma, 1.0)


def fitted_sharpness(model: DigitModel, x: np.ndarray, y: np.ndarray) -> float:
    scores = model.scores(x).astype(np.float64)
    def loss(k: float) -> float:
        z = k * scores
        z -= z.max(axis=1, keepdims=True)
        return float(np.mean(np.log(np.exp(z).sum(axis=1)) - z[np.arange(len(y)), y]))
    return float(min(SHARPNESS, key=loss))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--photos", type=int, default=300, help="synthetic training photos")
    parser.add_argument("--choose-photos", type=int, default=60, help="synthetic photos to choose the model on")
    parser.add_argument("--out", type=Path, default=MODELS / "digits.npz")
    args = parser.parse_args()
    start = time.perf_counter()
    (rx, ry), (cx, cy), (hx, hy) = real_digits()
    print("synthetic training photos")
    sx, sy = synthetic_digits(range(args.photos), TRAIN_WRITERS)
    print("synthetic choosing photos")
    vx, vy = synthetic_digits(range(CHOOSE_PHOTOS, CHOOSE_PHOTOS + args.choose_photos), CHOOSE_WRITERS)
    x = np.vstack([np.repeat(rx, REAL_COPIES, axis=0), sx])
    y = np.concatenate([np.repeat(ry, REAL_COPIES), sy])
    best = None
    for gamma, c in CANDIDATES:
        model = kernel_machines(x, y, gamma, c)
        real, synthetic = accuracy(model, cx, cy), accuracy(model, vx, vy)
        print(f"  gamma {gamma:g}, C {c:g}: {len(model.support)} support digits; choosing sets: "
              f"real {real:.4f}, synthetic {synthetic:.4f}")
        if best is None or (real + synthetic) / 2 > best[0]:
            best = ((real + synthetic) / 2, model)
    model = best[1]
    model = replace(model, sharpness=fitted_sharpness(model, np.vstack([cx, vx]), np.concatenate([cy, vy])))
    print(f"chosen: gamma {model.gamma:g}, softmax sharpness {model.sharpness:.2f}; real digits 1-6 of the "
          f"held-out writers: {accuracy(model, hx, hy):.4f} ({len(hy)} digits)")
    model.save(args.out)
    print(f"{args.out}: {args.out.stat().st_size} bytes, {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
