"""Train the card glyph network and export it to ``vision/models/card_glyphs.onnx``.

The network describes the printed value in the middle of a card (``card_features.value_crops``:
the darkness of the central value, cut out, centred and scaled) by a short vector that is the same for one
value however the card is printed, photographed, blurred or turned, and different from the other
values. Enrolment then learns a deck's own values on those vectors (``card_model.Linear``), as it
did on gradient histograms, which fall apart when a card is small and soft in the frame.

It learns from seeded synthetic cards of many designs (``vision.synth.card_designs``: Hilo-like,
UNO-like, poker, gem, large numerals; several fonts, weights and inks), each photographed
alone at 36 to 140 pixels wide (as many under 71 px as over: small, soft cards are the hard ones),
in perspective, through the synthetic camera's faults, and read back through corners a pixel or
two off, as the reader reads them; half of them half turned. The
training classes are the values of every design (a poker card's central pips are a class apart
from a printed numeral of that value); only the vector before the classes is exported. Needs
PyTorch and onnx (not dependencies of the application, which runs the ONNX file with OpenCV)::

    python3 -m venv /opt/venv-train
    /opt/venv-train/bin/pip install torch numpy opencv-python-headless onnx
    PYTHONPATH=. /opt/venv-train/bin/python vision/training/train_card_glyphs.py     (~20 min on 2 cores)

The crops are made once and kept in ``--work`` with the checkpoint (written every ``--save-every``
steps): a run stopped at any point goes on from there when started again with the same options.
``--seed`` seeds the network's start and its batches (not the crops): the committed network is
seed 2's (three seeds of this network, read from the cards' ink, were alike on
bench/score_hilo_photos.py; seed 2 read Hold Up's filmed games best).
"""
from __future__ import annotations

import argparse
import multiprocessing
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn as nn

from vision.card_features import value_crops, portrait, rectify
from vision.card_glyphs import EMBEDDING, INPUT_SIZE, MODEL
from vision.synth.card_designs import deck, random_design, render_back, render_face
from vision.synth.card_scenes import paste_card
from vision.synth.cards import Photo, spoil
from vision.training.resumable import kept_arrays, optimiser_and_schedule, resume, save

VALIDATION_SEED = 10_000_000  # validation crops' seeds start here; training's at 0
PHOTO = Photo(glare=(0.0, 0.6), blur=(0.3, 1.6), noise=(1.0, 6.0), jpeg=(55, 95), light=(0.6, 1.15),
              gradient=(-0.3, 0.3))
BACK = "back"
# Designs whose middle shows the value: a numeral, or a poker card's pips (tarot pictures and
# trumps differ from one printing to the next and teach nothing), the numerals drawn most.
KINDS = ("hilo",) * 3 + ("uno",) * 2 + ("numeral",) * 3 + ("gem", "poker")


