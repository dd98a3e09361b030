"""Fits the theory model of `relevance/contribution.py` (`relevance/data/contribution.json`).

    python -m paperscope.bench.contribution_train      # ~1 min on 2 cores

Positives: every COLT and ALT abstract of ../shared/corpora/conference_abstracts.jsonl.gz (learning
theory venues); negatives: a 6% sample (seed 0) of applied venues' abstracts (vision, robotics,
language, web). General ML venues (NeurIPS, ICML, AISTATS, UAI, ...) hold both kinds and are
not used: they are where the model is applied. No question and no hand label is read.
Model: L2 logistic regression (class-balanced) over `contribution.theory_features`, the style
words only. Reported: 5-fold ROC AUC. `cite_at` (0.8) is the probability from which a paper
counts as mainly theoretical (4:1 odds on COLT's side).
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import numpy as np

from paperscope.bench.corpus import default_corpus, iter_records
from paperscope.relevance.contribution import MODEL_FILE, cue_stems, theory_features

THEORY_VENUES = {"COLT", "ALT"}
APPLIED_VENUES = {"CVPR", "ICCV", "ECCV", "WACV", "3DV", "ICRA", "IROS", "RSS", "CORL", "ACL", "NAACL", "COLING", "WWW"}
NEGATIVE_SHARE = 0.06
CITE_AT = 0.8


def main() -> None:
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_score

    ap = argparse.ArgumentParser(description="Fit the theory-paper model (contribution kinds).")
    ap.add_argument("--corpus", type=Path, default=default_corpus())
    ap.add_argument("--out", type=Path, default=MODEL_FILE)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    stems = cue_stems()
    index = {s: i for i, s in enumerate(stems)}
    rng = random.Random(args.seed)
    rows, labels = [], []
    for r in iter_records(args.corpus):
        venue = r.get("venue")
        if venue in THEORY_VENUES or (venue in APPLIED_VENUES and rng.random() < NEGATIVE_SHARE):
            rows.append(theory_features(str(r.get("abstract") or ""), index))
            labels.append(int(venue in THEORY_VENUES))
    x, y = np.array(rows), np.array(labels)
    clf = LogisticRegression(C=1.0, max_iter=2000, fit_intercept=False, class_weight="balanced")
    auc = float(cross_val_score(clf, x, y, cv=5, scoring="roc_auc").mean())
    clf.fit(x, y)
    weights = [round(float(w), 4) for w in clf.coef_[0]]
    args.out.write_text(json.dumps({"stems": stems, "weights": weights, "cite_at": CITE_AT,
                                    "info": {"positives": int(y.sum()), "negatives": int(len(y) - y.sum()),
                                             "cv_auc": round(auc, 4), "seed": args.seed}}, indent=0))
    print(json.dumps({"rows": len(y), "positives": int(y.sum()), "cv_auc": round(auc, 4), "out": str(args.out)}))


if __name__ == "__main__":
    main()
