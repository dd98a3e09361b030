"""Which sentence of a cited paper to quote: the one that answers the question.

Each sentence is described by (`SENTENCE_FEATURES`): its cosine to the question (and its gap
and rank among the paper's sentences), how much of the question it covers, and how much of the
question's *focus* (question words rare within this abstract: in "How much of the training
time do tensor-product layers take?" about FlashTP, "training time" is rare in the abstract and
"tensor-product" is everywhere), its position, whether it carries a number or a name the
question does not (and whether the question asks for a quantity), its length, and whether its
words lean to the results part of abstracts (`lexicon.position_tendency`). For factoid questions
the number/name/focus terms get their own weights. Research verbs count here ("What hardware was
it demonstrated on?": "demonstrated" finds the answer), unlike in relevance, where they are
scaffolding (`question.analyze(..., scaffolding=False)`). A logistic ranker over these was fitted
on SciFact rationale sentences (findings, not background) and on the sentences holding factoid
answers (`paperscope.bench.relevance_train`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from paperscope.relevance.features import concepts_of, stems
from paperscope.relevance.lexicon import position_tendency
from paperscope.relevance.model import QuoteRanker
from paperscope.relevance.question import Question

SENTENCE_FEATURES = ("s_cos", "s_cos_gap", "s_cos_rank", "s_cov", "s_focus", "s_pos", "s_first", "s_last", "s_num",
                     "s_len", "s_tend", "s_caps", "s_fact_num", "s_fact_focus", "s_fact_caps", "s_asks_num")
# Questions whose answer is a quantity: the sentence holding it has a number the question lacks.
_ASKS_NUMBER = re.compile(r"\b(how (many|much|large|big|long|fast|often|small|far)|by how much|what (percentage|fraction|"
                          r"proportion|share|ratio)|to what (extent|level)|多少|几)", re.I)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_NAME = re.compile(r"\b[A-Z][A-Za-z0-9]*(?:[-][A-Za-z0-9]+)*\b")


def sentence_features(q: Question, qvec: npt.NDArray[np.float32], sentences: Sequence[str],
                      vectors: npt.NDArray[np.float32], rows: Sequence[int] | None = None) -> npt.NDArray[np.float64]:
    """(len(rows), len(SENTENCE_FEATURES)) for one paper: the features of the sentences `rows`
    (default all), whose vectors `vectors` holds in that order; positions and how specific each
    question word is to a sentence are read over all of the paper's sentences."""
    n = len(sentences)
    rows = range(n) if rows is None else rows
    cos = vectors[:len(rows)] @ qvec if len(rows) else np.zeros(0, np.float32)
    order = np.argsort(-cos)
    rank = np.empty(len(rows), np.int64)
    rank[order] = np.arange(len(rows))
    sets = [concepts_of(stems(s)) for s in sentences]
    members = [concepts_of(g) for g, _ in q.groups]  # each group's concepts, once per question
    spec: dict[frozenset[str], float] = {}
    for (g, _), concepts in zip(q.groups, members):
        in_paper = sum(1 for ss in sets if ss & concepts)
        spec[g] = math.log((n + 1) / (in_paper + 0.5))
    z = sum(w * spec[g] for g, w in q.groups) or 1.0
    tend = position_tendency()
    q_numbers = set(_NUMBER.findall(q.text))
    q_words = {w.lower() for w in re.findall(r"[A-Za-z0-9-]+", q.text)}
    factoid = 1.0 if q.kind == "factoid" else 0.0
    asks_number = 1.0 if _ASKS_NUMBER.search(q.text) else 0.0
    out = []
    for j, i in enumerate(rows):
        sent, ss = sentences[i], sets[i]
        hit = [bool(ss & concepts) for concepts in members]
        cov = sum(w for (g, w), h in zip(q.groups, hit) if h)
        focus = sum(w * spec[g] for (g, w), h in zip(q.groups, hit) if h) / z
        number = 1.0 if set(_NUMBER.findall(sent)) - q_numbers else 0.0
        names = [m.group(0) for m in _NAME.finditer(sent) if m.start() > 0 and m.group(0).lower() not in q_words]
        caps = math.log1p(len(names))
        lean = [tend.get(s, 0.0) for s in stems(sent)]
        out.append([
            float(cos[j]), float(cos[j] - cos.max()), float(min(rank[j], 5)), cov, focus, i / max(n - 1, 1),
            float(i == 0), float(i == n - 1), number, math.log1p(len(sent.split())),
            float(np.mean(lean)) if lean else 0.0, caps, factoid * number, factoid * focus, factoid * caps,
            asks_number * number,
        ])
    return np.array(out, dtype=np.float64).reshape(len(rows), len(SENTENCE_FEATURES))


def ranked(sentences: Sequence[str], scores: npt.NDArray[np.float64],
           rows: Sequence[int] | None = None) -> list[tuple[str, float]]:
    """The paper's sentences, best quote first, with their scores; sentences outside `rows` (not
    scored) follow in abstract order, below every scored one."""
    rows = range(len(sentences)) if rows is None else rows
    order = np.argsort(-scores, kind="stable")
    out = [(sentences[rows[i]], round(float(scores[i]), 4)) for i in order]
    floor = round(float(scores.min()) - 1.0, 4) if len(scores) else 0.0
    picked = set(rows)
    return out + [(s, floor) for i, s in enumerate(sentences) if i not in picked]


def rank_sentences(ranker: QuoteRanker, q: Question, qvec: npt.NDArray[np.float32], sentences: Sequence[str],
                   vectors: npt.NDArray[np.float32], rows: Sequence[int] | None = None) -> list[tuple[str, float]]:
    """The paper's sentences, best quote first, with their scores (see `ranked`)."""
    if not sentences:
        return []
    check(ranker)
    return ranked(sentences, ranker.score(sentence_features(q, qvec, sentences, vectors, rows)), rows)


def check(ranker: QuoteRanker) -> None:
    if ranker.features != SENTENCE_FEATURES:
        raise ValueError("the quote ranker was trained on other sentence features; retrain the relevance model")
