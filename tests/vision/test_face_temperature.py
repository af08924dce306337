"""The temperature of the dice reader's pip face probabilities, and its fit."""
import numpy as np
import pytest

from dice_support import dice_settings, reader
from vision.dice import DiceReader, DiceReaderError, temper
from vision.synth.dice import Look, render_scene
from vision.training.fit_temperature import ece, fit, interval, nll


def test_temper_sharpens_below_one_keeps_the_likeliest_face_and_sums_to_one():
    p = np.array([[0.7, 0.2, 0.05, 0.03, 0.01, 0.01], [0.1, 0.1, 0.5, 0.1, 0.1, 0.1]])
    sharp, flat = temper(p, 0.5), temper(p, 2.0)
    assert np.allclose(sharp.sum(axis=1), 1) and np.allclose(flat.sum(axis=1), 1)
    assert (sharp.argmax(axis=1) == p.argmax(axis=1)).all() and (flat.argmax(axis=1) == p.argmax(axis=1)).all()
    assert (sharp.max(axis=1) > p.max(axis=1)).all() and (flat.max(axis=1) < p.max(axis=1)).all()
    assert np.allclose(temper(p, 1.0), p)
    assert np.allclose(sharp[0], p[0] ** 2 / (p[0] ** 2).sum())


def test_the_reader_tempers_its_final_faces_only():
    scene = render_scene(7, count=4, look=Look(background="wood"))
    plain = DiceReader.from_settings(dice_settings(face_temperature=1.0)).read(scene.image)
    tempered = reader().read(scene.image)
    assert dice_settings()["face_temperature"] < 1
    assert [(r.x, r.y, r.face, r.confidence) for r in tempered] == [(r.x, r.y, r.face, r.confidence) for r in plain]
    for before, after in zip(plain, tempered):
        assert after.faces[after.face] >= before.faces[before.face]
        assert after.faces == pytest.approx(dict(zip(before.faces, temper(
            np.array(list(before.faces.values())), dice_settings()["face_temperature"]))), abs=1e-4)


@pytest.mark.parametrize("bad", [0.0, -0.5])
def test_a_temperature_not_above_zero_is_refused(bad):
    with pytest.raises(DiceReaderError, match="face_temperature must be above 0"):
        DiceReader.from_settings(dice_settings(face_temperature=bad))


def test_the_fit_finds_the_temperature_that_calibrates_and_lowers_the_error():
    # faces drawn from sharp probabilities, then shown flattened by a temperature of 1 / 0.6
    rng = np.random.default_rng(3)
    logits = rng.normal(0, 4, (4000, 6))
    truth = np.array([rng.choice(6, p=row) for row in temper(np.exp(logits), 1.0)])
    shown = temper(np.exp(logits), 1 / 0.6)
    temperature = fit(shown, truth)
    assert temperature == pytest.approx(0.6, rel=0.05)
    low, high = interval(shown, truth, temperature)
    assert low < 0.6 < high and low < temperature < high
    assert nll(shown, truth, temperature) < nll(shown, truth)
    assert ece(shown, truth, temperature) < ece(shown, truth) / 2


def test_with_every_face_right_the_fit_has_no_lower_limit():
    shown = temper(np.eye(6)[np.arange(60) % 6] * 0.9 + 0.1 / 6, 1.0)
    temperature = fit(shown, np.arange(60) % 6)
    low, high = interval(shown, np.arange(60) % 6, temperature)
    assert temperature == pytest.approx(low) and low < 0.06 and high > low
