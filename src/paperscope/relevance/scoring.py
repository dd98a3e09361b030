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

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from paperscope.records import Evidence, Paper
from paperscope.relevance.sentences import SentenceCache
from paperscope.text.acronyms import Acronyms
from paperscope.text.analyzer import concept_groups, concepts

LEXICAL_WEIGHT = 1.0
# Calibrated abstention thresholds per embedder (`paperscope calibrate`; see the README).
# `paperscope calibrate` (800 papers, 150 answerable / 119 unanswerable author-keyword
# questions): balanced accuracy peaks at 0.988 on a plateau 1.13-1.23; at 1.0 it answers 99.3%
# of answerable questions and abstains on ~94% of unanswerable ones. We take 1.0, below the
# plateau: keyword questions match their papers more literally than real paraphrased
# questions do, and a wrong abstention hides a real paper while a weak answer still shows
# its verified quote.
DEFAULT_MIN_SUPPORT = {"minilm-int8": 1.0, "minilm": 1.0}


def idf_coverage(groups: list[tuple[set[str], float]], text_concepts: set[str]) -> float:
    """Share of the question's IDF mass found in a text (a group counts if any member does)."""
    total = sum(w for _, w in groups)
    if total <= 0:
        return 0.0
    return sum(w for g, w in groups if g & text_concepts) / total


def score_evidence(question: str, qvec: npt.NDArray[np.float32], papers: Sequence[Paper], cache: SentenceCache,
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
