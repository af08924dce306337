"""What the camera sees, for the camera screen: the camera's threads publish an immutable
``Snapshot`` (the newest frame made small, the dice and cards last read with their outlines, the
stillness, the rates) that the screen polls; nobody waits on anybody. Imports no Kivy.
"""
from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass, replace
from typing import Callable

import cv2
import numpy as np

from vision.dice import DieReading
from vision.live_cards import label_probabilities

MOVING, STILL, SETTLED = "moving", "still", "settled"
PREVIEW_WIDTH = 640  # px of the frame shown (the screen scales it)
PREVIEW_EVERY_S = 0.2  # a new small frame at most this often: the screen polls a few times a second


@dataclass(frozen=True)
class SeenCard:
    """A card read: its corners (frame pixels, clockwise), its likeliest label ("blue 7",
    "face-down") and how sure the reader is of it."""

    corners: np.ndarray
    label: str
    sure: float


@dataclass(frozen=True)
class Snapshot:
    image: np.ndarray | None = None  # the newest frame, PREVIEW_WIDTH wide, RGB, top row first
    size: tuple[int, int] = (0, 0)  # the camera frame's (width, height): the dice's boxes are in its pixels
    dice: tuple[DieReading, ...] = ()  # the last reading of a still table (none while it moves)
    zones: tuple[str | None, ...] = ()  # on a mat, the zone of each die settled (vision.live.Observation)
    cards: tuple[SeenCard, ...] = ()  # the cards on the play mat, likewise
    stillness: str = ""  # MOVING, STILL (being read), SETTLED (read and agreed); "" before the reader runs
    fps: float = 0.0  # frames a second from the camera
    loop_fps: float = 0.0  # frames a second the reader's loop took (the others were dropped)
    read_ms: float = 0.0  # the dice reader's time for its last read
    lost: bool = False  # no frames come at the moment (the camera retries)


class Rate:
    """Events a second over the last ``window`` seconds."""

    def __init__(self, window: float = 2.0):
        self.window = window
        self._times: deque[float] = deque()

    def tick(self, now: float) -> float:
        self._times.append(now)
        while now - self._times[0] > self.window:
            self._times.popleft()
        span = now - self._times[0]
        return (len(self._times) - 1) / span if span > 0 else 0.0


class CameraFeed:
    """The holder between the camera's threads (``show``, ``timed``, ``fed``, ``cards_fed``,
    ``status``) and the camera screen (``snapshot``, ``auto_apply``, ``seat_colours``)."""

    def __init__(self, auto_apply: float, clock: Callable[[], float] = time.monotonic):
        self.auto_apply = auto_apply  # what a corrected reading needs to be applied (camera.auto_apply)
        self.seat_colours: tuple[str, ...] = ()  # the judged match's (camera_policy.seat_dice_colours)
        self.snapshot = Snapshot()  # replaced, never changed: read it without a lock
        self._clock = clock
        self._lock = threading.Lock()
        self._camera_rate, self._loop_rate = Rate(), Rate()
        self._shown_at: float | None = None
        self._read: tuple[DieReading, ...] | None = None  # read since the last frame fed
        self._settled = False
        self._cards_read: tuple = ()  # the card watcher's readings shown

    def _publish(self, **changes) -> None:
        with self._lock:
            self.snapshot = replace(self.snapshot, **changes)

    def show(self, image: np.ndarray) -> None:
        """A frame came from the camera (on the capture thread): count it, and keep it small
        now and then."""
        now = self._clock()
        fps = self._camera_rate.tick(now)
        if self._shown_at is not None and now - self._shown_at < PREVIEW_EVERY_S:
            self._publish(fps=fps)
            return
        self._shown_at = now
        height, width = image.shape[:2]
        small = cv2.resize(image, (PREVIEW_WIDTH, max(1, round(height * PREVIEW_WIDTH / width))),
                           interpolation=cv2.INTER_AREA)
        small = cv2.cvtColor(small, cv2.COLOR_BGR2RGB)
        small.flags.writeable = False
        self._publish(image=small, size=(width, height), fps=fps)

    def status(self, lost: bool) -> None:
        self._publish(lost=lost)

    def timed(self, read: Callable[..., list]) -> Callable[..., list]:
        """``read`` (the dice reader: a frame and, optionally, the area to read and the dice's
        sides), keeping what it read and how long it took."""
        def timed_read(image: np.ndarray, *where) -> list:
            start = time.perf_counter()
            dice = read(image, *where)
            self._read = tuple(dice)
            self._publish(read_ms=(time.perf_counter() - start) * 1000)
            return dice
        return timed_read

    def fed(self, watcher) -> None:
        """``watcher`` (a vision.live.TableWatcher) has taken a frame (on the reader's thread)."""
        gate = watcher.stable.gate
        read, self._read = self._read, None
        dice, zones = self.snapshot.dice, self.snapshot.zones
        if gate.motion > gate.moving_fraction:  # the gate closes, and the vote starts again
            self._settled, stillness, dice, zones = False, MOVING, (), ()
        elif watcher.settled:  # the dice it settled on, reported or not (a hand passed), in their zones
            self._settled, stillness = True, SETTLED
            dice, zones = watcher.table.dice, watcher.table.zones
        elif self._settled:
            stillness = SETTLED
        elif read is not None:
            stillness, dice, zones = STILL, read, ()
        else:
            stillness = MOVING  # quiet, but not for long enough yet
        self._publish(dice=dice, zones=zones, stillness=stillness, loop_fps=self._loop_rate.tick(self._clock()))

    def cards_fed(self, watcher, alone: bool) -> None:
        """``watcher`` (a vision.live_cards.CardWatcher, or None where no card is read) has taken a
        frame (on the reader's thread); ``alone``: no dice are read, so the stillness, the loop's
        rate and the time a read takes are the cards'."""
        readings = watcher.readings if watcher is not None else ()
        changes = {}
        if readings is not self._cards_read:
            self._cards_read = readings
            changes["cards"] = tuple(seen_card(reading, watcher.cards) for reading in readings)
        if alone and watcher is not None:
            gate = watcher.gate
            changes.update(
                stillness=MOVING if gate.motion > gate.moving_fraction or not readings
                else SETTLED if watcher.settled else STILL,
                read_ms=watcher.read_ms, loop_fps=self._loop_rate.tick(self._clock()))
        if changes:
            self._publish(**changes)


def seen_card(reading, cards=None) -> SeenCard:
    """A vision.cards.CardReading as the view shows it: its likeliest label among the deck's
    ``cards`` (any, when None), as sure as the live loop takes it to be."""
    labels = label_probabilities(reading, cards)
    label = max(labels, key=labels.get)
    return SeenCard(reading.corners, label, labels[label])


def corrected(die: DieReading, face: str) -> DieReading:
    """``die`` read as ``face`` for sure (the players said so)."""
    return replace(die, faces={known: float(known == face) for known in die.faces})
