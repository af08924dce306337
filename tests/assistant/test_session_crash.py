"""A real crash: a child process plays match after match and is killed with SIGKILL mid-game
(tests/crash_support.py; bench/kill9.py does it hundreds of times on one database)."""
import signal
import subprocess
import sys

from crash_support import check, killed, read_reports, start_child


def kill_after(database, seed, actions: int, reported: dict[int, int]) -> None:
    """Start the child on ``database`` and SIGKILL it after ``actions`` acknowledged actions."""
    proc = start_child(database, seed)
    try:
        for _ in range(actions):
            line = proc.stdout.readline()
            assert line, f"the child stopped early: {proc.stderr.read()}"
            read_reports(line, reported)
        proc.send_signal(signal.SIGKILL)
    finally:
        killed(proc, reported)
    assert proc.returncode == -signal.SIGKILL


def test_kill_9_mid_game_loses_nothing_and_resumes_exactly(tmp_path):
    database, reported = tmp_path / "records.sqlite3", {}
    kill_after(database, 11, 60, reported)
    assert check(database, 11, reported) == []
    kill_after(database, 11, 25, reported)  # the next start resumes the match killed and goes on
    assert len(reported) > 1 and check(database, 11, reported) == []


def test_the_check_sees_a_lost_action(tmp_path):
    database, reported = tmp_path / "records.sqlite3", {}
    kill_after(database, 5, 30, reported)
    last = max(reported)
    reported[last] += 2  # two more acknowledged than the records can hold
    problems = check(database, 5, reported)
    assert len(problems) == 1 and problems[0].startswith(f"match {last}: ")
    assert problems[0].endswith(f" lines on disk, {reported[last]} acknowledged")


def test_what_the_child_printed_before_the_kill_counts_even_when_already_buffered():
    # three reports in one write: the first readline buffers all three and returns one
    proc = subprocess.Popen([sys.executable, "-c", "import time; print('4 1\\n4 2\\n4 3', flush=True); time.sleep(30)"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    reported: dict[int, int] = {}
    read_reports(proc.stdout.readline(), reported)
    assert killed(proc, reported) == 2 and reported == {4: 3}
