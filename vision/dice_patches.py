"""The two network inputs of the dice reader, built the same way for training and for reading.

- The *detector* sees the whole frame resized to a fixed width and answers, on a grid of
  ``DETECTOR_STRIDE`` px, "is a top-face centre here, how large is the die, and where exactly".
- The *face network* sees one square patch around a candidate, ``PATCH_CONTEXT`` die sides wide,
  resampled to ``PATCH_SIDE`` px, and answers "is this a die, which pip face, and where is its
  centre exactly (as a fraction of the patch), how large is it".

Images reach a network as an NCHW blob in 0..1 (``blob``); the detector's and the checker's come
folded into 2x2 blocks (``folded_blob``).
"""
from __future__ import annotations

import itertools
from typing import Sequence

import cv2
import numpy as np

DETECTOR_STRIDE = 4
DETECTOR_MULTIPLE = 16      # detector input sides are rounded up to this
PATCH_SIDE = 48
PATCH_CONTEXT = 1.6         # patch side / die side
PIP_FACES = ("1", "2", "3", "4", "5", "6")
# face network outputs, in order: die logit, six face logits, dx, dy, log size ratio
FACE_OUTPUTS = 1 + len(PIP_FACES) + 3
_MAX_SHRINK = 2.5           # a patch never samples the frame sparser than 1 pixel in 2.5
NORMALISED = (0.5, 4.0)     # every network first maps its inputs x in 0..1 to (x - 0.5) * 4


def detector_input(frame: np.ndarray, width: int) -> tuple[np.ndarray, float]:
    """The frame resized to ``width`` px wide and padded to a multiple of 16; and the scale used."""
    scale = width / frame.shape[1]
    height = max(1, round(frame.shape[0] * scale))
    # halve first while the reduction is strong, then interpolate: as the detector was trained,
    # and far faster than area averaging at uneven ratios
    source, shrink = frame, scale
    while shrink < 0.6:
        source, shrink = cv2.pyrDown(source), shrink * 2
    small = cv2.resize(source, (width, height), interpolation=cv2.INTER_LINEAR)
    pad_w = -width % DETECTOR_MULTIPLE
    pad_h = -height % DETECTOR_MULTIPLE
    if pad_w or pad_h:
        small = cv2.copyMakeBorder(small, 0, pad_h, 0, pad_w, cv2.BORDER_REPLICATE)
    return small, scale


def pyramid(frame: np.ndarray, largest_die: float) -> list[np.ndarray]:
    """The frame and as many ``pyrDown`` halvings as patches of dice up to ``largest_die`` need."""
    levels = [frame]
    span = largest_die * PATCH_CONTEXT
    while span / (1 << (len(levels) - 1)) > _MAX_SHRINK * PATCH_SIDE and min(levels[-1].shape[:2]) > 2 * PATCH_SIDE:
        levels.append(cv2.pyrDown(levels[-1]))
    return levels


def patch(levels: list[np.ndarray], x: float, y: float, die_side: float) -> np.ndarray:
    """The ``PATCH_SIDE`` square around (x, y) covering ``PATCH_CONTEXT`` die sides, axis-aligned.

    Large dice are read from a reduced level of ``levels`` (see ``pyramid``) so that the
    resampling never skips pixels.
    """
    span = die_side * PATCH_CONTEXT
    level = 0
    while span / (1 << level) > _MAX_SHRINK * PATCH_SIDE and level + 1 < len(levels):
        level += 1
    shrink = 1 << level
    k = PATCH_SIDE * shrink / span
    middle = (PATCH_SIDE - 1) / 2
    matrix = np.float32([[k, 0, middle - k * x / shrink], [0, k, middle - k * y / shrink]])
    return cv2.warpAffine(levels[level], matrix, (PATCH_SIDE, PATCH_SIDE), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def blob(images: Sequence[np.ndarray]) -> np.ndarray:
    """Same-sized BGR images as an NCHW blob in 0..1.

    Built with numpy: ``cv2.dnn.blobFromImage`` is many times slower on some OpenCV builds.
    """
    out = np.stack(images).transpose(0, 3, 1, 2).astype(np.float32)
    out *= np.float32(1 / 255)
    return out


def folded_blob(images: Sequence[np.ndarray]) -> np.ndarray:
    """Same-sized BGR images of even sides as the detector and the checker take them: in 0..1,
    padded all round by a pixel of the value the networks normalise to 0 (what their first
    convolution's zero padding was), and cut into 2x2 blocks whose 12 values (block row, block
    column, channel) are the channels of one pixel. Over this, their first convolution, 3x3
    with stride 2, becomes a 2x2 one with stride 1 (``fold_stem``): the same sums, on 12
    channels instead of 3, which OpenCV computes faster (the detector's whole pass takes 0.6 to
    0.75 of its time unfolded, the checker's about 0.85)."""
    count, (height, width, channels) = len(images), images[0].shape
    if height % 2 or width % 2:
        raise ValueError(f"folded_blob needs images of even sides, not {width}x{height}")
    padded = np.zeros((count, height + 2, width + 2, channels), np.uint8)
    padded[:, 1:-1, 1:-1] = images
    rows, cols = height // 2 + 1, width // 2 + 1
    # rearranged while still bytes: a quarter of the memory to move
    blocks = padded.reshape(count, rows, 2, cols, 2, channels).transpose(0, 2, 4, 5, 1, 3)
    out = np.ascontiguousarray(blocks).astype(np.float32)
    out *= np.float32(1 / 255)
    # the padding: the first block row (column) of the blocks' top (left) pixels, the last of their bottom (right)
    out[:, 0, :, :, 0, :] = out[:, 1, :, :, -1, :] = out[:, :, 0, :, :, 0] = out[:, :, 1, :, :, -1] = NORMALISED[0]
    return out.reshape(count, 4 * channels, rows, cols)


def fold_stem(weights: np.ndarray, bias: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The weights and bias of the 2x2 convolution over ``folded_blob`` that gives what a 3x3,
    stride-2 convolution (``weights`` out x channels x 3 x 3, ``bias``), padded by one zero,
    gives over the normalised images."""
    middle, gain = NORMALISED
    out, channels = weights.shape[:2]
    folded = np.zeros((out, 2, 2, channels, 2, 2), np.float32)  # block row, block column, channel, kernel row, column
    for row, col in itertools.product(range(3), repeat=2):
        folded[:, row % 2, col % 2, :, row // 2, col // 2] = gain * weights[:, :, row, col]
    shift = middle * gain * weights.sum(axis=(1, 2, 3))
    return folded.reshape(out, 4 * channels, 2, 2), (bias - shift).astype(np.float32)
