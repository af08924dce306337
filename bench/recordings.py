"""The live loop on seeded synthetic recordings of whole dice games: how many camera actions are
applied right, how soon a stray die is said, and what a knocked die makes the camera do.

For each dice game, Excape (3 to 6 players: 3 + seed mod 4), Splitter (2 players) and Hold Up
4D6 (3 players), ``--games`` whole games (default 20) with seeds from ``--first-seed`` (default
1000; the recordings were tuned on seeds 0-9 only) are filmed by ``vision/synth/recording.py``
into a temporary folder, with a stray die planted one roll in 20. The frames go through the loop
of ``table-assistant watch GAME FRAMES --truth truth.json`` in process (``TableWatcher`` with the
settings as configured, in a state folder of its own: Excape's printed faces enrolled from the
recording's photos by ``calibrate dice-faces``, no learnt empty table), and each settled
reading is judged twice:

- as ``watch --truth`` does (``Play``): against the first of the truth's next rolls that the
  event names, the ones before it missed; an event that names none (a stray die) plays nothing.
- per roll, where the recording says it happened: the first reading while that roll lies on
  the table is judged in the position the roll was made in (``camera_policy.DiceJudge``), the
  later ones in the position after it. Printed: camera actions; auto_right as a share of the
  rolls without a stray die (those cannot be read right, by design); auto_wrong, confirm_right,
  missed (the strays' rolls included), readings after a roll's first (by kind); contradictions
  said in a stray's roll / strays planted, the time from its first still frame to the
  contradiction (median and longest; target <= 1 s), and the others said.

With ``--mat`` Excape alone is filmed, on its printed mat (``recording.record``'s ``mat``): the
camera then also sees each placement on a rung, and the watch counts include them.

Then the shares of the rolls offered right, the median latency, the ms per frame filming and
reading (one thread), and each roll the camera did not apply right, with what it said (the best
explanation's share, and its fit where under 1: see ``reconcile.Explanation``). Knocked dice are
measured apart on the first ``KNOCK_ROLLS`` rolls of the first ``KNOCK_GAMES`` seeds, judged per
roll: what the camera said while the die lay knocked, and once it was put back. Where dice belong
to seats (Excape), dice thrown out of turn likewise: how many were said as contradictions, and how
soon.

    .venv/bin/python bench/recordings.py [--games 20] [--first-seed 1000] [--only GAME ...] [--mat]
"""
from __future__ import annotations

import _one_core  # noqa: F401  (first: one BLAS thread, as on the kiosk)

import argparse
import contextlib
import io
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import cv2

from assistant import cli
from assistant import settings as settings_mod
from assistant.camera_policy import AUTO, CONTRADICTION, OFFER, DiceJudge
from assistant.commands.watch import Play, dice_colours, game_mats, verdict, watch_folder
from engine import registry
from engine.match import Match
from vision.live import GameWatcher, Observation, TableWatcher
from vision.synth import recording

GAMES = (("excape", lambda seed: 3 + seed % 4), ("splitter", lambda seed: 2), ("holdup", lambda seed: 3))
KNOCK_GAMES, KNOCK_ROLLS = 5, 10
WATCH_COUNTS = ("auto_right", "auto_wrong", "confirm_right", "missed", "contradictions")
KINDS = {AUTO: "applied", OFFER: "offered", CONTRADICTION: "contradiction"}


@dataclass
class Watched:
    log: dict
    truth: Match
    observations: list[Observation]
    frames: int
    auto_apply: float
    film_ms: float  # per frame
    read_ms: float
    seat_colours: tuple[str, ...]  # of each seat's dice, where colours tell them apart


def film_and_read(game: str, players: int, seed: int, events: tuple[str, ...], rolls: int | None = None,
                  mat: bool = False) -> Watched:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        start = time.perf_counter()
        log = recording.record(game, players, seed, folder, events, max_rolls=rolls, mat=mat)
        filmed = time.perf_counter()
        overrides = {"app.state_dir": str(folder / "state")}
        if "faces" in log:
            with contextlib.redirect_stdout(io.StringIO()):
                cli.main(["--set", f"app.state_dir={folder / 'state'}", "calibrate", "dice-faces",
                          *(f"{face}={folder / path}" for face, path in log["faces"].items())])
            overrides["vision.dice.faces"] = "enrolled"
        settings = settings_mod.load(overrides=overrides)
        watcher = TableWatcher.from_settings(settings.section("vision.dice"), settings.section("vision.stillness"),
                                             folder / "state")
        frames, observations = watch_folder(folder / "frames", GameWatcher(dice=watcher, mats=game_mats(game)))
        done = time.perf_counter()
        truth = Match.load(folder / "truth.json")
    return Watched(log, truth, observations, frames, settings["camera.auto_apply"],
                   (filmed - start) * 1000 / frames, (done - filmed) * 1000 / frames, dice_colours(settings, truth))


