"""Seeded mutations of the files people give the command line, and the verdict on one run, for
tests/assistant/test_fuzzed_files.py and bench/fuzz.py.

A command reading a mutated file either reads it (exit 0) or refuses it, exit 1 (2 for a
configuration file), in one line on stderr naming the file (a photo of a Hilo table: a line for
each place it could not read, each naming the file); anything else is "unclear" or a
"traceback" (an exception out of ``cli.main``).
"""
from __future__ import annotations

import contextlib
import io
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from assistant import cli  # noqa: E402
from engine import registry  # noqa: E402
from engine.match import Match  # noqa: E402

# Values a person's editor (or a bad disk) may leave where a valid one was.
ODD_VALUES = [None, True, 0, -1, 1.5, 2 ** 64, float("inf"), "", " ", "²", "٣", "1" * 5000, "\ud800", "\x00",
              [], {}, ["x"], {"name": 3}, [[[[[]]]]], "R7", "red 7", "roll 1 1", "p1"]
ODD_TEXTS = ["[" * 5000, '{"a":' * 3000, "1" * 5000, "²", "\\ud800", "NaN", "-Infinity", "1e999", "null", ",",
             "}", "]", '"', "\\", "\x00", "[1,2,3]", '{"x": 1}', "=", "[[", '"""', "\t", "\r", "\n", "#", ";",
             "é", "\ufeff", "0x1F", "1_000", "true", "-0", "\u202e"]
ODD_WORDS = ["²", "٣", "9" * 5000, "-", " ", "1", "0", "\x00", "-1", "nan", "inf", "true", '"', "'", "é", ""]


