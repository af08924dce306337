"""vision.arrays: the median of the pixels under a mask, from their histogram."""
import numpy as np
import pytest

from vision.arrays import masked_median


@pytest.mark.parametrize("seed", range(20))
def test_the_masked_median_is_numpys(seed):
    rng = np.random.default_rng(seed)
    image = rng.integers(0, 256, rng.integers(1, 40, 2)).astype(np.uint8)
    mask = (rng.random(image.shape) < rng.random()).astype(np.uint8) * 255
    expected = float(np.median(image[mask > 0])) if mask.any() else 0.0
    assert masked_median(image, mask) == expected


def test_an_even_count_gives_the_mean_of_the_middle_two():
    image = np.array([[10, 20, 30, 41]], np.uint8)
    assert masked_median(image, np.full_like(image, 255)) == 25.0
    assert masked_median(image, np.array([[0, 255, 255, 0]], np.uint8)) == 25.0
    assert masked_median(image, np.zeros_like(image)) == 0.0
