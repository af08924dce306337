"""Train the dice detector, checker and face networks, and export them to ``vision/models/`` as ONNX.

Trains only on the tune part of the labelled folders (``dice_data.split``; the held-out part is
never read here) and on seeded synthetic scenes (``vision.synth.dice``). Needs PyTorch and onnx,
which are NOT dependencies of the application (it reads the ONNX files with OpenCV)::

    python3 -m venv /opt/venv-train
    /opt/venv-train/bin/pip install torch numpy opencv-python-headless onnx
    PYTHONPATH=. /opt/venv-train/bin/python vision/training/train_dice.py --datasets ../shared/datasets

``--stage detector|checker|faces|second-faces|reread-faces`` trains one network; the patch
networks' stages mine the detector already in ``--out`` for false alarms, so run the detector
stage first, and the re-reading stage weighs the dice by the face network in ``--out``. The
second face network is the face network trained with the next seed (other synthetic scenes,
patches and starting weights), so that it errs apart from the first; the re-reading network is
the second drawing the dice the first reads poorly more often. The face networks are stored
with 16-bit weights; the detector and the checker are stored to take their images folded into
2x2 blocks (``fold_first_convolution``). On one core of a 2-core machine, with another stage
training on the other: about 11 min for the detector, 7 min for the checker, 63-67 min for each
face network. One torch thread and fixed seeds: a rerun gives the same weights up to
floating-point ordering.
"""
from __future__ import annotations

import argparse
import functools
import math
import random
import time
import warnings
from pathlib import Path
from typing import Callable

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from engine.table import EXCAPE_FACES, STANDARD_FACES
from vision.arrays import softmax
from vision.dice import (CHECKER_MODEL, DETECTOR_MODEL, FACE_MODEL, REREAD_FACE_MODEL, SECOND_FACE_MODEL, DiceReader,
                         at_both_sizes, load_network, run_network)
from vision.dice_colours import Palette
from vision.dice_patches import (DETECTOR_STRIDE, FACE_OUTPUTS, NORMALISED, PATCH_CONTEXT, PATCH_SIDE, PIP_FACES,
                                 blob, fold_stem, folded_blob, patch, pyramid)
from vision.synth.dice import BACKGROUNDS, DICE_COLOURS, Look, render_scene
from vision.training.dice_data import LabelledDie, load_dice, split

# (folder, labelled boxes surround the top-face pips rather than the whole die)
DATASETS = (("dice-tray", False), ("dice-webcam", True))
MODELS = Path(__file__).resolve().parents[1] / "models"
DETECTOR_WIDTH = 320  # training sees frames at 0.6-1.7 times this width
READ_WIDTH = 448      # the reader's default vision.dice.detector_width, for mining false alarms
DET_CROP = 224
UNKNOWN_FACE = -1  # a die whose face is not one of the pip faces (printed numerals)


# ---------------------------------------------------------------- networks

def _conv(i: int, o: int, stride: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(i, o, 3, stride, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))


def _separable(i: int, o: int, stride: int, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(i, i, 3, stride, dilation, dilation=dilation, groups=i, bias=False), nn.BatchNorm2d(i),
        nn.ReLU(inplace=True), nn.Conv2d(i, o, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))


class Normalise(nn.Module):
    """Inputs arrive as BGR in 0..1 (``vision.dice_patches.blob``)."""

    def forward(self, x):
        middle, gain = NORMALISED
        return (x - middle) * gain


class Detector(nn.Module):
    """Frame -> 4 maps at stride 4: centre logit, log die side (input px), x and y offset in cells.

    Context comes from a stride-8 branch added back onto the stride-4 features, so that touching
    dice (under two cells apart at stride 8) still get separate peaks.
    """

    def __init__(self):
        super().__init__()
        self.fine = nn.Sequential(Normalise(), _conv(3, 12, 2), _separable(12, 24, 2))
        self.coarse = nn.Sequential(_separable(24, 48, 2), _separable(48, 64, 1), _separable(64, 64, 1, 2),
                                    nn.Conv2d(64, 24, 1, bias=False), nn.BatchNorm2d(24))
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.head = nn.Sequential(nn.ReLU(inplace=True), _separable(24, 24, 1), nn.Conv2d(24, 4, 1))

    def forward(self, x):
        fine = self.fine(x)
        return self.head(fine + self.up(self.coarse(fine)))


