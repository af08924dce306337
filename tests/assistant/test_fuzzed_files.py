"""Seeded fuzzing of the files people give the command line and the calibration files the kiosk
keeps (tests/fuzz_support.py; bench/fuzz.py runs a thousand of each): every command that reads a
file reads each mutation or refuses it in one line naming the file, never with a traceback."""
import random
from collections import Counter

import pytest

from fuzz_support import Corpus, corpora, verdict

FAST = 300   # mutations for a command reading a text file (a few ms each)
PHOTOS = 40  # for a command reading a photo (tens of ms each)


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))


@pytest.fixture(scope="module")
def readers(tmp_path_factory):
    return {corpus.name: corpus for corpus in corpora(tmp_path_factory.mktemp("fuzz"))}


TEXT_READERS = ["replay GAME FILE", "watch GAME DIR --truth FILE", "score hilo FILE", "score splitter --pad A FILE",
                "--config FILE", "eval dice DIR (labels.csv)"]
PHOTO_READERS = ["score splitter --photo --match FILE", "score splitter --photo PHOTO", "score hilo --photo PHOTO",
                 "watch GAME VIDEO", "calibrate dice-background PHOTO"]
STATE_FILES = ["cards enrolment (cards.npz)", "enrolled dice faces (.npz)", "empty table (.png)"]


def fuzz(corpus: Corpus, folder, files: int) -> Counter:
    rng, seen = random.Random(corpus.name), Counter()
    for number in range(files):
        outcome, said = corpus.run(folder / f"file-{number}{corpus.suffix}", rng)
        assert outcome in ("read", "refused"), (corpus.name, number, outcome, said)
        seen[outcome] += 1
    return seen


@pytest.mark.parametrize("name", TEXT_READERS)
def test_every_mutated_file_is_read_or_refused_in_one_line(readers, name, tmp_path):
    files = FAST // 3 if name.startswith("eval") else FAST  # eval loads the dice reader each time
    seen = fuzz(readers[name], tmp_path, files)
    assert seen["refused"] > files // 2, seen  # most mutations break the file: the fuzzing reaches the checks


@pytest.mark.parametrize("name", STATE_FILES)
def test_every_mutated_calibration_file_is_read_or_refused_naming_it(readers, name, tmp_path):
    seen = fuzz(readers[name], tmp_path, FAST)
    assert seen["refused"] > FAST // 2, seen


@pytest.mark.parametrize("name", PHOTO_READERS)
def test_every_mutated_photo_is_read_or_refused_clearly(readers, name, tmp_path):
    fuzz(readers[name], tmp_path, PHOTOS)  # a photo damaged may still be read: each one is one or the other


def test_every_reading_command_is_fuzzed(readers):
    assert sorted(readers) == sorted(TEXT_READERS + PHOTO_READERS + STATE_FILES)


def test_the_verdict_sees_a_traceback_and_an_unclear_refusal(tmp_path, monkeypatch):
    path = tmp_path / "round.json"
    path.write_text("{}")
    monkeypatch.setattr("assistant.commands.score.run", lambda args, settings: 1 / 0)
    assert verdict(["score", "hilo", str(path)], [str(path)])[0] == "traceback"

    def unnamed(args, settings):
        raise ValueError("something is wrong")
    monkeypatch.setattr("assistant.commands.score.run", unnamed)
    assert verdict(["score", "hilo", str(path)], [str(path)]) == ("unclear", "exit 1: table-assistant score: "
                                                                  "something is wrong\n")
    monkeypatch.undo()
    assert verdict(["score", "hilo", str(path)], [str(path)])[0] == "refused"