def as_watch_judges(run: Watched) -> dict:
    """watch --truth's report on the readings."""
    # the dice are filmed without cards: the rolls are to be seen, and on a mat the placements
    play = Play(Match(run.truth.game, run.truth.players), run.truth, run.auto_apply, ("dice",), run.seat_colours)
    for observation in run.observations:
        play.observe(observation)
    return play.report(run.frames, run.log["fps"])


def per_roll(run: Watched) -> list[dict]:
    """For each roll: its verdict on the first reading while it lay on the table (in the position
    it was made in; None when nothing was read), the first event, and the events after it (in
    the position after the roll), with their frames."""
    states, rolls = run.truth.states(), run.log["rolls"]
    judge_dice = DiceJudge(run.seat_colours)
    judged = []
    for number, roll in enumerate(rolls):
        end = rolls[number + 1]["still"] if number + 1 < len(rolls) else run.frames
        readings = [o for o in run.observations if roll["still"] <= o.frame < end]
        made_in, action = states[roll["action"]], run.truth.history[roll["action"]]
        after = states[rolls[number + 1]["action"]] if number + 1 < len(rolls) else run.truth.state
        first, later = None, []
        for observation in readings:
            event = judge_dice(made_in if first is None else after, observation, run.auto_apply)
            if event is None:
                continue
            if first is None:
                first = (observation, event)
            else:
                later.append((observation, event))
        judged.append({"roll": roll, "verdict": verdict(first[1], (action,)) if first else None,
                       "first": first, "later": later})
    return judged


def said(item: tuple | None) -> str:
    if item is None:
        return "nothing"
    observation, event = item
    best = ""
    if event.candidates:
        top = event.candidates[0]
        best = f" {top} ({top.share:.3f}" + (f", fit {top.fit:.2g}" if top.fit < 1 else "") + ")"
    reason = f" ({event.reason})" if event.kind == CONTRADICTION else ""
    return f"{KINDS[event.kind]}{best}{reason}"


def measure(game: str, players_of, seeds: range, mat: bool = False) -> None:
    watch_totals, totals = Counter(), Counter()
    later_kinds: Counter = Counter()
    stray_delays, latencies, film_ms, read_ms, offered_shares, notes = [], [], [], [], [], []
    for seed in seeds:
        run = film_and_read(game, players_of(seed), seed, ("stray",), mat=mat)
        film_ms.append(run.film_ms)
        read_ms.append(run.read_ms)
        report = as_watch_judges(run)
        watch_totals.update({key: report[key] for key in WATCH_COUNTS})
        strays = {p["roll"] for p in run.log["planted"]}
        for number, judged in enumerate(per_roll(run)):
            first = judged["first"]
            later_kinds.update(KINDS[event.kind] for _, event in judged["later"])
            if first is not None:
                latencies.append((first[0].frame - first[0].still_since) / run.log["fps"])
            if number in strays:
                totals["strays"] += 1
                if first is not None and first[1].kind == CONTRADICTION:
                    totals["strays_said"] += 1
                    stray_delays.append((first[0].frame - judged["roll"]["still"]) / run.log["fps"])
                else:
                    notes.append(f"seed {seed} roll {number}: a stray die beside {judged['roll']['line']!r}, "
                                 f"camera {said(first)}")
                continue
            totals[judged["verdict"] or "missed"] += 1
            totals["contradictions"] += first is not None and first[1].kind == CONTRADICTION
            if judged["verdict"] == "confirm_right":
                offered_shares.append(first[1].candidates[0].share)
            if judged["verdict"] != "auto_right":
                notes.append(f"seed {seed} roll {number}: truth {judged['roll']['line']!r}, camera {said(first)}")
        totals["frames"] += run.frames
        totals["camera_actions"] += report["camera_actions"]
        totals["rolls"] += len(run.log["rolls"])
    readable = totals["rolls"] - totals["strays"]
    players = sorted({players_of(seed) for seed in seeds})
    players_text = f"{players[0]}-{players[-1]}" if len(players) > 1 else f"{players[0]}"
    print(f"{game}{' on its mat' if mat else ''} ({players_text} players), seeds {seeds.start}-{seeds.stop - 1}: "
          f"{len(seeds)} games, "
          f"{totals['frames']} frames, {totals['camera_actions']} camera actions, {totals['rolls']} of them rolls "
          f"({totals['strays']} with a stray die)")
    print("  as watch --truth counts: " + ", ".join(f"{key} {watch_totals[key]}" for key in WATCH_COUNTS))
    print(f"  per roll: auto_right {totals['auto_right']}/{readable} = "
          f"{100 * totals['auto_right'] / max(readable, 1):.1f} %, auto_wrong {totals['auto_wrong']}, "
          f"confirm_right {totals['confirm_right']}, missed {totals['missed'] + totals['strays']} "
          f"(the strays' {totals['strays']} included; {totals['contradictions']} of the others said as contradictions)"
          f"; readings after a roll's first: " + (", ".join(f"{n} {k}" for k, n in later_kinds.most_common()) or "none"))
    delays = (f"after median {statistics.median(stray_delays):.2f} s, longest {max(stray_delays):.2f} s"
              if stray_delays else "")
    if offered_shares:
        print(f"  right but offered: share median {statistics.median(offered_shares):.3f}, "
              f"{sum(share >= 0.9 for share in offered_shares)} of {len(offered_shares)} at 0.9 or more, "
              f"highest {max(offered_shares):.3f}")
    print(f"  strays said as contradictions: {totals['strays_said']}/{totals['strays']} {delays}")
    print(f"  latency median {statistics.median(latencies):.2f} s; ms per frame: filming "
          f"{statistics.mean(film_ms):.1f}, reading {statistics.mean(read_ms):.1f}" if latencies else "")
    for note in notes:
        print(f"    {note}")


