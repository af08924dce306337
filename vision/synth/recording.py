"""Seeded recordings of whole dice games: the engine plays a game, the renderer films its table.

``record(game_id, players, seed, out)`` plays a game (``random.Random(seed)``: decisions at
random among the legal actions, chance by ``State.sample_chance``) and films, at 15 fps, the
dice that ``State.table_view()`` lists as it goes. It writes ``out/frames/frame_NNNNN.jpg``, the
match (``out/truth.json``, for ``table-assistant watch GAME out/frames --truth out/truth.json``)
and ``out/recording.json``: each roll's frames, the light changes and the events planted. Dice
with printed faces (Excape) come with ``out/faces/FACE.jpg``, photos of the players' dice to
enrol them from (``table-assistant calibrate dice-faces 7=out/faces/7.jpg ...``).

A roll is filmed as a hand that sweeps over the table, motion-blurred, tidying what the game
took off it since the last roll (dice picked up to be thrown again, taken back from the ladder,
moved onto a rung); the thrown dice tumble, blurred, for a few frames; then the table is still
for a second under sensor noise. Dice that were not touched keep their place and angle. Each
seat's dice are in the seat's colour where dice belong to seats (Excape), white elsewhere.
Between some rolls the light changes: it drifts slowly to another gradient, or a shadow passes.

With ``mat`` (Excape), the table is the game's printed mat (``print-mat``'s layout for the
players), photographed from above, and each die lies in the zone the game's view names: a roll in
the roll area, a kept combination on its rung. A placement is then filmed as the hand that moves
the roll onto its rung (and gives dislodged dice back), the table still after it; one in
``MERGED_MOVES`` is left to the next roll's sweep, as when the next player throws at once.
``recording.json`` lists those moves apart (``moves``).

Planted events (``events``), at seeded rolls: a *stray* die left on the table for one roll
(nothing the rules allow explains what the camera sees: it should say a contradiction), and a
*misplaced* die: after the table settled, a hand knocks one die of the roll to another face for
a second, then puts it back (the table contradicts the game meanwhile); where dice belong to seats,
a roll *out of turn*: another seat throws its dice first, they lie a second, then it picks them up
and the seat whose turn it is rolls (``seat``: who threw out of turn).

    python -m vision.synth.recording GAME OUT --seed N --players N [--events [KIND ...]] [--mat]
"""
from __future__ import annotations

import argparse
import json
import math
import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import cv2
import numpy as np

from assistant.commands.print_mat import printed_names, smallest_mat
from assistant.i18n import translate
from assistant.reconcile import mat_zone, moves_dice
from engine import registry
from engine.core import Action, State
from engine.match import Match, Player
from engine.table import EXCAPE_FACES, STANDARD_FACES
from vision.mat import MatLayout
from vision.mat_print import mat_drawing, render
from vision.synth.card_recording import CAMERA
from vision.synth.cards import MAT_PX_PER_MM, photograph
from vision.synth.dice import Look, render_scene

FPS = 15
SIZE = (640, 360)  # width, height
DIE_PX = 38
DIE_MM = 18.0  # the side of a die on a mat
MERGED_MOVES = 4  # on a mat, one placement in this many is filmed with the next roll
SWEEP_FRAMES = 6     # a hand in and out
TUMBLE_FRAMES = 4
SETTLE_FRAMES = 15   # about a second still
TOUCH_FRAMES = 3     # a hand reaching for one die
DRIFT_FRAMES = 20    # the light changing slowly
SHADOW_FRAMES = 10
NOISE = 2.0          # sensor noise, grey levels
GRAIN_SLACK = 64     # px the sensor noise field is larger than a frame each way
JPEG_QUALITY = 92
BACKGROUNDS = ("felt", "wood", "cardboard", "mat")
SEAT_COLOURS = ("red", "blue", "yellow", "green", "purple", "orange")  # names the reader's palette knows
TABLE_COLOUR = "white"  # dice that belong to nobody
EVENT_KINDS = ("stray", "misplaced", "out_of_turn")
ROLLS_PER_EVENT = 20  # of each kind planted, one per this many rolls (at least one)
LIGHT_DRIFT, SHADOW = 0.15, 0.1  # chance of each after a roll
ROLLED = "rolled"  # where a thrown die lies until the game's view names its place
STRAY = "stray"


