"""Evidence scoring: how well each candidate paper's sentences support a question.

A sentence's score is its cosine similarity to the question (the shipped MiniLM) plus a
bonus for the share of the question's content terms it contains; a paper's support is its
best sentence's score (its title counts as a sentence for support, never as a quote).
Support decides three things: which sentence is quoted, which papers are cited (relative
to the best), and abstention (absolute). The absolute threshold is calibrated on data by
`paperscope calibrate` (see README); the default below is that measurement for the shipped
embedder, not a hand-picked value.
Leaves out: cross-encoder reranking (no such model ships on PyPI).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from paperscope.answer.types import Evidence
from paperscope.embed import Embedder
from paperscope.records import Paper
from paperscope.text import sentence_spans, terms

LEXICAL_WEIGHT = 0.25
# Calibrated abstention thresholds per embedder (see `paperscope calibrate` and the README).
DEFAULT_MIN_SUPPORT = {"minilm-int8": 0.45, "minilm": 0.45, "fake": 0.5}


class SentenceCache:
    """LRU of per-paper sentence vectors; the same papers come back across questions."""

    def __init__(self, embedder: Embedder, size: int = 4096):
        self.embedder, self.size = embedder, size
        self._data: OrderedDict[str, tuple[list[str], np.ndarray]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, papers: Sequence[Paper]) -> list[tuple[list[str], np.ndarray]]:
        keys = [f"{p.paper_id}\x00{p.content_hash()}" for p in papers]
        missing: list[int] = []
        with self._lock:
            for i, key in enumerate(keys):
                if key in self._data:
                    self._data.move_to_end(key)
                else:
                    missing.append(i)
        if missing:
            texts: list[str] = []
            spans: list[tuple[int, list[str]]] = []
            for i in missing:
                p = papers[i]
                sents = [p.abstract[s:e] for s, e in sentence_spans(p.abstract)] or [p.abstract]
                spans.append((len(texts), sents))
                texts.extend(sents + [p.display_title])
            vecs = self.embedder.embed(texts)
            with self._lock:
                for i, (start, sents) in zip(missing, spans):
                    self._data[keys[i]] = (sents, vecs[start:start + len(sents) + 1])
                while len(self._data) > self.size:
                    self._data.popitem(last=False)
        with self._lock:
            return [self._data[k] for k in keys]


def coverage(query_terms: set[str], text: str) -> float:
    if not query_terms:
        return 0.0
    return len(query_terms & set(terms(text))) / len(query_terms)


def score_evidence(question: str, qvec: np.ndarray, papers: Sequence[Paper], cache: SentenceCache) -> list[Evidence]:
    """Evidence for each paper (markers 1..n in the given order), sentences best first."""
    qterms = set(terms(question))
    out: list[Evidence] = []
    for marker, (paper, (sents, vecs)) in enumerate(zip(papers, cache.get(papers)), 1):
        cos = vecs @ qvec
        scored = [(s, float(cos[i]) + LEXICAL_WEIGHT * coverage(qterms, s)) for i, s in enumerate(sents)]
        title_score = float(cos[-1]) + LEXICAL_WEIGHT * coverage(qterms, paper.display_title)
        scored.sort(key=lambda x: -x[1])
        support = max(scored[0][1] if scored else 0.0, title_score)
        out.append(Evidence(marker=marker, paper=paper, support=round(support, 4), sentences=scored))
    return out
