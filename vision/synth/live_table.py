"""A simulated table filmed live: the demo's camera.

The demo asks for each roll with ``film`` (from any thread); ``render`` (called for each frame by
``vision.capture.SyntheticSource`` on the capture thread) films it as the recordings do
(``vision.synth.recording.Film``: a hand sweeps over the table, the dice tumble, motion-blurred,
and settle), then the still table under fresh sensor noise until the next roll. Excape is played
on its printed mat (``MAT_GAMES``), where the camera also sees each placement: the hand moves the
roll onto its rung. The filming is done on the capture thread, so the screen never waits for it.
"""
from __future__ import annotations

import queue
from collections import deque
from typing import Callable

import numpy as np

from assistant.commands.print_mat import smallest_mat
from assistant.reconcile import moves_dice
from engine import registry
from engine.core import Action, State
from vision.synth.recording import DICE_SETS, Film, dice_in, enrolment_images, is_roll

PIP_DICE = DICE_SETS["splitter"]  # the set of a game without dice of its own: its table stays empty
MAT_GAMES = ("excape",)  # played on their printed mat, whose zones show where the dice are placed


class LiveTable:
    def __init__(self, seed: int = 0):
        self.seed = seed
        self._frames: deque[np.ndarray] = deque()
        self._asked: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._film = Film(seed, PIP_DICE, self._frames.append)
        self._still: np.ndarray | None = None  # the table as it lies now (unlit), drawn once per roll
        self.game = ""

    @staticmethod
    def films(game_id: str, state: State, action: Action) -> bool:
        """Whether this table films ``action`` of ``game_id`` done in ``state``: a roll, and on a
        printed mat a decision that moves dice (Excape's placement on a rung)."""
        if game_id not in DICE_SETS:
            return False
        return is_roll(action) or game_id in MAT_GAMES and not state.is_chance_node() and moves_dice(state, action)

    def new_game(self, game_id: str) -> None:
        """Clear the table for a game of ``game_id`` (its dice set). Every game is filmed on the
        same table under the same light, where its printed dice were enrolled."""
        self.game = game_id
        dice = DICE_SETS.get(game_id, PIP_DICE)
        mat = smallest_mat(game_id, registry.game_class(game_id).min_players) if game_id in MAT_GAMES else None
        self._asked.put(lambda: self._clear(dice, mat))

    def film(self, before: State, action: Action, after: State) -> None:
        """Film ``action`` done in ``before`` (see ``films``): a roll thrown, its dice left where
        ``after``'s table has them, or the dice moved to lie as ``after``'s table lays them."""
        placed = dice_in(after.table_view())
        if not is_roll(action):
            self._asked.put(lambda: self._move(placed))
            return
        lying = dice_in(before.table_view())
        owner = DICE_SETS[self.game].roller(before) if DICE_SETS[self.game].roller else None
        faces = str(action).split()[1:]
        self._asked.put(lambda: self._roll(lying, faces, owner, placed))

    def enrolment_images(self, game_id: str, players: int) -> dict[str, np.ndarray]:
        """Photos of the printed dice of ``game_id`` (one per face, a die of each of ``players``
        seats' colours), to enrol them as a club does with ``calibrate dice-faces``."""
        return enrolment_images(Film(self.seed, DICE_SETS[game_id], lambda frame: None), players)

    def render(self, index: int) -> np.ndarray:
        """The next frame (on the capture thread)."""
        while not self._frames:
            try:
                self._asked.get_nowait()()
            except queue.Empty:
                if self._still is None:
                    self._still = self._film.image(self._film.lying)
                self._film.shoot(self._still)
        return self._frames.popleft()

    def _clear(self, dice, mat) -> None:
        self._film = Film(self.seed, dice, self._frames.append, mat)
        self._still = None

    def _move(self, placed) -> None:
        self._film.move(placed)
        self._still = None

    def _roll(self, lying, faces, owner, placed) -> None:
        self._film.roll(lying, faces, owner, stray=False)
        self._film.place_thrown(placed)
        self._still = None


def printed_games() -> tuple[str, ...]:
    """The games this table films whose dice are printed with symbols (to enrol before reading)."""
    return tuple(game for game in DICE_SETS if registry.game_class(game).printed_dice)
