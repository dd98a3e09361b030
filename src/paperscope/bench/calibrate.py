"""`paperscope calibrate`: measure the abstention threshold on data instead of choosing it.

From a corpus of real abstracts with author keywords (the shared conference corpus), build a
mixed "conference" of N indexed papers and two question sets:
- answerable: "Which papers address <kw>?" where <kw> is an author keyword of an indexed
  paper (the authors say the paper is about it; the phrase need not appear in the text, as
  with real paraphrased questions);
- unanswerable: "Are there papers about <kw>?" where <kw> is a keyword of a paper that is
  *not* indexed and at least one of its concepts occurs in no indexed paper at all (the
  topic is absent from the corpus, as "recommender systems" is from the seeds). Keywords
  whose concepts all occur somewhere are left out: whether such a near miss is "covered" is
  a judgement the data cannot make.
Each question's best evidence support is recorded; the reported threshold maximises balanced
accuracy (answer the first set, abstain on the second). The shipped default
(`relevance.scoring.DEFAULT_MIN_SUPPORT`) is this command's result for the shipped embedder.
Leaves out: any use of the dev set (it stays a held-out check).
"""

from __future__ import annotations

import gzip
import json
import random
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from paperscope.index.embed import Embedder
from paperscope.settings import Settings
from paperscope.text.analyzer import concepts

GENERIC = {"deep learning", "machine learning", "neural networks", "neural network", "reinforcement learning",
           "computer vision", "optimization", "large language models", "llm", "llms", "transformers",
           "representation learning", "robotics", "benchmark", "evaluation", "theory", "generalization"}


def _records(corpus: Path, limit: int | None = None) -> Iterator[dict[str, Any]]:
    opener = gzip.open if corpus.name.endswith(".gz") else open
    with opener(corpus, "rt", encoding="utf-8") as fh:
        for i, line in enumerate(fh):
            if limit and i >= limit:
                return
            rec = json.loads(line)
            if rec.get("abstract") and rec.get("keywords"):
                yield rec


def build_sets(corpus: Path, n_papers: int, n_questions: int,
               seed: int = 13) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    rng = random.Random(seed)
    pool = list(_records(corpus))
    rng.shuffle(pool)
    indexed, rest = pool[:n_papers], pool[n_papers:]
    texts = [concepts(f"{r['title']} {r['abstract']}") for r in indexed]
    lowered = [f"{r['title']} {r['abstract']}".lower() for r in indexed]

    def usable(kw: str) -> bool:
        # Author keywords only: some venues list session labels ("Planning and Scheduling:
        # PS: ...") whose acronyms would make an answerable topic look absent.
        k = kw.strip().lower()
        return (4 <= len(k) <= 40 and ":" not in k and len(k.split()) <= 4 and k not in GENERIC
                and len(concepts(k)) >= 1)

    positives = []
    for r in indexed:
        kws = [k for k in r["keywords"] if usable(k)]
        if kws:
            kw = rng.choice(kws)
            gold = [r["id"]] + [x["id"] for x, lo in zip(indexed, lowered) if kw.lower() in lo and x is not r]
            positives.append({"question": f"Which papers address {kw}?", "gold": gold})
        if len(positives) >= n_questions:
            break
    negatives = []
    for r in rest:
        kws = [k for k in r["keywords"] if usable(k)]
        if not kws:
            continue
        kw = rng.choice(kws)
        need = concepts(kw)
        if not need or all(any(c in t for t in texts) for c in need):
            continue  # every concept occurs in the corpus: a near miss, not clearly unanswerable
        negatives.append({"question": f"Are there papers about {kw}?", "gold": []})
        if len(negatives) >= n_questions:
            break
    return indexed, positives, negatives


def best_threshold(pos: list[float], neg: list[float]) -> tuple[float, float]:
    """(threshold, balanced accuracy) maximising balanced accuracy; midpoint of the best run."""
    cands = sorted(set(pos + neg))
    best = (0.0, -1.0)
    for i, t in enumerate(cands):
        acc = 0.5 * (sum(p >= t for p in pos) / len(pos) + sum(n < t for n in neg) / len(neg))
        if acc > best[1] + 1e-9:
            nxt = cands[i - 1] if i else t
            best = ((t + nxt) / 2, acc)
    return round(best[0], 3), round(best[1], 4)


def calibrate(corpus: Path, n_papers: int = 1000, n_questions: int = 200, settings: Settings | None = None,
              embedder: Embedder | None = None) -> dict[str, Any]:
    from paperscope.assistant import Assistant

    indexed, positives, negatives = build_sets(corpus, n_papers, n_questions)
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        src = Path(tmp) / "papers.jsonl"
        src.write_text("\n".join(json.dumps(r) for r in indexed), encoding="utf-8")
        a = Assistant.open(data, settings=settings or Settings(), embedder=embedder)
        a.ingest([src])
        a.refresh()

        def support(q: str) -> float:
            ev = a.evidence(q)
            return ev[0].support if ev else 0.0

        pos = [support(q["question"]) for q in positives]
        neg = [support(q["question"]) for q in negatives]
    threshold, accuracy = best_threshold(pos, neg)
    table = []
    for t in sorted({round(threshold + d / 20, 2) for d in range(-10, 5)}):
        table.append({"threshold": t,
                      "answer_rate_on_answerable": round(sum(p >= t for p in pos) / len(pos), 4),
                      "abstain_rate_on_unanswerable": round(sum(n < t for n in neg) / len(neg), 4)})
    return {"embedder": a.embedder.name, "papers": len(indexed), "answerable": len(pos), "unanswerable": len(neg),
            "threshold": threshold, "balanced_accuracy": accuracy, "table": table}