class GlyphNet(nn.Module):
    """A convolution on the crop that halves it (wide: small soft digits need it; strided: its
    output at the crop's full size cost more than the rest of the network), then two stages of
    a convolution per channel and one across channels (far cheaper than full ones: 54 cards are
    read in a frame), each halving the crop, and a vector of EMBEDDING numbers; the classes'
    layer is used in training only."""

    def __init__(self, classes: int, widths=(32, 64, 96)):
        super().__init__()
        def norm(c):
            return [nn.BatchNorm2d(c), nn.ReLU()]
        layers = [nn.Conv2d(1, widths[0], 3, 2, 1, bias=False), *norm(widths[0])]
        for cin, c in zip(widths, widths[1:]):
            layers += [nn.Conv2d(cin, cin, 3, 1, 1, groups=cin, bias=False), *norm(cin),
                       nn.Conv2d(cin, c, 1, bias=False), *norm(c), nn.MaxPool2d(2)]
        self.features = nn.Sequential(*layers)
        w, h = INPUT_SIZE
        self.embed = nn.Linear(widths[-1] * (h // 8) * (w // 8), EMBEDDING)
        self.classify = nn.Sequential(nn.ReLU(), nn.Dropout(0.2), nn.Linear(EMBEDDING, classes))

    def forward(self, x):
        return self.embed(self.features(x).flatten(1))


def value_class(kind: str, label: str) -> str:
    """The training class of a face: its value, with the kind for the pictures and pips that do
    not print the value as a numeral."""
    colour, value = label.split(" ")
    return f"pips {value}" if kind == "poker" else value


def photographed_crop(seed: int) -> tuple[np.ndarray, str]:
    """One card (or back) of a random design, photographed, found a little off and cut to the
    network's crop; and its class."""
    rng = np.random.default_rng(seed)
    design = random_design(rng, KINDS)
    if rng.random() < 0.08:
        image, alpha = render_back(design, rng.uniform(2.5, 4.0), rng)
        name = BACK
    else:
        label = str(rng.choice(deck(design)))
        image, alpha = render_face(design, label, rng.uniform(2.5, 4.0), rng)
        name = value_class(design.kind, label)
    width = float(np.exp(rng.uniform(np.log(36), np.log(140))))   # log-uniform
    aspect = alpha.shape[0] / alpha.shape[1]
    size = int(width * aspect * 1.5) + 16
    canvas = np.empty((size, size, 3), np.uint8)
    canvas[:] = rng.integers(20, 235, 3)
    canvas = np.clip(canvas + rng.normal(0, rng.uniform(0, 12), canvas.shape), 0, 255).astype(np.uint8)
    a = np.deg2rad(rng.uniform(0, 360))
    u, v = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    x, y = width / 2, width * aspect / 2
    centre = np.full(2, size / 2)
    corners = np.array([centre - x * u - y * v, centre + x * u - y * v, centre + x * u + y * v,
                        centre - x * u + y * v], np.float32)
    corners += rng.normal(0, 0.025 * width, corners.shape).astype(np.float32)   # perspective
    paste_card(canvas, image, alpha, corners, rng)
    frame = spoil(canvas, PHOTO, rng)
    found = corners + rng.normal(0, rng.choice((0.5, 1.0, 2.0)), corners.shape).astype(np.float32)
    found = portrait(found)
    if rng.random() < 0.5:
        found = found[[2, 3, 0, 1]]
    face = rectify(frame, [found])
    return value_crops(face)[0], name


def make_crops(seeds, processes: int) -> dict[str, np.ndarray]:
    with multiprocessing.Pool(processes) as pool:
        crops, names = zip(*pool.map(photographed_crop, [int(s) for s in seeds], chunksize=256))
    return {"crops": np.clip(np.stack(crops), 0, 255).astype(np.uint8), "names": np.array(names)}


def tensor(crops: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(crops.astype(np.float32)[:, None] / 255.0)


def judge(model, crops: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """Class accuracy on validation crops, and how well the exported vector alone tells values
    apart: nearest class mean of the unit vectors, means taken on one half, tested on the other."""
    model.eval()
    with torch.no_grad():
        vectors = torch.cat([model(tensor(crops[i:i + 512])) for i in range(0, len(crops), 512)])
        logits = model.classify(vectors)
    model.train()
    accuracy = float((logits.argmax(1).numpy() == y).mean())
    v = vectors.numpy()
    v /= np.linalg.norm(v, axis=1, keepdims=True) + 1e-9
    half = np.arange(len(y)) % 2 == 0
    classes = np.unique(y[half])
    means = np.stack([v[half & (y == c)].mean(0) for c in classes])
    test = ~half & np.isin(y, classes)
    nearest = classes[(v[test] @ means.T).argmax(1)]
    return {"accuracy": round(accuracy, 4), "nearest_mean": round(float((nearest == y[test]).mean()), 4)}


def export(model, path: Path) -> None:
    model.eval()
    w, h = INPUT_SIZE
    torch.onnx.export(model, torch.zeros(1, 1, h, w), str(path), input_names=["glyph"], output_names=["vector"],
                      opset_version=13, dynamo=False, dynamic_axes={"glyph": {0: "n"}, "vector": {0: "n"}})
    model.train()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, default=Path(".cache/card-glyphs"))
    parser.add_argument("--out", type=Path, default=MODEL)
    parser.add_argument("--crops", type=int, default=100000)
    parser.add_argument("--validation", type=int, default=4000)
    parser.add_argument("--steps", type=int, default=12000)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--save-every", type=int, default=500)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    cv2.setNumThreads(1)
    started = time.time()
    train = kept_arrays(args.work / f"train-{args.crops}.npz", lambda: make_crops(range(args.crops), args.threads))
    valid = kept_arrays(args.work / f"valid-{args.validation}.npz",
                        lambda: make_crops(range(VALIDATION_SEED, VALIDATION_SEED + args.validation), args.threads))
    print(f"crops ready: {len(train['crops'])} + {len(valid['crops'])} ({time.time() - started:.0f} s)", flush=True)
    classes = sorted(set(train["names"].tolist()))
    y_train = np.array([classes.index(n) for n in train["names"]])
    y_valid = np.array([classes.index(n) if n in classes else -1 for n in valid["names"]])
    model = GlyphNet(len(classes))
    optimiser, schedule = optimiser_and_schedule(model, 3e-3, args.steps)
    checkpoint = args.work / "checkpoint.pt"
    step = resume(checkpoint, model, optimiser, schedule)
    # a resumed run draws other batches, as seeded as a fresh one
    rng = np.random.default_rng(step + 1_000_000 * args.seed)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    tick = time.time()
    while step < args.steps:
        index = rng.integers(0, len(y_train), args.batch)
        crops = train["crops"][index].astype(np.float32)
        # light: the crop is scaled to its own darkest ink, so only its contrast varies a little
        crops = crops * rng.uniform(0.8, 1.1, (len(index), 1, 1))
        x = tensor(np.clip(crops, 0, 255))
        loss = loss_fn(model.classify(model(x)), torch.from_numpy(y_train[index]))
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        step += 1
        if step % 100 == 0:
            print(f"step {step}: loss {loss.item():.3f} ({(time.time() - tick) / 100:.3f} s/step)", flush=True)
            tick = time.time()
        if step % args.save_every == 0 or step == args.steps:
            save(checkpoint, model, optimiser, schedule, step)
            print(f"step {step}: validation {judge(model, valid['crops'], y_valid)}", flush=True)
            export(model, args.out)
    print(f"exported {args.out} ({args.out.stat().st_size / 1e3:.0f} kB)")


if __name__ == "__main__":
    main()
