"""Seeded synthetic Hold Up tables on the printed mat: the photos that enrol the synthetic deck, and
random tables in play (rows, GV cards, pile tops, the draw pile) for the tests and the benchmarks.

The tables are table views in the engine's words (``HoldUpState.table_view()``) filmed by
``vision.synth.card_recording.MatFilm``: one fixed camera, its perspective, light and glare.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from assistant.commands.print_mat import smallest_mat
from engine.table import EMPTY, FACE_DOWN
from vision.mat import MatLayout
from vision.synth.card_recording import MatFilm
from vision.synth.cards import GV_FACES, HOLDUP_DECK, SynthScene

def enrolment_scenes(seed: int = 0) -> list[SynthScene]:
    """The photos a club would take to enrol the Hold Up deck on its mat (five seats): a table of
    29 gems and 15 GV cards (both faces), one of the other 7 gems and 7 again, and one of 8 backs
    (the draw pile is the only face-down card in play): every stone and value at least 4 times."""
    layout = smallest_mat("holdup", 5)
    film, slots = MatFilm(layout, seed), layout.zone("row.1").cols  # 8 places a row
    gems = [HOLDUP_DECK[i] for i in np.random.default_rng(seed).permutation(len(HOLDUP_DECK))]
    full = {"rows": [gems[k:k + slots] for k in (0, slots, 2 * slots)], "draw_pile": FACE_DOWN,
            "players": [{"gv": [GV_FACES[(seat + k) % 2] for k in range(3)], "pile_top": gems[3 * slots + seat]}
                        for seat in range(5)]}
    rest = {"rows": [gems[29:], gems[:7], []], "draw_pile": EMPTY, "players": []}
    backs = {"rows": [[FACE_DOWN] * slots, [], []], "draw_pile": EMPTY, "players": []}
    return [_noisy(film, film.scene(page)) for page in (full, rest, backs)]


def random_view(players: int, seed: int) -> dict[str, Any]:
    """A Hold Up table as play may leave it: rows of 0 to 5 cards, GV faces at random, some piles
    empty, the draw pile there or used up; no card twice."""
    rng = np.random.default_rng(seed)
    gems = iter(HOLDUP_DECK[i] for i in rng.permutation(len(HOLDUP_DECK)))
    rows = [[next(gems) for _ in range(rng.integers(0, 6))] for _ in range(3)]
    return {"rows": rows, "draw_pile": FACE_DOWN if rng.random() < 0.8 else EMPTY,
            "players": [{"gv": [GV_FACES[rng.integers(2)] for _ in range(3)],
                         "pile_top": next(gems) if rng.random() < 0.7 else EMPTY} for _ in range(players)]}


def random_table(players: int, seed: int) -> tuple[MatLayout, dict[str, Any], SynthScene]:
    """``random_view`` filmed on the smallest mat for ``players`` by a camera placed by ``seed``."""
    layout = smallest_mat("holdup", players)
    film = MatFilm(layout, seed)
    view = random_view(players, seed)
    return layout, view, _noisy(film, film.scene(view))


def _noisy(film: MatFilm, scene: SynthScene) -> SynthScene:
    return SynthScene(film.noisy(scene.frame), scene.cards, scene.to_mm_h)
