"""`score hilo --photo` figures: seeded synthetic finished Hilo tables scored from one photo each.

    .venv/bin/python bench/score_hilo_photos.py [--tables N] [--first-seed S] [--size WxH]   (from the repository root)

The synthetic deck is enrolled from three seeded photos (as `calibrate cards --synthetic` does),
then N seeded finished tables (seeds S.., default 30000: seeds the tests do not use) of two to six
players on the mats printed for them (every card face up; 3x3 grids mostly, also the shapes left
after removals; perspective, uneven light, glare, blur, noise, JPEG; ``--size`` pixels, default the
kiosk camera's 1280x720) are each saved as a JPEG and scored as the command does, the round ended by
seat ``seed % players``. A round is right when its scores, sums, doubling and removals are those of
the grids laid and nothing was left unread; a round not scored (a place unread) is counted apart
from one scored wrong, and each is listed with what was unread or misread. Time per photo: reading
the file, finding the mat, reading the cards and scoring, on one thread (the enrolment is not
counted).
"""
from __future__ import annotations

import _one_core  # noqa: F401  (first: one BLAS thread, as on the kiosk)

import argparse
import json
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

import cv2

from assistant import settings as settings_mod
from assistant.commands.print_mat import mat_layout, smallest_mat
from assistant.hilo_photos import score_photo, unread_lines
from engine.hilo import DEFAULT_PALETTE, Palette, score_text
from vision.cards import CardReader, ReaderParams, enrol
from vision.evaluate import Box
from vision.synth.cards import Photo, enrolment_tables, hilo_table

ROUND_KEYS = ("sums", "scores", "trigger", "doubled", "removed")


def expected_grids(grids: dict[int, list[list[str]]], palette: Palette) -> list[list[list[str]]]:
    """The grids laid, by seat, in the round-file notation."""
    return [[[palette.code(palette.read_name(label)) for label in row] for row in grids[seat]]
            for seat in sorted(grids)]


def truth(grids: dict[int, list[list[str]]], palette: Palette, trigger: int) -> dict:
    players = [{"name": f"Player {seat + 1}", "grid": grid}
               for seat, grid in zip(sorted(grids), expected_grids(grids, palette))]
    return score_text(json.dumps({"players": players, "trigger": trigger}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="finished tables to score")
    parser.add_argument("--first-seed", type=int, default=30_000)
    parser.add_argument("--size", default="1280x720", help="the photos' width x height, pixels")
    args = parser.parse_args()
    photo = Photo(size=tuple(int(n) for n in args.size.split("x")))
    cv2.setNumThreads(1)
    params = ReaderParams.from_settings(settings_mod.load().section("vision.cards"))
    scenes = enrolment_tables(mat_layout("hilo", "A2", 2), seed=0)
    model, _ = enrol([(s.frame, [Box(*c.box(), label=c.label) for c in s.cards]) for s in scenes], params)
    reader = CardReader(model, params)
    palette = Palette.parse(DEFAULT_PALETTE)
    right = unscored = wrong = 0
    seeds = range(args.first_seed, args.first_seed + args.tables)
    tables_of: Counter[int] = Counter(2 + seed % 5 for seed in seeds)
    by_players: Counter[int] = Counter()
    why: Counter[str] = Counter()
    cpu, wall = [], []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "table.jpg"
        for seed in seeds:
            players = 2 + seed % 5
            scene = hilo_table(smallest_mat("hilo", players), seed, photo, all_face_up=True, empty_rate=0.0)
            cv2.imwrite(str(path), scene.frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
            w, c = time.perf_counter(), time.process_time()
            result = score_photo(str(path), lambda: reader, palette, ended_by=seed % players)
            wall.append((time.perf_counter() - w) * 1000)
            cpu.append((time.process_time() - c) * 1000)
            expected = truth(scene.grids, palette, seed % players)
            if result["unread"]:
                unscored += 1
                why.update(entry["why"].template for entry in result["unread"])
                print(f"  table {seed}: not scored: " + "; ".join(str(line) for line in unread_lines(result)))
            elif all(result[k] == expected[k] for k in ROUND_KEYS):
                right += 1
                by_players[players] += 1
            else:
                wrong += 1
                misread = [f"player {seat + 1} {code} read as {read}" for seat, (grid, laid) in
                           enumerate(zip(result["grids"], expected_grids(scene.grids, palette)))
                           for row, laid_row in zip(grid, laid) for read, code in zip(row, laid_row) if read != code]
                print(f"  table {seed}: scored wrong: " + "; ".join(misread))
    n = args.tables
    print(f"score hilo --photo, {n} synthetic finished tables (2-6 players, {args.size}): {right / n:.1%} scored "
          f"exactly right, {unscored} not scored (a place unread), {wrong} scored wrong")
    print("  scored right by players: "
          + ", ".join(f"{p}: {by_players[p]}/{tables_of[p]}" for p in range(2, 7)))
    for template, count in why.most_common():
        print(f"  unread places: {count} x {template!r}")
    print(f"  per photo, 1 thread: median {statistics.median(cpu):.0f} ms CPU, {statistics.median(wall):.0f} ms wall "
          f"(max {max(cpu):.0f} ms CPU)")


if __name__ == "__main__":
    main()
