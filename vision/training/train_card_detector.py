"""Train the card detector and export it to ``vision/models/card_detector.onnx``.

The detector sees a frame scaled to ``vision.card_detector.INPUT_WIDTH`` pixels wide and gives,
on a grid of stride 4, how likely a face-up and a face-down card's centre lies in each cell, and
where that card's four corners are. It learns only from seeded synthetic scenes
(``vision.synth.card_scenes``: cards of many designs on many tables), on real table photographs
without cards as some of the backgrounds (the dice folders of ``--datasets``); every photograph
of real cards is left for judging it. Needs PyTorch and onnx, which are not dependencies of the
application (it runs the ONNX file with OpenCV)::

    python3 -m venv /opt/venv-train
    /opt/venv-train/bin/pip install torch numpy opencv-python-headless onnx
    PYTHONPATH=. /opt/venv-train/bin/python vision/training/train_card_detector.py --datasets ../shared/datasets

The scenes are made once and kept in ``--work`` (with the training checkpoint, written every
``--save-every`` steps): a run stopped at any point goes on from its last checkpoint when started
again with the same options. Fixed seeds; ``--threads`` torch threads. The shipped weights are
this script's defaults: 8,000 scenes (7 min to make) and 8,000 steps (53 min on two cores).
"""
from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from engine.table import FACE_DOWN
from vision.card_detector import CORNER_UNIT, INPUT_WIDTH, MODEL, STRIDE
from vision.synth.card_scenes import detector_scene
from vision.training.resumable import kept_arrays, optimiser_and_schedule, resume, save

SIZE = (INPUT_WIDTH, 224)  # sides a multiple of the coarsest stride, 32
VALIDATION_SEED = 10_000_000  # validation scenes' seeds start here; training's at 0
CORNER_WEIGHT = 2.0  # of the corners' loss against the heat maps' one
BACKGROUND_FOLDERS = ("dice-tray", "dice-webcam")  # real tables with no card on them


class Detector(nn.Module):
    """A small encoder (strides 2-32) with a dilated context at its end, a top-down path back to
    stride 4, then the heads."""

    def __init__(self, widths=(16, 24, 32, 48, 64), mid: int = 32):
        super().__init__()
        def block(cin, cout, stride):
            return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(),
                                 nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())
        chans = (3,) + widths
        self.down = nn.ModuleList(block(chans[i], chans[i + 1], 2) for i in range(len(widths)))
        self.lateral = nn.ModuleList(nn.Conv2d(c, mid, 1) for c in widths[1:])
        self.smooth = nn.ModuleList(nn.Sequential(nn.Conv2d(mid, mid, 3, 1, 1, bias=False), nn.BatchNorm2d(mid),
                                                  nn.ReLU()) for _ in widths[2:])
        # Context at the coarsest stride (dilated, so the centre cell of a card half the frame
        # wide sees all of it), added to what is there: it starts as nothing.
        top = widths[-1]
        self.context = nn.Sequential(nn.Conv2d(top, top, 3, 1, 2, dilation=2, bias=False), nn.BatchNorm2d(top),
                                     nn.ReLU(), nn.Conv2d(top, top, 3, 1, 4, dilation=4, bias=False),
                                     nn.BatchNorm2d(top))
        nn.init.zeros_(self.context[-1].weight)
        self.heat = nn.Sequential(nn.Conv2d(mid, mid, 3, 1, 1), nn.ReLU(), nn.Conv2d(mid, 2, 1))
        self.corners = nn.Sequential(nn.Conv2d(mid, mid, 3, 1, 1), nn.ReLU(), nn.Conv2d(mid, 8, 1))
        nn.init.constant_(self.heat[-1].bias, -4.0)  # cells are mostly empty: start by saying so

    def forward(self, x):
        feats = []
        for layer in self.down:
            x = layer(x)
            feats.append(x)
        feats[-1] = F.relu(feats[-1] + self.context(feats[-1]))
        y = self.lateral[-1](feats[-1])
        for k in range(len(self.smooth)):  # from stride 32 down to stride 4
            y = F.interpolate(y, scale_factor=2.0, mode="nearest") + self.lateral[-2 - k](feats[-2 - k])
            y = self.smooth[k](y)
        return torch.cat([self.heat(y), self.corners(y)], dim=1)


# ---- data ------------------------------------------------------------------------------