def measure_knocks(game: str, players_of, seeds: range) -> None:
    outcomes: Counter = Counter()
    for seed in seeds:
        run = film_and_read(game, players_of(seed), seed, ("misplaced",), KNOCK_ROLLS)
        judged = per_roll(run)
        for knock in run.log["planted"]:
            later = judged[knock["roll"]]["later"]
            knocked = next((item for item in later if knock["still"] <= item[0].frame <= knock["until"]), None)
            back = next((item for item in later if item[0].frame > knock["until"]), None)
            outcomes[(_short(knocked), _short(back))] += 1
    print(f"  knocked dice ({len(seeds)} games, the first {KNOCK_ROLLS} rolls): " + ", ".join(
        f"{n} x {knocked}, then {back} once put back" for (knocked, back), n in outcomes.most_common()))


def measure_out_of_turn(game: str, players_of, seeds: range) -> None:
    """Dice thrown by another seat before the roll (``out_of_turn``): said, and how soon."""
    delays, others = [], Counter()
    planted = 0
    for seed in seeds:
        run = film_and_read(game, players_of(seed), seed, ("out_of_turn",), KNOCK_ROLLS)
        states = run.truth.states()
        for wrong in run.log["planted"]:
            planted += 1
            before, judge_dice = states[run.log["rolls"][wrong["roll"]]["action"]], DiceJudge(run.seat_colours)
            for observation in (o for o in run.observations if wrong["still"] <= o.frame <= wrong["until"]):
                event = judge_dice(before, observation, run.auto_apply)
                if event is not None:
                    if event.kind == CONTRADICTION:
                        delays.append((observation.frame - wrong["still"]) / run.log["fps"])
                    else:
                        others[_short((observation, event))] += 1
                    break
    said = (f" after median {statistics.median(delays):.2f} s, longest {max(delays):.2f} s" if delays else "")
    print(f"  dice thrown out of turn ({len(seeds)} games, the first {KNOCK_ROLLS} rolls): said as contradictions "
          f"{len(delays)}/{planted}{said}" + "".join(f"; {n} {kind}" for kind, n in others.items()))


def _short(item: tuple | None) -> str:
    return "nothing" if item is None else {AUTO: "applied as a roll", OFFER: "offered as a roll",
                                           CONTRADICTION: "a contradiction"}[item[1].kind]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games of each (default 20)")
    parser.add_argument("--first-seed", type=int, default=1000, help="the first seed (default 1000)")
    parser.add_argument("--only", choices=[game for game, _ in GAMES], nargs="+", help="these games only")
    parser.add_argument("--mat", action="store_true", help="Excape alone, filmed on its printed mat")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    seeds = range(args.first_seed, args.first_seed + args.games)
    if args.mat:
        measure("excape", GAMES[0][1], seeds, mat=True)
        return
    for game, players_of in GAMES:
        if args.only and game not in args.only:
            continue
        measure(game, players_of, seeds)
        measure_knocks(game, players_of, seeds[:KNOCK_GAMES])
        if registry.game_class(game).seat_dice:
            measure_out_of_turn(game, players_of, seeds[:KNOCK_GAMES])


if __name__ == "__main__":
    main()
