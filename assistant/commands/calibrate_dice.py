"""`table-assistant calibrate dice-faces | dice-palette`: learn the club's own dice from photos.

``dice-faces FACE=PHOTO ...`` is for dice whose faces are printed symbols (Excape: 1-7 and X) rather than pips. Photograph the
dice showing one face (one or several dice per photo, every die showing that face), once per
face, then run for example::

    table-assistant calibrate dice-faces 1=ones.jpg 2=twos.jpg 7=sevens.jpg X=crosses.jpg ...

The faces are saved in ``app.state_dir`` (``vision.dice.faces_file``); set
``vision.dice.faces = "enrolled"`` to read them.

``dice-palette NAME=PHOTO ...`` measures the body colour of the dice in each photo (one colour
per photo, under the table's own light) and prints the ``vision.dice.palette`` setting to put in
the configuration file.
"""
from __future__ import annotations

import cv2

from assistant.settings import state_dir
from vision.dice import DiceReader


def add_parser(whats) -> None:
    parser = whats.add_parser("dice-faces", help="learn printed dice faces (e.g. Excape 1-7, X) from photos")
    parser.add_argument("photos", nargs="+", metavar="FACE=PHOTO",
                        help="a face and a photo in which every die shows it, e.g. 7=sevens.jpg")
    parser.set_defaults(run=run_faces)
    parser = whats.add_parser("dice-palette", help="measure the dice colours under this table's light")
    parser.add_argument("photos", nargs="+", metavar="NAME=PHOTO",
                        help="a colour name and a photo in which every die has it, e.g. red=red-dice.jpg")
    parser.set_defaults(run=run_palette)



def dice_reader(settings, faces: str | None = None) -> DiceReader:
    """The reader the settings describe; ``faces`` overrides ``vision.dice.faces``."""
    section = settings.section("vision.dice")
    if faces is not None:
        section["faces"] = faces
    return DiceReader.from_settings(section, state_dir(settings["app.state_dir"]))


def read_photos(items: list[str], what: str) -> dict[str, list]:
    """``KEY=PHOTO`` arguments as photos by key; at least two different keys."""
    from assistant.cli import UsageError

    photos: dict[str, list] = {}
    for item in items:
        key, sep, name = item.partition("=")
        if not sep or not key or not name:
            raise UsageError(f"expected {what.upper()}=PHOTO, got {item!r}")
        image = cv2.imread(name, cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError(f"{name}: cannot read this photo")
        photos.setdefault(key, []).append(image)
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
    if settings["vision.dice.faces"] != "enrolled":
        print('set vision.dice.faces = "enrolled" to read dice with these faces')
    return 0


def run_palette(args, settings) -> int:
    entries = dice_reader(settings).learn_palette(read_photos(args.photos, "colour"))
    print("# add to the configuration file (e.g. /etc/table-assistant/config.toml):")
    print("[vision.dice]")
    print("palette = [" + ", ".join(f'"{e}"' for e in entries) + "]")
    return 0
