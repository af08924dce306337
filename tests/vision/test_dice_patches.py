"""The detector's and the checker's folded input: over images folded into 2x2 blocks, their
folded first convolution computes what the one it was folded from computed over the normalised
images."""
import numpy as np
import pytest

from vision.dice_patches import NORMALISED, blob, fold_stem, folded_blob


def _convolve(images: np.ndarray, weights: np.ndarray, bias: np.ndarray, stride: int, pad: int) -> np.ndarray:
    """A plain NCHW convolution padded with zeros, as the networks compute it."""
    padded = np.pad(images, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, weights.shape[2:], axis=(2, 3))[:, :, ::stride, ::stride]
    return np.einsum("ncijuv,ocuv->noij", windows, weights) + bias[None, :, None, None]


def test_the_folded_first_convolution_computes_what_it_was_folded_from():
    rng = np.random.default_rng(3)
    images = [rng.integers(0, 256, (8, 10, 3), dtype=np.uint8) for _ in range(2)]
    weights, bias = rng.normal(size=(5, 3, 3, 3)).astype(np.float32), rng.normal(size=5).astype(np.float32)
    middle, gain = NORMALISED
    expected = _convolve((blob(images) - middle) * gain, weights, bias, stride=2, pad=1)
    folded = _convolve(folded_blob(images), *fold_stem(weights, bias), stride=1, pad=0)
    assert folded.shape == expected.shape == (2, 5, 4, 5)
    np.testing.assert_allclose(folded, expected, atol=1e-4)


def test_only_images_of_even_sides_can_be_folded():
    with pytest.raises(ValueError, match="even sides, not 8x7"):
        folded_blob([np.zeros((7, 8, 3), np.uint8)])