def played_match(game_id: str, seed: int, moves: int = 30) -> dict:
    """A match of ``game_id`` played at random, as a match file holds it."""
    game_class = registry.game_class(game_id)
    rng = random.Random(seed)
    match = Match(game_class(game_class.min_players), [f"Player {i + 1}" for i in range(game_class.min_players)])
    while len(match.history) < moves and not match.state.is_terminal():
        state = match.state
        match.push(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    return match.to_dict()


def mutate_json(data, rng: random.Random) -> bytes:
    """One mutation of a JSON document: of its text, or of one of its values."""
    text = json.dumps(data, ensure_ascii=False, indent=1)
    kind = rng.randrange(10)
    if kind < 4:
        return mutate_text(text, rng, kind)
    # a value replaced, a key added or removed, a word edited, somewhere in the tree
    data = json.loads(text)
    node, key = rng.choice(list(_places(data)))
    if kind == 4:
        node[key] = rng.choice(ODD_VALUES)
    elif kind == 5:
        del node[key]
    elif kind == 6 and isinstance(node, dict):
        node[rng.choice(["extra", "name", "colour", "grid", "version", "\ud800"])] = rng.choice(ODD_VALUES)
    elif kind == 6:
        node.insert(rng.randrange(len(node) + 1), rng.choice(ODD_VALUES))
    elif isinstance(node[key], str):
        node[key] = _edited(node[key], rng)
    return json.dumps(data, ensure_ascii=False).encode("utf-8", "surrogatepass")


def mutate_text(text: str, rng: random.Random, kind: int | None = None) -> bytes:
    """One mutation of a text file (a sheet, a configuration, a labels.csv): of its bytes, a span,
    a line or a word."""
    kind = rng.randrange(7) if kind is None else kind
    if kind == 0:  # a bit flipped
        raw = bytearray(text.encode())
        raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
        return bytes(raw)
    if kind == 1:  # a span cut out or repeated
        start = rng.randrange(len(text))
        end = min(len(text), start + rng.randrange(1, 40))
        return (text[:start] + (text[start:end] * 2 if rng.random() < 0.5 else "") + text[end:]).encode()
    if kind == 2:  # odd text typed in
        at = rng.randrange(len(text))
        return (text[:at] + rng.choice(ODD_TEXTS) + text[at:]).encode("utf-8", "surrogatepass")
    if kind == 3:  # truncated
        return text[:rng.randrange(len(text))].encode()
    lines = text.split("\n")
    at = rng.randrange(len(lines))
    if kind == 4:  # a line removed or repeated
        lines[at:at + 1] = [] if rng.random() < 0.5 else [lines[at]] * 2
    elif kind == 5:  # two lines swapped
        other = rng.randrange(len(lines))
        lines[at], lines[other] = lines[other], lines[at]
    else:  # a word edited, most often next to a digit
        lines[at] = _edited(lines[at], rng)
    return "\n".join(lines).encode("utf-8", "surrogatepass")


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    """One mutation of a binary file (a photo): bits flipped, a span overwritten, repeated or cut."""
    raw = bytearray(data)
    kind = rng.randrange(4)
    if kind == 0:
        for _ in range(rng.choice((1, 4, 32))):
            raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
    elif kind == 1:
        start = rng.randrange(len(raw))
        size = min(len(raw) - start, rng.choice((8, 100, 2000)))
        raw[start:start + size] = rng.randbytes(size)
    elif kind == 2:
        start = rng.randrange(len(raw))
        raw[start:start] = raw[start:start + rng.randrange(1, 4000)]
    else:
        del raw[rng.randrange(len(raw)):]
    return bytes(raw)


def _edited(word: str, rng: random.Random) -> str:
    digits = [i + 1 for i, char in enumerate(word) if char.isdigit()]
    at = rng.choice(digits) if digits and rng.random() < 0.8 else rng.randrange(len(word) + 1)
    return word[:at] + rng.choice(ODD_WORDS) + word[at:]


def _places(node):
    """(container, key) for every value under ``node``."""
    for key in (list(node) if isinstance(node, dict) else range(len(node))):
        yield node, key
        if isinstance(node[key], (dict, list)):
            yield from _places(node[key])


def verdict(argv: list[str], named: list[str]) -> tuple[str, str]:
    """Run the command: ("read" | "refused" | "unclear" | "traceback", what it said).
    "refused": exit 1 or 2 and every line on stderr naming one of ``named``."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(argv)
    except SystemExit as exc:  # argparse: the command line itself is wrong, not the file
        return "unclear", f"exit {exc.code}: {err.getvalue()}"
    except Exception as exc:  # noqa: BLE001 - that is what this looks for
        return "traceback", f"{type(exc).__name__}: {exc}"[:300]
    said = err.getvalue()
    if code == 0:
        return "read", said
    lines = said.splitlines()
    if code in (1, 2) and lines and said.endswith("\n") and all(any(n in line for n in named) for line in lines):
        return "refused", said
    return "unclear", f"exit {code}: {said[:300]}"


SHEET = "0 0 5 5 5 5 0 0\n0 6 6 5 1 3 3 0\n2 6 6 4 4 1 3 6\n2 1 3 4 4 2 1 1\n3 1 1 1 2 2 5 6\n0 3 2 5 6 2 5 0\n0 0 4 1 3 4 0 0\n"
ROUND = {"players": [{"name": "Ana", "grid": [["R7", "R2", "R9"], ["B1", "G0", "R-1"], ["B3", "G8", "R5"]]},
                     {"name": "Ben", "grid": [["O1", "O2", "O3"], ["Y4", "Y5", "Y6"], ["L7", "L8", "L9"]]}],
         "trigger": 0}


class Corpus:
    """One reading command and the files it is fed: ``file(rng)`` a mutated file's bytes,
    ``argv(path)`` the command line reading it, ``named`` the paths a refusal may name. With
    ``load`` instead of ``argv``, the file is one the kiosk keeps in its state folder (an
    enrolment, the empty table) and ``load(path)`` is how every command reads it."""

    def __init__(self, name: str, suffix: str, file, argv=None, named=(), load=None):
        self.name, self.suffix, self.file, self.argv, self.named, self.load = name, suffix, file, argv, list(named), load

    def run(self, path: Path, rng: random.Random) -> tuple[str, str]:
        path.write_bytes(self.file(rng))
        if self.load is not None:
            return load_verdict(self.load, path)
        return verdict(self.argv(str(path)), [str(path), *self.named])


def load_verdict(load, path: Path) -> tuple[str, str]:
    """As ``verdict``, for a loader: it returns, or raises a ValueError naming the file (which the
    command line says in one line, and the kiosk on screen)."""
    try:
        load(path)
    except ValueError as exc:
        return ("refused" if str(path) in str(exc) and "\n" not in str(exc) else "unclear"), str(exc)
    except Exception as exc:  # noqa: BLE001 - that is what this looks for
        return "traceback", f"{type(exc).__name__}: {exc}"[:300]
    return "read", ""


def corpora(folder: Path, photos: bool = True) -> list[Corpus]:
    """Every command that reads a file a person gives it, with valid files to mutate; the photos,
    the enrolled deck and the empty recording they need are made in ``folder``. Without
    ``photos``, the commands reading photos are left out (their setup takes seconds)."""
    import cv2

    from assistant.commands.print_mat import mat_layout
    from assistant.splitter_sheets import splitter_sheet
    from vision.synth.cards import hilo_table
    from vision.synth.sheets import sheet_photo

    matches = {game_id: played_match(game_id, 7) for game_id in ("excape", "hilo", "holdup", "splitter")}
    empty = folder / "empty-recording"
    empty.mkdir()
    config = "\n".join(line for line in (ROOT / "config" / "default.toml").read_text().splitlines()
                       if line.strip() and not line.lstrip().startswith("#"))
    photo = sheet_photo(splitter_sheet("A"), seed=1, writer_seed=1, blur=0.5).image
    sheet_jpeg = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()
    (folder / "sheet.jpg").write_bytes(sheet_jpeg)
    labelled = folder / "labelled"
    labelled.mkdir()
    cv2.imwrite(str(labelled / "a.png"), cv2.resize(photo, (320, 240)))
    labels = "filename,xmin,ymin,xmax,ymax,label\na.png,10,10,60,60,3\na.png,100.5,20,150,70.25,6\n"

    def match_of(rng, games=tuple(matches)):
        game_id = rng.choice(games)
        return game_id, mutate_json(matches[game_id], rng)

    def chosen(rng, games, keep):
        game_id, data = match_of(rng, games)
        keep["game"] = game_id
        return data

    replayed, watched = {}, {}
    readers = [
        Corpus("replay GAME FILE", ".json", lambda rng: chosen(rng, tuple(matches), replayed),
               lambda p: ["replay", replayed["game"], p]),
        Corpus("watch GAME DIR --truth FILE", ".json", lambda rng: chosen(rng, ("excape", "holdup", "splitter"), watched),
               lambda p: ["watch", watched["game"], str(empty), "--truth", p], [str(empty)]),
        Corpus("score hilo FILE", ".json", lambda rng: mutate_json(ROUND, rng), lambda p: ["score", "hilo", p]),
        Corpus("score splitter --pad A FILE", ".txt", lambda rng: mutate_text(SHEET, rng),
               lambda p: ["score", "splitter", "--pad", "A", p]),
        Corpus("score splitter --photo --match FILE", ".json", lambda rng: mutate_json(matches["splitter"], rng),
               lambda p: ["score", "splitter", "--pad", "A", "--photo", str(folder / "sheet.jpg"), "--match", p]),
        Corpus("score splitter --photo PHOTO", ".jpg", lambda rng: mutate_bytes(sheet_jpeg, rng),
               lambda p: ["score", "splitter", "--pad", "A", "--photo", p]),
        Corpus("--config FILE", ".toml", lambda rng: mutate_text(config, rng), lambda p: ["--config", p, "config", "show"]),
        Corpus("eval dice DIR (labels.csv)", ".csv", lambda rng: mutate_text(labels, rng),
               lambda p: ["eval", "dice", str(_labels_in(labelled, p))], [str(labelled)]),
    ]
    if not photos:
        return [r for r in readers if "photo" not in r.name.lower() and "eval" not in r.name]
    state = f"app.state_dir={folder / 'state'}"
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli.main(["--set", state, "calibrate", "cards", "--synthetic"]) == 0
    table = hilo_table(mat_layout("hilo", "A2", 2), seed=3, all_face_up=True).frame
    table_jpeg = cv2.imencode(".jpg", table, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()
    video = folder / "recording.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 15, (320, 240))
    for frame in range(6):
        writer.write(cv2.resize(table, (320, 240)))
    writer.release()
    recording = video.read_bytes()
    return readers + [
        Corpus("score hilo --photo PHOTO", ".jpg", lambda rng: mutate_bytes(table_jpeg, rng),
               lambda p: ["--set", state, "score", "hilo", "--photo", p, "--ended-by", "0"]),
        Corpus("watch GAME VIDEO", ".avi", lambda rng: mutate_bytes(recording, rng),
               lambda p: ["--set", state, "watch", "splitter", p, "--json"]),
        Corpus("calibrate dice-background PHOTO", ".jpg", lambda rng: mutate_bytes(table_jpeg, rng),
               lambda p: ["--set", state, "calibrate", "dice-background", p]),
        *state_files(folder / "state"),
    ]


def state_files(state: Path) -> list[Corpus]:
    """The calibration files the kiosk keeps in ``state`` (the cards enrolled there already), each
    with the loader every command reads it with."""
    import numpy as np

    from vision.card_model import CardModel
    from vision.dice_background import TableBackground
    from vision.dice_faces import SQUARE, EnrolledFaces

    rng = np.random.default_rng(0)
    EnrolledFaces(("1", "X"), rng.random((4, SQUARE * SQUARE), dtype=np.float32), np.array([0, 0, 1, 1])).save(
        state / "faces.npz")
    TableBackground(rng.integers(0, 255, (48, 64), dtype=np.uint8)).save(state / "background.png")
    files = {name: (state / name).read_bytes() for name in ("cards.npz", "faces.npz", "background.png")}
    return [Corpus("cards enrolment (cards.npz)", ".npz", lambda r: mutate_bytes(files["cards.npz"], r),
                   load=CardModel.load),
            Corpus("enrolled dice faces (.npz)", ".npz", lambda r: mutate_bytes(files["faces.npz"], r),
                   load=EnrolledFaces.load),
            Corpus("empty table (.png)", ".png", lambda r: mutate_bytes(files["background.png"], r),
                   load=TableBackground.load)]


def _labels_in(folder: Path, path: str) -> Path:
    """The mutated file as ``folder``'s labels.csv."""
    (folder / "labels.csv").write_bytes(Path(path).read_bytes())
    return folder
