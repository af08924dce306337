"""A real crash: a child process plays match after match and is killed with SIGKILL mid-game.

Run as a script, this file is the child: ``python test_session_crash.py DATABASE SEED``.
"""
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from assistant.session import Session  # noqa: E402
from assistant.store import Store  # noqa: E402
from engine import registry  # noqa: E402
from engine.match import Match  # noqa: E402
from toy_game import ToyGame  # noqa: E402

registry.register(ToyGame)


def scripted_matches(seed):
    """The child's matches, deterministically: each one a list of action lines."""
    rng = random.Random(seed)
    while True:
        match = Match(ToyGame(2), ["Ana", "Ben"])
        while not match.state.is_terminal():
            state = match.state
            match.push(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
        yield match.lines()


def child(database, seed):
    session = Session(Store(database))
    for lines in scripted_matches(seed):
        session.new_match("toy", ["Ana", "Ben"])
        for line in lines:
            view = session.play(line)
            assert view.moves and view.last == line, view.message
            print(view.match_id, view.moves, flush=True)


def test_kill_9_mid_game_loses_nothing_and_resumes_exactly(tmp_path):
    database = tmp_path / "records.sqlite3"
    seed = 11
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    proc = subprocess.Popen([sys.executable, __file__, str(database), str(seed)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    reported = []
    try:
        while len(reported) < 60:
            line = proc.stdout.readline()
            assert line, f"the child stopped early: {proc.stderr.read()}"
            reported.append(tuple(map(int, line.split())))
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL

    with Store(database) as store:
        assert store.notice is None
        expected = scripted_matches(seed)
        match_ids = sorted({m for m, _ in reported})
        last_id = max(match_ids)
        for match_id in match_ids:
            lines = list(store.load_match(match_id).lines)
            wanted = next(expected)
            if match_id < last_id:
                assert lines == wanted
            else:
                # everything reported was on disk; at most the action being written when killed is extra
                told = max(n for m, n in reported if m == match_id)
                assert told <= len(lines) <= told + 1 and lines == wanted[:len(lines)]
        # the child was killed mid-game (or just after starting the next one): resume reopens it
        unfinished = store.unfinished()
        if not unfinished:  # killed between two matches: the last one was stored as finished
            assert store.load_match(last_id).status == "finished"
            assert Session(store).resume().message.text == "there is no unfinished game to resume"
            return
        [resumable] = unfinished
        assert resumable.id >= last_id
        resumed = Session(store)
        view = resumed.resume()
        replayed = Match(ToyGame(2), ["Ana", "Ben"])
        for line in store.load_match(resumable.id).lines:
            replayed.push(line)
        assert view.screen == "game" and view.match_id == resumable.id
        assert resumed.position == replayed.state and view.moves == resumable.moves
        again = Session(store)
        again.resume()  # a second reopening sees the same thing
        assert again.position == replayed.state

if __name__ == "__main__":
    child(sys.argv[1], int(sys.argv[2]))
