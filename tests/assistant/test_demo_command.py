"""`table-assistant demo`: the simulated table, in the terminal (--text) and its driver."""
import argparse
import random

import pytest

from assistant import settings as settings_mod
from assistant.commands import demo
from assistant.commands.demo import DemoTable
from assistant.session import Session
from assistant.store import IN_MEMORY, Store


@pytest.fixture
def settings(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    return settings_mod.load()


def run_demo(settings, *argv):
    parser = argparse.ArgumentParser()
    demo.add_parser(parser.add_subparsers())
    args = parser.parse_args(["demo", *argv])
    return args.run(args, settings)


def test_text_demo_plays_a_whole_game_the_same_way_for_a_seed(settings, capsys):
    whole_game = ("--text", "--no-camera", "--step", "0", "--game", "excape")
    assert run_demo(settings, *whole_game, "--seed", "4") == 0
    first = capsys.readouterr().out
    assert run_demo(settings, *whole_game, "--seed", "4") == 0
    assert capsys.readouterr().out == first
    assert "Game over: " in first and "reached the exit" in first
    assert run_demo(settings, *whole_game, "--seed", "5") == 0
    assert capsys.readouterr().out != first


def test_text_demo_in_french(settings, capsys, monkeypatch):
    monkeypatch.setenv("TABLE_ASSISTANT__APP__LANGUAGE", "fr")
    assert run_demo(settings_mod.load(), "--text", "--step", "0", "--game", "splitter", "--moves", "3") == 0
    out = capsys.readouterr().out
    assert "Splitter : une nouvelle partie commence" in out
    assert "Coups filmés, joués par la caméra d'elle-même : 1 ;" in out  # the first roll, filmed and read


@pytest.mark.parametrize("game_id", ["hilo", "splitter", "excape", "holdup"])
def test_the_simulated_table_plays_each_game_to_its_end(game_id):
    session = Session(Store(IN_MEMORY), advice=game_id == "excape")  # the others' advice is slow
    table = DemoTable(session, random.Random(2), [game_id])
    view = table.step()
    assert view.screen == "game" and len(view.seats) == 3
    for _ in range(3000):
        view = table.step()
        if view.outcome is not None:
            break
    assert view.outcome is not None and table.played == view.moves
    assert session.store.results()[0].game == game_id
    for _ in range(demo.PAUSE_STEPS + 1):  # the ranking stays up a moment, then a new game starts
        view = table.step()
    assert view.outcome is None and view.moves == 0


def test_bad_demo_arguments_are_usage_errors(settings):
    from assistant.cli import UsageError
    with pytest.raises(UsageError, match="--players must be at least 1"):
        run_demo(settings, "--text", "--players", "0")
    with pytest.raises(UsageError, match="--step must be 0 or more"):
        run_demo(settings, "--text", "--step", "-1")


def test_the_demo_enrols_its_tables_dice_and_deck_in_processes_of_their_own(settings, tmp_path):
    from assistant.commands.calibrate_cards import enrolment_path
    from engine.table import EXCAPE_FACES
    from vision.card_model import CardModel
    from vision.dice_faces import EnrolledFaces

    settings = demo.camera_settings(settings, str(tmp_path / "state"))
    demo.enrol_the_table(1, ["splitter", "excape", "hilo"], settings)
    faces = EnrolledFaces.load(tmp_path / "state" / settings["vision.dice.faces_file"])
    assert set(faces.faces) == set(EXCAPE_FACES)
    deck = CardModel.load(enrolment_path(settings))
    assert set(deck.value_classes()) == {str(v) for v in range(-1, 12)} and deck.colours is not None
