"""The card reader on decks of designs it has never seen, enrolled as a club would enrol them.

    .venv/bin/python bench/card_decks.py [--kinds hilo,uno,...] [--photos-per-face 2] [--keep DIR]
                                         [--detector both|outlines]

For each design kind of ``vision.synth.card_designs``, a deck of a random design (seeds the card
detector never trained on) is photographed one card per photo, as the photos of an enrolment are
taken: each face ``--photos-per-face`` times and a few backs, on dark cloth, wood, white paper and
the rest of the synthetic tables, each photo labelled with the whole image as its box. Every
other photo enrols, the others are judged, exactly as `table-assistant eval cards DIR --enrol DIR
--split` does (the folders are written as such a DIR; ``--keep`` keeps them to run it on them).
Printed per kind: accuracy, cards found, false cards, and value / colour accuracy of those found;
then each judged photo whose card was read wrong or not found.
"""
from __future__ import annotations

import _one_core  # noqa: F401  (first: one BLAS thread, as on the kiosk)

import argparse
import csv
import tempfile
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from assistant import settings as settings_mod
from engine.table import FACE_DOWN
from vision.card_model import EnrolmentError
from vision.cards import CardReader, ReaderParams, enrol, labelled_photos
from vision.evaluate import Found, evaluate, match, read_labels
from vision.synth.card_designs import DESIGN_KINDS, deck, random_design
from vision.synth.card_scenes import detector_scene

SEED = 30_000_000  # far from the detector's training (0...) and validation (10,000,000...) seeds
BACKS = 4


def write_deck(folder: Path, kind: str, photos_per_face: int, size=(1280, 960)) -> None:
    """One photo per card, labelled with the whole image as its box."""
    rng = np.random.default_rng(SEED + DESIGN_KINDS.index(kind))
    design = random_design(rng, (kind,))
    labels = [face for face in deck(design) for _ in range(photos_per_face)] + [FACE_DOWN] * BACKS
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    for k in rng.permutation(len(labels)):
        name = f"{kind}_{len(rows):04d}.jpg"
        scene = detector_scene(SEED + 1000 * (DESIGN_KINDS.index(kind) + 1) + len(rows), size, design=design,
                               label=labels[k])
        cv2.imwrite(str(folder / name), scene.frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
        rows.append((name, 0, 0, size[0] - 1, size[1] - 1, labels[k]))
    with open(folder / "labels.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(("filename", "xmin", "ymin", "xmax", "ymax", "label"))
        writer.writerows(rows)


def judge(folder: Path, params: ReaderParams) -> str:
    names = sorted(read_labels(folder))
    model, report = enrol(labelled_photos(folder, names[0::2]), params)
    reader = CardReader(model, params)
    truth = read_labels(folder)
    value = colour = found = 0

    def read(image):
        return [Found(*r.anchor, r.label) for r in reader.read(image)]

    result = evaluate(folder, read, images=names[1::2])
    wrong = []
    for name in names[1::2]:  # value and colour of the cards found, apart
        image = cv2.imread(str(folder / name))
        pairs, _ = match(read(image), truth[name])
        for box, got in pairs:
            found += 1
            value += got.label.split()[-1:] == box.label.split()[-1:]
            colour += got.label.split()[:1] == box.label.split()[:1]
            if got.label != box.label:
                wrong.append(f"  {name}: {box.label} read as {got.label}")
        if not pairs:
            wrong.append(f"  {name}: {truth[name][0].label} not found")
    return "\n".join([
        f"accuracy {result['accuracy']:.3f}, found {result['detected']}/{result['objects']}, "
        f"false cards {result['false_positives']}, value {value / max(found, 1):.3f}, "
        f"colour {colour / max(found, 1):.3f} (enrolled {sum(report.cards.values())}, "
        f"missed in enrolment {len(report.missed)}; {result['ms_per_image_median']:.0f} ms per photo)", *wrong])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kinds", default=",".join(DESIGN_KINDS))
    parser.add_argument("--photos-per-face", type=int, default=2)
    parser.add_argument("--keep", type=Path, help="write the photo folders here and keep them")
    parser.add_argument("--detector", choices=("both", "outlines"), help="instead of vision.cards.detector")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    params = ReaderParams.from_settings(settings_mod.load().section("vision.cards"))
    params = replace(params, detector=args.detector or params.detector)
    print(f"card detector: {params.detector}")
    with tempfile.TemporaryDirectory() as scratch:
        root = args.keep or Path(scratch)
        for kind in args.kinds.split(","):
            write_deck(root / kind, kind, args.photos_per_face)
            try:
                print(f"{kind}: {judge(root / kind, params)}", flush=True)
            except EnrolmentError as exc:
                print(f"{kind}: enrolment failed: {exc}", flush=True)


if __name__ == "__main__":
    main()
