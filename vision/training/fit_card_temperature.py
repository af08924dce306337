"""Fit the temperature of the live card view's label probabilities (``vision.live_cards.TEMPERATURE``).

The enrolled deck's colour and value classifiers are regularised logistic regressions trained
briefly at enrolment: they read most cards right at 0.3 to 0.9, less sure than they are right,
and the live loop then offers for a touch what it could apply. Fitted on what the camera reads
in play: seeded Hilo rounds (``vision.synth.card_recording``, the tuning seeds, never those of
``bench/hilo_recordings.py``) are filmed and read through ``CardWatcher`` with the synthetic deck
enrolled as `calibrate cards --synthetic` does, at temperature 1. Each observation is paired
with the still table it was read on (its frame lies in that table's still period), place by place
where the grid shapes agree; the temperature T that makes ``p ** (1 / T)`` (renormalised) give
the true labels the least negative log-likelihood is fitted as ``fit_temperature.py`` fits the
pip faces, with its 90 % likelihood-ratio interval. Also printed: the share of places whose
likeliest label is wrong, and each round's own fit. Deterministic.

    .venv/bin/python vision/training/fit_card_temperature.py [--rounds 10]   (from the repository root; ~30 min)
"""
from __future__ import annotations

import argparse
import contextlib
import io
import tempfile
from pathlib import Path

import cv2
import numpy as np

from assistant import cli
from assistant import settings as settings_mod
from assistant.commands.watch import card_watcher, watch_folder
from engine.table import EMPTY, FACE_DOWN
from vision import live_cards
from vision.live import GameWatcher
from vision.synth.card_recording import record, still_tables
from vision.synth.cards import HILO_DECK
from vision.training.fit_temperature import fit, interval, stacked
from engine.match import Match

LABELS = (*HILO_DECK, FACE_DOWN, EMPTY)


def round_places(seed: int, state: Path) -> tuple[np.ndarray, np.ndarray]:
    """The label probabilities (rows in LABELS' order) and true labels of every place of each
    still table's observation in the round ``seed``."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        log = record(2 + seed % 5, seed, folder)
        settings = settings_mod.load(overrides={"app.state_dir": str(state)})
        _, observations = watch_folder(folder / "frames", GameWatcher(cards=card_watcher(settings, "hilo")))
        tables = still_tables(Match.load(folder / "truth.json"))
    starts = [still["still"] for still in log["stills"]]
    rows, truth = [], []
    for observation in observations:
        table = tables[max(k for k, start in enumerate(starts) if start <= observation.frame)][1]
        places = [(observation.view["discard"], table["discard"])]
        for seen, shown in zip(observation.view["players"], table["players"]):
            if list(seen["shape"]) == list(shown["shape"]):
                places += [(p, label) for row, labels in zip(seen["cells"], shown["cells"])
                           for p, label in zip(row, labels)]
        for probabilities, label in places:
            rows.append([probabilities.get(name, 0.0) for name in LABELS])
            truth.append(LABELS.index(label))
    return np.array(rows).reshape(-1, len(LABELS)), np.array(truth, int)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10,
                        help="rounds recorded, seeds 0 to N - 1, two to six players in turn (default 10)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    rounds = []
    with tempfile.TemporaryDirectory() as name:
        state = Path(name) / "state"
        with contextlib.redirect_stdout(io.StringIO()):
            cli.main(["--set", f"app.state_dir={state}", "calibrate", "cards", "--synthetic"])
        for seed in range(args.rounds):
            probabilities, truth = stacked([round_places(seed, state)])
            rounds.append((probabilities, truth))
            wrong = int((probabilities.argmax(axis=1) != truth).sum())
            print(f"seed {seed}: {len(truth)} places, {wrong} read as another card; its own fit "
                  f"{live_cards.TEMPERATURE * fit(probabilities, truth):.3f}", flush=True)
    probabilities, truth = np.vstack([p for p, _ in rounds]), np.concatenate([t for _, t in rounds])
    best = fit(probabilities, truth)
    low, high = interval(probabilities, truth, best)
    wrong = float(np.mean(probabilities.argmax(axis=1) != truth))
    print(f"all {len(truth)} places ({100 * wrong:.2f} % read as another card): temperature "
          f"{live_cards.TEMPERATURE * best:.3f} (90 % interval {live_cards.TEMPERATURE * low:.3f}-"
          f"{live_cards.TEMPERATURE * high:.3f}); read at TEMPERATURE = {live_cards.TEMPERATURE:g}")


if __name__ == "__main__":
    main()