def backgrounds(datasets: Path) -> list[np.ndarray]:
    out = []
    for folder in BACKGROUND_FOLDERS:
        for path in sorted((datasets / folder).glob("*.jpg"))[::4]:
            image = cv2.imread(str(path))
            if image is not None:
                out.append(image)
    return out


def targets(cards, shape) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Heat (2 x h x w), corner offsets (8 x h x w, in CORNER_UNIT pixels from the cell centre)
    and their weight (h x w) of one scene at stride STRIDE."""
    h, w = shape[0] // STRIDE, shape[1] // STRIDE
    heat = np.zeros((2, h, w), np.float32)
    offsets = np.zeros((8, h, w), np.float32)
    weight = np.zeros((h, w), np.float32)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    cx_px, cy_px = (xs + 0.5) * STRIDE, (ys + 0.5) * STRIDE
    for card in cards:
        c = card.corners.mean(axis=0)
        short = min(np.linalg.norm(card.corners[1] - card.corners[0]),
                    np.linalg.norm(card.corners[2] - card.corners[1]))
        sigma = max(0.7, 0.08 * short / STRIDE)
        gx, gy = c[0] / STRIDE - 0.5, c[1] / STRIDE - 0.5
        g = np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * sigma ** 2))
        ch = 1 if card.label == FACE_DOWN else 0
        px, py = int(round(gx)), int(round(gy))
        if 0 <= px < w and 0 <= py < h:
            g[py, px] = 1.0
        heat[ch] = np.maximum(heat[ch], g)
        near = (np.abs(xs - gx) <= 1.0) & (np.abs(ys - gy) <= 1.0) & (g > weight)
        for k in range(4):
            offsets[2 * k][near] = (card.corners[k, 0] - cx_px[near]) / CORNER_UNIT
            offsets[2 * k + 1][near] = (card.corners[k, 1] - cy_px[near]) / CORNER_UNIT
        weight[near] = g[near]
    return heat, offsets, weight


def make_scenes(seeds, bgs) -> dict[str, np.ndarray]:
    """The scenes of ``seeds`` and their targets."""
    images, heats, offs, weights = [], [], [], []
    for seed in seeds:
        scene = detector_scene(int(seed), SIZE, bgs)
        heat, off, weight = targets(scene.cards, scene.frame.shape)
        images.append(scene.frame)
        heats.append((heat * 255).astype(np.uint8))
        offs.append(off.astype(np.float16))
        weights.append((weight * 255).astype(np.uint8))
    return {"images": np.stack(images), "heat": np.stack(heats), "offsets": np.stack(offs),
            "weight": np.stack(weights)}


def batch(data, index: np.ndarray, rng, augment: bool):
    images = data["images"][index].astype(np.float32)
    heat = data["heat"][index].astype(np.float32) / 255
    off = data["offsets"][index].astype(np.float32)
    weight = data["weight"][index].astype(np.float32) / 255
    if augment:  # light and colour (the scenes already vary all else)
        images = images * rng.uniform(0.7, 1.3, (len(index), 1, 1, 3)) + rng.uniform(-25, 25, (len(index), 1, 1, 1))
        gray = rng.random(len(index)) < 0.1
        images[gray] = images[gray].mean(axis=3, keepdims=True)
    x = torch.from_numpy(np.clip(images, 0, 255).transpose(0, 3, 1, 2) / 255.0 - 0.5).float()
    return x, torch.from_numpy(heat), torch.from_numpy(off), torch.from_numpy(weight)


# ---- loss ------------------------------------------------------------------------------

def focal(logits, heat):
    """CenterNet's focal loss: the peak cells are positives, others weigh less near a centre."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = heat >= 0.999
    pos_loss = -(torch.log(p) * (1 - p) ** 2)[pos].sum()
    neg_loss = -(torch.log(1 - p) * p ** 2 * (1 - heat) ** 4)[~pos].sum()
    return (pos_loss + neg_loss) / pos.sum().clamp(min=1)


def corner_loss(pred, target, weight):
    """L1 error of the corners, the least over the four ways of naming the first corner (a
    card's top cannot be told before it is read). Plain L1: its pull stays as strong for the last
    pixel as for the first (a smooth L1 fades below a unit, 32 pixels here)."""
    n, _, h, w = pred.shape
    pred = pred.view(n, 4, 2, h, w)
    target = target.view(n, 4, 2, h, w)
    losses = torch.stack([F.l1_loss(pred, torch.roll(target, k, dims=1), reduction="none").sum(dim=(1, 2))
                          for k in range(4)])
    best = losses.min(dim=0).values
    return (best * weight).sum() / weight.sum().clamp(min=1)


