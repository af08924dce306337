"""A real crash, for tests/assistant/test_session_crash.py and bench/kill9.py: a child process
plays scripted toy matches on a database and reports each action once the session has it; it is
killed with SIGKILL; ``check`` then opens the database as the kiosk does and says what differs
from what was reported.

Run as a script, this file is the child: ``python crash_support.py DATABASE SEED``.
"""
from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from assistant.session import Session  # noqa: E402
from assistant.store import Store  # noqa: E402
from engine import registry  # noqa: E402
from engine.match import Match  # noqa: E402
from toy_game import ToyGame  # noqa: E402

registry.register(ToyGame)


def script(seed: int, match_id: int) -> list[str]:
    """The action lines the child plays in match ``match_id``, the same every time."""
    rng = random.Random(f"{seed} {match_id}")
    match = Match(ToyGame(2), ["Ana", "Ben"])
    while not match.state.is_terminal():
        state = match.state
        match.push(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    return match.lines()


def child(database: str, seed: int) -> None:
    """Resume the unfinished match, if any, where its records leave it, then play new matches,
    printing "MATCH MOVES" after each action the session acknowledged."""
    session = Session(Store(database))
    view = session.resume()
    while True:
        if view.screen == "game":
            play_rest(session, script(seed, view.match_id)[view.moves:])
        view = session.new_match("toy", ["Ana", "Ben"])


def play_rest(session: Session, lines) -> None:
    for line in lines:
        view = session.play(line)
        assert view.moves and view.last == line, view.message
        print(view.match_id, view.moves, flush=True)


def start_child(database: Path, seed: int) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    return subprocess.Popen([sys.executable, __file__, str(database), str(seed)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def killed(proc: subprocess.Popen, reported: dict[int, int]) -> int:
    """Kill the child (if still alive) and take what it printed before it died into ``reported``;
    how many reports that was. Read through ``proc.stdout`` itself: ``communicate`` reads the pipe
    underneath it and would lose the lines that ``readline`` has already buffered."""
    proc.kill()
    count = read_reports(proc.stdout.read(), reported)
    proc.stderr.read()
    proc.wait(timeout=30)
    return count


def read_reports(text: str, reported: dict[int, int]) -> int:
    """Take the child's "MATCH MOVES" lines in ``text`` into ``reported``; how many there were
    (what it printed before it died counts too: those actions were acknowledged)."""
    lines = text.split()
    for match_id, moves in zip(lines[::2], lines[1::2]):
        reported[int(match_id)] = int(moves)
    return len(lines) // 2


def check(database: Path, seed: int, reported: dict[int, int]) -> list[str]:
    """What is wrong with the records after a kill, given the moves reported for each match
    (``reported``: match id -> last moves count acknowledged): [] when every acknowledged action is
    there, in order, at most one being written is extra, a match is finished when all its actions
    are there, and the unfinished match resumes exactly where the records leave it."""
    problems = []
    with Store(database) as store:
        if store.notice is not None:
            problems.append(f"notice at opening: {store.notice}")
        last_id = max(reported)
        for match_id in sorted(reported):
            record = store.load_match(match_id)
            lines, wanted, told = list(record.lines), script(seed, match_id), reported[match_id]
            # one more than acknowledged: the action being written when a kill came (a match it
            # finished is not resumed, so its last action is never acknowledged)
            if not told <= len(lines) <= told + 1 or lines != wanted[:len(lines)] \
                    or (record.status == "finished") != (len(lines) == len(wanted)):
                problems.append(f"match {match_id}: {len(lines)} lines on disk, {told} acknowledged")
        unfinished = store.unfinished()
        if len(unfinished) > 1:
            problems.append(f"{len(unfinished)} unfinished matches")
        if unfinished:
            [resumable] = unfinished
            view = Session(store).resume()
            replayed = Match(ToyGame(2), ["Ana", "Ben"])
            for line in store.load_match(resumable.id).lines:
                replayed.push(line)
            again = Session(store)
            again.resume()
            if view.match_id != resumable.id or view.moves != resumable.moves or again.position != replayed.state:
                problems.append(f"match {resumable.id} did not resume where its records are")
        elif store.load_match(last_id).status != "finished":
            problems.append(f"match {last_id} neither finished nor resumable")
    return problems


if __name__ == "__main__":
    child(sys.argv[1], int(sys.argv[2]))
