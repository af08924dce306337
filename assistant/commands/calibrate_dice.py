"""`table-assistant calibrate dice-faces | dice-palette | dice-background`: learn the club's own
dice, and the empty table, from photos.

``dice-faces FACE=PHOTO ...`` is for dice whose faces are printed symbols (Excape: 1-7 and X)
rather than pips. Photograph the dice showing one face (one or several dice per photo, every die
showing that face), once per face, then run for example::

    table-assistant calibrate dice-faces 1=ones.jpg 2=twos.jpg 7=sevens.jpg X=crosses.jpg ...

The faces are saved in ``app.state_dir`` (``vision.dice.faces_file``); with ``vision.dice.faces``
= "game" (the default) Excape's dice are read against them, or always with "enrolled".

``dice-palette NAME=PHOTO ...`` measures the body colour of the dice in each photo (one colour
per photo, under the table's own light) and prints the ``vision.dice.palette`` setting to put in
the configuration file.

``dice-background [PHOTO ...]`` learns the empty table as the mounted camera sees it, from a few
frames taken now (``--frames``, from the configured camera) or from photos taken with it. Where a
frame still looks as the empty table did, no die is reported: the mat's markers and lettering
are not read as dice. Clear the table first; learn it again when the camera or the mat moves.
It is saved in ``app.state_dir`` (``vision.dice.background_file``).
"""
from __future__ import annotations

from pathlib import Path

import cv2

from assistant.settings import state_dir
from vision.dice import DiceReader
from vision.dice_background import TableBackground, frame_size


_SETTLING_FRAMES = 15  # frames of a live camera left out while its exposure settles (half a second)


def add_parser(whats) -> None:
    parser = whats.add_parser("dice-faces", help="learn printed dice faces (e.g. Excape 1-7, X) from photos")
    parser.add_argument("photos", nargs="+", metavar="FACE=PHOTO",
                        help="a face and a photo in which every die shows it, e.g. 7=sevens.jpg")
    parser.set_defaults(run=run_faces)
    parser = whats.add_parser("dice-palette", help="measure the dice colours under this table's light")
    parser.add_argument("photos", nargs="+", metavar="NAME=PHOTO",
                        help="a colour name and a photo in which every die has it, e.g. red=red-dice.jpg")
    parser.set_defaults(run=run_palette)
    parser = whats.add_parser("dice-background", help="learn the empty table, so its print is not read as dice")
    parser.add_argument("photos", nargs="*", metavar="PHOTO",
                        help="photos of the empty table taken by the mounted camera (default: take frames now)")
    parser.add_argument("--frames", type=int, default=10, metavar="N",
                        help="frames to take from the camera when no photo is given (default: 10)")
    parser.set_defaults(run=run_background)


def dice_reader(settings, faces: str | None = None, empty_table: bool = True) -> DiceReader:
    """The reader the settings describe; ``faces`` overrides ``vision.dice.faces``; without
    ``empty_table``, the empty table learnt for the mounted camera is not used."""
    section = settings.section("vision.dice")
    if faces is not None:
        section["faces"] = faces
    return DiceReader.from_settings(section, state_dir(settings["app.state_dir"]), empty_table)


def empty_table_path(settings) -> Path | None:
    """Where the empty table learnt for the mounted camera is kept (None when
    vision.dice.background_file is empty: it is not kept)."""
    name = settings["vision.dice.background_file"]
    return state_dir(settings["app.state_dir"]) / name if name else None


def read_photo(name: str):
    image = cv2.imread(name, cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError(f"{name}: cannot read this photo")
    return image


def read_photos(items: list[str], what: str) -> dict[str, list]:
    """``KEY=PHOTO`` arguments as photos by key; at least two different keys."""
    from assistant.cli import UsageError

    photos: dict[str, list] = {}
    for item in items:
        key, sep, name = item.partition("=")
        if not sep or not key or not name:
            raise UsageError(f"expected {what.upper()}=PHOTO, got {item!r}")
        photos.setdefault(key, []).append(read_photo(name))
    if len(photos) < 2:
        raise UsageError(f"give photos of at least two different {what}s")
    return photos


def run_faces(args, settings) -> int:
    photos = read_photos(args.photos, "face")
    reader = dice_reader(settings, faces="pips")  # finding the dice needs no enrolled faces
    enrolled = reader.enrol_faces(photos)
    path = state_dir(settings["app.state_dir"]) / settings["vision.dice.faces_file"]
    enrolled.save(path)
    learned = ", ".join(f"{face} ({n} dice)" for face, n in enrolled.counts().items())
    print(f"learned faces {learned}; saved to {path}")
    if settings["vision.dice.faces"] == "pips":
        print('vision.dice.faces is "pips": set it to "game" (Excape reads these faces) or "enrolled" to use them')
    return 0


def run_palette(args, settings) -> int:
    entries = dice_reader(settings).learn_palette(read_photos(args.photos, "colour"))
    print("# add to the configuration file (e.g. /etc/table-assistant/config.toml):")
    print("[vision.dice]")
    print("palette = [" + ", ".join(f'"{e}"' for e in entries) + "]")
    return 0


def run_background(args, settings) -> int:
    from assistant.cli import UsageError

    path = empty_table_path(settings)
    if path is None:
        raise UsageError("vision.dice.background_file is empty: set a file name to learn the empty table")
    if args.photos:
        frames = [read_photo(name) for name in args.photos]
    elif args.frames < 1:
        raise UsageError(f"--frames must be at least 1, got {args.frames}")
    else:
        _, frames = camera_frames(settings.section("camera"), args.frames)
    background = TableBackground.from_frames(frames)
    background.save(path)
    frames_taken = f"{len(frames)} frame" + ("s" if len(frames) > 1 else "")
    print(f"learned the empty table from {frames_taken} of {frame_size(background.grey.shape)}; saved to {path}")
    return 0


def camera_frames(config, count: int) -> tuple[str, list]:
    """The configured camera's name and ``count`` frames from it (CaptureError naming every
    source tried)."""
    from assistant.cli import UsageError
    from vision.capture import CaptureError, camera_from_config

    camera = camera_from_config(config)
    if camera is None:
        raise UsageError('camera.source is "none": give photos of the empty table instead')
    try:
        source = camera.open()
        frames = []
        # a live camera's first frames are taken while its exposure settles
        for _ in range(count + (_SETTLING_FRAMES if source.live else 0)):
            image = source.grab()
            if image is None:
                raise CaptureError.one(source.name, f"ended after {len(frames)} frames", "give fewer --frames")
            frames.append(camera.upright(image, source.name))
        return source.name, frames[-count:]
    finally:
        camera.close()
