"""Seeded recordings of Hilo rounds: the engine plays a round, the renderer films its play mat.

``record(players, seed, out)`` plays the first round of a Hilo game (``random.Random(seed)``:
decisions at random among the legal actions, chance by ``State.sample_chance``) and films, at
15 fps, the table each time it comes to rest (``assistant.reconcile_cards.still_steps``): a hand
sweeps over the mat, motion-blurred, hiding some of its markers, then the table lies still for a
second under fresh sensor noise. Every card keeps its own small offset and turn while it lies in
its place. The mat (``print-mat``'s layout for the players) is photographed by one fixed camera
with its perspective, uneven light and glare (``vision.synth.cards``). It writes
``out/frames/frame_NNNNN.jpg``, the match (``out/truth.json``, for ``table-assistant watch hilo
out/frames --truth out/truth.json``) and ``out/recording.json``: each still table's first frame
and the truth's actions it shows done, and the events planted (two cards of a grid swapped: a
table no move explains; a card pushed half off its place: no move at all). The cards are the
synthetic deck that ``calibrate cards --synthetic`` enrols.

    python -m vision.synth.card_recording OUT --seed N --players 2..6 [--events swap hold off]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
from pathlib import Path
from typing import Any, Mapping, Sequence

import cv2
import numpy as np

from assistant.commands.print_mat import smallest_mat
from assistant.reconcile_cards import still_steps
from engine import registry
from engine.hilo.actions import Draw
from engine.match import Match
from engine.table import EMPTY, FACE_DOWN
from vision.mat import MatLayout, Zone
from vision.mat_print import mat_drawing, render
from vision.synth.cards import (MAT_PX_PER_MM, Photo, SynthCard, SynthScene, card_corners_mm, paste_card_image,
                                photograph)

FPS = 15
HAND_FRAMES, STILL_FRAMES = 6, 15
SWAP_EVERY = 10  # still tables, on average, between two planted swaps
OFF_EVERY = 10   # and between two cards pushed off their place
# How far a card is pushed off its place, in card widths: half out of the grid (the camera may
# still read it at its place), or all of it
PUSHED = (0.6, 1.2)
HAND_BGR = (80, 110, 165)
HELD_LARGER = 1.15  # a card held up over the mat, nearer the camera
CAMERA = Photo(blur=(0.3, 0.8), noise=(1.5, 2.5), jpeg=(92, 92))  # one fixed camera: its faults are drawn once
NAMES = ("Ana", "Ben", "Chloé", "Dev", "Eli", "Fay")


def play_round(players: int, seed: int) -> Match:
    """The first round of a Hilo game, played at random: at a turn, a draw as often as taking the
    discard (rather than one choice in ten), as players do."""
    rng = random.Random(seed)
    match = Match(registry.make_game("hilo", players), NAMES[:players])
    while match.state.round_no == 1 and match.state.phase != "over":
        state = match.state
        if state.is_chance_node():
            match.push(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        draws = [action for action in legal if str(action) == "draw"]
        match.push(draws[0] if draws and rng.random() < 0.5 else rng.choice([a for a in legal if a not in draws]))
    return match


def still_tables(match: Match) -> list[tuple[int, dict[str, Any]]]:
    """The table as dealt, then after each step the camera sees: (actions done, the table view)."""
    states, history = match.states(), match.history
    tables = [(0, states[0].table_view())]
    for _, end in still_steps(states, history):
        tables.append((end, states[end - 1].table_after(history[end - 1])))
    return tables


class MatFilm:
    """Films table views laid on ``layout`` (Hilo's or Hold Up's, see ``laid_cards``), as one fixed
    camera sees them."""

    def __init__(self, layout: MatLayout, seed: int):
        self.layout = layout
        self.seed = seed
        self.mat = render(mat_drawing(layout), layout.size, MAT_PX_PER_MM)
        # the fixed camera's view of the mat: its faults are drawn from the seed, as for each table
        _, self.mm_to_px = photograph(self.mat, MAT_PX_PER_MM, layout.size, CAMERA, np.random.default_rng(seed))
        self.noise = np.random.default_rng(seed + 1)

    def table_image(self, view: Mapping[str, Any], pushed: tuple[str, tuple, np.ndarray] | None = None) -> np.ndarray:
        """The table of ``view`` through the camera, without sensor noise (a card ``pushed``: see ``scene``)."""
        return self.scene(view, pushed).frame

    def scene(self, view: Mapping[str, Any], pushed: tuple[str, tuple, np.ndarray] | None = None) -> SynthScene:
        """The table of ``view`` through the camera, without sensor noise, and where each card lies
        in the frame; the card at ``pushed``'s zone id and place moved by its offset (mm)."""
        image, cards = self.mat.copy(), []
        for label, zone, centre, place in laid_cards(self.layout, view):
            # each card's offset and turn drawn from the card and its place: a card left alone lies as it did
            key = f"{self.seed} {zone.id} {place} {label}".encode()
            rng = np.random.default_rng(int.from_bytes(hashlib.sha256(key).digest()[:8], "little"))
            angle = zone.rotation + rng.uniform(-3, 3) + 180 * rng.integers(2)
            if pushed is not None and pushed[:2] == (zone.id, place):
                centre = np.add(centre, pushed[2])
            corners = card_corners_mm(np.add(centre, rng.uniform(-2, 2, 2)), angle, self.layout.card)
            paste_card_image(image, label, corners * MAT_PX_PER_MM, rng)
            px = cv2.perspectiveTransform(corners[:, None], self.mm_to_px)[:, 0].astype(np.float32)
            cards.append(SynthCard(px, label, zone.id, place or None))
        frame, _ = photograph(image, MAT_PX_PER_MM, self.layout.size, CAMERA, np.random.default_rng(self.seed))
        return SynthScene(frame.astype(np.uint8), cards, np.linalg.inv(self.mm_to_px))

    def noisy(self, frame: np.ndarray) -> np.ndarray:
        return np.clip(frame + self.noise.normal(0, 2.0, frame.shape), 0, 255).astype(np.uint8)

    def holding(self, frame: np.ndarray, label: str, seat: int) -> np.ndarray:
        """``frame`` (a table image) with a hand held still over the grid of ``seat``, showing the
        card ``label`` a little above the mat (so larger), turned."""
        zone = self.layout.zone(f"grid.{seat}")
        rng = np.random.default_rng(self.seed + 7 * seat)
        centre = np.array([zone.x, zone.y]) + rng.uniform(-30, 30, 2)
        corners = cv2.perspectiveTransform(card_corners_mm(centre, zone.rotation + rng.uniform(-30, 30))[:, None],
                                           self.mm_to_px)[:, 0]
        corners = corners.mean(axis=0) + HELD_LARGER * (corners - corners.mean(axis=0))
        out = frame.copy()
        side = np.linalg.norm(corners[1] - corners[0])
        palm = corners[2:].mean(axis=0)  # the fingers hold the card's near end
        cv2.ellipse(out, tuple(int(v) for v in palm), (int(side * 0.9), int(side * 1.4)), rng.uniform(0, 180), 0, 360,
                    HAND_BGR, -1)
        paste_card_image(out, label, corners, rng)
        thumb = palm + 0.25 * (corners[1] - corners[0])
        cv2.ellipse(out, tuple(int(v) for v in thumb), (int(side * 0.18), int(side * 0.35)), 30, 0, 360, HAND_BGR, -1)
        return out

    def hand(self, frame: np.ndarray, t: float) -> np.ndarray:
        """A blurred hand-sized blob ``t`` (0 to 1) of the way across the frame."""
        h, w = frame.shape[:2]
        out = frame.copy()
        centre = (int(w * (0.1 + 0.8 * t)), int(h * (0.4 + 0.25 * np.sin(3 * t))))
        cv2.ellipse(out, centre, (w // 7, h // 4), 25, 0, 360, HAND_BGR, -1)
        return cv2.blur(out, (15, 1))


def record(players: int, seed: int, out: str | Path, max_tables: int | None = None,
           events: Sequence[str] = ()) -> dict[str, Any]:
    """Play and film one round into ``out`` (its first ``max_tables`` still tables, and the match
    up to them, when given); the recording's log (also ``out/recording.json``). With "swap" in
    ``events``, after one still table in ``SWAP_EVERY`` (seeded; from the first turn) a hand
    swaps two face-up cards of a grid, which no move allows, and puts them back a second later.
    With "hold", before each card drawn is laid, the player holds it still over their grid
    for a second (nothing is to be concluded then). With "off", after one still table in
    ``OFF_EVERY``, a hand pushes a card of a grid's side column off its place, out of the grid
    (half or all of it: ``PUSHED``), and lays it back a second later."""
    match = play_round(players, seed)
    tables = still_tables(match)[:max_tables]
    if max_tables is not None:
        played, match = match, Match(match.game, match.players)
        for action in played.history[:tables[-1][0]]:
            match.push(action)
    film = MatFilm(smallest_mat("hilo", players), seed)
    rng = random.Random(seed + 1)
    shots = Shots(film, out, {"game": "hilo", "players": players, "seed": seed, "planted": []})
    log, shoot = shots.log, shots.shoot

    before = 0  # actions done at the table before
    for number, (done, view) in enumerate(tables):
        step = match.history[before:done]
        hold = None
        if "hold" in events and step and isinstance(step[0], Draw):
            drawn = step[1]  # Seen: the card drawn
            held = film.holding(shots.previous, f"{drawn.colour} {drawn.value}", match.states()[before].player)
            hold = {"kind": "hold", "table": number, "still": shoot(held)}
        table = film.table_image(view)
        log["stills"].append({"actions": done, "still": shoot(table)})
        if hold is not None:
            log["planted"].append({**hold, "until": log["stills"][-1]["still"]})
        before = done
        swapped = _swapped(view) if "swap" in events and view["players"] else None
        if swapped is not None and match.states()[done].phase == "turn" and rng.random() < 1 / SWAP_EVERY:
            still = shoot(film.table_image(swapped))
            log["planted"].append({"kind": "swap", "table": number, "still": still, "until": shoot(table)})
        pushed = _pushed(film.layout, view, rng) if "off" in events and view["players"] else None
        if pushed is not None and match.states()[done].phase == "turn" and rng.random() < 1 / OFF_EVERY:
            still = shoot(film.table_image(view, pushed))
            log["planted"].append({"kind": "off", "table": number, "zone": pushed[0], "place": list(pushed[1]),
                                   "widths": round(float(np.linalg.norm(pushed[2])) / film.layout.card[0], 2),
                                   "still": still, "until": shoot(table)})
    return shots.done(match)


class Shots:
    """A recording's frames, written to ``out/frames`` at FPS, and its log (``log``: ``frames``,
    ``stills`` and what the recording adds)."""

    def __init__(self, film: MatFilm, out: str | Path, log: dict[str, Any]):
        self.film = film
        self.out = Path(out)
        (self.out / "frames").mkdir(parents=True, exist_ok=True)
        self.log: dict[str, Any] = {**log, "fps": FPS, "frames": 0, "stills": []}
        self.previous: np.ndarray | None = None  # the table last shot

    def shoot(self, table: np.ndarray) -> int:
        """A hand sweeps from the table before to ``table``, which then lies still: its first still frame."""
        film, log = self.film, self.log
        sweep = [film.hand(self.previous if k < HAND_FRAMES // 2 else table, k / (HAND_FRAMES - 1))
                 for k in range(HAND_FRAMES)] if self.previous is not None else []
        still = log["frames"] + len(sweep)
        for image in sweep + [film.noisy(table) for _ in range(STILL_FRAMES)]:
            cv2.imwrite(str(self.out / "frames" / f"frame_{log['frames']:05d}.jpg"), image,
                        [cv2.IMWRITE_JPEG_QUALITY, 92])
            log["frames"] += 1
        self.previous = table
        return still

    def done(self, match: Match) -> dict[str, Any]:
        """Save the true ``match`` (``truth.json``) and the log (``recording.json``); the log."""
        match.save(self.out / "truth.json")
        (self.out / "recording.json").write_text(json.dumps(self.log, indent=1))
        return self.log


def laid_cards(layout: MatLayout, view: Mapping[str, Any]) -> list[tuple[str, Zone, tuple[float, float], tuple]]:
    """The cards that a table view (``State.table_view()``'s words) shows on ``layout``: label,
    zone, centre (mm) and place in the zone. Hilo: each grid at its printed places, the discard
    and the draw pile; Hold Up: each row's cards from its left end, the draw pile, each seat's GV
    cards and the top of its pile. A card in a hand (Hold Up's ``held``) is not on the mat."""
    laid: list[tuple[str, Zone, tuple[float, float], tuple]] = []

    def lay(label: str, zone: Zone, cell=None) -> None:
        if label != EMPTY:
            laid.append((label, zone, (cell.x, cell.y) if cell else (zone.x, zone.y),
                         (cell.row, cell.col) if cell else ()))

    if any(zone.kind == "grid" for zone in layout.zones):
        grids = sorted((z for z in layout.zones if z.kind == "grid"), key=lambda z: z.seat)
        for zone, grid in zip(grids, view["players"]):
            for cell in zone.cells():
                if cell.row < len(grid["cells"]) and cell.col < len(grid["cells"][cell.row]):
                    lay(grid["cells"][cell.row][cell.col], zone, cell)
        lay(view["discard"], layout.zone("discard"))
    else:
        for number, cards in enumerate(view["rows"], start=1):
            zone = layout.zone(f"row.{number}")
            for label, cell in zip(cards, zone.cells()):
                lay(label, zone, cell)
        for seat, player in enumerate(view["players"]):
            zone = layout.zone(f"gv.{seat}")
            for label, cell in zip(player["gv"], zone.cells()):
                lay(label, zone, cell)
            lay(player["pile_top"], layout.zone(f"pile.{seat}"))
    if view.get("draw_pile", FACE_DOWN) not in (0, EMPTY):  # Hilo counts its cards, Hold Up shows a back
        lay(FACE_DOWN, layout.zone("draw"))
    return laid


def _swapped(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """``view`` with the first two face-up cards of the first grid that has two swapped, or None."""
    swapped = json.loads(json.dumps(view))
    for grid in swapped["players"]:
        up = [(r, c) for r, row in enumerate(grid["cells"]) for c, label in enumerate(row)
              if label not in (FACE_DOWN, EMPTY)]
        if len(up) >= 2:
            (r1, c1), (r2, c2) = up[:2]
            cells = grid["cells"]
            cells[r1][c1], cells[r2][c2] = cells[r2][c2], cells[r1][c1]
            return swapped
    return None


def _pushed(layout: MatLayout, view: Mapping[str, Any], rng: random.Random) -> tuple[str, tuple, np.ndarray] | None:
    """A card of a grid's left or right column (seeded) and how far to push it, out of the grid
    (mm): its zone id, its place and the offset; None when no grid has a card there."""
    grids = sorted((z for z in layout.zones if z.kind == "grid"), key=lambda z: z.seat)
    sides = [(zone, cell) for zone, grid in zip(grids, view["players"]) for cell in zone.cells()
             if cell.row < len(grid["cells"]) and cell.col < len(grid["cells"][cell.row])
             and grid["cells"][cell.row][cell.col] != EMPTY and cell.col in (0, zone.cols - 1)]
    if not sides:
        return None
    zone, cell = rng.choice(sides)
    outwards = zone.axes()[0] * (1 if cell.col == zone.cols - 1 else -1)
    return zone.id, (cell.row, cell.col), outwards * rng.choice(PUSHED) * zone.card[0]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=2, choices=range(2, 7))
    parser.add_argument("--tables", type=int, help="film only the first N still tables")
    parser.add_argument("--events", nargs="*", default=[], choices=("swap", "hold", "off"),
                        help="plant these events")
    args = parser.parse_args(argv)
    log = record(args.players, args.seed, args.out, args.tables, args.events)
    print(f"{log['frames']} frames, {len(log['stills'])} still tables")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
