"""Card reader figures: synthetic Hilo tables, single-threaded speed of 1280x720 frames with
20 and 56 cards, and real photographs of playing cards.

    /work/venv-dev/bin/python bench/cards.py [--tables N] [--no-real]   (from the repository root)

Speed: a table of full grids, two players on A2 (20 cards) and six on A1 (56).
Synthetic: a deck enrolled from three seeded photos (two tables of face-up cards showing every
value twice and every colour three times, one table of mostly backs), then N seeded tables of two
to six players (perspective, uneven light, glare, blur, noise, JPEG), read on the located mat;
and, without the mat, a deck enrolled from photos of its cards scattered at any angle on a bare
table, then N/2 such photos of eight face-up cards and two backs.
Real: ../shared/datasets/cards-playing (EdjeElectronics/TensorFlow-Object-Detection-API-Tutorial-
Train-Multiple-Objects-Windows-10, Apache-2.0), enrolled on every other photo (1st, 3rd, ...) and
judged on the others, as `table-assistant eval cards DIR --enrol DIR --split` does, then the
other way round (``--split-offset 1``); and again with the photos saved again as JPEG, and
turned a quarter.
"""
from __future__ import annotations

import _one_core  # noqa: F401  (first: one BLAS thread, as on the kiosk)

import argparse
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from assistant import settings as settings_mod
from assistant.commands.print_mat import mat_layout, smallest_mat
from engine.table import FACE_DOWN
from vision.cards import CardReader, ReaderParams, enrol, labelled_photos
from vision.evaluate import Box, Found, evaluate, match, quarter_turned, read_labels
from vision.mat import MatLocator
from vision.synth.cards import HILO_DECK, enrolment_tables, hilo_table, scattered_cards, scattered_enrolment

REAL = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "cards-playing"


def boxes(scene):
    return [Box(*card.box(), label=card.label) for card in scene.cards]


class Tally:
    """Synthetic readings against the truth: card recall, false cards, colour and value of the
    face-up cards (a missed card counts as wrong) and face-down detection."""

    def __init__(self):
        self.frames = self.objects = self.found = self.extra = 0
        self.face_up = self.up_right = self.colour_right = self.value_right = self.backs = self.backs_right = 0

    def add(self, readings, scene) -> None:
        truth = boxes(scene)
        pairs, false = match([Found(*r.anchor, r.label) for r in readings], truth)
        read = {id(b): f.label for b, f in pairs}
        self.frames += 1
        self.objects += len(truth)
        self.found += len(pairs)
        self.extra += false
        for b in truth:
            got = read.get(id(b), "")
            if b.label == FACE_DOWN:
                self.backs += 1
                self.backs_right += got == FACE_DOWN
            else:
                self.face_up += 1
                self.up_right += got == b.label
                self.colour_right += got.split()[:1] == b.label.split()[:1]
                self.value_right += got.split()[1:] == b.label.split()[1:]

    def print(self, title: str) -> None:
        print(f"{title}: {self.frames} frames, {self.objects} cards ({self.face_up} face up, {self.backs} face down)")
        print(f"  card recall {self.found / self.objects:.4f}, false positives {self.extra}")
        up = self.face_up
        print(f"  colour+value accuracy {self.up_right / up:.4f} (colour {self.colour_right / up:.4f}, "
              f"value {self.value_right / up:.4f}; a missed card counts as wrong)")
        print(f"  face-down detection {self.backs_right / self.backs:.4f}")


def enrolled(params: ReaderParams, scenes, title: str) -> CardReader:
    start = time.process_time()
    model, report = enrol([(s.frame, boxes(s)) for s in scenes], params)
    print(f"{title}: {sum(report.cards.values())} cards, {len(report.missed)} outlines missed, "
          f"{report.negatives} non-card outlines, {time.process_time() - start:.1f} s CPU")
    return CardReader(model, params)


def synthetic(params: ReaderParams, tables: int) -> CardReader:
    reader = enrolled(params, enrolment_tables(mat_layout("hilo", "A2", 2), seed=0), "synthetic enrolment")
    tally = Tally()
    for seed in range(1000, 1000 + tables):
        layout = smallest_mat("hilo", 2 + seed % 5)
        scene = hilo_table(layout, seed)
        tally.add(reader.read(scene.frame, MatLocator(layout).locate(scene.frame), layout), scene)
    tally.print("synthetic Hilo tables")
    return reader


def off_the_mat(params: ReaderParams, photos: int) -> None:
    """Enrolled and read without the mat: cards scattered at any angle on a bare table."""
    reader = enrolled(params, scattered_enrolment(seed=0), "synthetic enrolment without the mat")
    tally = Tally()
    for seed in range(2000, 2000 + photos):
        rng = np.random.default_rng(seed)
        labels = [HILO_DECK[i] for i in rng.permutation(len(HILO_DECK))[:8]] + [FACE_DOWN] * 2
        scene = scattered_cards([labels[i] for i in rng.permutation(len(labels))], seed)
        tally.add(reader.read(scene.frame), scene)
    tally.print("synthetic cards scattered on a bare table (no mat)")


def speed(reader: CardReader, repeats: int) -> None:
    """A table of full grids and both piles: two players on A2 (20 cards) and six on A1 (56)."""
    for players in (2, 6):
        layout = smallest_mat("hilo", players)
        scene = hilo_table(layout, 7, shapes=((3, 3),), empty_rate=0.0)
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
        print(f"speed, 1280x720, {players} players on {layout.paper}, {len(scene.cards)} cards ({max(counts)} read), "
              f"1 thread, {repeats} reads: median {statistics.median(wall):.1f} ms wall, "
              f"{statistics.median(cpu):.1f} ms CPU; locating the mat: median {statistics.median(locate):.1f} ms CPU")


def real(params: ReaderParams) -> None:
    """Enrolled on every other photo and judged on the others, both ways round; also with every
    photo saved again as a JPEG of quality 92 (a small change of every pixel), which shows how
    much the figures hang on the photos' exact pixels, and with every photo turned a quarter (a
    camera held the other way)."""
    if not (REAL / "labels.csv").is_file():
        print(f"cards-playing: not found at {REAL}, skipped")
        return
    names = sorted(read_labels(REAL))
    variants = (("as taken", None), ("saved again at JPEG quality 92", lambda image, labels: (resaved(image), labels)),
                ("turned a quarter", quarter_turned))
    for offset in (0, 1):
        for variant, view in variants:
            start = time.process_time()
            photos = labelled_photos(REAL, names[offset::2])
            model, report = enrol((view(*photo) for photo in photos) if view else photos, params)
            reader = CardReader(model, params)
            result = evaluate(REAL, lambda image: [Found(*r.anchor, r.label) for r in reader.read(image)],
                              images=names[1 - offset::2], view=view)
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
    off_the_mat(params, args.tables // 2)
    speed(reader, 30)
    if not args.no_real:
        real(params)


if __name__ == "__main__":
    main()
