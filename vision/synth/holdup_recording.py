"""Seeded recordings of Hold Up games: the engine plays, the renderer films the play mat, its cards
and the dice thrown in its dice zone.

``record(players, seed, out)`` plays a Hold Up game (``random.Random(seed)``: decisions at random
among the legal actions, chance by ``State.sample_chance``; its first ``turns`` turns when given)
and films, at 15 fps, each thing the camera sees happen: each roll (a hand throws the four dice
into the dice zone) and each time the cards come to rest (``assistant.reconcile_holdup.still_steps``:
cards captured to a pile, GV cards turned, a card drawn and laid at a row's end, on the pile of
its last place when the row is longer than the mat prints: what
``assistant.commands.watch.camera_steps`` expects). A hand sweeps
over the mat, motion-blurred, then the table lies still for a second under fresh sensor noise.
Dice lie where they fell until the next throw. The mat (``print-mat``'s layout for the players) is
photographed by one fixed camera (``vision.synth.card_recording.MatFilm``); the cards are the
synthetic deck that ``calibrate cards --game holdup --synthetic`` enrols. It writes
``out/frames/frame_NNNNN.jpg``, the match (``out/truth.json``, for ``table-assistant watch holdup
out/frames --truth out/truth.json``) and ``out/recording.json``: each still table's first frame
and the truth's actions it shows done, and the events planted (two cards of a row swapped: no
move of Hold Up explains it; the camera should say so).

    python -m vision.synth.holdup_recording OUT --seed N --players 3..5 [--turns N] [--events swap]
"""
from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import Any, Sequence

import cv2
import numpy as np

from assistant.commands.print_mat import smallest_mat
from assistant.commands.watch import camera_steps
from engine import registry
from engine.match import Match
from assistant.reconcile_holdup import table
from vision.live_cards import row_places
from vision.synth.card_recording import NAMES, SWAP_EVERY, MatFilm, Shots
from vision.synth.recording import DIE_MM, DIE_PX, die_sprite, is_roll, paste, scaled


def play_game(players: int, seed: int, turns: int | None = None) -> Match:
    """A Hold Up game (or its first ``turns`` turns), decided and drawn by ``random.Random(seed)``."""
    rng = random.Random(seed)
    match = Match(registry.make_game("holdup", players), NAMES[:players])
    while not match.state.is_terminal():
        state = match.state
        if turns is not None and state.phase == "roll" and state.turn > turns:
            break
        if state.is_chance_node():
            match.push(state.sample_chance(rng))
            continue
        match.push(rng.choice(state.legal_actions()))
    return match


class DiceInZone:
    """The dice lying in the mat's dice zone, as the fixed camera of ``film`` sees them."""

    def __init__(self, film: MatFilm, seed: int):
        self.film = film
        self.rng = random.Random(f"dice {seed}")
        zone = film.layout.zone("dice")
        self.corners = cv2.perspectiveTransform(zone.corners()[:, None].astype(np.float64), film.mm_to_px)[:, 0]
        side = np.linalg.norm(self.corners[1] - self.corners[0]) / zone.w * DIE_MM  # a die's side in px
        self.scale = side / DIE_PX  # the sprites' dice are drawn DIE_PX wide
        self.lying: list[tuple[Any, float, float]] = []  # sprite, x, y

    def throw(self, faces: Sequence[str]) -> None:
        """The four dice thrown anew, lying at random in the zone, none over another."""
        (x0, y0), (x1, y1) = self.corners.min(axis=0), self.corners.max(axis=0)
        side = DIE_PX * self.scale
        self.lying = []
        for face in faces:
            sprite = scaled(die_sprite(self.rng.randrange(2**31), face, "white", False), self.scale)
            gap = 2.2 * side
            while True:  # two dice apart, one side from the zone's edges (closer if they do not fit)
                x, y = self.rng.uniform(x0 + side, x1 - side), self.rng.uniform(y0 + side, y1 - side)
                if all(np.hypot(x - a, y - b) > gap for _, a, b in self.lying):
                    break
                gap *= 0.99
            self.lying.append((sprite, x, y))

    def on(self, frame: np.ndarray) -> np.ndarray:
        """``frame`` with the dice lying on it."""
        canvas = frame.astype(np.float32)
        for sprite, x, y in self.lying:
            paste(canvas, sprite.colour, sprite.alpha, round(x - sprite.cx), round(y - sprite.cy))
        return np.clip(canvas, 0, 255).astype(np.uint8)


def record(players: int, seed: int, out: str | Path, turns: int | None = None,
           events: Sequence[str] = ()) -> dict[str, Any]:
    """Play and film a game into ``out`` (its first ``turns`` turns when given); the recording's log
    (also ``out/recording.json``). With "swap" in ``events``, after one still table in
    ``SWAP_EVERY`` (seeded) a hand swaps two different cards side by side in a row, which no move
    allows, and puts them back a second later."""
    match = play_game(players, seed, turns)
    states, history = match.states(), match.history
    film = MatFilm(smallest_mat("holdup", players), seed)
    places = row_places(film.layout)
    dice = DiceInZone(film, seed)
    rng = random.Random(seed + 1)
    shots = Shots(film, out, {"game": "holdup", "players": players, "seed": seed, "planted": []})

    def still(actions: int, cards: dict[str, Any]) -> None:
        image = dice.on(film.table_image(cards))
        shots.log["stills"].append({"actions": actions, "still": shots.shoot(image)})
        swapped = swapped_row(cards) if "swap" in events else None
        if swapped is not None and rng.random() < 1 / SWAP_EVERY:
            planted = shots.shoot(dice.on(film.table_image(swapped)))
            shots.log["planted"].append({"kind": "swap", "still": planted, "until": shots.shoot(image)})

    cards = table(states[0], places)
    for first, end in camera_steps(match):
        action, after = history[first], table(states[end], places)
        if is_roll(action):  # the dice thrown; the cards lie as they did until the player moves them
            dice.throw([str(face) for face in (*states[first].dice, *action.faces)])
        else:
            cards = after
        still(end, cards)
        if is_roll(action) and after != cards:  # a fourth roll's dice are kept at once
            cards = after
            still(end, cards)
    return shots.done(match)


def swapped_row(view: dict[str, Any]) -> dict[str, Any] | None:
    """``view`` with the first two different cards side by side in a row swapped, or None."""
    for number, row in enumerate(view["rows"]):
        for k in range(len(row) - 1):
            if row[k] != row[k + 1]:
                swapped = [*row[:k], row[k + 1], row[k], *row[k + 2:]]
                return {**view, "rows": [swapped if n == number else r for n, r in enumerate(view["rows"])]}
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=3, choices=range(3, 6))
    parser.add_argument("--turns", type=int, help="film only the first N turns")
    parser.add_argument("--events", nargs="*", default=[], choices=("swap",), help="plant these events")
    args = parser.parse_args(argv)
    log = record(args.players, args.seed, args.out, args.turns, args.events)
    print(f"{log['frames']} frames, {len(log['stills'])} still tables")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