@dataclass(frozen=True)
class DiceSet:
    """How a game's dice look: printed symbols or pips, the faces a knocked die may show, and
    whose dice a roll throws (their colour), for games whose dice belong to seats."""

    printed: bool
    faces: tuple[str, ...]
    roller: Callable[[State], int] | None = None


DICE_SETS = {
    "excape": DiceSet(True, EXCAPE_FACES, lambda state: state.seat),
    "splitter": DiceSet(False, STANDARD_FACES),
    "holdup": DiceSet(False, STANDARD_FACES),
}


def is_roll(action: Action) -> bool:
    """A dice roll (``roll F F ...`` in every dice game's notation)."""
    return str(action).split()[0] == "roll"


def dice_in(view: Any, where: str = "") -> list[tuple[str, int | None, str]]:
    """(where, owner, face) of every die listed under a "dice" key of a table view: where is the
    path of keys to it, owner the "owner" beside it (None when there is none)."""
    found: list[tuple[str, int | None, str]] = []
    if isinstance(view, Mapping):
        for key, value in view.items():
            if key == "dice" and isinstance(value, list):
                found.extend((where, view.get("owner"), str(face)) for face in value)
            else:
                found.extend(dice_in(value, f"{where}/{key}"))
    elif isinstance(view, list):
        for item in view:
            found.extend(dice_in(item, where))
    return found


def play(game_id: str, players: int, seed: int, options: Mapping[str, Any] | None = None,
         max_rolls: int | None = None) -> Match:
    """A whole game (or its first ``max_rolls`` rolls), decided and rolled by ``random.Random(seed)``."""
    rng = random.Random(seed)
    game = registry.make_game(game_id, players, dict(options or {}))
    coloured = DICE_SETS[game_id].roller is not None
    match = Match(game, [Player(f"P{n + 1}", SEAT_COLOURS[n] if coloured else "") for n in range(players)])
    rolls = 0
    while not match.state.is_terminal():
        state = match.state
        action = state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        if is_roll(action):
            if rolls == max_rolls:
                break
            rolls += 1
        match.push(action)
    return match


@dataclass(frozen=True)
class Sprite:
    """A die drawn alone: its colour premultiplied by its alpha (shadow included), and where
    its top face's centre is in the sprite."""

    colour: np.ndarray  # float32 (h, w, 3)
    alpha: np.ndarray   # float32 (h, w, 1)
    cx: float
    cy: float


def die_sprite(seed: int, face: str, colour: str, printed: bool) -> Sprite:
    """The die of ``seed`` (its size and angle) showing ``face``, drawn on black and on white to
    recover its alpha."""
    side = 3 * DIE_PX  # render_scene keeps a die 1.2 sides from the edges: about the middle
    drawn = [render_scene(seed, count=1, die_px=DIE_PX, faces=(face,), colours=(colour,), look=Look(printed=printed),
                          backdrop=np.full((side, side, 3), level, np.uint8)) for level in (0, 255)]
    black, white = (scene.image.astype(np.float32) for scene in drawn)
    alpha = np.clip(1 - (white - black).mean(axis=2, keepdims=True) / 255, 0, 1)
    return Sprite(black, alpha, drawn[0].dice[0].x, drawn[0].dice[0].y)


def scaled(sprite: Sprite, scale: float) -> Sprite:
    """``sprite`` drawn ``scale`` times as large."""
    if scale == 1.0:
        return sprite
    size = (round(sprite.colour.shape[1] * scale), round(sprite.colour.shape[0] * scale))
    return Sprite(cv2.resize(sprite.colour, size), cv2.resize(sprite.alpha, size)[..., None],
                  sprite.cx * scale, sprite.cy * scale)


