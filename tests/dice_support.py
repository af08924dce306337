"""Shared by the dice tests: the dice reader as the default settings build it (built once), and
recordings of rendered dice tables for the live loop."""
import functools
import itertools
import math
from pathlib import Path

import numpy as np

from assistant import settings
from vision.dice import DiceReader
from vision.synth.dice import Look, render_scene


def dice_settings(**changes):
    nowhere = Path("/nonexistent")
    section = settings.load(env={}, system_file=nowhere, user_path=nowhere).section("vision.dice")
    return {**section, **changes}


@functools.lru_cache(maxsize=1)
def reader() -> DiceReader:
    return DiceReader.from_settings(dice_settings())


LOOK = Look(background="wood")
HAND_FRAMES, STILL_FRAMES = 3, 9


def table(faces, seed):
    """A wooden table with white dice showing ``faces``, each rendered where it clears the others."""
    image = render_scene(seed, size=(320, 240), count=0, look=LOOK).image
    placed = []
    for n, face in enumerate(faces):
        for attempt in itertools.count(100 * seed + 10 * n):
            scene = render_scene(attempt, count=1, die_px=36, faces=(face,), colours=("white",), look=LOOK,
                                 backdrop=image)
            if all(math.hypot(scene.dice[0].x - o.x, scene.dice[0].y - o.y) > 2.5 * o.size for o in placed):
                break
        image = scene.image
        placed.append(scene.dice[0])
    return image


def frames(tables):
    """Each table after a hand has swept over the one before, then still with sensor noise."""
    rng = np.random.default_rng(1)
    previous = np.full_like(tables[0], 128)
    for image in tables:
        for step in range(HAND_FRAMES):
            swept = previous.copy()
            swept[40:200, 90 * step:90 * step + 110] = (70, 95, 150)
            yield swept
        for _ in range(STILL_FRAMES):
            yield np.clip(image + rng.normal(0, 2, image.shape), 0, 255).astype(np.uint8)
        previous = image
