"""Evidence scoring: how well each candidate paper supports a question.

support(paper) = semantic + lexical, where
- semantic = best cosine similarity between the question and any sentence of the abstract
  (or the title), with the shipped MiniLM;
- lexical = the share of the question's IDF mass (concepts, see text.concept) that the paper
  contains anywhere in title, keywords or abstract. Rare concepts ("MoE", "Langevin") weigh
  more than common ones ("model"); a paper that matches only half of a two-part question
  ("MoE" *and* "latency") loses half of this term.
A sentence is ranked for quoting by its cosine plus its own IDF coverage.

Support decides which sentence is quoted, which papers are cited (relative to the best,
`AnswerSettings.relative_cutoff`) and abstention (absolute, `DEFAULT_MIN_SUPPORT`). That
threshold was calibrated on data by `paperscope calibrate` (README: "Abstention"), not by hand.
Leaves out: cross-encoder reranking (no such model ships on PyPI).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

import numpy as np

from paperscope.answer.types import Evidence
from paperscope.embed import Embedder
from paperscope.records import Paper
from paperscope.text import Acronyms, concept_groups, concepts, sentence_spans

LEXICAL_WEIGHT = 1.0
# Calibrated abstention thresholds per embedder (`paperscope calibrate`; see the README).
# `paperscope calibrate` (800 papers, 150 answerable / 119 unanswerable author-keyword
# questions): balanced accuracy peaks at 0.988 on a plateau 1.13-1.23; at 1.0 it answers 99.3%
# of answerable questions and abstains on ~94% of unanswerable ones. We take 1.0, below the
# plateau: keyword questions match their papers more literally than real paraphrased
# questions do, and a wrong abstention hides a real paper while a weak answer still shows
# its verified quote.
DEFAULT_MIN_SUPPORT = {"minilm-int8": 1.0, "minilm": 1.0, "fake": 1.0}


class SentenceCache:
    """LRU of per-paper sentence vectors; the same papers come back across questions."""

    def __init__(self, embedder: Embedder, size: int = 4096):
        self.embedder, self.size = embedder, size
        self._data: OrderedDict[str, tuple[list[str], np.ndarray]] = OrderedDict()
        self._lock = threading.Lock()
        self._inflight: dict[str, threading.Event] = {}

    def get(self, papers: Sequence[Paper]) -> list[tuple[list[str], np.ndarray]]:
        keys = [f"{p.paper_id}\x00{p.content_hash()}" for p in papers]
        mine: list[int] = []
        wait: list[threading.Event] = []
        with self._lock:
            for i, key in enumerate(keys):
                if key in self._data:
                    self._data.move_to_end(key)
                elif key in self._inflight:
                    wait.append(self._inflight[key])  # another thread is embedding it
                else:
                    self._inflight[key] = threading.Event()
                    mine.append(i)
        try:
            texts: list[str] = []
            parts: list[tuple[int, list[str], int]] = []
            for i in mine:
                p = papers[i]
                sents = [p.abstract[s:e] for s, e in sentence_spans(p.abstract)] or [p.abstract]
                parts.append((i, sents, len(texts)))
                texts += sents + [p.display_title]
            if getattr(self.embedder, "independent", False):
                # Each text's vector is computed alone: one call for all missing papers balances
                # the worker threads and saves a dispatch per paper (~1/3 of `ask` time).
                vecs_all = self.embedder.embed(texts) if texts else None
                chunks = [vecs_all[start:start + len(sents) + 1] for _, sents, start in parts]
            else:
                # One call per paper: a batch-quantised model's vector depends on its batch, and a
                # paper's vectors must not depend on which other papers happened to be missing
                # (answers must not depend on timing).
                # Lazy: each paper is published below as soon as its own call returns.
                chunks = (self.embedder.embed(texts[start:start + len(sents) + 1]) for _, sents, start in parts)
            for (i, sents, _), vecs in zip(parts, chunks):
                with self._lock:
                    self._data[keys[i]] = (sents, vecs)
                    self._inflight.pop(keys[i]).set()
        finally:
            with self._lock:
                for i in mine:
                    event = self._inflight.pop(keys[i], None)
                    if event:
                        event.set()
        for event in wait:
            event.wait()
        with self._lock:
            out = [self._data[k] for k in keys]
            while len(self._data) > self.size:
                self._data.popitem(last=False)
            return out


def idf_coverage(groups: list[tuple[set[str], float]], text_concepts: set[str]) -> float:
    """Share of the question's IDF mass found in a text (a group counts if any member does)."""
    total = sum(w for _, w in groups)
    if total <= 0:
        return 0.0
    return sum(w for g, w in groups if g & text_concepts) / total


def score_evidence(question: str, qvec: np.ndarray, papers: Sequence[Paper], cache: SentenceCache,
                   idf: Callable[[set[str]], dict[str, float]], acronyms: Acronyms | None = None) -> list[Evidence]:
    """Evidence for each paper (markers 1..n in the given order), sentences best first."""
    groups = concept_groups(question)
    idfs = idf(set().union(*groups)) if groups else {}
    # A group weighs the mean IDF of its alternatives.
    weights = [(g, sum(idfs[c] for c in g) / len(g)) for g in groups]
    expand = (acronyms or Acronyms()).expand
    out: list[Evidence] = []
    for marker, (paper, (sents, vecs)) in enumerate(zip(papers, cache.get(papers)), 1):
        cos = vecs @ qvec
        scored = [(s, float(cos[i]) + LEXICAL_WEIGHT * idf_coverage(weights, expand(concepts(s))))
                  for i, s in enumerate(sents)]
        scored.sort(key=lambda x: -x[1])
        semantic = float(cos.max())  # includes the title row
        lexical = idf_coverage(weights, expand(concepts(paper.index_text())))
        support = semantic + LEXICAL_WEIGHT * lexical
        out.append(Evidence(marker=marker, paper=paper, support=round(support, 4), sentences=scored))
    return out
