"""The live loop on recorded Splitter games: how often the camera applies a roll, offers it or
misses it, and where its time goes.

For each seed, ``../shared/tools/make_splitter_recording.py`` makes a recorded two-player game
(22 rolls, 528 frames at 15 fps) from the two-dice photos of ../shared/datasets/dice-webcam, in a
temporary folder; its frames go through the loop of ``table-assistant watch splitter DIR --truth``
(without a learnt empty table: the photos are from another camera). Printed per seed: watch's
counts and median latency, and the ms per frame (mean over all frames, one thread) of each stage:
the stillness gate, the dice reader, the vote over still readings, and the reconciliation of
settled readings with the game (``camera_policy.judge``); and the reader's median ms per read.

    .venv/bin/python bench/watch.py [--seeds 5 1 2 3]        (from the repository root)

Photos: dice-webcam (matteop65/Dice_Detection_Recognition, MIT).
"""
from __future__ import annotations

import _one_core  # noqa: F401  (first: one BLAS thread, as on the kiosk)

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2

from assistant import settings as settings_mod
from assistant.commands.watch import Play, watch
from engine.match import Match
from vision.capture import ImageFolderSource
from vision.live import GameWatcher, TableWatcher

ROOT = Path(__file__).resolve().parents[1]
PHOTOS = ROOT.parent / "shared" / "datasets" / "dice-webcam"
RECORDER = ROOT.parent / "shared" / "tools" / "make_splitter_recording.py"
FPS = 15.0  # the recorder's
COUNTS = ("auto_right", "auto_wrong", "confirm_right", "missed", "contradictions", "latency_s_median")


class Timed:
    """``call``, keeping the time of each call (ms)."""

    def __init__(self, call):
        self.call, self.times = call, []

    def __call__(self, *args):
        start = time.perf_counter()
        result = self.call(*args)
        self.times.append((time.perf_counter() - start) * 1000)
        return result

    @property
    def spent(self) -> float:
        return sum(self.times)


def run(folder: Path, settings: settings_mod.Settings) -> None:
    watcher = TableWatcher.from_settings(settings.section("vision.dice"), settings.section("vision.stillness"))
    stable = watcher.stable
    read, gate, vote = Timed(stable.read), Timed(stable.gate.update), Timed(stable.update)
    stable.read, stable.gate.update, stable.update = read, gate, vote
    truth = Match.load(folder / "truth.json")
    play = Play(Match(truth.game, truth.players), truth, settings["camera.auto_apply"])
    play.observe = judged = Timed(play.observe)
    source = ImageFolderSource(folder)
    source.open()
    try:
        frames = watch(source, GameWatcher(dice=watcher), play)
    finally:
        source.close()
    report = play.report(frames, FPS)
    print(f"  {json.dumps({k: report[k] for k in COUNTS})}")
    voting = vote.spent - gate.spent - read.spent  # StableReader.update less what it calls
    stages = {"stillness gate": gate.spent, "reader": read.spent, "vote": voting, "reconciliation": judged.spent}
    print(f"  {frames} frames, ms per frame: " + ", ".join(f"{name} {ms / frames:.2f}" for name, ms in stages.items())
          + f", all {sum(stages.values()) / frames:.2f}")
    print(f"  reader: {len(read.times)} reads (still frames), median {statistics.median(read.times):.1f} ms, "
          f"p90 {sorted(read.times)[int(0.9 * len(read.times))]:.1f} ms; reconciliation: {len(judged.times)} "
          f"settled readings, median {statistics.median(judged.times):.2f} ms", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[5, 1, 2, 3], help="recordings' seeds")
    args = parser.parse_args()
    if not PHOTOS.is_dir() or not RECORDER.is_file():
        print(f"watch: needs {PHOTOS} and {RECORDER}, skipped")
        return
    cv2.setNumThreads(1)
    settings = settings_mod.load()
    print(f"camera.auto_apply {settings['camera.auto_apply']}, "
          f"vision.dice.face_temperature {settings['vision.dice.face_temperature']}")
    for seed in args.seeds:
        with tempfile.TemporaryDirectory() as folder:
            subprocess.run([sys.executable, str(RECORDER), str(PHOTOS), folder, str(seed)], cwd=ROOT, check=True,
                           stdout=subprocess.DEVNULL)
            print(f"seed {seed}:")
            run(Path(folder), settings)


if __name__ == "__main__":
    main()
