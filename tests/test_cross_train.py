"""bench/cross_train.py: the cross-encoder experiment's data and its go/no-go measure (pure parts;
the training itself needs torch and ~30 min, see its docstring)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from paperscope.bench.cross_eval import auc
from paperscope.bench.cross_train import NEGATIVES, build_questions, mine_negatives, passage, title_topic


def test_auc_matches_a_reference_implementation_with_ties():
    metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(0)
    for _ in range(5):
        y = rng.integers(0, 2, 300)
        s = rng.integers(0, 6, 300) + y  # many ties
        assert auc(y, s) == pytest.approx(metrics.roc_auc_score(y, s), abs=1e-12)
    assert np.isnan(auc([1, 1], [0.2, 0.3]))  # one class only


def test_title_topic_cuts_a_leading_name_and_keeps_acronyms():
    assert title_topic("LocMoE: A Low-overhead MoE for Large Language Model Training") == \
        "a low-overhead MoE for large language model training"
    # A colon after more than three words is not a name.
    assert title_topic("Learning to Rank in Practice: Lessons") == "learning to rank in practice: lessons"


def _pool() -> list[dict]:
    topics = ["optical flow estimation", "graph neural networks", "speech recognition", "protein folding",
              "robot grasping", "machine translation"]
    recs = []
    for i in range(120):
        t = topics[i % len(topics)]
        abstract = (f"We study {t} in a new setting. Our method improves {t} with a simple idea number {i}. "
                    f"Experiments on benchmark {i} show gains. We release code for the community. "
                    f"Further analysis explains why the approach works well in practice.")
        recs.append({"id": str(i), "title": f"Paper {i} on {t.title()}", "abstract": abstract,
                     "keywords": [f"area: {t}"] if i % 2 else []})
    return recs


def test_questions_have_a_positive_and_negatives_that_are_not_it():
    recs = _pool()
    rng = random.Random(0)
    qs = build_questions(recs, rng, 80)
    kinds = {q["kind"] for q in qs}
    assert {"keyword", "ict", "title"} <= kinds
    mine_negatives(recs, qs, rng)
    for q in qs:
        assert len(q["neg"]) == NEGATIVES and q["pos"] not in q["neg"] and not set(q["neg"]) & q["skip"]
        if q["kind"] == "keyword":
            # A keyword question's negatives do not name the keyword anywhere.
            assert all(q["core"] not in passage(recs[j], True).lower() for j in q["neg"]), q
        if q["kind"] == "ict":
            assert q["drop"] in recs[q["pos"]]["abstract"]  # the sentence the passage leaves out
