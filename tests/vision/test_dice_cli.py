"""`table-assistant eval dice` and `calibrate dice-faces` on folders of synthetic photos."""
import argparse
import csv
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from assistant import settings
from assistant.cli import UsageError
from assistant.commands import calibrate_dice, eval_dice
from engine.table import EXCAPE_FACES
from vision.evaluate import DatasetError
from vision.synth.dice import Look, render_scene


def run(module, argv, tmp_path, **overrides):
    parser = argparse.ArgumentParser()
    module.add_parser(parser.add_subparsers())
    args = parser.parse_args(argv)
    nowhere = tmp_path / "none"
    overrides = {"app.state_dir": str(tmp_path / "state"), **overrides}
    return args.run(args, settings.load(env={}, system_file=nowhere, user_path=nowhere, overrides=overrides))


CONTRASTING = ("white", "red", "blue", "yellow")  # dice that stand out from the default green felt


def labelled_folder(folder: Path, seeds, look=Look(), faces=("1", "2", "3", "4", "5", "6"), crops=False,
                    colours=CONTRASTING):
    """Synthetic photos and their labels.csv; returns the number of labelled dice."""
    folder.mkdir()
    rows = []
    for seed in seeds:
        scene = render_scene(seed, count=4, die_px=44, faces=faces, colours=colours, look=look)
        for k, die in enumerate(scene.dice):
            half = die.size / 2
            if crops:
                name = f"crop{seed}_{k}.png"
                x0, y0 = int(die.x - 1.3 * half), int(die.y - 1.3 * half)
                cv2.imwrite(str(folder / name), scene.image[y0:y0 + int(2.6 * half), x0:x0 + int(2.6 * half)])
                rows.append([name, "", "", "", "", die.face])
            else:
                rows.append([f"s{seed}.png", die.x - half, die.y - half, die.x + half, die.y + half, die.face])
        if not crops:
            cv2.imwrite(str(folder / f"s{seed}.png"), scene.image)
    with open(folder / "labels.csv", "w", newline="") as handle:
        csv.writer(handle).writerows([["filename", "xmin", "ymin", "xmax", "ymax", "label"], *rows])
    return len(rows)


