"""The dice reader as the default settings build it, shared by the dice tests (built once)."""
import functools
from pathlib import Path

from assistant import settings
from vision.dice import DiceReader


def dice_settings(**changes):
    nowhere = Path("/nonexistent")
    section = settings.load(env={}, system_file=nowhere, user_path=nowhere).section("vision.dice")
    return {**section, **changes}


@functools.lru_cache(maxsize=1)
def reader() -> DiceReader:
    return DiceReader.from_settings(dice_settings())