def paste(canvas: np.ndarray, colour: np.ndarray, alpha: np.ndarray, x0: int, y0: int) -> None:
    """Lay a premultiplied layer over ``canvas`` (float32) with its top-left corner at (x0, y0)."""
    h, w = canvas.shape[:2]
    top, left = max(y0, 0), max(x0, 0)
    bottom, right = min(y0 + alpha.shape[0], h), min(x0 + alpha.shape[1], w)
    if top >= bottom or left >= right:
        return
    part = (slice(top - y0, bottom - y0), slice(left - x0, right - x0))
    region = canvas[top:bottom, left:right]
    region *= 1 - alpha[part]
    region += colour[part]


def motion_blurred(colour: np.ndarray, alpha: np.ndarray, dx: float, dy: float):
    """A layer blurred along a motion of (dx, dy) px during the exposure."""
    reach = int(math.ceil(max(abs(dx), abs(dy)) / 2))
    if reach < 1:
        return colour, alpha
    kernel = np.zeros((2 * reach + 1, 2 * reach + 1), np.float32)
    cv2.line(kernel, (round(reach - dx / 2), round(reach - dy / 2)), (round(reach + dx / 2), round(reach + dy / 2)),
             1.0, 1, cv2.LINE_AA)
    kernel /= kernel.sum()
    pad = ((reach, reach), (reach, reach), (0, 0))
    colour, alpha = np.pad(colour, pad), np.pad(alpha, pad)
    return cv2.filter2D(colour, -1, kernel), cv2.filter2D(alpha, -1, kernel)[..., None]


@dataclass(frozen=True)
class LyingDie:
    where: str
    owner: int | None
    face: str
    colour: str
    seed: int
    x: float
    y: float
    sprite: Sprite

    @property
    def key(self) -> tuple[str, int | None, str]:
        return self.where, self.owner, self.face


