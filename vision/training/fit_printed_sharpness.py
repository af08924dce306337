"""Fit the softmax scale of the printed dice faces (``vision.dice_faces.SHARPNESS``) on game frames.

The scale says how much surer a gap in correlation makes a reading. Fitted at enrolment, on the
three photos of each face, it came out anywhere from 45 to 1700 for the same synthetic Excape
dice (the few dice, photographed clean and still, rarely come close to another face), and the
kiosk's shares swung with it: a whole game offered for a touch, or applied. Fitted here instead
on what the camera reads in play: seeded Excape recordings (``vision.synth.recording``, the
tuning seeds, never those of ``bench/recordings.py``) are filmed, their dice enrolled from the
recording's face photos as `calibrate dice-faces` does, and their frames read through the live
loop (``TableWatcher``). The first settled reading of each roll is paired with the dice the
table then shows (greedily: the likeliest pair of a die and a face first). Their probabilities,
read at the current SHARPNESS, are re-scaled as ``vision/training/fit_temperature.py`` tempers
the pip faces: a temperature T makes the scale SHARPNESS / T, fitted by least negative
log-likelihood of the true faces, with its 90 % likelihood-ratio interval; also printed, each
game's own fit. Deterministic.

    .venv/bin/python vision/training/fit_printed_sharpness.py [--seeds 10]   (from the repository root; ~50 min)
"""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import cv2
import numpy as np

from assistant import settings as settings_mod
from assistant.commands.watch import watch_folder
from vision.live import GameWatcher
from assistant.reconcile import greedy_pairs, rolled_faces, table_dice
from engine.match import Match
from vision.dice import DiceReader
from vision.dice_faces import SHARPNESS
from vision.live import TableWatcher
from vision.stillness import StableReader
from vision.synth import recording
from vision.training.fit_temperature import fit, interval, stacked

PLAYERS = (3, 4, 5, 6)  # of a game of seed s: PLAYERS[s % 4], as bench/recordings.py films them


def game_dice(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The probabilities (rows in the enrolled faces' order) and true faces of the dice of each
    roll's first settled reading in the recorded game ``seed``."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        log = recording.record("excape", PLAYERS[seed % len(PLAYERS)], seed, folder)
        section = settings_mod.load(overrides={"app.state_dir": str(folder)}).section
        reader = DiceReader.from_settings(section("vision.dice"), empty_table=False)
        photos = {face: [cv2.imread(str(folder / path))] for face, path in log["faces"].items()}
        reader.enrolled = reader.enrol_faces(photos)
        watcher = TableWatcher(StableReader.from_settings(reader.read, section("vision.stillness")))
        frames, observations = watch_folder(folder / "frames", GameWatcher(dice=watcher))
        truth = Match.load(folder / "truth.json")
    faces = list(reader.enrolled.faces)
    states, rolls = truth.states(), log["rolls"]
    rows, labels = [], []
    for number, roll in enumerate(rolls):
        end = rolls[number + 1]["still"] if number + 1 < len(rolls) else frames
        shown = table_dice(states[roll["action"]]) + rolled_faces(truth.history[roll["action"]])
        first = next((o for o in observations if roll["still"] <= o.frame < end), None)
        if first is None or len(first.dice) != len(shown):
            continue  # nothing read, or a die missed or seen twice: no face to pair it with
        seen = first.faces()
        for d, f in greedy_pairs(seen, shown):
            rows.append([seen[d][face] for face in faces])
            labels.append(faces.index(shown[f]))
    return np.array(rows).reshape(-1, len(faces)), np.array(labels, int)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=10, help="games recorded, seeds 0 to N - 1 (default 10)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    games = []
    for seed in range(args.seeds):
        probabilities, truth = stacked([game_dice(seed)])
        games.append((probabilities, truth))
        wrong = int((probabilities.argmax(axis=1) != truth).sum())
        own = (f"its own fit {SHARPNESS / fit(probabilities, truth):.0f}" if wrong
               else "any sharper scale fits it better")
        print(f"seed {seed}: {len(truth)} dice, {wrong} read as another face; {own}", flush=True)
    probabilities, truth = np.vstack([p for p, _ in games]), np.concatenate([t for _, t in games])
    temperature = fit(probabilities, truth)
    cooler, warmer = interval(probabilities, truth, temperature)
    if (probabilities.argmax(axis=1) == truth).all():  # then every sharper scale fits better: no optimum
        print(f"all {len(truth)} dice read right: sharpness {SHARPNESS / warmer:.0f} or more (90 %); "
              f"read at SHARPNESS = {SHARPNESS:g}")
    else:
        print(f"all {len(truth)} dice: sharpness {SHARPNESS / temperature:.0f} (90 % interval "
              f"{SHARPNESS / warmer:.0f}-{SHARPNESS / cooler:.0f}); read at SHARPNESS = {SHARPNESS:g}")


if __name__ == "__main__":
    main()