def checker() -> nn.Module:
    """Patch -> die logit, six face logits, centre dx, dy (patch sides), log(die side / assumed).

    Tiny: it runs on every proposal. Its face logits are trained but not used by the reader.
    """
    return nn.Sequential(Normalise(), _conv(3, 16, 2), _separable(16, 32, 2), _separable(32, 64, 2),
                         _separable(64, 64, 1), _separable(64, 96, 2), nn.Flatten(),
                         nn.Linear(3 * 3 * 96, 64), nn.ReLU(inplace=True), nn.Linear(64, FACE_OUTPUTS))


def face_network() -> nn.Module:
    """The checker's outputs from a larger network, run only on the dice the checker kept.

    Plain 3x3 convolutions, the first at full patch resolution: the pips of a die 25 px wide are
    3-4 px, low in contrast on marbled dice, and a first stride of 2 smears them together.
    """
    return nn.Sequential(Normalise(), _conv(3, 16, 1), nn.MaxPool2d(2), _conv(16, 32, 1), _conv(32, 32, 1),
                         nn.MaxPool2d(2), _conv(32, 64, 1), nn.MaxPool2d(2), _conv(64, 96, 1), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(3 * 3 * 96, 96), nn.ReLU(inplace=True), nn.Linear(96, FACE_OUTPUTS))


# ---------------------------------------------------------------- data

class Photo:
    def __init__(self, image: np.ndarray, dice: list[LabelledDie]):
        self.image = image
        self.dice = dice
        self.levels = pyramid(image, max((d.side for d in dice), default=40) * 1.5)
        self.half = cv2.pyrDown(image)
        self.weights: np.ndarray | None = None  # how often each die is drawn, if not equally (weigh_hard_dice)


def real_photos(root: Path) -> list[Photo]:
    photos = []
    for folder, around_pips in DATASETS:
        labelled = load_dice(root / folder, around_pips)
        tune, _held_out = split(list(labelled))
        for name in tune:
            image = cv2.imread(str(root / folder / name), cv2.IMREAD_COLOR)
            photos.append(Photo(image, labelled[name]))
    return photos


def synthetic_photos(count: int, seed: int) -> list[Photo]:
    rng = random.Random(seed)
    photos = []
    for index in range(count):
        printed = rng.random() < 0.2
        look = Look(
            background=rng.choice(BACKGROUNDS), lean=rng.uniform(0, 0.45) * (rng.random() < 0.6),
            perspective=rng.uniform(0, 0.25) * (rng.random() < 0.3), gradient=rng.uniform(0, 0.6),
            shadow=rng.random() < 0.7, glare=rng.random() < 0.3, blur=rng.uniform(0, 1.5) * (rng.random() < 0.4),
            noise=rng.uniform(0, 8), touching=rng.random() < 0.3, printed=printed)
        size = rng.choice(((640, 640), (640, 480)))
        scene = render_scene(seed * 100_000 + index, size=size, count=rng.randint(1, 14),
                             die_px=rng.uniform(20, 80), faces=EXCAPE_FACES if printed else STANDARD_FACES,
                             colours=tuple(DICE_COLOURS), look=look)
        dice = [LabelledDie(d.x, d.y, d.size, "" if printed else d.face) for d in scene.dice]
        photos.append(Photo(scene.image, dice))
    return photos