class Film:
    """Frames of one table, each handed to ``sink`` as it is shot (BGR ``uint8``): a bare table
    (SIZE), or the printed ``mat`` photographed from above (as the card recordings film theirs)."""

    def __init__(self, seed: int, dice: DiceSet, sink: Callable[[np.ndarray], Any], mat: MatLayout | None = None):
        self.sink = sink
        self.dice = dice
        self.mat = mat
        self.rng = random.Random(f"film {seed}")
        background = self.rng.choice(BACKGROUNDS)
        if mat is None:
            self.table = render_scene(self.rng.randrange(2**31), size=SIZE, count=0,
                                      look=Look(background=background)).image.astype(np.float32)
            self.mm_to_px, self.scale = None, 1.0
        else:
            names = {zone: translate(text, "en") for zone, text in printed_names(mat).items()}  # as print-mat prints it
            drawing = render(mat_drawing(mat, names), mat.size, MAT_PX_PER_MM)
            frame, self.mm_to_px = photograph(drawing, MAT_PX_PER_MM, mat.size, CAMERA, np.random.default_rng(seed))
            self.table = frame.astype(np.float32)
            middle = np.array(mat.size) / 2
            self.scale = float(np.linalg.norm(self._px(middle + (DIE_MM, 0)) - self._px(middle))) / DIE_PX
        self.size = (self.table.shape[1], self.table.shape[0])
        self.light = self._light()
        self.lying: list[LyingDie] = []
        self.thrown: set[int] = set()  # the seeds of the dice of the last roll
        self.frames = 0
        # sensor noise: each frame a window of this field at a new offset, as independent from one
        # frame to the next as fresh noise (drawing it for every frame was most of the time spent)
        noise = np.random.default_rng([seed, 1])
        width, height = self.size
        self.grain = noise.standard_normal((height + GRAIN_SLACK, width + GRAIN_SLACK, 3), dtype=np.float32) * NOISE
        self.skin = np.array([110, 140, 190], np.float32) * self.rng.uniform(0.75, 1.1)

    # --- the table ------------------------------------------------------------------------------

    def colour_of(self, owner: int | None) -> str:
        return TABLE_COLOUR if owner is None or self.dice.roller is None else SEAT_COLOURS[owner]

    def new_die(self, where: str, owner: int | None, face: str, colour: str, avoid: Sequence[LyingDie]) -> LyingDie:
        seed = self.rng.randrange(2**31)
        x, y = self._free_spot(avoid, where)
        return LyingDie(where, owner, face, colour, seed, x, y, self.sprite(seed, face, colour))

    def sprite(self, seed: int, face: str, colour: str) -> Sprite:
        return scaled(die_sprite(seed, face, colour, self.dice.printed), self.scale)

    def with_face(self, die: LyingDie, face: str) -> LyingDie:
        """The same die, where it lies at the same angle, showing ``face``."""
        return replace(die, face=face, sprite=self.sprite(die.seed, face, die.colour))

    def _px(self, point_mm: tuple[float, float]) -> np.ndarray:
        return cv2.perspectiveTransform(np.array([[point_mm]], np.float64), self.mm_to_px)[0, 0]

    def _free_spot(self, avoid: Sequence[LyingDie], where: str = "") -> tuple[float, float]:
        """A spot a die lying ``where`` may take, apart from the dice ``avoid``: anywhere on a
        bare table; on a mat, in the zone the game's view names by ``where`` (a thrown or stray
        die: the roll area), anywhere on the mat otherwise."""
        zone = None
        if self.mat is not None:
            named = "roll" if where in (ROLLED, STRAY) else mat_zone(tuple(key for key in where.split("/") if key))
            zone = next((z for z in self.mat.zones if z.id == named), None)
        side = DIE_PX * self.scale
        gap = (1.6 if zone else 2.4) * side
        while True:  # a crowded table packs its dice closer
            for _ in range(300):
                if zone is None:
                    (width, height), margin = self.size, 1.3 * side
                    x, y = self.rng.uniform(margin, width - margin), self.rng.uniform(margin, height - margin)
                else:  # the die's centre half a side in from the zone's edges
                    reach_x, reach_y = max(zone.w / 2 - 0.5 * DIE_MM, 0), max(zone.h / 2 - 0.5 * DIE_MM, 0)
                    x, y = self._px((zone.x + self.rng.uniform(-reach_x, reach_x),
                                     zone.y + self.rng.uniform(-reach_y, reach_y)))
                if all(math.hypot(x - d.x, y - d.y) > gap for d in avoid):
                    return float(x), float(y)
            gap *= 0.9

    def image(self, dice: Sequence[LyingDie]) -> np.ndarray:
        """The table with ``dice`` lying on it, unlit (float32)."""
        canvas = self.table.copy()
        for die in dice:
            paste(canvas, die.sprite.colour, die.sprite.alpha, round(die.x - die.sprite.cx), round(die.y - die.sprite.cy))
        return canvas

    # --- light and camera -----------------------------------------------------------------------

    def _light(self) -> np.ndarray:
        """A gain per pixel: the table lit from one side, a little brighter or darker overall."""
        width, height = self.size
        direction = self.rng.uniform(0, 2 * math.pi)
        strength = self.rng.uniform(0, 0.35)
        yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
        ramp = ((xx - width / 2) * math.cos(direction) + (yy - height / 2) * math.sin(direction)) / max(width, height)
        return (self.rng.uniform(0.9, 1.1) * (1 - strength * (ramp + 0.5)))[..., None]

    def shoot(self, image: np.ndarray, light: np.ndarray | None = None, frames: int = 1) -> None:
        """Write ``frames`` frames of ``image`` lit by ``light`` (the table's light by default),
        each with its own sensor noise."""
        lit = image * (self.light if light is None else light)
        for _ in range(frames):
            oy, ox, (width, height) = self.rng.randrange(GRAIN_SLACK), self.rng.randrange(GRAIN_SLACK), self.size
            self.sink(np.clip(lit + self.grain[oy:oy + height, ox:ox + width], 0, 255).astype(np.uint8))
            self.frames += 1

    def drift(self) -> None:
        """The light turns slowly to another gradient, too slowly for any frame to look moved."""
        start, end = self.light, self._light()
        image = self.image(self.lying)
        for step in range(1, DRIFT_FRAMES + 1):
            self.light = start + (end - start) * (step / DRIFT_FRAMES)
            self.shoot(image)

    def shadow(self) -> None:
        """A shadow (someone leaning over) passes across the table, then it is still again."""
        width, height = self.size
        image = self.image(self.lying)
        yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
        radius = self.rng.uniform(0.25, 0.45) * width
        y = self.rng.uniform(0, height)
        depth = self.rng.uniform(0.2, 0.4)
        for step in range(SHADOW_FRAMES):
            x = -radius + (width + 2 * radius) * step / (SHADOW_FRAMES - 1)
            shade = 1 - depth * np.exp(-((xx - x) ** 2 + (yy - y) ** 2) / (2 * (radius / 2) ** 2))
            self.shoot(image, self.light * shade[..., None])
        self.shoot(image, frames=SETTLE_FRAMES)

    # --- hands ----------------------------------------------------------------------------------

    def hand(self, x: float, y: float, towards: float, moved: float) -> tuple[np.ndarray, np.ndarray]:
        """A hand with its palm at (x, y), fingers pointing ``towards`` (radians), its arm reaching
        back out of the frame, blurred by a motion of ``moved`` px along it during the exposure:
        a full-frame premultiplied layer (drawn at half size: it is blurred anyway)."""
        width, height = self.size[0] // 2, self.size[1] // 2
        x, y = x / 2, y / 2
        mask = np.zeros((height, width), np.uint8)
        ux, uy = math.cos(towards), math.sin(towards)
        palm = DIE_PX * self.scale
        back = (int(x - ux * 4 * width), int(y - uy * 4 * width))
        cv2.line(mask, (int(x), int(y)), back, 255, int(1.3 * palm), cv2.LINE_AA)
        cv2.ellipse(mask, (int(x), int(y)), (int(palm * 0.8), int(palm * 0.7)), math.degrees(towards), 0, 360, 255, -1,
                    cv2.LINE_AA)
        for finger in (-1.5, -0.5, 0.5, 1.5):
            fx = x + ux * palm * 1.1 - uy * finger * palm * 0.32
            fy = y + uy * palm * 1.1 + ux * finger * palm * 0.32
            cv2.ellipse(mask, (int(fx), int(fy)), (int(palm * 0.55), int(palm * 0.14)), math.degrees(towards), 0, 360,
                        255, -1, cv2.LINE_AA)
        alpha = (mask.astype(np.float32) / 255)[..., None]
        shading = 0.85 + 0.15 * cv2.GaussianBlur(alpha, (0, 0), palm / 4)[..., None]
        colour, alpha = motion_blurred(self.skin * shading * alpha, alpha, ux * moved / 2, uy * moved / 2)
        pad = (alpha.shape[0] - height) // 2
        colour, alpha = colour[pad:pad + height, pad:pad + width], alpha[pad:pad + height, pad:pad + width]
        return cv2.resize(colour, self.size), cv2.resize(alpha, self.size)[..., None]

    def reach(self, target: tuple[float, float], frames: int, before: np.ndarray, after: np.ndarray) -> None:
        """A hand comes in from an edge to ``target`` and leaves the way it came; the table
        shows ``before`` while it comes, ``after`` once it turns back."""
        towards = self.rng.uniform(0, 2 * math.pi)
        reach = 0.75 * math.hypot(*self.size)
        start = (target[0] - math.cos(towards) * reach, target[1] - math.sin(towards) * reach)
        half = frames // 2
        path = [(k + 1) / half for k in range(half)]
        path += path[::-1]
        previous = 0.0
        for step, along in enumerate(path):
            x = start[0] + (target[0] - start[0]) * along
            y = start[1] + (target[1] - start[1]) * along
            colour, alpha = self.hand(x, y, towards, (along - previous) * reach * 0.5)  # the shutter: half a frame
            previous = along
            image = (before if step < half else after).copy()
            paste(image, colour, alpha, 0, 0)
            self.shoot(image)

    # --- what happens on the table --------------------------------------------------------------

    def roll(self, lying: Sequence[tuple[str, int | None, str]], faces: Sequence[str], owner: int | None,
             stray: bool) -> int:
        """Film a roll of ``faces`` by ``owner`` onto the table that should show ``lying`` before
        it; the stray die, if any, lies there from now until the next roll. The frame the table
        is still from."""
        old = self.image(self.lying)
        kept, added = self._sync(lying)
        lying_now = list(kept)
        for where, die_owner, face in added:  # moved on the table by the players, or put back on it
            lying_now.append(self.new_die(where, die_owner, face, self.colour_of(die_owner), lying_now))
        if stray:
            colour = self.rng.choice(SEAT_COLOURS if self.dice.roller else (TABLE_COLOUR,))
            lying_now.append(self.new_die(STRAY, None, self.rng.choice(self.dice.faces), colour, lying_now))
        thrown = []
        for face in faces:
            thrown.append(self.new_die(ROLLED, owner, face, self.colour_of(owner), lying_now + thrown))
        self.thrown = {d.seed for d in thrown}
        touched = [d for d in lying_now if d not in kept] + thrown
        target = (float(np.mean([d.x for d in touched])), float(np.mean([d.y for d in touched])))
        settled_before = self.image(lying_now)
        self.reach(target, SWEEP_FRAMES, old, settled_before)
        self._tumble(thrown, target, settled_before)
        self.lying = lying_now + thrown
        still = self.frames
        self.shoot(self.image(self.lying), frames=SETTLE_FRAMES)
        return still

    def move(self, lying: Sequence[tuple[str, int | None, str]]) -> int:
        """Film the players moving the dice to lie as the game's view says (``lying``: a roll moved
        onto its rung, dislodged dice given back): a hand sweeps over them; the frame the table
        is still from."""
        old = self.image(self.lying)
        kept, added = self._sync(lying)
        lying_now = list(kept)
        for where, owner, face in added:
            lying_now.append(self.new_die(where, owner, face, self.colour_of(owner), lying_now))
        touched = [d for d in lying_now if d not in kept] + [d for d in self.lying if d not in kept] or lying_now
        target = (float(np.mean([d.x for d in touched])), float(np.mean([d.y for d in touched])))
        self.reach(target, SWEEP_FRAMES, old, self.image(lying_now))
        self.lying = lying_now
        still = self.frames
        self.shoot(self.image(self.lying), frames=SETTLE_FRAMES)
        return still

    def _sync(self, target: Sequence[tuple[str, int | None, str]]):
        """The dice lying that the game still shows where they are, and the dice it shows that
        do not lie there yet."""
        left, kept, added = list(self.lying), [], []
        for key in target:
            twin = next((d for d in left if d.key == key), None)
            if twin is None:
                added.append(key)
            else:
                left.remove(twin)
                kept.append(twin)
        return kept, added

    def place_thrown(self, view_dice: Sequence[tuple[str, int | None, str]]) -> None:
        """Name the place the game's view gives the dice just thrown (the roll showing, a
        roll-off's), so that they stay where they fell while the view keeps them there."""
        keys = list(view_dice)
        for die in self.lying:
            if die.key in keys:
                keys.remove(die.key)
        placed = []
        for die in self.lying:
            home = next((k for k in keys if die.where == ROLLED and (k[1], k[2]) == (die.owner, die.face)), None)
            if home is not None:
                keys.remove(home)
                die = replace(die, where=home[0])
            placed.append(die)
        self.lying = placed

    def _tumble(self, thrown: Sequence[LyingDie], start: tuple[float, float], table: np.ndarray) -> None:
        previous = {id(d): start for d in thrown}
        for step in range(1, TUMBLE_FRAMES + 1):
            along = 1 - (1 - step / (TUMBLE_FRAMES + 1)) ** 2  # slowing down
            image = table.copy()
            for die in thrown:
                x = start[0] + (die.x - start[0]) * along
                y = start[1] + (die.y - start[1]) * along
                px, py = previous[id(die)]
                previous[id(die)] = (x, y)
                sprite = self.sprite(self.rng.randrange(2**31), self.rng.choice(self.dice.faces), die.colour)
                colour, alpha = motion_blurred(sprite.colour, sprite.alpha, (x - px) * 0.5, (y - py) * 0.5)
                pad = (alpha.shape[0] - sprite.alpha.shape[0]) // 2
                paste(image, colour, alpha, round(x - sprite.cx) - pad, round(y - sprite.cy) - pad)
            self.shoot(image)

    def knock(self, die: LyingDie) -> tuple[int, int, str]:
        """A hand knocks ``die`` onto another face, leaves it a second, then puts it back: the
        frames the knocked die is still from and until, and the face it showed."""
        face = self.rng.choice([f for f in self.dice.faces if f != die.face])
        knocked = self.with_face(die, face)
        others = [d for d in self.lying if d is not die]
        right, wrong = self.image(self.lying), self.image(others + [knocked])
        self.reach((die.x, die.y), TOUCH_FRAMES * 2, right, wrong)
        still = self.frames
        self.shoot(wrong, frames=SETTLE_FRAMES)
        until = self.frames - 1
        self.reach((die.x, die.y), TOUCH_FRAMES * 2, wrong, right)
        self.shoot(right, frames=SETTLE_FRAMES)
        return still, until, face


