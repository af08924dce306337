"""Cost of the frame sources and of the serial panel's framing (what they add per frame/message).

Seeded; prints figures, passes or fails nothing. Run: python bench/capture.py
"""
from __future__ import annotations

import _one_core  # noqa: F401  (first: one BLAS thread, as on the kiosk)

import statistics
import tempfile
import threading
import time
from pathlib import Path

import cv2
import numpy as np

from hardware import serial_protocol as proto
from vision.capture import Camera, LatestFrame, SyntheticSource, VideoFileSource

SEED = 7
SIZE = (1280, 720)
FRAMES = 300


def scene(rng: np.random.Generator) -> np.ndarray:
    image = np.full((SIZE[1], SIZE[0], 3), (40, 90, 30), np.uint8)  # green felt
    for _ in range(12):
        x, y = int(rng.integers(50, SIZE[0] - 50)), int(rng.integers(50, SIZE[1] - 50))
        cv2.rectangle(image, (x - 30, y - 30), (x + 30, y + 30), (235, 235, 235), -1)
    noise = rng.normal(0, 6, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


def per_frame_ms(camera: Camera, count: int) -> list[float]:
    times = []
    for _ in range(count):
        start = time.perf_counter()
        camera.read()
        times.append((time.perf_counter() - start) * 1000)
    return times


def report(name: str, times_ms: list[float]) -> None:
    print(f"{name:<52} median {statistics.median(times_ms):7.3f} ms   "
          f"p95 {sorted(times_ms)[int(len(times_ms) * 0.95)]:7.3f} ms")


def main() -> None:
    cv2.setNumThreads(1)
    rng = np.random.default_rng(SEED)
    image = scene(rng)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    print(f"{SIZE[0]}x{SIZE[1]} frames, {FRAMES} each, one OpenCV thread")

    camera = Camera([SyntheticSource(lambda i: image)], fps=1e6)
    report("Camera.read, synthetic BGR frame (overhead)", per_frame_ms(camera, FRAMES))
    camera = Camera([SyntheticSource(lambda i: grey)], fps=1e6)
    report("Camera.read, synthetic grey frame (converted)", per_frame_ms(camera, FRAMES))

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "table.avi"
        writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30, SIZE)
        for _ in range(60):
            writer.write(scene(rng))
        writer.release()
        camera = Camera([VideoFileSource(str(path), loop=True)], fps=1e6)
        report("Camera.read, MJPEG video file (decode)", per_frame_ms(camera, FRAMES))
        camera.close()

    box, done, taken = LatestFrame(), threading.Event(), []
    camera = Camera([SyntheticSource(lambda i: image)], fps=1e6)

    def consume():
        while not done.is_set():
            if box.get(timeout=0.01) is not None:
                taken.append(1)
    consumer = threading.Thread(target=consume)
    consumer.start()
    start = time.perf_counter()
    for _ in range(FRAMES):
        box.put(camera.read())
    elapsed = time.perf_counter() - start
    done.set()
    consumer.join()
    print(f"{'LatestFrame.put from the camera thread':<52} {FRAMES / elapsed:9.0f} frames/s "
          f"({len(taken)} taken by a reader thread, {box.dropped} replaced unread)")

    bodies = [proto.scores([int(v) for v in rng.integers(-50, 200, 6)]) for _ in range(2000)]
    start = time.perf_counter()
    for body in bodies:
        proto.decode(proto.encode(body))
    elapsed = time.perf_counter() - start
    print(f"{'serial frame encode + decode (SCORES, 6 seats)':<52} {len(bodies) / elapsed:9.0f} messages/s")


if __name__ == "__main__":
    main()
