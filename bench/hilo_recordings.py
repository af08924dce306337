"""The live card loop on seeded synthetic recordings of Hilo rounds: how many of the actions the
camera should see are applied right, and how soon.

``--rounds`` rounds (default 20; 2 to 6 players in turn, 2 for seeds that are multiples of 5,
on the mats printed for Hilo: A2 for 2 and 3, A1 for 4 to 6) with seeds from ``--first-seed``
(default 1000; seeds 0-9 and 1000-1009 were looked at while tuning, 3000 on were not) are filmed
by ``vision/synth/card_recording.py`` into a temporary folder and played through the loop of
``table-assistant watch hilo FRAMES --truth truth.json`` in process: the synthetic deck enrolled
as `calibrate cards --synthetic` does, ``CardWatcher`` on the frames, ``Play`` judging each event
against the truth. One still table in ten (from the first turn) is followed by
two face-up cards of a grid swapped for a second, then put back (no move explains it), and one
in ten by a card of a grid's side column pushed half off its place for a second (no move at
all); before each drawn card is laid, the player holds it still over their grid for a second.
Printed per round and in all: the steps the camera should see, applied right (auto_right), applied wrong,
offered right, missed, contradictions, the median latency from a still table's first frame to its
event, and the ms per frame reading (one thread; only still frames are read); the swaps said as
contradictions, and how soon (target: within 1 s); what the camera did while a card lay off its
place (said, offered, applied: target none, or silent); the events while a drawn card was held
(target: none); then each other event not applied right, with what the camera said.

    .venv/bin/python bench/hilo_recordings.py [--rounds 20] [--first-seed 1000]
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
from assistant.commands.watch import Play, card_watcher
from engine.match import Match
from vision.live import GameWatcher
from vision.synth.card_recording import record
from _watching import (COUNTS, during_planted, line, notes, off_line, offs_seen, summary, swap_line, swaps_said,
                       watched)


def players_of(seed: int) -> int:
    return 2 + seed % 5


def play_round(seed: int, state: Path, folder: Path) -> tuple[dict, dict, Play, float]:
    players = players_of(seed)
    log = record(players, seed, folder, events=("swap", "hold", "off"))
    settings = settings_mod.load(overrides={"app.state_dir": str(state)})
    truth = Match.load(folder / "truth.json")
    play = Play(Match(truth.game, truth.players), truth, settings["camera.auto_apply"])
    report, ms = watched(folder / "frames", GameWatcher(cards=card_watcher(settings, "hilo")), play)
    return log, report, play, ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=1000)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    totals, latencies, read_ms, misread, delays = Counter(), [], [], [], []
    with tempfile.TemporaryDirectory() as name:
        state = Path(name) / "state"
        with contextlib.redirect_stdout(io.StringIO()):
            cli.main(["--set", f"app.state_dir={state}", "calibrate", "cards", "--synthetic"])
        for seed in range(args.first_seed, args.first_seed + args.rounds):
            with tempfile.TemporaryDirectory() as recording:
                log, report, play, ms = play_round(seed, state, Path(recording))
            totals.update({key: report[key] for key in COUNTS})
            delays += swaps_said(log, play, totals)
            offs_seen(log, play, totals)
            for hold in (p for p in log["planted"] if p["kind"] == "hold"):
                totals["holds"] += 1
                totals["hold_events"] += sum(hold["still"] <= o.frame < hold["until"] for o, _ in play.events)
            latencies.append(report["latency_s_median"])
            read_ms.append(ms)
            print(f"seed {seed} ({players_of(seed)} players): " + line(report) + f"; latency {report['latency_s_median']} s; {ms:.1f} ms a frame", flush=True)
            misread += notes(seed, play, during_planted(log))
    print(f"Hilo, {args.rounds} rounds (seeds {args.first_seed}-{args.first_seed + args.rounds - 1}): "
          + summary(totals, latencies, read_ms))
    print(swap_line("two cards of a grid", totals, delays))
    print(off_line(totals))
    print(f"  a drawn card held still over the grid: {totals['holds']} times, {totals['hold_events']} events meanwhile")
    for note in misread:
        print(f"    {note}")


if __name__ == "__main__":
    main()