def film_match(match: Match, camera: Film, events: Sequence[str] = ()) -> dict[str, Any]:
    """Film ``match`` from its first action; what happened when, as recording.json has it."""
    states, history = match.states(), match.history
    roll_indices = [i for i, action in enumerate(history) if is_roll(action)]
    planted: dict[str, set[int]] = {}
    for kind in EVENT_KINDS:
        planted[kind] = _event_rolls(camera.rng, len(roll_indices), set().union(*planted.values())) \
            if kind in events and (kind != "out_of_turn" or camera.dice.roller) else set()
    rolls, moves, planted_log, lights = [], [], [], []
    for index, action in enumerate(history):
        before = states[index]
        if camera.mat is not None and not before.is_chance_node() and moves_dice(before, action):
            if camera.rng.random() >= 1 / MERGED_MOVES:  # else the next roll's sweep moves them
                still = camera.move(dice_in(states[index + 1].table_view()))
                moves.append({"action": index, "line": str(action), "still": still, "until": camera.frames - 1})
            continue
        if not is_roll(action):
            continue
        number = len(rolls)
        owner = camera.dice.roller(before) if camera.dice.roller else None
        stray = number in planted["stray"]
        if number in planted["out_of_turn"]:
            other = camera.rng.choice([seat for seat in range(match.game.num_players) if seat != owner])
            wrong = camera.roll(dice_in(before.table_view()), str(before.sample_chance(camera.rng)).split()[1:], other,
                                stray=False)
            planted_log.append({"kind": "out_of_turn", "roll": number, "still": wrong, "until": camera.frames - 1,
                                "seat": other})
        still = camera.roll(dice_in(before.table_view()), str(action).split()[1:], owner, stray)
        camera.place_thrown(dice_in(states[index + 1].table_view()))
        if stray:
            planted_log.append({"kind": "stray", "roll": number, "still": still, "until": camera.frames - 1})
        if number in planted["misplaced"]:
            die = camera.rng.choice([d for d in camera.lying if d.seed in camera.thrown])
            knocked_still, until, face = camera.knock(die)
            planted_log.append({"kind": "misplaced", "roll": number, "still": knocked_still, "until": until,
                                "face": die.face, "knocked_to": face})
        rolls.append({"action": index, "line": str(action), "still": still, "until": camera.frames - 1})
        if camera.rng.random() < LIGHT_DRIFT:
            lights.append({"kind": "drift", "from": camera.frames})
            camera.drift()
        elif camera.rng.random() < SHADOW:
            lights.append({"kind": "shadow", "from": camera.frames})
            camera.shadow()
    log = {"fps": FPS, "frames": camera.frames, "rolls": rolls, "planted": planted_log, "lights": lights}
    return log | ({"moves": moves} if camera.mat is not None else {})


