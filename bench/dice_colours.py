"""How well the dice reader names a die's body colour: seeded synthetic scenes of Excape's dice
(printed faces, the six seat colours, 30 px) under light gradients, glare, blur and noise, each die
read from one frame (`vision.dice.DiceReader` with the configured palette: the colour is named
alike whatever its faces are read against). Prints how many dice were named right, named wrong, and left unnamed (an unsure colour,
see `vision.dice_colours.Palette.name`), with the wrong ones. Asserts nothing.

    .venv/bin/python bench/dice_colours.py [--scenes 150] [--die-px 30]
"""
from __future__ import annotations

import _one_core  # noqa: F401  (first: one BLAS thread, as on the kiosk)

import argparse
from collections import Counter
from dataclasses import replace

import cv2

from assistant import settings as settings_mod
from engine.table import EXCAPE_FACES
from vision.dice import DiceReader
from vision.synth.dice import Look, render_scene
from vision.synth.recording import SEAT_COLOURS

LOOKS = (Look(), Look(gradient=0.6), Look(glare=True), Look(background="mat", noise=3.0), Look(blur=1.0, lean=0.15))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=150)
    parser.add_argument("--die-px", type=float, default=30.0)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    reader = DiceReader.from_settings(settings_mod.load().section("vision.dice"), "", printed=False)
    named, wrong = Counter(), Counter()
    for seed in range(args.scenes):
        look = replace(LOOKS[seed % len(LOOKS)], printed=True)
        scene = render_scene(seed, size=(640, 480), count=6, die_px=args.die_px, faces=EXCAPE_FACES,
                             colours=SEAT_COLOURS, look=look)
        for reading in reader.read(scene.image):
            die = min(scene.dice, key=lambda d: (d.x - reading.x) ** 2 + (d.y - reading.y) ** 2)
            if (die.x - reading.x) ** 2 + (die.y - reading.y) ** 2 > (die.size / 2) ** 2:
                continue  # not a die of the scene
            kind = "right" if reading.colour == die.colour else "unnamed" if not reading.colour else "wrong"
            named[kind] += 1
            if kind == "wrong":
                wrong[(die.colour, die.face, reading.colour)] += 1
    total = sum(named.values())
    print(f"dice colours, {args.scenes} scenes of Excape dice ({args.die_px:g} px), {total} dice read: "
          + ", ".join(f"{kind} {named[kind]} ({named[kind] / total:.1%})" for kind in ("right", "wrong", "unnamed")))
    for (colour, face, read), count in wrong.most_common():
        print(f"    {count} x a {colour} {face} named {read}")


if __name__ == "__main__":
    main()