def test_eval_dice_prints_the_contract_json(tmp_path, capsys, monkeypatch):
    from assistant.cli import main

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    dice = labelled_folder(tmp_path / "photos", [801, 802, 803])
    assert main(["eval", "dice", str(tmp_path / "photos"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["images"] == 3 and report["objects"] == dice
    assert report["detected"] == report["correct"] == dice and report["false_positives"] == 0
    assert report["recall"] == report["precision"] == report["accuracy"] == 1.0
    assert report["ms_per_image_median"] > 0


def test_eval_dice_crops_judges_only_the_face(tmp_path, capsys):
    dice = labelled_folder(tmp_path / "crops", [804, 805], crops=True)
    assert run(eval_dice, ["dice", str(tmp_path / "crops"), "--crops", "--json"], tmp_path) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["images"] == report["objects"] == dice and report["accuracy"] == 1.0


def test_eval_without_labels_names_the_file(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(DatasetError, match="no labels.csv"):
        run(eval_dice, ["dice", str(tmp_path / "empty")], tmp_path)


def test_calibrate_dice_faces_then_read_printed_dice(tmp_path, capsys):
    printed = Look(printed=True)
    photos = []
    for i, face in enumerate(EXCAPE_FACES):
        path = tmp_path / f"face{i}.png"
        cv2.imwrite(str(path), render_scene(900 + i, count=2, die_px=48, faces=(face,), colours=CONTRASTING,
                                            look=printed).image)
        photos.append(f"{face}={path}")
    assert run(calibrate_dice, ["dice-faces", *photos], tmp_path) == 0
    out = capsys.readouterr().out
    assert (tmp_path / "state" / "dice-faces.npz").is_file()
    assert all(f"{face} (" in out for face in EXCAPE_FACES)
    dice = labelled_folder(tmp_path / "excape", [910, 911], look=printed, faces=EXCAPE_FACES)
    reports = {}
    for faces in ("pips", "enrolled"):
        assert run(eval_dice, ["dice", str(tmp_path / "excape"), "--json"], tmp_path,
                   **{"vision.dice.faces": faces}) == 0
        reports[faces] = json.loads(capsys.readouterr().out)
    assert reports["enrolled"]["objects"] == dice and reports["enrolled"]["recall"] == 1.0
    # the enrolled faces read printed numerals (6 of these 8 today); pips cannot read a 7 or an X
    assert reports["enrolled"]["correct"] >= 6 > reports["pips"]["correct"]


def test_calibrate_dice_faces_bad_arguments(tmp_path):
    with pytest.raises(UsageError, match="FACE=PHOTO"):
        run(calibrate_dice, ["dice-faces", "sevens.jpg", "X=x.jpg"], tmp_path)
    with pytest.raises(ValueError, match="missing.jpg: cannot read"):
        run(calibrate_dice, ["dice-faces", f"7={tmp_path / 'missing.jpg'}", "X=x.jpg"], tmp_path)
    photo = tmp_path / "seven.png"
    cv2.imwrite(str(photo), render_scene(920, count=1, faces=("7",), look=Look(printed=True)).image)
    with pytest.raises(UsageError, match="at least two different faces"):
        run(calibrate_dice, ["dice-faces", f"7={photo}"], tmp_path)
    assert not (tmp_path / "state").exists()


def test_calibrate_dice_palette_prints_a_setting_that_names_the_colours(tmp_path, capsys):
    import tomllib

    from vision.dice_colours import Palette
    from vision.dice_patches import PATCH_SIDE
    from vision.synth.dice import DICE_COLOURS

    photos = []
    for name, colour in (("mine", "purple"), ("yours", "orange"), ("theirs", "white")):
        path = tmp_path / f"{name}.png"
        cv2.imwrite(str(path), render_scene(930, count=3, colours=(colour,), look=Look(background="wood")).image)
        photos.append(f"{name}={path}")
    assert run(calibrate_dice, ["dice-palette", *photos], tmp_path) == 0
    palette = Palette.parse(tomllib.loads(capsys.readouterr().out)["vision"]["dice"]["palette"])
    assert palette.names == ("mine", "yours", "theirs")
    for name, colour in (("mine", "purple"), ("yours", "orange"), ("theirs", "white")):
        plain = np.full((PATCH_SIDE, PATCH_SIDE, 3), DICE_COLOURS[colour][0], np.uint8)
        assert palette.name(plain) == name


def empty_mat_photos(folder: Path, lights=(0.8, 0.9, 1.0, 1.05)) -> list[Path]:
    """Photos of one empty mat by a fixed camera as the light changes (PNG files)."""
    from assistant.commands.print_mat import mat_layout, zone_names
    from vision.synth.cards import Photo, mat_photo

    folder.mkdir()
    layout = mat_layout("hilo", "A2", 3)
    paths = []
    for k, gain in enumerate(lights):
        paths.append(folder / f"empty{k}.png")
        cv2.imwrite(str(paths[-1]), mat_photo(layout, 1, Photo(light=(gain, gain)), zone_names(layout))[0])
    return paths


def test_calibrate_dice_background_from_photos_then_the_mat_is_not_read_as_dice(tmp_path, capsys):
    photos = empty_mat_photos(tmp_path / "empty")
    assert run(calibrate_dice, ["dice-background", *map(str, photos[:3])], tmp_path) == 0
    assert "from 3 frames of 1280x720" in capsys.readouterr().out
    assert (tmp_path / "state" / "dice-background.png").is_file()
    nowhere = tmp_path / "none"
    configured = settings.load(env={}, system_file=nowhere, user_path=nowhere,
                               overrides={"app.state_dir": str(tmp_path / "state")})
    later = cv2.imread(str(photos[3]))
    assert calibrate_dice.dice_reader(configured, empty_table=False).read(later)  # the mat's print, read as dice
    assert calibrate_dice.dice_reader(configured).read(later) == []


def test_calibrate_dice_background_takes_frames_from_the_camera(tmp_path, capsys):
    empty_mat_photos(tmp_path / "recording", lights=(0.9, 1.0))
    camera = {"camera.source": "images", "camera.path": str(tmp_path / "recording"), "camera.loop": "false"}
    assert run(calibrate_dice, ["dice-background", "--frames", "2"], tmp_path, **camera) == 0
    assert "from 2 frames" in capsys.readouterr().out
    with pytest.raises(OSError, match="ended after 2 frames"):
        run(calibrate_dice, ["dice-background", "--frames", "5"], tmp_path, **camera)
    with pytest.raises(UsageError, match="give photos of the empty table"):
        run(calibrate_dice, ["dice-background"], tmp_path, **{"camera.source": "none"})


def test_calibrate_dice_background_leaves_out_a_live_camera_s_first_frames(tmp_path, monkeypatch):
    from vision import capture

    mat = cv2.imread(str(empty_mat_photos(tmp_path / "empty", lights=(1.0,))[0]))

    class WakingCamera(capture.FrameSource):  # dark while its exposure settles, as a USB camera starts
        live, name, grabbed = True, "waking camera", 0

        def grab(self):
            self.grabbed += 1
            return mat // 8 if self.grabbed <= calibrate_dice._SETTLING_FRAMES else mat

    monkeypatch.setattr(capture, "camera_from_config", lambda config: capture.Camera([WakingCamera()]))
    assert run(calibrate_dice, ["dice-background", "--frames", "3"], tmp_path) == 0
    learnt = cv2.imread(str(tmp_path / "state" / "dice-background.png"), cv2.IMREAD_GRAYSCALE)
    assert np.array_equal(learnt, cv2.cvtColor(mat, cv2.COLOR_BGR2GRAY))


def test_calibration_frames_are_turned_as_the_camera_is(tmp_path):
    empty_mat_photos(tmp_path / "recording", lights=(1.0,))
    camera = {"source": "images", "path": str(tmp_path / "recording"), "loop": False}
    config = {**settings.load(user_path=Path("/nonexistent")).section("camera"), **camera}
    _, (upright,) = calibrate_dice.camera_frames(config, 1)
    _, (turned,) = calibrate_dice.camera_frames({**config, "rotate": 90}, 1)
    assert np.array_equal(turned, cv2.rotate(upright, cv2.ROTATE_90_CLOCKWISE))


def test_eval_dice_does_not_use_the_empty_table_learnt_for_the_camera(tmp_path, capsys):
    dice = labelled_folder(tmp_path / "photos", [806])
    # learnt from the very photo judged: were it used, every die there would be the empty table
    assert run(calibrate_dice, ["dice-background", str(tmp_path / "photos" / "s806.png")], tmp_path) == 0
    assert run(eval_dice, ["dice", str(tmp_path / "photos"), "--json"], tmp_path) == 0
    report = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert report["detected"] == report["correct"] == dice
