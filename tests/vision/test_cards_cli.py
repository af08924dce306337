"""`table-assistant calibrate cards` and `table-assistant eval cards` on folders of labelled photos."""
import csv
import json

import cv2
import pytest

from assistant.cli import main
from assistant.commands.print_mat import mat_layout
from vision.card_model import CardModel
from vision.synth.cards import enrolment_tables, hilo_table


def write_folder(folder, scenes, prefix):
    folder.mkdir(exist_ok=True)
    new = not (folder / "labels.csv").exists()
    with open(folder / "labels.csv", "a", newline="") as handle:
        out = csv.writer(handle)
        if new:
            out.writerow(["filename", "xmin", "ymin", "xmax", "ymax", "label"])
        for i, scene in enumerate(scenes):
            name = f"{prefix}{i}.jpg"
            cv2.imwrite(str(folder / name), scene.frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
            for card in scene.cards:
                out.writerow([name, *(f"{v:.1f}" for v in card.box()), card.label])
    return folder


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("cards")
    layout = mat_layout("hilo", "A2", 2)
    enrol_scenes = enrolment_tables(layout, seed=5)
    judged_scenes = [hilo_table(layout, seed) for seed in (61, 62)]
    enrol_dir = write_folder(root / "enrol", enrol_scenes, "e")
    judge_dir = write_folder(root / "judge", judged_scenes, "j")
    # One folder holding both, photos alternating so that --split enrols on the enrolment ones.
    mixed = root / "mixed"
    for k, scene in enumerate(enrol_scenes):
        write_folder(mixed, [scene], f"{k}a")
        if k < len(judged_scenes):
            write_folder(mixed, [judged_scenes[k]], f"{k}b")
    return enrol_dir, judge_dir, mixed, sum(len(s.cards) for s in judged_scenes)


def test_eval_cards_reports_the_contract_figures(folders, capsys):
    enrol_dir, judge_dir, _, objects = folders
    assert main(["eval", "cards", str(judge_dir), "--enrol", str(enrol_dir), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    for key in ("images", "objects", "detected", "correct", "accuracy", "recall", "false_positives",
                "ms_per_image_median", "colour_accuracy", "value_accuracy"):
        assert key in report
    assert report["images"] == 2 and report["objects"] == objects
    assert report["recall"] == 1.0 and report["accuracy"] == 1.0 and report["false_positives"] == 0
    assert report["colour_accuracy"] == 1.0 and report["value_accuracy"] == 1.0


def test_eval_cards_split_enrols_on_every_other_photo(folders, capsys):
    _, _, mixed, objects = folders
    assert main(["eval", "cards", str(mixed), "--enrol", str(mixed), "--split", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["images"] == 2 and report["objects"] == objects and report["accuracy"] == 1.0


def test_eval_cards_split_needs_one_folder(folders, capsys):
    enrol_dir, judge_dir, _, _ = folders
    assert main(["eval", "cards", str(judge_dir), "--enrol", str(enrol_dir), "--split"]) == 2
    assert "same DIR and ENROL_DIR" in capsys.readouterr().err


def test_calibrate_cards_saves_the_enrolment_in_the_state_dir(folders, tmp_path, capsys):
    enrol_dir = folders[0]
    state = tmp_path / "state"
    assert main(["--set", f"app.state_dir={state}", "calibrate", "cards", str(enrol_dir), "--game", "hilo"]) == 0
    out = capsys.readouterr().out
    assert "learnt" in out and "never shown" not in out
    model = CardModel.load(state / "cards.npz")
    assert model.knows_backs() and len(model.colours.classes) == 8


def test_calibrate_cards_says_what_is_wrong(tmp_path, capsys):
    assert main(["--set", f"app.state_dir={tmp_path}", "calibrate", "cards"]) == 2
    assert "either DIR" in capsys.readouterr().err
    assert main(["--set", f"app.state_dir={tmp_path}", "calibrate", "cards", str(tmp_path)]) == 1
    assert "no labels.csv" in capsys.readouterr().err
    assert not (tmp_path / "cards.npz").exists()