# ---- judging ----------------------------------------------------------------------------

def judge(model, data, threshold: float = 0.3) -> dict[str, float]:
    """Peak recall/precision and corner error on scenes (cells: an exact or neighbouring peak)."""
    model.eval()
    found = truth = false = 0
    errors = []
    with torch.no_grad():
        for start in range(0, len(data["images"]), 32):
            index = np.arange(start, min(start + 32, len(data["images"])))
            x, heat, off, weight = batch(data, index, None, False)
            out = model(x)
            p = torch.sigmoid(out[:, :2])
            peaks = (p == F.max_pool2d(p, 3, 1, 1)) & (p > threshold)
            centres = heat >= 0.999
            near = F.max_pool2d(centres.float(), 3, 1, 1) > 0
            found += int((F.max_pool2d(peaks.float(), 3, 1, 1) > 0)[centres].sum())
            truth += int(centres.sum())
            false += int((peaks & ~near).sum())
            at = weight >= 0.999
            if at.any():
                pred = out[:, 2:].view(len(index), 4, 2, *at.shape[1:]).permute(0, 3, 4, 1, 2)[at]
                goal = off.view(len(index), 4, 2, *at.shape[1:]).permute(0, 3, 4, 1, 2)[at]
                err = torch.stack([(pred - torch.roll(goal, k, dims=1)).norm(dim=2).mean(dim=1) for k in range(4)])
                errors.extend((err.min(dim=0).values * CORNER_UNIT).tolist())
    model.train()
    return {"recall": found / max(truth, 1), "false_per_scene": false / len(data["images"]),
            "corner_px": float(np.median(errors)) if errors else math.nan}


def export(model, path: Path) -> None:
    """Declared at the training size: OpenCV 4.x (a Pi's) cannot import the upsampling path with
    symbolic sides, and both 4.x and 5 take any input whose sides are multiples of 32."""
    model.eval()
    torch.onnx.export(model, torch.zeros(1, 3, SIZE[1], SIZE[0]), str(path), input_names=["image"],
                      output_names=["maps"], opset_version=13, dynamo=False)
    model.train()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", type=Path, default=Path("../shared/datasets"))
    parser.add_argument("--work", type=Path, default=Path(".cache/card-detector"))
    parser.add_argument("--out", type=Path, default=MODEL)
    parser.add_argument("--scenes", type=int, default=8000)
    parser.add_argument("--validation", type=int, default=300)
    parser.add_argument("--steps", type=int, default=8000)
    parser.add_argument("--batch", type=int, default=24)
    parser.add_argument("--save-every", type=int, default=250)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    bgs = backgrounds(args.datasets)
    started = time.time()
    train = kept_arrays(args.work / f"train-{args.scenes}.npz", lambda: make_scenes(range(args.scenes), bgs))
    valid = kept_arrays(args.work / f"valid-{args.validation}.npz",
                        lambda: make_scenes(range(VALIDATION_SEED, VALIDATION_SEED + args.validation), bgs))
    print(f"scenes ready: {len(train['images'])} + {len(valid['images'])} ({time.time() - started:.0f} s)", flush=True)
    model = Detector()
    optimiser, schedule = optimiser_and_schedule(model, 2e-3, args.steps)
    checkpoint = args.work / "checkpoint.pt"
    step = resume(checkpoint, model, optimiser, schedule)
    rng = np.random.default_rng(step)  # a resumed run draws other batches, as seeded as a fresh one
    tick = time.time()
    while step < args.steps:
        x, heat, off, weight = batch(train, rng.integers(0, len(train["images"]), args.batch), rng, True)
        out = model(x)
        loss_heat = focal(out[:, :2], heat)
        loss_corners = corner_loss(out[:, 2:], off, weight)
        loss = loss_heat + CORNER_WEIGHT * loss_corners
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        step += 1
        if step % 50 == 0:
            print(f"step {step}: heat {loss_heat.item():.3f} corners {loss_corners.item():.3f} "
                  f"({(time.time() - tick) / 50:.2f} s/step)", flush=True)
            tick = time.time()
        if step % args.save_every == 0 or step == args.steps:
            save(checkpoint, model, optimiser, schedule, step)
            print(f"step {step}: validation {judge(model, valid)}", flush=True)
            export(model, args.out)
    print(f"exported {args.out} ({args.out.stat().st_size / 1e3:.0f} kB)")


if __name__ == "__main__":
    main()
