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
from vision.arrays import load_npz, softmax, unit_rows

NOT_A_CARD = "not-a-card"
FACE_UP = "face-up"
NO_INDEX = "no-index"   # a card corner where nothing is printed, or a corner of something else
FORMAT = 11  # 11: the value read from the card's darkness (10: a wider glyph network; 9: a margin)


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


# Candidate weights of the shape parts (glyph, index, whole: see card_features.shape_features).
# A Hilo-like deck is told apart by its big central value, a playing card by its corner index.
PART_WEIGHTS = ((1.0, 0.0, 0.5), (0.0, 1.0, 0.5), (1.0, 1.0, 0.5), (0.5, 1.0, 0.5), (1.0, 0.5, 0.5))


@dataclass
class Linear:
    """Multinomial logistic regression on the weighted features (each part weighed, the row
    scaled to unit length), trained at enrolment by full-batch Adam with every class weighed
    equally, so a value photographed on few cards counts as much as one shown often.

    Unlike nearest examples, it learns which strokes tell values apart (the "1" of a ten beside
    a nine's loop) and discounts what varies from card to card of one value (suit, picture).
    """

    classes: tuple[str, ...]
    weights: np.ndarray     # d: each feature's weight
    coef: np.ndarray        # d x classes
    bias: np.ndarray        # classes

    def scores(self, x: np.ndarray) -> np.ndarray:
        # einsum, not BLAS: these products are small, and a threaded BLAS only adds overhead on
        # a busy single-board computer.
        weighed = unit_rows(np.atleast_2d(x) * self.weights).astype(np.float32)
        return np.einsum("nd,dk->nk", weighed, self.coef) + self.bias

    def proba(self, x: np.ndarray) -> np.ndarray:
        return softmax(self.scores(x))

    @classmethod
    def fit(cls, x: np.ndarray, labels: Sequence[str], groups: Sequence[int], parts: Sequence[slice],
            part_weights: Sequence[float] | None = None, steps: int = 400, decay: float = 1e-4) -> "Linear":
        """Learn from examples; ``groups`` ties together the examples made from one photographed
        card, ``parts`` are the feature parts, weighed by ``part_weights`` or, by default, as
        :func:`choose_weights` finds best."""
        classes = tuple(sorted(set(labels)))
        y = np.array([classes.index(v) for v in labels], np.int32)
        if part_weights is None:
            part_weights = choose_weights(x, y, np.asarray(groups), parts)
        weights = np.zeros(x.shape[1], np.float32)
        for part, w in zip(parts, part_weights):
            weights[part] = w
        xw = unit_rows(x * weights).astype(np.float32)
        n, k = len(y), len(classes)
        target = np.eye(k, dtype=np.float32)[y]
        balance = (n / (k * np.bincount(y, minlength=k)))[y].astype(np.float32)[:, None] / n
        params = [np.zeros((x.shape[1], k), np.float32), np.zeros(k, np.float32)]
        moments = [[np.zeros_like(q), np.zeros_like(q)] for q in params]
        for t in range(1, steps + 1):
            error = (softmax(xw @ params[0] + params[1]) - target) * balance
            grads = (xw.T @ error + decay * params[0], error.sum(axis=0))
            for q, g, m in zip(params, grads, moments):
                m[0] += 0.1 * (g - m[0])
                m[1] += 0.001 * (g * g - m[1])
                q -= 0.05 * (m[0] / (1 - 0.9 ** t)) / (np.sqrt(m[1] / (1 - 0.999 ** t)) + 1e-8)
        return cls(classes, weights, *params)


def choose_weights(x: np.ndarray, y: np.ndarray, groups: np.ndarray, parts: Sequence[slice]) -> tuple:
    """The PART_WEIGHTS that best recognise each enrolled card from the *other* cards (nearest
    neighbour, leaving out every example made from the same card)."""
    same = groups[:, None] == groups[None, :]
    x = x.astype(np.float32)
    # Each part has unit length (or is zero), so the similarity of any weighting follows from
    # the parts' own similarities and squared lengths.
    grams = [x[:, p] @ x[:, p].T for p in parts]
    lengths = [np.sum(x[:, p] ** 2, axis=1) for p in parts]
    best, best_score = None, -1.0
    for candidate in PART_WEIGHTS:
        sims = sum(w * w * g for w, g in zip(candidate, grams))
        norm = np.sqrt(sum(w * w * n for w, n in zip(candidate, lengths))) + 1e-9
        sims = sims / norm[:, None] / norm[None, :]
        sims[same] = -2.0
        score = float(np.mean(y[sims.argmax(axis=1)] == y))
        if score > best_score:
            best, best_score = candidate, score
    return best


_LINEAR_ARRAYS = ("weights", "coef", "bias")


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
    def fit(cls, x: np.ndarray, labels: Sequence[str], floor: Sequence[float] = (0.08, 0.08, 0.2, 0.2)) -> "Gaussians":
        """``floor``: the least spread kept in each feature, as few cards of a colour are shown
        (hue directions are steadier than lightness and colourfulness)."""
        classes = tuple(sorted(set(labels)))
        labels = np.asarray(labels)
        means, inverse, log_det = [], [], []
        for c in classes:
            xc = x[labels == c]
            mu = xc.mean(axis=0)
            cov = np.cov(xc.T) if len(xc) > 2 else np.zeros((x.shape[1], x.shape[1]))
            cov = np.atleast_2d(cov) + np.diag(np.asarray(floor, np.float64) ** 2)
            means.append(mu)
            inverse.append(np.linalg.inv(cov))
            log_det.append(np.linalg.slogdet(cov)[1])
        return cls(classes, np.array(means, np.float32), np.array(inverse, np.float32),
                   np.array(log_det, np.float32))


