"""Fit the temperature of the dice reader's pip face probabilities (``vision.dice.face_temperature``).

The face networks were trained with label smoothing and the reader averages several views of a
doubtful face, so its probabilities are less sure than it is right. Every labelled photo of each
folder is read at temperature 1; each labelled die found (``vision.evaluate.match``) gives its
face probabilities and its true face. The temperature T minimises the mean negative
log-likelihood of the true faces (a golden-section search over 1 / T, in which it is convex),
fitted on each folder's tune and held-out parts (the seeded ``dice_data.split``) apart, each with
its 90 % likelihood-ratio interval: the temperatures that cost its dice at most 1.35 nats in all
over its fit (the dice of one photo, which share its light, are taken as independent, so it is
somewhat narrow). A part whose dice are all read right has no lower limit: any sharpening fits
it better. The value to use is the held-out dice-tray fit: photos the networks never learnt
from, and a source that the Splitter recordings (from dice-webcam) do not use; the held-out parts
disagree when their intervals do not overlap. Also printed, per part: the expected calibration
error (10 equal bins of the top probability) at T = 1, at the part's own fit and at the chosen T.
Nothing is random but the split: the figures are the same on every run.

    .venv/bin/python vision/training/fit_temperature.py [--datasets DIR]   (from the repository root)
"""
from __future__ import annotations

import argparse
import math
from pathlib import Path

import cv2
import numpy as np

from assistant import settings as settings_mod
from vision.dice import DiceReader, temper
from vision.dice_patches import PIP_FACES
from vision.evaluate import Found, load_image, match, read_labels
from vision.training.dice_data import split

DATASETS = Path(__file__).resolve().parents[2].parent / "shared" / "datasets"
FOLDERS = ("dice-tray", "dice-webcam")
CHOSEN_FROM = ("dice-tray", "held-out")
# The reader rounds probabilities to 4 decimals: a 0 there stands for less than half a unit.
FLOOR = 0.5e-4
INVERSE_RANGE = (0.05, 20.0)  # 1 / T searched
LIKELIHOOD_RATIO = 1.353  # half the chi-squared (1 degree of freedom) 90 % quantile
BINS = 10


