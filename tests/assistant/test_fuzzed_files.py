"""Seeded fuzzing of the files people give the command line: `replay` and `score hilo` read every
mutation without a traceback; a file they cannot use is one line on stderr naming it, exit 1."""
import json
import random

import pytest

from assistant import cli
from engine import registry
from engine.match import Match

MUTATIONS = 300

# Values a person's editor (or a bad disk) may leave where a valid one was.
ODD_VALUES = [None, True, 0, -1, 1.5, 2 ** 64, float("inf"), "", " ", "²", "٣", "1" * 5000, "\ud800", "\x00",
              [], {}, ["x"], {"name": 3}, [[[[[]]]]], "R7", "red 7", "roll 1 1", "p1"]
ODD_TEXTS = ["[" * 5000, '{"a":' * 3000, "1" * 5000, "²", "\\ud800", "NaN", "-Infinity", "1e999", "null", ",",
             "}", "]", '"', "\\", "\x00", "[1,2,3]", '{"x": 1}']


def played_match(game_id, seed, moves=30):
    game_class = registry.game_class(game_id)
    rng = random.Random(seed)
    match = Match(game_class(game_class.min_players), [f"Player {i + 1}" for i in range(game_class.min_players)])
    while len(match.history) < moves and not match.state.is_terminal():
        state = match.state
        match.push(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    return match.to_dict()


def mutate(data, rng):
    """One mutation of a JSON document: of its bytes, or of one of its values."""
    text = json.dumps(data, ensure_ascii=False, indent=1)
    kind = rng.randrange(10)
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
    elif isinstance(node[key], str):  # most often next to a digit, where a number is read
        word = node[key]
        digits = [i + 1 for i, char in enumerate(word) if char.isdigit()]
        at = rng.choice(digits) if digits and rng.random() < 0.8 else rng.randrange(len(word) + 1)
        node[key] = word[:at] + rng.choice(["²", "٣", "9" * 5000, "-", " ", "1", "0", "\x00"]) + word[at:]
    return json.dumps(data, ensure_ascii=False).encode("utf-8", "surrogatepass")


def _places(node):
    """(container, key) for every value under ``node``."""
    for key in (list(node) if isinstance(node, dict) else range(len(node))):
        yield node, key
        if isinstance(node[key], (dict, list)):
            yield from _places(node[key])


def check_one_line(capsys, argv, path):
    """Run the command; a refusal is one line naming the file, exit 1, and never a traceback."""
    code = cli.main(argv)
    out, err = capsys.readouterr()
    if code == 0:
        return "read"
    assert code == 1, (argv, err)
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert err.startswith(f"table-assistant {argv[0]}: {path}"), err
    return "refused"


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))


def test_replay_reads_every_mutated_match_file_or_refuses_it_in_one_line(tmp_path, capsys):
    rng = random.Random(2024)
    seeds = {game_id: played_match(game_id, 7) for game_id in ("excape", "hilo", "holdup", "splitter")}
    seen = {"read": 0, "refused": 0}
    for number in range(MUTATIONS):
        game_id = rng.choice(sorted(seeds))
        path = tmp_path / f"match-{number}.json"
        path.write_bytes(mutate(seeds[game_id], rng))
        seen[check_one_line(capsys, ["replay", game_id, str(path)], path)] += 1
    assert seen["refused"] > MUTATIONS // 2 and seen["read"] > 0, seen


ROUND = {"players": [{"name": "Ana", "grid": [["R7", "R2", "R9"], ["B1", "G0", "R-1"], ["B3", "G8", "R5"]]},
                     {"name": "Ben", "grid": [["O1", "O2", "O3"], ["Y4", "Y5", "Y6"], ["L7", "L8", "L9"]]}],
         "trigger": 0}


def test_score_hilo_reads_every_mutated_round_or_refuses_it_in_one_line(tmp_path, capsys):
    rng = random.Random(2025)
    seen = {"read": 0, "refused": 0}
    for number in range(MUTATIONS):
        path = tmp_path / f"round-{number}.json"
        path.write_bytes(mutate(ROUND, rng))
        seen[check_one_line(capsys, ["score", "hilo", str(path)], path)] += 1
    assert seen["refused"] > MUTATIONS // 2 and seen["read"] > 0, seen
