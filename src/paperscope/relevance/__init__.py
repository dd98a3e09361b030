"""Relevance: how well each candidate paper supports a question, and what that decides.

The Assistant talks to this package through `Relevance` only:
- `Relevance.score(question, query_vector, papers, corpus)` -> evidence, best support first
  (today: `scoring.score_evidence`, cosine of the best sentence plus IDF coverage);
- `Relevance.decide(evidence, ...)` -> what to cite, or abstain (`decision.decide`).
A learned relevance model replaces those two methods and nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from paperscope.index.embed import Embedder
from paperscope.records import Evidence, Paper
from paperscope.relevance.decision import Decision, decide
from paperscope.relevance.scoring import DEFAULT_MIN_SUPPORT, score_evidence
from paperscope.relevance.sentences import SentenceCache
from paperscope.settings import AnswerSettings
from paperscope.text.acronyms import Acronyms

__all__ = ["CorpusStats", "Decision", "Relevance"]


class CorpusStats(Protocol):
    """Statistics of the library a question is answered from (a `Bm25Snapshot` is one)."""

    @property
    def acronyms(self) -> Acronyms: ...

    def idf(self, concepts: set[str]) -> dict[str, float]: ...


class Relevance:
    def __init__(self, embedder: Embedder, settings: AnswerSettings) -> None:
        self.embedder_name = embedder.name
        self.settings = settings
        self.sentences = SentenceCache(embedder)

    def threshold(self) -> float:
        """Support below which the assistant abstains (calibrated per embedder unless set)."""
        if self.settings.min_support is not None:
            return self.settings.min_support
        return DEFAULT_MIN_SUPPORT.get(self.embedder_name, 1.0)

    def score(self, question: str, query_vector: npt.NDArray[np.float32], papers: Sequence[Paper],
              corpus: CorpusStats) -> list[Evidence]:
        """Evidence for each paper, best support first, markers 1..n in that order."""
        evidence = score_evidence(question, query_vector, papers, self.sentences, corpus.idf, corpus.acronyms)
        evidence.sort(key=lambda ev: -ev.support)
        for marker, ev in enumerate(evidence, 1):
            ev.marker = marker
        return evidence

    def decide(self, evidence: list[Evidence], max_citations: int | None = None, follow_up: bool = False) -> Decision:
        return decide(evidence, self.threshold(), self.settings.relative_cutoff,
                      max_citations or self.settings.max_citations, follow_up=follow_up)