def found_dice(reader: DiceReader, folder: Path, names: list[str]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per photo: the face probabilities (rows in PIP_FACES order) of the labelled dice found,
    and the index of each one's true face."""
    labels = read_labels(folder)
    photos = []
    for name in names:
        boxes = labels[name]
        readings = reader.read(load_image(folder, name, boxes))
        found = [Found(r.x, r.y, r.face) for r in readings]
        by_found = {id(f): r for f, r in zip(found, readings)}
        pairs, _ = match(found, boxes)
        pairs = [(box, by_found[id(f)]) for box, f in pairs if box.label in PIP_FACES]
        probabilities = np.array([[r.faces[f] for f in PIP_FACES] for _, r in pairs]).reshape(-1, len(PIP_FACES))
        photos.append((probabilities, np.array([PIP_FACES.index(box.label) for box, _ in pairs], int)))
    return photos


def stacked(photos: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """All the photos' dice: probabilities (at least FLOOR, renormalised) and true faces."""
    probabilities = np.maximum(np.vstack([p for p, _ in photos]), FLOOR)
    return probabilities / probabilities.sum(axis=1, keepdims=True), np.concatenate([t for _, t in photos])


def nll(probabilities: np.ndarray, truth: np.ndarray, temperature: float = 1.0) -> float:
    """Mean negative log-likelihood of the true faces at ``temperature``."""
    z = np.log(probabilities) / temperature
    z -= z.max(axis=1, keepdims=True)
    return float(np.mean(np.log(np.exp(z).sum(axis=1)) - z[np.arange(len(truth)), truth]))


def fit(probabilities: np.ndarray, truth: np.ndarray) -> float:
    """The temperature of least ``nll``."""
    lo, hi = INVERSE_RANGE
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(80):
        a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        if nll(probabilities, truth, 1 / a) < nll(probabilities, truth, 1 / b):
            hi = b
        else:
            lo = a
    return 2 / (lo + hi)


def interval(probabilities: np.ndarray, truth: np.ndarray, best: float) -> tuple[float, float]:
    """The temperatures whose total ``nll`` exceeds that at ``best`` by at most LIKELIHOOD_RATIO;
    an end at the searched range's is open."""
    least = nll(probabilities, truth, best)

    def excess(inverse: float) -> float:
        return len(truth) * (nll(probabilities, truth, 1 / inverse) - least) - LIKELIHOOD_RATIO

    ends = []
    for bound in INVERSE_RANGE:  # convex in 1 / T: one crossing on either side of the fit
        inside, outside = 1 / best, bound
        if excess(outside) <= 0:
            ends.append(bound)
            continue
        for _ in range(60):
            middle = (inside + outside) / 2
            inside, outside = (middle, outside) if excess(middle) <= 0 else (inside, middle)
        ends.append((inside + outside) / 2)
    return 1 / ends[1], 1 / ends[0]


def ece(probabilities: np.ndarray, truth: np.ndarray, temperature: float = 1.0) -> float:
    """Expected calibration error: over BINS equal bins of the top probability, the share of
    dice in each times the gap between its mean top probability and its share read right."""
    p = temper(probabilities, temperature)
    top, right = p.max(axis=1), p.argmax(axis=1) == truth
    bins = np.minimum((top * BINS).astype(int), BINS - 1)
    return float(sum((bins == b).mean() * abs(top[bins == b].mean() - right[bins == b].mean())
                     for b in range(BINS) if (bins == b).any()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", type=Path, default=DATASETS, help="folder of the labelled photo folders")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    nowhere = Path("/nonexistent")  # the packaged defaults alone
    defaults = settings_mod.load(env={}, system_file=nowhere, user_path=nowhere).section("vision.dice")
    reader = DiceReader.from_settings({**defaults, "face_temperature": 1.0})
    parts = {}
    for folder in FOLDERS:
        path = args.datasets / folder
        if not path.is_dir():
            print(f"{folder}: not found at {path}, skipped")
            continue
        for part, names in zip(("tune", "held-out"), split(list(read_labels(path)))):
            probabilities, truth = stacked(found_dice(reader, path, names))
            temperature = fit(probabilities, truth)
            parts[folder, part] = probabilities, truth, temperature, interval(probabilities, truth, temperature)
    if CHOSEN_FROM not in parts:
        raise SystemExit(f"{CHOSEN_FROM[0]} is needed to choose the temperature")
    chosen = parts[CHOSEN_FROM][2]
    print(f"{'folder':12} {'part':9} {'dice':>5} {'right':>7} {'mean top':>8} {'T fit':>7} {'90 % interval':>14} "
          f"{'NLL T=1':>8} {'at fit':>7} {'ECE T=1':>8} {'at fit':>7} {'at chosen':>9}")
    for (folder, part), (p, truth, temperature, (low, high)) in parts.items():
        fitted = f"<{low:.2f}" if low <= 1 / INVERSE_RANGE[1] else f"{temperature:.3f}"
        span = ("<" if low <= 1 / INVERSE_RANGE[1] else f"{low:.3f}-") + f"{high:.3f}"
        print(f"{folder:12} {part:9} {len(truth):5d} {(p.argmax(1) == truth).mean():7.2%} {p.max(1).mean():8.3f} "
              f"{fitted:>7} {span:>14} {nll(p, truth):8.4f} {nll(p, truth, temperature):7.4f} "
              f"{ece(p, truth):8.4f} {ece(p, truth, temperature):7.4f} {ece(p, truth, chosen):9.4f}")
    print(f"chosen (held-out {CHOSEN_FROM[0]}): face_temperature = {chosen:.2f}")
    held = [(folder, *parts[folder, "held-out"][3]) for folder in FOLDERS if (folder, "held-out") in parts]
    for (a, la, ha), (b, lb, hb) in zip(held, held[1:]):
        verdict = "intervals apart: they DISAGREE" if ha < lb or hb < la else "intervals overlap"
        print(f"held-out {a} and {b}: {verdict}")


if __name__ == "__main__":
    main()
