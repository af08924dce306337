"""The live loop on seeded synthetic recordings of Hold Up games, dice and cards on the mat: how
many of the steps the camera should see are applied right, and how soon.

``--games`` games (default 20; 3 to 5 players in turn, on the A2 mat printed for Hold Up; their
first ``--turns`` turns, default all) with seeds from ``--first-seed`` (default 1000; seeds 0-9
and 1000-1005 were looked at while building, 3000 on were not) are filmed by
``vision/synth/holdup_recording.py`` into a temporary folder and played through the loop of
``table-assistant watch holdup FRAMES --truth truth.json`` in process: the synthetic deck enrolled
as `calibrate cards --game holdup --synthetic` does, the card reader on the mat and the dice reader
in its dice zone, ``Play`` judging each event against the truth. One still table in ten is
followed by two cards of a row swapped for a second, then put back (no move explains it). Printed
per game and in all: the steps the camera should see (the deal's cards, each roll, each move of
the cards up to a still table), applied right, applied wrong, offered right, missed,
contradictions, the median latency from a still table's first frame to its event, the ms per
frame (one thread); the swaps said as contradictions, and how soon (target: within 1 s); then each
other event not applied right, with what the camera said.

    .venv/bin/python bench/holdup_recordings.py [--games 20] [--turns N] [--first-seed 1000]
"""
from __future__ import annotations

import _one_core  # noqa: F401  (first: one BLAS thread, as on the kiosk)

import argparse
import contextlib
import io
import tempfile
from collections import Counter
from pathlib import Path

import cv2

from assistant import cli
from assistant import settings as settings_mod
from assistant.commands.watch import Play, game_watcher
from engine.holdup.game import HoldUpGame
from engine.match import Match
from vision.synth.holdup_recording import record
from _watching import COUNTS, during_planted, line, notes, summary, swap_line, swaps_said, watched


def play_game(seed: int, players: int, turns: int | None, state: Path,
              folder: Path) -> tuple[dict, dict, Play, float]:
    log = record(players, seed, folder, turns, events=("swap",))
    settings = settings_mod.load(overrides={"app.state_dir": str(state)})
    truth = Match.load(folder / "truth.json")
    watcher = game_watcher(settings, HoldUpGame)
    play = Play(Match(truth.game, truth.players), truth, settings["camera.auto_apply"], watcher.reads)
    report, ms = watched(folder / "frames", watcher, play)
    return log, report, play, ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--turns", type=int, help="film only each game's first N turns (default: whole games)")
    parser.add_argument("--first-seed", type=int, default=1000)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    totals, latencies, frame_ms, misread, delays = Counter(), [], [], [], []
    with tempfile.TemporaryDirectory() as name:
        state = Path(name) / "state"
        with contextlib.redirect_stdout(io.StringIO()):
            cli.main(["--set", f"app.state_dir={state}", "calibrate", "cards", "--game", "holdup", "--synthetic"])
        for seed in range(args.first_seed, args.first_seed + args.games):
            players = 3 + seed % 3
            with tempfile.TemporaryDirectory() as recording:
                log, report, play, ms = play_game(seed, players, args.turns, state, Path(recording))
            totals.update({key: report[key] for key in COUNTS})
            delays += swaps_said(log, play, totals)
            latencies.append(report["latency_s_median"])
            frame_ms.append(ms)
            print(f"seed {seed} ({players} players): " + line(report)
                  + f"; latency {report['latency_s_median']} s; {ms:.1f} ms a frame", flush=True)
            misread += notes(seed, play, during_planted(log))
    print(f"Hold Up, {args.games} games (seeds {args.first_seed}-{args.first_seed + args.games - 1}"
          + (f", first {args.turns} turns" if args.turns else "") + "): " + summary(totals, latencies, frame_ms))
    print(swap_line("two cards of a row", totals, delays))
    for note in misread:
        print(f"    {note}")


if __name__ == "__main__":
    main()
