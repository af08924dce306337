"""vision.card_features: the gradient histograms of a batch."""
import numpy as np

from vision.card_features import hog


def test_a_large_batch_gets_the_histograms_of_each_image_alone():
    # Over 64 images hog works in parts: the parts' seams must not change any image's figures.
    images = np.random.default_rng(3).uniform(0, 255, (150, 48, 24)).astype(np.float32)
    together = hog(images)
    alone = np.concatenate([hog(image[None]) for image in images])
    assert together.shape == (150, hog(images[:1]).shape[1])
    assert np.array_equal(together, alone)
    assert not np.array_equal(together[0], together[1])