@dataclass
class CardModel:
    """A deck's enrolment: the value classifier (which also knows backs and non-cards), the back
    classifier (None when no back was shown), the colour classifier (None when the labels have no
    colour), the corner-index classifier for partly hidden cards (values and NO_INDEX), the
    cards' height / width, and how many cards of each it was learnt from."""

    values: Linear
    backs: Linear | None
    colours: Gaussians | None
    corners: Linear | None
    aspect: float
    counts: dict[str, int]

    def value_classes(self) -> tuple[str, ...]:
        return tuple(c for c in self.values.classes if c not in (FACE_DOWN, NOT_A_CARD))

    def knows_backs(self) -> bool:
        return self.backs is not None

    def shape_parts_used(self, parts: Sequence[slice]) -> tuple[bool, ...]:
        """Which shape-feature parts the value and back classifiers weigh at all (the others
        need not be computed)."""
        models = [m for m in (self.values, self.backs) if m is not None]
        return tuple(any(bool(np.any(m.weights[p])) for m in models) for p in parts)

    def save(self, path: str | Path) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays = {}
        meta = {"format": FORMAT, "counts": self.counts, "aspect": self.aspect}
        for name, model in (("values", self.values), ("backs", self.backs), ("corners", self.corners)):
            if model is not None:
                arrays.update({f"{name}_{k}": getattr(model, k) for k in _LINEAR_ARRAYS})
                meta[name] = {"classes": model.classes}
        meta["colour_classes"] = self.colours.classes if self.colours else None
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
            data = load_npz(path)
            meta = json.loads(str(data["meta"]))
            if meta.get("format") != FORMAT:
                raise EnrolmentError(f"{path}: enrolment format {meta.get('format')}, expected {FORMAT}; "
                                     "enrol the deck again")
            values, backs, corners = (
                Linear(tuple(meta[name]["classes"]), *(data[f"{name}_{k}"] for k in _LINEAR_ARRAYS))
                if name in meta else None
                for name in ("values", "backs", "corners"))
            colours = None
            if meta.get("colour_classes"):
                colours = Gaussians(tuple(meta["colour_classes"]),
                                    *(data[f"colours_{k}"] for k in ("means", "inverse", "log_det")))
            model = cls(values, backs, colours, corners, float(meta["aspect"]),
                        {str(k): int(v) for k, v in meta["counts"].items()})
        except FileNotFoundError:
            raise EnrolmentError(f"{path}: no card enrolment; run `table-assistant calibrate cards` first") from None
        except (OSError, KeyError, ValueError, TypeError, AttributeError) as exc:
            if isinstance(exc, EnrolmentError):
                raise
            raise EnrolmentError(f"{path}: not a readable card enrolment ({exc}); enrol the deck again") from None
        for v in filter(None, (model.values, model.backs, model.corners)):
            if v.coef.shape != (v.weights.size, len(v.classes)) or v.bias.shape != (len(v.classes),):
                raise EnrolmentError(f"{path}: inconsistent classifier; enrol the deck again")
        return model


def train(value_x: np.ndarray, value_labels: Sequence[str], groups: Sequence[int], parts: Sequence[slice],
          colour_x: np.ndarray | None, colour_labels: Sequence[str], corner_x: np.ndarray | None,
          corner_labels: Sequence[str], aspect: float, counts: dict[str, int]) -> CardModel:
    """Fit the classifiers; raises EnrolmentError when a classifier would have one class.
    ``groups`` and ``parts``: see Linear.fit. Backs are told from faces by the whole card's
    look alone (the last part): a back has no central value or index to read."""
    real = {v for v in value_labels if v not in (FACE_DOWN, NOT_A_CARD)}
    if len(real) < 2:
        raise EnrolmentError(f"enrolment needs at least two different values, got {sorted(real) or 'none'}")
    colours = None
    if colour_labels:
        if len(set(colour_labels)) < 2:
            raise EnrolmentError(f"enrolment needs at least two colours, got {sorted(set(colour_labels))}")
        colours = Gaussians.fit(colour_x, colour_labels)
    backs = None
    cards = np.array([v != NOT_A_CARD for v in value_labels])
    if FACE_DOWN in value_labels:
        sides = [FACE_DOWN if v == FACE_DOWN else FACE_UP for v, card in zip(value_labels, cards) if card]
        backs = Linear.fit(value_x[cards], sides, np.asarray(groups)[cards], parts,
                           part_weights=(0.0,) * (len(parts) - 1) + (1.0,))
    corners = None
    if corner_labels and len(set(corner_labels)) > 1:
        corners = Linear.fit(corner_x, corner_labels, range(len(corner_labels)), [slice(0, corner_x.shape[1])],
                             part_weights=(1.0,))
    return CardModel(Linear.fit(value_x, value_labels, groups, parts), backs, colours, corners, aspect,
                     counts)
