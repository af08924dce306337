"""Dice reader figures: accuracy on the labelled photo folders (all, tune and held-out parts) and
single-threaded speed per 640x640 frame, with the share of each stage.

    /work/venv-dev/bin/python bench/dice.py        (from the repository root)

The held-out part of each folder (``vision.training.dice_data.split``, seeded) is never used by
the training script. Photos: ../shared/datasets/dice-tray (nell-byler/dice_detection,
BSD-3-Clause) and dice-webcam (matteop65/Dice_Detection_Recognition, MIT).
"""
from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from assistant import settings as settings_mod
from vision.dice import CHECKER_MODEL, DETECTOR_MODEL, FACE_MODEL, DiceReader, _run, load_network
from vision.dice_patches import PATCH_SIDE
from vision.evaluate import Found, evaluate, read_labels
from vision.stillness import StillnessGate
from vision.synth.dice import Look, render_scene
from vision.training.dice_data import split

DATASETS = Path(__file__).resolve().parents[1].parent / "shared" / "datasets"
FOLDERS = ("dice-tray", "dice-webcam")
SPEED_FRAMES = 60
SPEED_SETTINGS = ((320, 8), (384, 8), (448, 1), (448, 8))  # (detector_width, face_views)


def main() -> None:
    cv2.setNumThreads(1)
    section = settings_mod.load().section("vision.dice")
    reader = DiceReader.from_settings(section)
    read = lambda image: [Found(r.x, r.y, r.face) for r in reader.read(image)]  # noqa: E731
    for folder in FOLDERS:
        path = DATASETS / folder
        if not path.is_dir():
            print(f"{folder}: not found at {path}, skipped")
            continue
        names = list(read_labels(path))
        tune, held_out = split(names)
        for part, subset in (("all", names), ("tune", tune), ("held-out", held_out)):
            print(f"{folder} {part}: {json.dumps(evaluate(path, read, images=subset))}", flush=True)
    speed(section)
    engines()


def speed(section: dict) -> None:
    """Median ms per 640x640 synthetic frame with 6 dice of 40 px, for a few settings, and per stage."""
    frames = [render_scene(seed, size=(640, 640), count=6, die_px=40, look=Look(background="felt", lean=0.2)).image
              for seed in range(SPEED_FRAMES)]
    for width, views in SPEED_SETTINGS:
        reader = DiceReader.from_settings({**section, "detector_width": width, "face_views": views})
        whole, finder = [], []
        for frame in frames:
            start = time.perf_counter()
            reader.read(frame)
            whole.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            reader.propose(frame)
            finder.append((time.perf_counter() - start) * 1000)
        default = " (default)" if (width, views) == (section["detector_width"], section["face_views"]) else ""
        print(f"speed, 640x640 frame, 6 dice, 1 thread, detector_width={width} face_views={views}{default}: "
              f"read median {statistics.median(whole):.2f} ms (p90 {sorted(whole)[int(0.9 * len(whole))]:.2f}); "
              f"finder {statistics.median(finder):.2f} ms, checker+faces+colour "
              f"{statistics.median(whole) - statistics.median(finder):.2f} ms", flush=True)
    gate = StillnessGate()
    still = []
    for frame in frames:
        start = time.perf_counter()
        gate.update(frame)
        still.append((time.perf_counter() - start) * 1000)
    print(f"stillness gate median {statistics.median(still):.3f} ms per frame")


def engines() -> None:
    """Median ms of each network on OpenCV 5's new and classic engines, interleaved on the same
    inputs (the reader runs the face network on the classic one, the others on the new one)."""
    if not hasattr(cv2.dnn, "ENGINE_NEW"):
        print("engines: this OpenCV has only the classic engine")
        return
    rng = np.random.default_rng(0)
    for name, side, batch in ((DETECTOR_MODEL, 448, 1), (CHECKER_MODEL, PATCH_SIDE, 24), (FACE_MODEL, PATCH_SIDE, 6)):
        nets = {engine: load_network(name, getattr(cv2.dnn, engine)) for engine in ("ENGINE_NEW", "ENGINE_CLASSIC")}
        images = [rng.integers(0, 256, (side, side, 3), dtype=np.uint8) for _ in range(batch)]
        times: dict[str, list[float]] = {engine: [] for engine in nets}
        for _ in range(SPEED_FRAMES):
            for engine, net in nets.items():
                start = time.perf_counter()
                _run(net, images)
                times[engine].append((time.perf_counter() - start) * 1000)
        new, classic = (statistics.median(times[e]) for e in nets)
        print(f"engines, {name} x{batch}: new {new:.2f} ms, classic {classic:.2f} ms "
              f"(classic / new {classic / new:.2f})")


if __name__ == "__main__":
    main()
