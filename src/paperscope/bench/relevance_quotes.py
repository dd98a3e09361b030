"""The quote rankers of the relevance model: which sentence of a cited paper to quote.

Rows are sentences of gold papers: SciFact rationale sentences (the findings) and the sentences
holding the answers of factoid and follow-up questions (dev.jsonl and the qgen libraries);
`fit_quotes` picks, per question kind, the better of a logistic model and LightGBM lambdarank
by held-out top-1 hit rate (see `relevance_train`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from paperscope.assistant import Assistant
from paperscope.bench.relevance_items import DATA, HUMAN_LIBRARIES, Item, asks_benchmark_topic, load_jsonl
from paperscope.bench.trees import export_trees
from paperscope.relevance.quotes import SENTENCE_FEATURES, sentence_features
from paperscope.text.zh import has_cjk


# -- quotes ---------------------------------------------------------------------------------
def _norm_s(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip().lower()


def quote_rows(libs: dict[str, Assistant], items: list[Item], shared: Path) -> list[dict[str, Any]]:
    """Sentence rows: SciFact rationales, and the sentences holding factoid / follow-up answers."""
    out: list[dict[str, Any]] = []

    def add(a: Assistant, question: str, focus_text: str, pid: str, positive: Any, source: str, iid: str) -> None:
        snap = a.catalog.snapshot()
        paper = a.catalog.papers([pid]).get(pid)
        if paper is None:
            return
        q = a.relevance.analyze(focus_text, snap, scaffolding=False)
        sents, vecs = a.relevance.sentences.get([paper])[0]
        labels = [1 if positive(s) else 0 for s in sents]
        if not any(labels):
            return
        qvec = a.embedder.embed([focus_text])[0]
        for lab, feats in zip(labels, sentence_features(q, qvec, sents, vecs, title=paper.title)):
            out.append({"x": feats.tolist(), "y": lab, "item": iid, "pid": pid, "source": source})

    for it in items:
        if it["family"] == "scifact" and not it["exclude"]:
            for pid in it["gold"]:
                rats = {_norm_s(s) for s in it.get("rationales", {}).get(pid, [])}
                add(libs["scifact"], it["question"], it["question"], pid,
                    lambda s, rats=rats: _norm_s(s) in rats or any(_norm_s(s) in r or r in _norm_s(s) for r in rats),
                    "scifact", it["id"])
    sources = [(shared / "eval" / "dev.jsonl", "dev", "seeds")]
    sources += [(DATA / f"lib{x}_questions.jsonl", f"qgen{x}", f"lib{x}") for x in HUMAN_LIBRARIES]
    for path, source, lib in sources:
        for n, raw in enumerate(load_jsonl(path)):
            key = raw.get("key")
            turns = raw.get("turns") or [raw["question"]]
            if not key or len(raw["gold"]) != 1 or has_cjk(" ".join(turns)) or asks_benchmark_topic(turns):
                continue
            add(libs[lib], turns[-1], turns[-1], raw["gold"][0], lambda s, key=key: key.lower() in s.lower(),
                source, f"{source}-{n}")
    return out


def fit_quotes(rows: list[dict[str, Any]], seed: int = 0) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two quote rankers, each chosen between a logistic model and LightGBM lambdarank by its
    held-out top-1 hit rate (SciFact 5-fold by claim; each key source left out in turn): one for
    factoid questions (judged on the factoid keys), one for the rest (judged on SciFact)."""
    import lightgbm as lgb
    from sklearn.linear_model import LogisticRegression

    x = np.array([r["x"] for r in rows])
    y = np.array([r["y"] for r in rows])
    src = np.array([r["source"] for r in rows])
    group_of: dict[tuple[str, str], int] = {}
    gid = np.array([group_of.setdefault((r["item"], r["pid"]), len(group_of)) for r in rows])
    # Factoid answers are few next to SciFact's rationales; each kind weighs about half.
    weight = np.where(src == "scifact", 1.0, (src == "scifact").sum() / max((src != "scifact").sum(), 1))

    def linear(mask: np.ndarray) -> tuple[Any, dict[str, Any]]:
        mu, sd = x[mask].mean(0), x[mask].std(0) + 1e-9
        coef = LogisticRegression(C=1.0, max_iter=2000).fit((x[mask] - mu) / sd, y[mask], sample_weight=weight[mask]).coef_[0]
        spec = {"features": list(SENTENCE_FEATURES), "mean": mu.tolist(), "scale": sd.tolist(), "coef": coef.tolist()}
        return (lambda z: ((z - mu) / sd) @ coef), spec

    def ranker(mask: np.ndarray) -> tuple[Any, dict[str, Any]]:
        idx = np.where(mask)[0]
        order = idx[np.argsort(gid[idx], kind="stable")]
        _, counts = np.unique(gid[order], return_counts=True)
        # 300 trees of 16 leaves: held out, SciFact top-1 .699 (150 x 8) -> .759, factoid .855 -> .852
        # (of 150/300/600 trees x 8/16 leaves, five tried).
        m = lgb.LGBMRanker(objective="lambdarank", n_estimators=300, learning_rate=0.05, num_leaves=16,
                           min_child_samples=20, random_state=seed, deterministic=True, force_row_wise=True, n_jobs=2,
                           verbose=-1)
        m.fit(x[order], y[order], group=counts)
        spec = {"features": list(SENTENCE_FEATURES), "trees": export_trees(m.booster_)}
        return m.predict, spec

    def held_out_top1(make: Any) -> dict[str, float]:
        score = np.zeros(len(rows))
        fold = np.array([sum(map(ord, r["item"])) % 5 for r in rows])
        for k in range(5):
            te = (src == "scifact") & (fold == k)
            score[te] = make(~te)[0](x[te])
        for s in sorted(set(src) - {"scifact"}):
            te = src == s
            score[te] = make(~te)[0](x[te])
        hits: dict[str, list[int]] = defaultdict(list)
        for g in range(len(group_of)):
            idx = np.where(gid == g)[0]
            best = idx[np.argmax(score[idx])]
            hits["scifact" if src[idx[0]] == "scifact" else "factoid"].append(int(y[best]))
        return {k: round(float(np.mean(v)), 4) for k, v in hits.items()}

    everything = np.ones(len(rows), bool)
    scores = {name: held_out_top1(make) for name, make in (("linear", linear), ("lambdarank", ranker))}
    best_default = max(scores, key=lambda n: scores[n]["scifact"])
    best_factoid = max(scores, key=lambda n: scores[n]["factoid"])
    makers = {"linear": linear, "lambdarank": ranker}
    chosen = {"default": makers[best_default](everything)[1], "factoid": makers[best_factoid](everything)[1]}
    return chosen, {"held_out_top1": scores, "default": best_default, "factoid": best_factoid}
