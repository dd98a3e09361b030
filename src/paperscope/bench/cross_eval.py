"""The cross-encoder experiment's go/no-go measure (`python -m paperscope.bench.cross_eval MODEL_DIR`): over the
human-written questions the model never saw, how well its score separates gold papers from the other
candidates `ask` gathers, against what the product already reads (dense cosine, fused rank), and
what it adds beside them. Figures in `cross_train`'s docstring."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from paperscope.bench.cross_train import MAX_LEN, hand_libraries, passage
from paperscope.bench.relevance_items import DATA
from paperscope.text.zh import has_cjk


def auc(y: Sequence[int], score: Sequence[float]) -> float:
    """Probability that a random positive scores above a random negative (ties count half)."""
    yy, ss = np.asarray(y), np.asarray(score, np.float64)
    pos, neg = ss[yy == 1], ss[yy == 0]
    if not len(pos) or not len(neg):
        return math.nan
    order = np.argsort(np.r_[pos, neg], kind="mergesort")
    ranks = np.empty(len(order))
    ranks[order] = np.arange(1, len(order) + 1)
    both = np.r_[pos, neg]
    for v in np.unique(both):  # average ranks of ties
        tie = both == v
        ranks[tie] = ranks[tie].mean()
    return float((ranks[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


def complementary(per_q: list[dict[str, Any]]) -> dict[str, float]:
    """Does the cross-encoder add to what the product already reads? AUC of a logistic regression
    on (cosine, rank) against (cosine, rank, cross-encoder), 5 folds by question."""
    from sklearn.linear_model import LogisticRegression

    out: dict[str, float] = {}
    for name, feats in (("auc_cos_rank", ("cos", "rank")), ("auc_cos_rank_ce", ("cos", "rank", "ce"))):
        ys, ps = [], []
        for fold in range(5):
            part = [[q for i, q in enumerate(per_q) if (i % 5 == fold) == test] for test in (False, True)]
            xy = [(np.array([[q[f][k] for f in feats] for q in qs for k in range(len(q["y"])) if q["y"][k] >= 0]),
                   np.array([y for q in qs for y in q["y"] if y >= 0])) for qs in part]
            (xtr, ytr), (xte, yte) = xy
            if len(set(ytr)) < 2 or not len(yte):
                continue
            mean, sd = xtr.mean(0), xtr.std(0) + 1e-9
            fit = LogisticRegression(max_iter=1000).fit((xtr - mean) / sd, ytr)
            ys += yte.tolist()
            ps += fit.predict_proba((xte - mean) / sd)[:, 1].tolist()
        out[name] = round(auc(ys, ps), 3)
    return out


def evaluate(model_dir: Path, work: Path, shared: Path, trained: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The go/no-go check on human-written questions the model never saw (dev2 over the seeds, the
    sixteen hand-labelled libraries): over each question's candidates as `ask` gathers them, how
    well the cross-encoder's score separates gold papers from the rest (AUC), against the dense
    cosine and the fused rank; how often its best candidate is gold (P@1); and whether its best
    score tells answerable questions from unanswerable ones (AUC over questions)."""
    import torch
    from transformers import AutoTokenizer, BertForSequenceClassification

    from paperscope.bench.relevance_items import load_jsonl
    from paperscope.bench.relevance_train import library

    tok = AutoTokenizer.from_pretrained(str(model_dir))
    model = BertForSequenceClassification.from_pretrained(str(model_dir)).eval()
    seeds = library(work, "seeds", paths=[Path(__file__).resolve().parents[3] / "seeds"])
    dev2 = [it for it in load_jsonl(shared / "eval" / "dev2.jsonl") if "turns" not in it and not has_cjk(it["question"])]
    held = [n for n in json.loads((DATA / "libraries.json").read_text()) if n not in trained]
    libs = [("dev2", seeds, dev2), *hand_libraries(work, held)]
    per_q: list[dict[str, Any]] = []
    for tag, a, items in libs:
        snap = a.catalog.snapshot()
        for it in items:
            c = a.candidates(it["question"], snap)
            hits = [h for h in c.hits if h.paper is not None]
            gold, acceptable = set(it["gold"]), set(it.get("acceptable") or [])
            texts = [passage(h.paper.model_dump(), True) for h in hits if h.paper is not None]
            with torch.no_grad():
                enc = tok([it["question"]] * len(texts), texts, truncation="only_second", max_length=MAX_LEN,
                          padding=True, return_tensors="pt")
                ce = model(**enc).logits.squeeze(-1).numpy().reshape(-1)
            cos = [float((c.chunk_vectors[h.paper_id] @ c.vectors.question).max()) if h.paper_id in c.chunk_vectors
                   and len(c.chunk_vectors[h.paper_id]) else 0.0 for h in hits]
            y = [1 if h.paper_id in gold else (-1 if h.paper_id in acceptable else 0) for h in hits]
            per_q.append({"tag": tag, "y": y, "ce": ce.tolist(), "cos": cos, "rank": [-r for r in range(len(hits))]})
    report: dict[str, Any] = {}
    for name in ("dev2", "libraries"):
        chosen = [q for q in per_q if (q["tag"] == "dev2") == (name == "dev2")]
        row: dict[str, Any] = {"questions": len(chosen)}
        answerable = [q for q in chosen if 1 in q["y"]]
        for f in ("ce", "cos", "rank"):
            ys = [y for q in chosen for y, _ in zip(q["y"], q[f]) if y >= 0]
            ss = [s for q in chosen for y, s in zip(q["y"], q[f]) if y >= 0]
            row[f"auc_{f}"] = round(auc(ys, ss), 3)
            row[f"p1_{f}"] = round(sum(q["y"][int(np.argmax(q[f]))] == 1 for q in answerable) / max(1, len(answerable)), 3)
        best = [max(q["ce"]) for q in chosen if q["ce"]]
        row["answerable_auc_ce"] = round(auc([int(1 in q["y"]) for q in chosen if q["ce"]], best), 3)
        row["answerable_auc_cos"] = round(auc([int(1 in q["y"]) for q in chosen if q["cos"]],
                                              [max(q["cos"]) for q in chosen if q["cos"]]), 3)
        row.update(complementary(chosen))
        report[name] = row
    return report


def main() -> None:
    import argparse

    from paperscope.bench.corpus import default_corpus

    ap = argparse.ArgumentParser(description="Evaluate a cross-encoder trained by cross_train (its torch folder).")
    ap.add_argument("model", type=Path)
    ap.add_argument("--work", type=Path, default=Path("/tmp/paperscope-relevance"), help="Libraries (as relevance_train).")
    ap.add_argument("--shared", type=Path, default=default_corpus().parents[1], help="The ../shared folder.")
    ap.add_argument("--human", default="", help="The libraries it was trained on (left out of the report).")
    args = ap.parse_args()
    print(json.dumps(evaluate(args.model, args.work, args.shared, frozenset(args.human.split(",")) - {""}), indent=1))


if __name__ == "__main__":
    main()
