"""Dice reader figures: accuracy on the labelled photo folders (all, tune and held-out parts, the
photos' middles enlarged twice, where the dice are twice as large, the photos reduced to half,
the photos turned a quarter, and the labelled dice cut out, as --crops judges them), false dice
on frames without one (photographs of playing cards, synthetic desks with printed things), dice in
touching pairs on synthetic scenes, dice of each material (opaque, translucent, marbled), dice
printing pictures (a skull, an emblem) read with and without their faces enrolled, dice on
synthetic photos of the printed mats without and with the empty table learnt, whether the
learnt table is found stale once the camera or the mat moves, single-threaded speed per 640x640
frame, with the share of each stage, and where a read of the labelled photos spends its time,
network by network.

    /work/venv-dev/bin/python bench/dice.py        (from the repository root)

The held-out part of each folder (``vision.training.dice_data.split``, seeded) is never used by
the training script. Photos: ../shared/datasets/dice-tray (nell-byler/dice_detection,
BSD-3-Clause) and dice-webcam (matteop65/Dice_Detection_Recognition, MIT).
"""
from __future__ import annotations

import _one_core  # noqa: F401  (first: one BLAS thread, as on the kiosk)

import copy
import csv
import json
import math
import random
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from assistant import settings as settings_mod
from assistant.commands.print_mat import all_mat_layouts, zone_names
from vision.dice import CHECKER_MODEL, DETECTOR_MODEL, FACE_MODEL, DiceReader, load_network, run_network
from vision.dice_background import TableBackground
from vision.dice_patches import PATCH_SIDE, blob, folded_blob
from vision.evaluate import (Found, cut_out, enlarged_middle, evaluate, evaluate_crops, load_image, quarter_turned,
                             read_labels, reduced_to_middle)
from vision.stillness import StillnessGate
from vision.synth.cards import Photo, mat_mask, mat_photo, moved_view
from vision.synth.clutter import desk_scene
from vision.synth.dice import BACKGROUNDS, MATERIALS, PICTURES, Look, render_scene
from vision.training.dice_data import split

DATASETS = Path(__file__).resolve().parents[1].parent / "shared" / "datasets"
FOLDERS = ("dice-tray", "dice-webcam")
SPEED_FRAMES = 60
# every labelled die cut out with this much around it, in box sides (the webcam boxes hold only
# the top face's pips; the tray boxes the top face)
CROP_MARGINS = (1.0, 1.5)
# (detector_width, face_views). At 320 and 384 the frames' 40-px dice come out under 29 px at the
# detector, so the reader also looks at them closer (DiceReader._closer_look): no time is saved.
SPEED_SETTINGS = ((320, 8), (384, 8), (448, 1), (448, 8))
MAT_SEEDS = range(10, 16)
MAT_LIGHTS = (0.8, 0.9, 1.0, 1.05)  # the empty table learnt under the first three, read under the last
MAT_DICE = ("white", "black", "red", "green", "blue", "yellow", "purple", "orange")
TOUCHING_SEEDS = range(101, 141)
PICTURE_SET = ("skull", "2", "3", "4", "5", "emblem")  # the faces of dice printing pictures for the one and six
PICTURE_COLOURS = ("white", "ivory", "black", "red", "green", "blue", "yellow", "purple", "orange")
PICTURE_SEEDS = range(800, 840)
MATERIAL_SEEDS = range(900, 940)
WITHOUT_DICE = "cards-playing"  # photographs of cards on tables and desks, no die in any
DESK_SEEDS = range(90_000_000, 90_000_150)  # synthetic desks (vision.synth.clutter), apart from other seeds


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
        # as a camera twice as near would see them (the photos no die is cut in)
        print(f"{folder} middle enlarged 2x: {json.dumps(evaluate(path, read, view=enlarged_middle))}", flush=True)
        # as a camera twice as far would see them
        print(f"{folder} reduced 2x: {json.dumps(evaluate(path, read, view=reduced_to_middle))}", flush=True)
        # as a camera turned on its side would see them
        print(f"{folder} turned a quarter: {json.dumps(evaluate(path, read, view=quarter_turned))}", flush=True)
        for margin in CROP_MARGINS:
            with tempfile.TemporaryDirectory() as crops:
                cut_out_folder(path, margin, Path(crops))
                report = evaluate_crops(crops, lambda image: reader.read_whole(image).face)
            print(f"{folder} cut out, {margin} x box (--crops): {json.dumps(report)}", flush=True)
    without_dice(reader)
    touching_pairs(reader)
    materials(reader)
    picture_faces(reader)
    printed_mats(reader)
    moved_mats(reader)
    speed(section)
    engines()
    photo_stages(section)


