"""Card reader figures: synthetic Hilo tables, single-threaded speed of a 1280x720 frame with
20 cards, and real photographs of playing cards.

    /work/venv-dev/bin/python bench/cards.py [--tables N] [--no-real]   (from the repository root)

Synthetic: a deck enrolled from three seeded photos (two tables of face-up cards showing every
value twice and every colour three times, one table of mostly backs), then N seeded tables of two
or three players (perspective, uneven light, glare, blur, noise, JPEG), read on the located mat.
Real: ../shared/datasets/cards-playing (EdjeElectronics/TensorFlow-Object-Detection-API-Tutorial-
Train-Multiple-Objects-Windows-10, Apache-2.0), enrolled on every other photo (1st, 3rd, ...) and
judged on the others, as `table-assistant eval cards DIR --enrol DIR --split` does, then the
other way round (``--split-offset 1``); and again with the photos saved again as JPEG.
"""
from __future__ import annotations

import os

# One core, as on the kiosk: also for numpy's BLAS, which must be told before numpy loads.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402

from assistant import settings as settings_mod  # noqa: E402
from assistant.commands.print_mat import mat_layout  # noqa: E402
from engine.table import FACE_DOWN  # noqa: E402
from vision.cards import CardReader, ReaderParams, enrol, labelled_photos  # noqa: E402
from vision.evaluate import Box, Found, evaluate, match, read_labels  # noqa: E402
from vision.mat import MatLocator  # noqa: E402
from vision.synth.cards import enrolment_tables, hilo_table  # noqa: E402

REAL = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "cards-playing"


def boxes(scene):
    return [Box(*card.box(), label=card.label) for card in scene.cards]


def synthetic(params: ReaderParams, tables: int) -> CardReader:
    start = time.process_time()
    model, report = enrol([(s.frame, boxes(s)) for s in enrolment_tables(mat_layout("hilo", "A2", 2), seed=0)],
                          params)
    print(f"synthetic enrolment: {sum(report.cards.values())} cards, {len(report.missed)} outlines missed, "
          f"{report.negatives} non-card outlines, {time.process_time() - start:.1f} s CPU")
    reader = CardReader(model, params)
    objects = found = face_up = up_right = colour_right = value_right = backs = backs_right = extra = 0
    for seed in range(1000, 1000 + tables):
        layout = mat_layout("hilo", "A2", 2 + seed % 2)
        scene = hilo_table(layout, seed)
        readings = reader.read(scene.frame, MatLocator(layout).locate(scene.frame), layout)
        truth = boxes(scene)
        pairs, false = match([Found(*r.centre, r.label) for r in readings], truth)
        read = {id(b): f.label for b, f in pairs}
        objects += len(truth)
        found += len(pairs)
        extra += false
        for b in truth:
            got = read.get(id(b), "")
            if b.label == FACE_DOWN:
                backs += 1
                backs_right += got == FACE_DOWN
            else:
                face_up += 1
                up_right += got == b.label
                colour_right += got.split()[:1] == b.label.split()[:1]
                value_right += got.split()[1:] == b.label.split()[1:]
    print(f"synthetic Hilo tables: {tables} frames, {objects} cards ({face_up} face up, {backs} face down)")
    print(f"  card recall {found / objects:.4f}, false positives {extra}")
    print(f"  colour+value accuracy {up_right / face_up:.4f} (colour {colour_right / face_up:.4f}, "
          f"value {value_right / face_up:.4f}; a missed card counts as wrong)")
    print(f"  face-down detection {backs_right / backs:.4f}")
    return reader


def speed(reader: CardReader, repeats: int) -> None:
    layout = mat_layout("hilo", "A2", 2)
    scene = hilo_table(layout, 7, shapes=((3, 3),), empty_rate=0.0)  # two full grids and two piles
    pose = MatLocator(layout).locate(scene.frame)
    wall, cpu, counts = [], [], []
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        counts.append(len(reader.read(scene.frame, pose, layout)))
        wall.append((time.perf_counter() - w) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    locate = []
    locator = MatLocator(layout)
    for _ in range(repeats):
        c = time.process_time()
        locator.locate(scene.frame)
        locate.append((time.process_time() - c) * 1000)
    print(f"speed, 1280x720, {len(scene.cards)} cards ({max(counts)} read), 1 thread, {repeats} reads: "
          f"median {statistics.median(wall):.1f} ms wall, {statistics.median(cpu):.1f} ms CPU; "
          f"locating the mat: median {statistics.median(locate):.1f} ms CPU")


def real(params: ReaderParams) -> None:
    """Enrolled on every other photo and judged on the others, both ways round; also with every
    photo saved again as a JPEG of quality 92 (a small change of every pixel), which shows how
    much the figures hang on the photos' exact pixels."""
    if not (REAL / "labels.csv").is_file():
        print(f"cards-playing: not found at {REAL}, skipped")
        return
    names = sorted(read_labels(REAL))
    for offset in (0, 1):
        for variant, change in (("as taken", lambda image: image), ("saved again at JPEG quality 92", resaved)):
            start = time.process_time()
            photos = ((change(image), labels) for image, labels in labelled_photos(REAL, names[offset::2]))
            model, report = enrol(photos, params)
            reader = CardReader(model, params)
            result = evaluate(REAL, lambda image: [Found(*r.anchor, r.label) for r in reader.read(image)],
                              images=names[1 - offset::2], view=lambda image, labels: (change(image), labels))
            print(f"cards-playing, {variant}, enrolled on photos {offset + 1}, {offset + 3}, ... "
                  f"({sum(report.cards.values())} cards, {len(report.missed)} labelled cards without an outline, "
                  f"{time.process_time() - start:.1f} s CPU in all), judged on the others: "
                  + ", ".join(f"{k} {v}" for k, v in result.items()), flush=True)


def resaved(image):
    return cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])[1], cv2.IMREAD_COLOR)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="synthetic tables to read")
    parser.add_argument("--no-real", action="store_true", help="skip the real photographs")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    params = ReaderParams.from_settings(settings_mod.load().section("vision.cards"))
    reader = synthetic(params, args.tables)
    speed(reader, 30)
    if not args.no_real:
        real(params)


if __name__ == "__main__":
    main()
