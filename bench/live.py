"""The kiosk's live loop at 1280x720 on one OpenCV thread: its cost per frame without the dice
reader (the hand-over from the capture thread, the camera screen's small frame, the stillness
gate and TableWatcher's bookkeeping; target <= 5 ms), a read of a still frame with 6 dice (target
<= 40 ms), median and p90; then, with a camera on its own thread, how many frames a second the
loop takes while the reader reads every one (as it does on a still table until its vote agrees):
the frames that come faster are dropped, never queued.

    .venv/bin/python bench/live.py        (from the repository root)

Seeded synthetic turns (vision.synth.dice.render_scene: a hand sweeps over the table, then it
lies still with sensor noise); prints figures, asserts nothing.
"""
from __future__ import annotations

import _one_core  # noqa: F401  (first: one BLAS thread, as on the kiosk)

import statistics
import time
from typing import Iterator

import cv2
import numpy as np

from assistant import settings as settings_mod
from assistant.camera_feed import CameraFeed
from vision.capture import Camera, CaptureThread, Frame, LatestFrame, SyntheticSource
from vision.dice import DiceReader
from vision.live import TableWatcher
from vision.stillness import StableReader, StillnessGate
from vision.synth.dice import Look, render_scene

SIZE = (1280, 720)
SCENES = range(12)
HAND_FRAMES, STILL_FRAMES = 3, 9  # of each turn
CAMERA_FPS = (15.0, 30.0)
RUN_S = 6.0


def scene(seed: int) -> np.ndarray:
    return render_scene(seed, size=SIZE, count=6, die_px=40, look=Look(background="felt", lean=0.2)).image


def turn(image: np.ndarray, before: np.ndarray, rng: np.random.Generator) -> Iterator[np.ndarray]:
    """A hand sweeping over ``before``, then ``image`` still, with sensor noise."""
    for step in range(HAND_FRAMES):
        swept = before.copy()
        swept[150:600, 400 * step:400 * step + 300] = (70, 95, 150)
        yield swept
    for _ in range(STILL_FRAMES):
        yield np.clip(image + rng.normal(0, 2, image.shape), 0, 255).astype(np.uint8)


def figures(name: str, times: list[float]) -> str:
    return f"{name} median {statistics.median(times):.2f} ms, p90 {sorted(times)[int(0.9 * len(times))]:.2f} ms"


def loop_cost(scenes: list[np.ndarray], readings: list[list], stillness) -> float:
    """Per frame of every turn, the reader replaced by the dice it read on that scene."""
    now = [0.0]
    feed = CameraFeed(auto_apply=1.0, clock=lambda: now[0])
    current = [0]
    watcher = TableWatcher(StableReader.from_settings(feed.timed(lambda image: readings[current[0]]), stillness))
    box, gate = LatestFrame(), StillnessGate.from_settings(stillness)
    hand_over, watched, gated = [], [], []
    rng = np.random.default_rng(0)
    index = 0
    for number, image in enumerate(scenes):
        current[0] = number
        for still in turn(image, scenes[number - 1], rng):
            now[0] += 1 / CAMERA_FPS[0]
            start = time.perf_counter()
            feed.show(still)
            box.put(Frame(still, now[0], index, "bench"))
            frame = box.get()
            handed = time.perf_counter()
            watcher.feed(frame.index, frame.image)
            feed.fed(watcher)
            done = time.perf_counter()
            gate.update(still)
            hand_over.append((handed - start) * 1000)
            watched.append((done - handed) * 1000)
            gated.append((time.perf_counter() - done) * 1000)
            index += 1
    total = [a + b for a, b in zip(hand_over, watched)]
    print(f"live loop without the reader, {SIZE[0]}x{SIZE[1]}, {index} frames of {len(scenes)} turns, 1 thread: "
          f"{figures('per frame', total)} (target <= 5 ms)", flush=True)
    print(f"  of which {figures('hand-over + small frame', hand_over)}; {figures('TableWatcher', watched)} "
          f"(the stillness gate alone: {figures('', gated).strip()})", flush=True)
    return statistics.median(total)


def read_cost(reader: DiceReader, scenes: list[np.ndarray]) -> float:
    times = []
    for image in scenes * 3:
        start = time.perf_counter()
        reader.read(image)
        times.append((time.perf_counter() - start) * 1000)
    print(f"dice reader, still {SIZE[0]}x{SIZE[1]} frame with 6 dice, 1 thread: {figures('read', times)} "
          f"(target <= 40 ms)", flush=True)
    return statistics.median(times)


def keeping_up(reader: DiceReader, image: np.ndarray, stillness, fps: float) -> None:
    """The camera on its own thread at ``fps``; this thread takes the newest frame and reads it."""
    rng = np.random.default_rng(1)
    frames = [np.clip(image + rng.normal(0, 2, image.shape), 0, 255).astype(np.uint8) for _ in range(8)]
    camera = Camera([SyntheticSource(lambda i: frames[i % len(frames)])], fps=fps)
    feed, box, gate = CameraFeed(auto_apply=1.0), LatestFrame(), StillnessGate.from_settings(stillness)
    given, taken, lags = [0], 0, []

    def arrived(frame: Frame) -> None:
        given[0] = frame.index
        feed.show(frame.image)
        box.put(frame)

    capture = CaptureThread(camera, arrived).start()
    start = time.perf_counter()
    while time.perf_counter() - start < RUN_S:
        frame = box.get(timeout=1.0)
        if frame is None:
            continue
        lags.append(given[0] - frame.index)
        gate.update(frame.image)
        reader.read(frame.image)
        taken += 1
    elapsed = time.perf_counter() - start
    capture.stop()
    print(f"camera at {fps:.0f} fps on its own thread, every frame taken read: the loop takes "
          f"{taken / elapsed:.1f} frames/s, {box.dropped} of {given[0] + 1} frames dropped, the frame read "
          f"at most {max(lags)} behind the newest", flush=True)


def main() -> None:
    cv2.setNumThreads(1)
    settings = settings_mod.load()
    stillness = settings.section("vision.stillness")
    reader = DiceReader.from_settings(settings.section("vision.dice"))
    scenes = [scene(seed) for seed in SCENES]
    readings = [reader.read(image) for image in scenes]
    loop_ms = loop_cost(scenes, readings, stillness)
    read_ms = read_cost(reader, scenes)
    for fps in CAMERA_FPS:
        keeping_up(reader, scenes[0], stillness, fps)
    print(f"so while reading, one core keeps up with about {1000 / (loop_ms + read_ms):.0f} frames/s "
          "(1000 / the medians of the loop and the read)")


if __name__ == "__main__":
    main()
