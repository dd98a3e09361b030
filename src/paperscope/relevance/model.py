"""The learned relevance model, as shipped: a gradient-boosted tree ensemble (trained with
LightGBM by `paperscope.bench.relevance_train`, exported to JSON) and a logistic quote ranker,
evaluated here with numpy alone, so the product needs no ML library at run time.

`relevance/data/model.json` holds: the feature names (checked against `features.FEATURES`), the
trees as flat arrays, the decision thresholds, the quote ranker's weights, and the held-out
figures of the run that made it (README "Measured", docs/measurements.md). The training script checks this evaluator
against LightGBM's own predictions before it writes the file.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from paperscope.relevance.features import FEATURES

MODEL = Path(__file__).resolve().parent / "data" / "model.json"
Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Tree:
    feature: npt.NDArray[np.int64]  # -1 at leaves
    threshold: npt.NDArray[np.float64]
    left: npt.NDArray[np.int64]
    right: npt.NDArray[np.int64]
    value: npt.NDArray[np.float64]  # leaf values (0 at inner nodes)
    default_left: npt.NDArray[np.bool_]  # where a missing (NaN) value goes

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Tree:
        return cls(np.array(d["feature"], np.int64), np.array(d["threshold"], np.float64),
                   np.array(d["left"], np.int64), np.array(d["right"], np.int64),
                   np.array(d["value"], np.float64), np.array(d["default_left"], bool))

    def predict(self, x: Matrix) -> npt.NDArray[np.float64]:
        node = np.zeros(len(x), np.int64)
        rows = np.arange(len(x))
        active = self.feature[node] >= 0
        while active.any():
            r, n = rows[active], node[active]
            v = x[r, self.feature[n]]
            go_left = np.where(np.isnan(v), self.default_left[n], v <= self.threshold[n])
            node[r] = np.where(go_left, self.left[n], self.right[n])
            active = self.feature[node] >= 0
        return self.value[node]


@dataclass(frozen=True)
class QuoteRanker:
    """Scores a paper's sentences for quoting: linear (standardised features . coef) or a tree
    ensemble (LightGBM lambdarank); only the order within one paper matters."""

    features: tuple[str, ...]
    mean: npt.NDArray[np.float64] | None = None
    scale: npt.NDArray[np.float64] | None = None
    coef: npt.NDArray[np.float64] | None = None
    trees: tuple[Tree, ...] = ()

    def score(self, x: Matrix) -> npt.NDArray[np.float64]:
        if self.trees:
            out: npt.NDArray[np.float64] = np.zeros(len(x), np.float64)
            for tree in self.trees:
                out += tree.predict(x)
            return out
        assert self.mean is not None and self.scale is not None and self.coef is not None
        linear: npt.NDArray[np.float64] = ((x - self.mean) / self.scale) @ self.coef
        return linear

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> QuoteRanker:
        if d.get("trees"):
            return cls(tuple(d["features"]), trees=tuple(Tree.from_dict(t) for t in d["trees"]))
        return cls(tuple(d["features"]), np.array(d["mean"]), np.array(d["scale"]), np.array(d["coef"]))


@dataclass(frozen=True)
class RelevanceModel:
    trees: tuple[Tree, ...]
    cite: float  # cite a paper whose probability reaches this
    related: float  # show it apart as "related" from here
    listing: float  # find_all lists a paper from here (when one reaches `cite`)
    quotes: QuoteRanker  # for findings and topical questions
    factoid_quotes: QuoteRanker  # for questions after a number, a name, a detail
    info: dict[str, Any]

    def probability(self, x: Matrix) -> npt.NDArray[np.float64]:
        raw = np.zeros(len(x), np.float64)
        for tree in self.trees:
            raw += tree.predict(x)
        out: npt.NDArray[np.float64] = 1.0 / (1.0 + np.exp(-raw))
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RelevanceModel:
        if tuple(d["features"]) != FEATURES:
            raise ValueError(f"{MODEL.name} was trained on other features than this paperscope computes; "
                             "retrain it with `python -m paperscope.bench.relevance_train`")
        quotes = QuoteRanker.from_dict(d["quotes"]["default"])
        factoid = QuoteRanker.from_dict(d["quotes"]["factoid"])
        th = d["thresholds"]
        return cls(tuple(Tree.from_dict(t) for t in d["trees"]), float(th["cite"]), float(th["related"]),
                   float(th.get("list", th["cite"])), quotes, factoid, dict(d.get("info", {})))


@functools.cache
def load(path: Path = MODEL) -> RelevanceModel:
    return RelevanceModel.from_dict(json.loads(path.read_text()))