def jitter_colours(image: np.ndarray, rng: np.random.Generator, mild: bool = False) -> np.ndarray:
    """Light, white balance, contrast, hue, blur and noise changes a different camera would make.

    ``mild`` for patches: pips a few pixels wide, low in contrast on marbled dice, must survive.
    """
    out = image.astype(np.float32)
    if rng.random() < 0.3:
        hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(np.int32) + int(rng.integers(0, 180))) % 180
        out = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR).astype(np.float32)
    gain, contrast, light, blur, noise = _MILD if mild else _STRONG
    out *= rng.uniform(1 - gain, 1 + gain, 3).astype(np.float32)
    mean = out.mean()
    out = (out - mean) * rng.uniform(*contrast) + mean * rng.uniform(*light)
    if rng.random() < 0.1:
        out[:] = out.mean(axis=2, keepdims=True)
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(*blur))
    out += rng.normal(0, rng.uniform(0, noise), out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


# (channel gain spread, contrast range, light range, blur sigma range, noise sigma at most)
_STRONG = (0.2, (0.6, 1.3), (0.6, 1.4), (0.4, 1.3), 6.0)
_MILD = (0.12, (0.8, 1.15), (0.75, 1.25), (0.3, 0.7), 4.0)


def detector_sample(photo: Photo, rng: np.random.Generator):
    """A DET_CROP square of the photo at a random scale and angle, and its target maps."""
    h, w = photo.image.shape[:2]
    scale = DETECTOR_WIDTH / w * math.exp(rng.uniform(math.log(0.6), math.log(1.7)))
    angle = rng.uniform(0, 360)
    if photo.dice and rng.random() < 0.8:
        die = photo.dice[rng.integers(len(photo.dice))]
        cx, cy = die.x + rng.normal(0, 60), die.y + rng.normal(0, 60)
    else:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    matrix = cv2.getRotationMatrix2D((cx, cy), angle, scale)
    matrix[:, 2] += (DET_CROP / 2 - cx, DET_CROP / 2 - cy)
    if rng.random() < 0.5:
        matrix[0] = -matrix[0]
        matrix[0, 2] += DET_CROP
    if scale < 0.6:  # sample the halved photo, as a resize to the detector width would average pixels
        image = cv2.warpAffine(photo.half, np.hstack([matrix[:, :2] * 2, matrix[:, 2:]]), (DET_CROP, DET_CROP),
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    else:
        image = cv2.warpAffine(photo.image, matrix, (DET_CROP, DET_CROP), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REFLECT)
    image = jitter_colours(image, rng)
    cells = DET_CROP // DETECTOR_STRIDE
    heat = np.zeros((cells, cells), np.float32)
    reg = np.zeros((3, cells, cells), np.float32)
    mask = np.zeros((cells, cells), np.float32)
    gy, gx = np.mgrid[0:cells, 0:cells].astype(np.float32) + 0.5
    for die in photo.dice:
        x, y = matrix @ (die.x, die.y, 1.0)
        side = die.side * scale
        u, v = x / DETECTOR_STRIDE, y / DETECTOR_STRIDE
        if not (0 <= u < cells and 0 <= v < cells):
            continue
        sigma = max(0.5, side / DETECTOR_STRIDE / 5)
        heat = np.maximum(heat, np.exp(-((gx - u) ** 2 + (gy - v) ** 2) / (2 * sigma ** 2)))
        i, j = int(v), int(u)
        heat[i, j] = 1.0
        reg[:, i, j] = (math.log(side), u - j - 0.5, v - i - 0.5)
        mask[i, j] = 1.0
    return image, heat, reg, mask


def face_sample(photo: Photo, rng: np.random.Generator, negatives: list[tuple[float, float, float]]):
    """A patch, its die flag, face index, and centre/side targets.

    Patches come from around a labelled die (mostly on it; else a part of it, such as one pip
    of a 2 taken for a small die, or beside it, where an oblique camera sees a side face), from
    the detector's mined false alarms, or from anywhere. Parts and neighbours keep well clear of
    the die itself, as a size estimated from a box around the pips may be a fifth off.
    """
    kind = rng.random() if photo.dice else 1.0
    if kind < 0.6:
        die = photo.dice[rng.integers(len(photo.dice)) if photo.weights is None else
                         rng.choice(len(photo.dice), p=photo.weights / photo.weights.sum())]
        assumed = die.side * math.exp(rng.normal(0, 0.18))
        spread, reach = 0.13, 0.0
        if kind < 0.1:
            assumed, spread = die.side * rng.uniform(0.15, 0.4), 0.2
        elif kind < 0.2:
            reach = rng.uniform(0.8, 1.4)
        turn = rng.uniform(0, 2 * math.pi)
        cx = die.x + (rng.normal(0, spread) + reach * math.cos(turn)) * die.side
        cy = die.y + (rng.normal(0, spread) + reach * math.sin(turn)) * die.side
    elif negatives and rng.random() < 0.5:
        cx, cy, assumed = negatives[rng.integers(len(negatives))]
        cx += rng.normal(0, 2)
        cy += rng.normal(0, 2)
    else:
        h, w = photo.image.shape[:2]
        assumed = (photo.dice[rng.integers(len(photo.dice))].side if photo.dice else rng.uniform(20, 80))
        assumed *= math.exp(rng.normal(0, 0.3))
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    nearest = min(photo.dice, key=lambda d: (d.x - cx) ** 2 + (d.y - cy) ** 2, default=None)
    distance = math.hypot(nearest.x - cx, nearest.y - cy) / nearest.side if nearest else math.inf
    ratio = assumed / nearest.side if nearest else 1.0
    if distance < 0.3 and ratio > 0.6:
        is_die = 1.0
    elif distance > 0.45 or ratio < 0.45:  # beside the top face, or a part of it
        is_die = 0.0
    else:
        return None  # neither a clean positive nor a clean negative
    image = jitter_colours(patch(photo.levels, cx, cy, assumed), rng, mild=True)
    span = assumed * PATCH_CONTEXT
    target = np.zeros(3, np.float32)
    face = UNKNOWN_FACE
    if is_die:
        target[:] = ((nearest.x - cx) / span, (nearest.y - cy) / span, math.log(nearest.side / assumed))
        face = PIP_FACES.index(nearest.face) if nearest.face in PIP_FACES else UNKNOWN_FACE
    turns = int(rng.integers(4))  # exact quarter turns and mirror: the face value does not change
    for _ in range(turns):
        image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
        target[0], target[1] = -target[1], target[0]
    if rng.random() < 0.5:
        image = image[:, ::-1]
        target[0] = -target[0]
    return np.ascontiguousarray(image), is_die, face, target


# ---------------------------------------------------------------- training

def to_tensor(images: list[np.ndarray]) -> torch.Tensor:
    return torch.from_numpy(blob(images)).contiguous()


def optimiser_step(net: nn.Module, steps: int, what: str) -> Callable[[int, torch.Tensor], None]:
    """``take(step, loss)``: one step of AdamW on a one-cycle schedule over ``steps`` steps, the
    loss printed every 200 steps and at the last."""
    optimiser = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps, pct_start=0.1)
    start = time.time()

    def take(step: int, loss: torch.Tensor) -> None:
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        if step % 200 == 0 or step == steps - 1:
            print(f"{what} step {step} loss {loss.item():.3f} ({time.time() - start:.0f} s)", flush=True)
    return take


def train_detector(photos: list[Photo], steps: int, seed: int) -> nn.Module:
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = Detector()
    weights = np.sqrt([len(p.dice) + 1.0 for p in photos])  # crowded tables are the hard ones
    weights /= weights.sum()
    take = optimiser_step(net, steps, "detector")
    for step in range(steps):
        batch = [detector_sample(photos[rng.choice(len(photos), p=weights)], rng) for _ in range(12)]
        images = to_tensor([b[0] for b in batch])
        heat = torch.from_numpy(np.stack([b[1] for b in batch]))
        reg = torch.from_numpy(np.stack([b[2] for b in batch]))
        mask = torch.from_numpy(np.stack([b[3] for b in batch]))
        out = net(images)
        take(step, _focal(out[:, 0], heat) + _masked_l1(out[:, 1:], reg, mask))
    return net.eval()


def _focal(logits: torch.Tensor, heat: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on the centre map."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    centres = heat.eq(1).float()
    positive = -torch.log(p) * (1 - p) ** 2 * centres
    negative = -torch.log(1 - p) * p ** 2 * (1 - heat) ** 4 * (1 - centres)
    return (positive.sum() + negative.sum()) / centres.sum().clamp(min=1)


def _masked_l1(pred: torch.Tensor, target: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    weight = mask.unsqueeze(1)
    return (F.smooth_l1_loss(pred, target, reduction="none", beta=0.1) * weight).sum() / weight.sum().clamp(min=1)


def mine_negatives(detector_path: Path, photos: list[Photo]) -> list[list[tuple[float, float, float]]]:
    """Per photo, the patches the reader checks around the exported detector's proposals
    (``at_both_sizes``) that are not near a labelled die."""
    finder = DiceReader(load_network(str(detector_path)), None, None, Palette.parse([]), READ_WIDTH)
    mined = []
    for photo in photos:
        found = [(x, y, side) for x, y, side in at_both_sizes(finder.propose(photo.image))
                 if all(math.hypot(d.x - x, d.y - y) > 0.45 * d.side for d in photo.dice)]
        mined.append(found)
    print(f"mined {sum(map(len, mined))} detector false alarms", flush=True)
    return mined


def weigh_hard_dice(face_path: Path, photos: list[Photo]) -> None:
    """Draw the dice (in scenes of pip dice only) that the exported face network reads poorly
    more often: each die's weight is 1 + HARD_WEIGHT x (1 - its true face's probability), read
    from its labelled patch. The second face network, asked only about faces the first doubts and dice
    the first two networks are unsure of, then learns most where the first is weakest."""
    network = load_network(str(face_path))
    for photo in photos:
        if not photo.dice or any(d.face not in PIP_FACES for d in photo.dice):
            continue
        out = run_network(network, [patch(photo.levels, d.x, d.y, d.side) for d in photo.dice])
        truth = softmax(out[:, 1:7])[np.arange(len(photo.dice)), [PIP_FACES.index(d.face) for d in photo.dice]]
        photo.weights = 1 + HARD_WEIGHT * (1 - truth)
    hard = sum(int((p.weights > 1 + HARD_WEIGHT / 2).sum()) for p in photos if p.weights is not None)
    print(f"{hard} dice read with their true face under 0.5", flush=True)


HARD_WEIGHT = 9.0


def train_patches(net: nn.Module, photos: list[Photo], negatives, steps: int, seed: int, real: int) -> nn.Module:
    """Train a patch network (checker or faces). ``photos[:real]`` are photographs, the rest
    synthetic; three patches in four come from photographs, each of their dice equally likely
    (unless weighed, see weigh_hard_dice)."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed + 1)
    weights = [np.array([(len(p.dice) if p.weights is None else p.weights.sum()) + 1.0 for p in part])
               for part in (photos[:real], photos[real:])]
    weights = [w / w.sum() for w in weights]
    take = optimiser_step(net, steps, "patch")
    for step in range(steps):
        batch = []
        while len(batch) < 64:
            k = int(rng.choice(real, p=weights[0]) if rng.random() < 0.75 else
                    real + rng.choice(len(photos) - real, p=weights[1]))
            sample = face_sample(photos[k], rng, negatives[k])
            if sample is not None:
                batch.append(sample)
        images = to_tensor([b[0] for b in batch])
        is_die = torch.tensor([b[1] for b in batch])
        face = torch.tensor([b[2] for b in batch])
        target = torch.from_numpy(np.stack([b[3] for b in batch]))
        out = net(images)
        loss = F.binary_cross_entropy_with_logits(out[:, 0], is_die)
        known = face != UNKNOWN_FACE
        if known.any():
            loss = loss + F.cross_entropy(out[known, 1:7], face[known], label_smoothing=0.02)
        dice = is_die > 0
        if dice.any():
            loss = loss + 4 * F.smooth_l1_loss(out[dice, 7:], target[dice], beta=0.02)
        take(step, loss)
    return net.eval()


def export(net: nn.Module, path: Path, example: torch.Tensor, dynamic: dict, half: bool = False,
           folded: bool = False) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(net, example, str(path), opset_version=13, input_names=["input"],
                          output_names=["output"], dynamic_axes={"input": dynamic}, dynamo=False)
    if half:
        halve_weights(path)
    if folded:
        fold_first_convolution(path)
        check_folded(net, path, example.shape[2:])
    print(f"wrote {path} ({path.stat().st_size // 1024} KiB)")


def fold_first_convolution(path: Path) -> None:
    """Make an exported network take ``folded_blob`` inputs: its normalisation and first
    convolution (3x3, stride 2) become one 2x2 convolution with stride 1 (``fold_stem``)."""
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load(str(path))
    graph = model.graph
    sub, mul, conv = [node for node in graph.node if node.op_type != "Constant"][:3]
    attributes = {a.name: helper.get_attribute_value(a) for a in conv.attribute}
    stem = tuple(attributes.get(name) for name in ("kernel_shape", "strides", "pads"))
    if ([sub.op_type, mul.op_type, conv.op_type] != ["Sub", "Mul", "Conv"] or sub.input[0] != graph.input[0].name
            or stem != ([3, 3], [2, 2], [1] * 4)):
        raise ValueError(f"{path}: does not start with the normalisation and a 3x3, stride-2 convolution")
    weights = {w.name: w for w in graph.initializer}
    folded = fold_stem(*(numpy_helper.to_array(weights[name]) for name in conv.input[1:3]))
    for name, value in zip(conv.input[1:3], folded):
        graph.initializer.remove(weights[name])
        graph.initializer.append(numpy_helper.from_array(value, name))
    constants = {sub.input[1], mul.input[1]}
    for node in [n for n in graph.node if n in (sub, mul) or (n.op_type == "Constant" and n.output[0] in constants)]:
        graph.node.remove(node)
    conv.input[0] = graph.input[0].name
    del conv.attribute[:]
    conv.attribute.extend(helper.make_attribute(name, value) for name, value in
                          (("kernel_shape", [2, 2]), ("strides", [1, 1]), ("pads", [0] * 4), ("dilations", [1, 1])))
    dims = graph.input[0].type.tensor_type.shape.dim
    dims[1].dim_value = 4 * dims[1].dim_value
    for dim in dims[2:]:  # a side of n px becomes n / 2 + 1 blocks
        if dim.HasField("dim_param"):
            dim.dim_param = f"{dim.dim_param} / 2 + 1"
        else:
            dim.dim_value = dim.dim_value // 2 + 1
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def check_folded(net: nn.Module, path: Path, size: tuple[int, int]) -> None:
    """Raise unless OpenCV running the folded network on folded images (``size`` px high and
    wide) answers as PyTorch did on the images."""
    images = [np.random.default_rng(0).integers(0, 256, (*size, 3), dtype=np.uint8) for _ in range(2)]
    with torch.no_grad():
        expected = net(to_tensor(images)).numpy()
    if not np.allclose(run_network(load_network(str(path)), images, folded_blob), expected, atol=1e-3):
        raise ValueError(f"{path}: the folded network does not answer as the network it was folded from")


def halve_weights(path: Path) -> None:
    """Store the network's weights in 16-bit floats, widened back to 32 by a Cast as it is
    loaded: half the file, the same speed, logits within a few thousandths (so that the
    packaged networks stay under 2 MB)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(path))
    graph = model.graph
    casts = []
    for weight in [w for w in graph.initializer if w.data_type == TensorProto.FLOAT]:
        graph.initializer.remove(weight)
        half = numpy_helper.from_array(numpy_helper.to_array(weight).astype(np.float16), weight.name + "_half")
        graph.initializer.append(half)
        casts.append(helper.make_node("Cast", [half.name], [weight.name], to=TensorProto.FLOAT))
    nodes = casts + list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.save(model, str(path))


# stage: (file, network, steps option, seed offset, weights stored in 16 bits, first convolution
# folded). The re-reading network is the second trained on more of the dice the first face
# network reads poorly (weigh_hard_dice); it comes last, as it weighs the photos' dice.
PATCH_NETWORKS = {
    "checker": (CHECKER_MODEL, checker, "checker_steps", 0, False, True),
    "faces": (FACE_MODEL, face_network, "face_steps", 0, True, False),
    "second-faces": (SECOND_FACE_MODEL, face_network, "face_steps", 1, True, False),
    "reread-faces": (REREAD_FACE_MODEL, face_network, "face_steps", 1, True, False),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=Path, default=Path("../shared/datasets"))
    parser.add_argument("--synthetic", type=int, default=300, help="synthetic scenes to add")
    parser.add_argument("--stage", choices=("all", "detector", *PATCH_NETWORKS), default="all",
                        help="train every network, or one (the patch networks mine the detector in --out)")
    parser.add_argument("--detector-steps", type=int, default=2000)
    parser.add_argument("--checker-steps", type=int, default=4000)
    parser.add_argument("--face-steps", type=int, default=16000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=MODELS)
    args = parser.parse_args()
    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    random.seed(args.seed)
    real = real_photos(args.datasets)

    @functools.cache
    def photos(seed: int) -> list[Photo]:
        scenes = real + synthetic_photos(args.synthetic, seed)
        print(f"{len(scenes)} training photos (seed {seed})", flush=True)
        return scenes

    args.out.mkdir(parents=True, exist_ok=True)
    if args.stage in ("all", "detector"):
        det = train_detector(photos(args.seed), args.detector_steps, args.seed)
        export(det, args.out / DETECTOR_MODEL, torch.zeros(1, 3, 240, DETECTOR_WIDTH), {2: "height", 3: "width"},
               folded=True)
    for stage, (name, build, steps_option, seed_offset, half, folded) in PATCH_NETWORKS.items():
        if args.stage in ("all", stage):
            seed = args.seed + seed_offset
            negatives = mine_negatives(args.out / DETECTOR_MODEL, photos(seed))
            if stage == "reread-faces":
                weigh_hard_dice(args.out / FACE_MODEL, photos(seed))
            net = train_patches(build(), photos(seed), negatives, getattr(args, steps_option), seed, len(real))
            export(net, args.out / name, torch.zeros(1, 3, PATCH_SIDE, PATCH_SIDE), {0: "batch"}, half, folded)


if __name__ == "__main__":
    main()