def without_dice(reader: DiceReader) -> None:
    """False dice on frames without a die: the photographs of playing cards on tables and desks
    (none of them shown to the dice networks' training), and synthetic desks with printed things
    on them (``vision.synth.clutter``: text, barcodes, logos, keys, buttons, cards)."""
    path = DATASETS / WITHOUT_DICE
    parts = [("synthetic desks", [lambda s=s: desk_scene(s) for s in DESK_SEEDS])]
    if path.is_dir():
        names = sorted(p.name for p in path.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
        parts.insert(0, (WITHOUT_DICE, [lambda n=n: cv2.imread(str(path / n)) for n in names]))
    else:
        print(f"{WITHOUT_DICE}: not found at {path}, skipped")
    for name, frames in parts:
        counts = [len(reader.read(frame())) for frame in frames]
        print(f"without dice, {name}: {sum(map(bool, counts))} of {len(counts)} frames with a false die, "
              f"{sum(counts)} false dice", flush=True)


def touching_pairs(reader: DiceReader) -> None:
    """Synthetic 640x480 scenes of six 40-px dice in touching pairs (the tests' "touching dice"):
    how many dice are found (a reading within a fifth of a side of the top face's centre), how
    many of them read right, and how many readings are of no die."""
    counts = np.zeros(4, int)
    for seed in TOUCHING_SEEDS:
        scene = render_scene(seed, count=6, die_px=40, colours=MAT_DICE, look=Look(touching=True))
        counts += judged(scene.dice, reader.read(scene.image), 0.2)
    dice, found, right, false = counts
    print(f"touching pairs, {len(TOUCHING_SEEDS)} synthetic scenes: {found} of {dice} dice found, {right} right, "
          f"{false} false", flush=True)


def materials(reader: DiceReader) -> None:
    """Dice of each material (``vision.synth.dice.MATERIALS``) on the same scenes: six dice of any
    colour, 30-64 px, on any table, some leaning, blurred or glared (a die found counts within 0.3
    of a side)."""
    for material in MATERIALS:
        counts = np.zeros(4, int)
        for seed in MATERIAL_SEEDS:
            rng = random.Random(seed + 1_000_000)  # the scene's size and look, apart from its own draws
            look = replace(_any_look(rng), material=material)
            scene = render_scene(seed, count=6, die_px=rng.uniform(30, 64), look=look)
            counts += judged(scene.dice, reader.read(scene.image), 0.3)
        dice, found, right, false = counts
        print(f"{material} dice, {len(MATERIAL_SEEDS)} synthetic scenes: {found} of {dice} dice found, {right} right "
              f"({right / dice:.3f}), {false} false", flush=True)


def picture_faces(reader: DiceReader) -> None:
    """Dice that print a skull for the one and an emblem for the six (``vision.synth.dice.PICTURES``)
    on scenes of six dice of any colour, 30-64 px, on any table, some leaning, blurred or glared:
    read by the pip networks alone, then with every face enrolled from three photos of two dice
    each, as `calibrate dice-faces 1=... 6=...` enrols them (a die found counts within 0.3 of a side)."""
    rng = random.Random(1)
    photos = {PICTURES.get(face, face): [
        render_scene(700 + 10 * i + k, count=2, die_px=rng.uniform(36, 60), faces=(face,), colours=PICTURE_COLOURS,
                     look=_any_look(rng)).image for k in range(3)] for i, face in enumerate(PICTURE_SET)}
    enrolled = copy.copy(reader)
    enrolled.enrolled = reader.enrol_faces(photos)
    for name, dice_reader in (("pip networks alone", reader), ("faces enrolled from 3 photos each", enrolled)):
        counts = np.zeros(4, int)
        for seed in PICTURE_SEEDS:
            rng = random.Random(seed + 1_000_000)  # the scene's size and look, apart from its own draws
            scene = render_scene(seed, count=6, die_px=rng.uniform(30, 64), faces=PICTURE_SET,
                                 colours=PICTURE_COLOURS, look=_any_look(rng))
            counts += judged(scene.dice, dice_reader.read(scene.image), 0.3, PICTURES)
        dice, found, right, false = counts
        print(f"picture faces, {name}: {found} of {dice} dice found, {right} right ({right / dice:.3f}), "
              f"{false} false", flush=True)


def _any_look(rng: random.Random) -> Look:
    return Look(background=rng.choice(BACKGROUNDS), lean=rng.uniform(0, 0.3) * (rng.random() < 0.5),
                gradient=rng.uniform(0, 0.4), glare=rng.random() < 0.3,
                blur=rng.uniform(0, 1.2) * (rng.random() < 0.4), noise=rng.uniform(0, 6))


def judged(dice, readings, reach: float, names: dict[str, str] | None = None) -> np.ndarray:
    """(dice, found, right, false) for the synthetic ``dice`` of a scene and what was read: a die is
    found by the first unmatched reading within ``reach`` x its side of its top face's centre,
    and right when that reads its face (by ``names``, where the scene names it otherwise)."""
    matched, right = set(), 0
    for die in dice:
        near = [k for k, r in enumerate(readings) if k not in matched
                and math.hypot(r.x - die.x, r.y - die.y) < reach * die.size]
        if near:
            matched.add(near[0])
            right += readings[near[0]].face == (names or {}).get(die.face, die.face)
    return np.array([len(dice), len(matched), right, len(readings) - len(matched)])


def learnt_mats():
    """For each printed mat and camera placement (1280x720): the empty table learnt from three
    frames under other lights, the empty mat under the last light, where the mat lies (a mask),
    and the 8 dice laid on it."""
    for number, layout in enumerate(all_mat_layouts()):
        for seed in MAT_SEEDS:
            shots = [mat_photo(layout, seed, Photo(light=(g, g)), zone_names(layout)) for g in MAT_LIGHTS]
            background = TableBackground.from_frames([frame for frame, _ in shots[:3]])
            empty, mm_to_px = shots[3]
            scene = render_scene(1000 * number + seed, count=8, die_px=36, colours=MAT_DICE, backdrop=empty)
            yield background, empty, mat_mask(layout, mm_to_px, empty.shape), scene


def printed_mats(reader: DiceReader) -> None:
    """Synthetic photos (1280x720) of each printed mat by a fixed camera: the dice read on the empty
    mat and with 8 dice on it, without and with the empty table learnt (from three frames under
    other lights), and the time the learnt table adds per frame."""
    counts = {"plain": [0, 0, 0], "learnt": [0, 0, 0]}  # false dice on empty mats, dice right, false dice
    dice, extra_ms = 0, []
    for background, empty, _, scene in learnt_mats():
        dice += len(scene.dice)
        for image, on_mat in ((empty, False), (scene.image, True)):
            readings = reader.read(image)
            start = time.perf_counter()
            kept = background.keep(image, readings)
            extra_ms.append((time.perf_counter() - start) * 1000)
            for name, found in (("plain", readings), ("learnt", kept)):
                if not on_mat:
                    counts[name][0] += len(found)
                    continue
                right = sum(any(abs(r.x - d.x) < 0.2 * d.size and abs(r.y - d.y) < 0.2 * d.size
                                and r.face == d.face for r in found) for d in scene.dice)
                counts[name][1] += right
                counts[name][2] += len(found) - right
    frames = len(all_mat_layouts()) * len(MAT_SEEDS)
    for name, (empty, right, wrong) in counts.items():
        print(f"printed mats, empty table {'learnt' if name == 'learnt' else 'not learnt'}: "
              f"{empty} dice read on {frames} empty mats; with dice on them {right}/{dice} read right, "
              f"{wrong} other readings", flush=True)
    print(f"printed mats: the learnt table adds {statistics.median(extra_ms):.2f} ms per frame (median)", flush=True)


def moved_mats(reader: DiceReader) -> None:
    """Whether the learnt empty table is found stale (TableBackground.fit) once the camera or the
    mat has moved, and how many dice the moved empty mat then shows with it; the same photos as
    printed_mats, the 8 dice on the mat when nothing moved."""
    moves = {"nothing": (0, 0, 0, False), **{f"camera {d} px": (d, 0.6 * d, 0, False) for d in (4, 8, 16)},
             **{f"camera {a} deg": (0, 0, a, False) for a in (1, 2)},
             **{f"mat {d} px": (d, -0.5 * d, 0, True) for d in (8, 16, 32)},
             **{f"mat {a} deg": (0, 0, a, True) for a in (1, 3)}}
    stale, false_dice, check_ms = dict.fromkeys(moves, 0), dict.fromkeys(moves, 0), []
    for background, empty, mask, scene in learnt_mats():
        for name, (dx, dy, degrees, mat_only) in moves.items():
            only = mask if mat_only else None
            image = moved_view(scene.image, dx, dy, degrees, only) if dx or degrees else scene.image
            start = time.perf_counter()
            stale[name] += background.fit(image).stale
            check_ms.append((time.perf_counter() - start) * 1000)
            if dx or degrees:
                moved_empty = moved_view(empty, dx, dy, degrees, only)
                false_dice[name] += len(background.keep(moved_empty, reader.read(moved_empty)))
    frames = len(all_mat_layouts()) * len(MAT_SEEDS)
    for name in moves:
        dice = f", {false_dice[name]} dice read on the moved empty mats" if name != "nothing" else " (8 dice on it)"
        print(f"moved mats, {name}: stale {stale[name]}/{frames}{dice}", flush=True)
    print(f"moved mats: the check takes {statistics.median(check_ms):.2f} ms per 1280x720 frame (median)", flush=True)


def cut_out_folder(path: Path, margin: float, out: Path) -> None:
    """Make ``out`` a --crops folder of every labelled die of ``path`` cut out."""
    rows = []
    for name, boxes in read_labels(path).items():
        image = load_image(path, name, boxes)
        for k, box in enumerate(boxes):
            crop = f"{Path(name).stem}-{k}.png"
            cv2.imwrite(str(out / crop), cut_out(image, box, margin))
            rows.append([crop, "", "", "", "", box.label])
    with open(out / "labels.csv", "w", newline="") as labels:
        csv.writer(labels).writerows([["filename", "xmin", "ymin", "xmax", "ymax", "label"], *rows])


def speed(section: dict) -> None:
    """Median ms per 640x640 synthetic frame with 6 dice of 40 px, for a few settings, and per
    stage. The settings take turns on each frame, so that the machine's slower and faster spells
    fall on all of them and their ratios hold."""
    frames = [render_scene(seed, size=(640, 640), count=6, die_px=40, look=Look(background="felt", lean=0.2)).image
              for seed in range(SPEED_FRAMES)]
    readers = {setting: DiceReader.from_settings({**section, "detector_width": setting[0], "face_views": setting[1]})
               for setting in SPEED_SETTINGS}
    whole: dict[tuple, list[float]] = {setting: [] for setting in readers}
    finder: dict[tuple, list[float]] = {setting: [] for setting in readers}
    for frame in frames * 2:
        for setting, reader in readers.items():
            start = time.perf_counter()
            reader.read(frame)
            whole[setting].append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            reader.propose(frame)
            finder[setting].append((time.perf_counter() - start) * 1000)
    default = (section["detector_width"], section["face_views"])
    for (width, views), times in whole.items():
        read, find = statistics.median(times), statistics.median(finder[(width, views)])
        print(f"speed, 640x640 frame, 6 dice, 1 thread, detector_width={width} face_views={views}"
              f"{' (default)' if (width, views) == default else ''}: read median {read:.2f} ms "
              f"({read / statistics.median(whole[default]):.2f} x default; "
              f"p90 {sorted(times)[int(0.9 * len(times))]:.2f}); "
              f"finder {find:.2f} ms, checker+faces+colour {read - find:.2f} ms", flush=True)
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
    networks = ((DETECTOR_MODEL, 448, 1, folded_blob), (CHECKER_MODEL, PATCH_SIDE, 24, folded_blob),
                (FACE_MODEL, PATCH_SIDE, 6, blob))
    for name, side, batch, make_blob in networks:
        nets = {engine: load_network(name, getattr(cv2.dnn, engine)) for engine in ("ENGINE_NEW", "ENGINE_CLASSIC")}
        images = [rng.integers(0, 256, (side, side, 3), dtype=np.uint8) for _ in range(batch)]
        times: dict[str, list[float]] = {engine: [] for engine in nets}
        for _ in range(SPEED_FRAMES):
            for engine, net in nets.items():
                start = time.perf_counter()
                run_network(net, images, make_blob)
                times[engine].append((time.perf_counter() - start) * 1000)
        new, classic = (statistics.median(times[e]) for e in nets)
        print(f"engines, {name} x{batch}: new {new:.2f} ms, classic {classic:.2f} ms "
              f"(classic / new {classic / new:.2f})")


class TimedNetwork:
    """A network that adds the time of each of its passes to ``spent`` (the reader calls only
    ``setInput`` and ``forward``)."""

    def __init__(self, network: cv2.dnn.Net):
        self.network, self.spent = network, 0.0

    def setInput(self, blob: np.ndarray) -> None:  # noqa: N802 (OpenCV's name)
        self.network.setInput(blob)

    def forward(self) -> np.ndarray:
        start = time.perf_counter()
        out = self.network.forward()
        self.spent += time.perf_counter() - start
        return out


def photo_stages(section: dict) -> None:
    """Per labelled photo folder, one thread: the median and mean ms of a read, and the mean ms
    of each network's passes in it (building their inputs not counted) and of everything else."""
    reader = DiceReader.from_settings(section)
    roles = ("detector", "checker", "face_network", "second_faces", "reread_faces")
    timed = {role: TimedNetwork(getattr(reader, role)) for role in roles}
    for role, network in timed.items():
        setattr(reader, role, network)
    for folder in FOLDERS:
        path = DATASETS / folder
        if not path.is_dir():
            continue
        for network in timed.values():
            network.spent = 0.0
        reads = []
        for name, boxes in read_labels(path).items():
            image = load_image(path, name, boxes)
            start = time.perf_counter()
            reader.read(image)
            reads.append((time.perf_counter() - start) * 1000)
        mean = statistics.mean(reads)
        shares = {role: network.spent * 1000 / len(reads) for role, network in timed.items()}
        parts = ", ".join(f"{role} {ms:.1f}" for role, ms in shares.items())
        print(f"{folder}, {len(reads)} photos, 1 thread: read median {statistics.median(reads):.1f} ms, "
              f"mean {mean:.1f} ms = {parts}, the rest {mean - sum(shares.values()):.1f} (mean ms)", flush=True)


if __name__ == "__main__":
    main()