def _event_rolls(rng: random.Random, rolls: int, taken: set[int]) -> set[int]:
    """Seeded rolls for one kind of event: one per ROLLS_PER_EVENT rolls, at least one, never
    two in a row, nor on a roll ``taken`` by another kind."""
    wanted = max(1, rolls // ROLLS_PER_EVENT) if rolls else 0
    chosen: set[int] = set()
    for number in rng.sample(range(rolls), rolls):
        if len(chosen) == wanted:
            break
        if number not in taken and not {number - 1, number + 1} & chosen:
            chosen.add(number)
    return chosen


def enrolment_images(film: Film, players: int) -> dict[str, np.ndarray]:
    """For printed dice: a photo per face of one die of each seat's colour showing it (on a mat,
    in its roll area)."""
    images = {}
    for face in film.dice.faces:
        dice: list[LyingDie] = []
        for seat in range(players):
            dice.append(film.new_die(ROLLED, seat, face, SEAT_COLOURS[seat], dice))
        images[face] = np.clip(film.image(dice) * film.light, 0, 255).astype(np.uint8)
    return images


def enrolment_photos(film: Film, players: int, folder: Path) -> dict[str, Path]:
    """``enrolment_images`` written to ``folder`` as FACE.jpg."""
    folder.mkdir(parents=True, exist_ok=True)
    photos = {}
    for face, image in enrolment_images(film, players).items():
        photos[face] = folder / f"{face}.jpg"
        cv2.imwrite(str(photos[face]), image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    return photos


def record(game_id: str, players: int, seed: int, out: str | Path, events: Sequence[str] = (),
           options: Mapping[str, Any] | None = None, max_rolls: int | None = None, mat: bool = False) -> dict[str, Any]:
    """Play and film a game into ``out`` (on the game's printed mat for its players with ``mat``);
    what recording.json says."""
    if game_id not in DICE_SETS:
        raise ValueError(f"no dice to film in {game_id!r}; choose from {', '.join(sorted(DICE_SETS))}")
    unknown = set(events) - set(EVENT_KINDS)
    if unknown:
        raise ValueError(f"unknown event {sorted(unknown)[0]!r}; choose from {', '.join(EVENT_KINDS)}")
    match = play(game_id, players, seed, options, max_rolls)
    out = Path(out)
    frames = out / "frames"
    frames.mkdir(parents=True, exist_ok=True)

    def write(frame: np.ndarray) -> None:
        cv2.imwrite(str(frames / f"frame_{camera.frames:05d}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])

    camera = Film(seed, DICE_SETS[game_id], write, smallest_mat(game_id, players) if mat else None)
    log = {"game": game_id, "players": players, "seed": seed, **film_match(match, camera, events)}
    match.save(out / "truth.json")
    if camera.dice.printed:
        log["faces"] = {face: str(path.relative_to(out))
                        for face, path in enrolment_photos(camera, players, out / "faces").items()}
    (out / "recording.json").write_text(json.dumps(log, indent=1) + "\n")
    return log


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.synth.recording", description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=sorted(DICE_SETS))
    parser.add_argument("out", help="the folder to write (frames/, truth.json, recording.json)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, help="default: the game's fewest, at least 2")
    parser.add_argument("--events", nargs="*", choices=EVENT_KINDS, metavar="KIND",
                        help=f"plant events: {', '.join(EVENT_KINDS)} (all when none is named)")
    parser.add_argument("--rolls", type=int, metavar="N", help="stop before the roll after the first N")
    parser.add_argument("--mat", action="store_true", help="film the game on its printed mat (Excape's rungs)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option, its value as JSON (e.g. track_length=5); repeatable")
    args = parser.parse_args(argv)
    options = {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep:
            parser.error(f"--option expects KEY=VALUE, got {item!r}")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    players = args.players or max(registry.game_class(args.game).min_players, 2)
    events = EVENT_KINDS if args.events == [] else tuple(args.events or ())
    log = record(args.game, players, args.seed, args.out, events, options, args.rolls, args.mat)
    print(f"{args.game}, {players} players, seed {args.seed}: {len(log['rolls'])} rolls, {log['frames']} frames, "
          f"{len(log['planted'])} events planted, in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
