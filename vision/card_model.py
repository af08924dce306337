"""What enrolment learns about one deck, and how it is saved.

Recognition is factorised: one classifier for the printed value (from shapes, whatever the ink
colour) and one for the colour (from the card's most colourful pixels). A few cards of each
colour and a few of each value are enough; every pairing need not be photographed. The value
classifier also knows the card back (``face-down``) and "not a card" (things on the table that
look like one: envelopes, paper, the mat's markers), learnt from the enrolment photos too.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from engine.table import FACE_DOWN

NOT_A_CARD = "not-a-card"
FORMAT = 1


class EnrolmentError(ValueError):
    """An enrolment cannot be made from these photos, or a saved one cannot be read."""


def split_label(label: str) -> tuple[str | None, str]:
    """``"red 7"`` -> ("red", "7"); ``"king"`` -> (None, "king"); ``face-down`` -> (None, "face-down")."""
    parts = label.split()
    if len(parts) == 2:
        return parts[0], parts[1]
    if len(parts) == 1:
        return None, parts[0]
    raise EnrolmentError(f"card label {label!r}: expected '<colour> <value>' or a single word")


@dataclass
class Neighbours:
    """Nearest enrolled examples by cosine similarity, in a principal-component subspace.

    The probability of a class follows its best example's similarity: ``exp(sim / temperature)``
    normalised over the classes. Few-shot friendly: every photographed card counts as itself.
    """

    classes: tuple[str, ...]
    mean: np.ndarray        # d
    basis: np.ndarray       # d x k
    examples: np.ndarray    # n x k, unit rows
    example_class: np.ndarray  # n, index into classes
    temperature: float = 0.02

    def _project(self, x: np.ndarray) -> np.ndarray:
        # einsum, not BLAS: these products are small, and a threaded BLAS only adds overhead on
        # a busy single-board computer.
        z = np.einsum("nd,dk->nk", (np.atleast_2d(x) - self.mean).astype(np.float32), self.basis)
        return z / (np.linalg.norm(z, axis=1, keepdims=True) + 1e-9)

    def proba(self, x: np.ndarray) -> np.ndarray:
        sims = np.einsum("nk,mk->nm", self._project(x), self.examples)          # queries x examples
        best = np.full((sims.shape[0], len(self.classes)), -1.0, np.float32)
        for c in range(len(self.classes)):
            best[:, c] = sims[:, self.example_class == c].max(axis=1)
        z = (best - best.max(axis=1, keepdims=True)) / self.temperature
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    @classmethod
    def fit(cls, x: np.ndarray, labels: Sequence[str], components: int = 96) -> "Neighbours":
        classes = tuple(sorted(set(labels)))
        mean = x.mean(axis=0)
        # Principal directions from the SVD of the centred examples (deterministic).
        _, _, vt = np.linalg.svd(x - mean, full_matrices=False)
        basis = vt[:min(components, len(vt))].T.astype(np.float32)
        model = cls(classes, mean.astype(np.float32), basis, np.zeros((0, basis.shape[1]), np.float32),
                    np.array([classes.index(v) for v in labels], np.int32))
        model.examples = model._project(x).astype(np.float32)
        return model


@dataclass
class Gaussians:
    """One normal distribution per class (shared shrinkage towards a round covariance)."""

    classes: tuple[str, ...]
    means: np.ndarray        # classes x d
    inverse: np.ndarray      # classes x d x d
    log_det: np.ndarray      # classes

    def proba(self, x: np.ndarray) -> np.ndarray:
        d = np.atleast_2d(x)[:, None, :] - self.means[None]                    # n x c x d
        mahal = np.einsum("ncd,cde,nce->nc", d, self.inverse, d)
        z = -0.5 * (mahal + self.log_det)
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    @classmethod
    def fit(cls, x: np.ndarray, labels: Sequence[str], floor: float = 0.03) -> "Gaussians":
        classes = tuple(sorted(set(labels)))
        labels = np.asarray(labels)
        means, inverse, log_det = [], [], []
        for c in classes:
            xc = x[labels == c]
            mu = xc.mean(axis=0)
            cov = np.cov(xc.T) if len(xc) > 2 else np.zeros((x.shape[1], x.shape[1]))
            # Few samples per colour: keep every direction at least `floor` wide.
            cov = np.atleast_2d(cov) + np.eye(x.shape[1]) * floor ** 2
            means.append(mu)
            inverse.append(np.linalg.inv(cov))
            log_det.append(np.linalg.slogdet(cov)[1])
        return cls(classes, np.array(means, np.float32), np.array(inverse, np.float32),
                   np.array(log_det, np.float32))


@dataclass
class CardModel:
    """A deck's enrolment: the value classifier, the colour classifier (None when the labels have
    no colour) and how many cards of each it was learnt from."""

    values: Neighbours
    colours: Gaussians | None
    counts: dict[str, int]

    def value_classes(self) -> tuple[str, ...]:
        return tuple(c for c in self.values.classes if c not in (FACE_DOWN, NOT_A_CARD))

    def knows_backs(self) -> bool:
        return FACE_DOWN in self.values.classes

    def save(self, path: str | Path) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays = {f"values_{k}": getattr(self.values, k) for k in ("mean", "basis", "examples", "example_class")}
        meta = {"format": FORMAT, "value_classes": self.values.classes, "counts": self.counts,
                "temperature": self.values.temperature,
                "colour_classes": self.colours.classes if self.colours else None}
        if self.colours:
            arrays.update({f"colours_{k}": getattr(self.colours, k) for k in ("means", "inverse", "log_det")})
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "wb") as handle:
            np.savez_compressed(handle, meta=np.array(json.dumps(meta)), **arrays)
        tmp.replace(path)  # a crash while saving leaves the previous enrolment intact

    @classmethod
    def load(cls, path: str | Path) -> "CardModel":
        path = Path(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                if meta.get("format") != FORMAT:
                    raise EnrolmentError(f"{path}: enrolment format {meta.get('format')}, expected {FORMAT}; "
                                         "enrol the deck again")
                values = Neighbours(tuple(meta["value_classes"]),
                                    *(data[f"values_{k}"] for k in ("mean", "basis", "examples", "example_class")),
                                    temperature=float(meta["temperature"]))
                colours = None
                if meta.get("colour_classes"):
                    colours = Gaussians(tuple(meta["colour_classes"]),
                                        *(data[f"colours_{k}"] for k in ("means", "inverse", "log_det")))
                model = cls(values, colours, {str(k): int(v) for k, v in meta["counts"].items()})
        except FileNotFoundError:
            raise EnrolmentError(f"{path}: no card enrolment; run `table-assistant calibrate cards` first") from None
        except (OSError, KeyError, ValueError, TypeError) as exc:
            if isinstance(exc, EnrolmentError):
                raise
            raise EnrolmentError(f"{path}: not a readable card enrolment ({exc}); enrol the deck again") from None
        v = model.values
        if (v.basis.shape[0] != v.mean.size or v.examples.shape[1] != v.basis.shape[1]
                or len(v.example_class) != len(v.examples)
                or not np.all((0 <= v.example_class) & (v.example_class < len(v.classes)))):
            raise EnrolmentError(f"{path}: inconsistent value classifier; enrol the deck again")
        return model


def train(value_x: np.ndarray, value_labels: Sequence[str], colour_x: np.ndarray | None,
          colour_labels: Sequence[str], counts: dict[str, int]) -> CardModel:
    """Fit both classifiers; raises EnrolmentError when a classifier would have one class."""
    real = {v for v in value_labels if v not in (FACE_DOWN, NOT_A_CARD)}
    if len(real) < 2:
        raise EnrolmentError(f"enrolment needs at least two different values, got {sorted(real) or 'none'}")
    colours = None
    if colour_labels:
        if len(set(colour_labels)) < 2:
            raise EnrolmentError(f"enrolment needs at least two colours, got {sorted(set(colour_labels))}")
        colours = Gaussians.fit(colour_x, colour_labels)
    return CardModel(Neighbours.fit(value_x, value_labels), colours, counts)
