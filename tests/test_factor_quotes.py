"""A factoid asking for a speedup or another factor ("What speedup does X report?", "How much
faster is it?") quotes the sentence stating a factor ("decode latency by up to 1.65x", "3.2 times
faster", "$\\times$"); the quote rankers quoted Attention-Level Speculation's "... approximate up to
90% of self-attention", a number but not the answer (`relevance.quotes.factors_first`)."""

from __future__ import annotations

import numpy as np
import pytest

from paperscope.relevance.question import analyze
from paperscope.relevance.quotes import factors_first


def _flat_idf(stems: set[str]) -> dict[str, float]:
    return {s: 1.0 for s in stems}


SENTENCES = [
    "We propose TinyServe, a paged KV cache for phones.",
    "TinyServe serves 90% of requests from the cache.",  # a number, not a factor: the rankers' pick
    "It decodes up to 2.4x faster than vLLM.",  # the factor
    "Kernels run 41.6$\\times$ faster than the baseline.",  # LaTeX times
]
SCORES = np.array([1.0, 5.0, 2.0, 0.5])


@pytest.mark.parametrize("question", ["What speedup does TinyServe report?", "How much faster is TinyServe?",
                                      "What is the speed-up of TinyServe over vLLM?"])
def test_a_sentence_stating_a_factor_comes_first(question):
    q = analyze(question, _flat_idf)
    assert q.kind == "factoid"
    out = factors_first(q, SENTENCES, range(len(SENTENCES)), SCORES)
    order = list(np.argsort(-out, kind="stable"))
    assert order[:2] == [2, 3]  # both factor sentences, in the rankers' order
    assert order[2:] == [1, 0]


@pytest.mark.parametrize("question", ["How many requests does TinyServe serve from the cache?",  # a count
                                      "Which papers report speedups for LLM serving?"])  # a list, not a factoid
def test_other_questions_keep_the_rankers_order(question):
    q = analyze(question, _flat_idf)
    assert list(factors_first(q, SENTENCES, range(len(SENTENCES)), SCORES)) == list(SCORES)


def test_without_a_factor_the_rankers_order_stays():
    q = analyze("What speedup does TinyServe report?", _flat_idf)
    plain = SENTENCES[:2]
    assert list(factors_first(q, plain, range(2), SCORES[:2])) == list(SCORES[:2])


def test_a_size_is_no_factor():
    q = analyze("What speedup does TinyServe report?", _flat_idf)
    sizes = ["It stacks 3×3 convolutions on a 2x2 grid.", "It decodes 2.4x faster than vLLM."]
    out = factors_first(q, sizes, range(2), np.array([5.0, 1.0]))
    assert list(np.argsort(-out, kind="stable")) == [1, 0]


def test_over_the_seeds_the_speedup_question_quotes_the_factor(seeded):
    answer = seeded.ask("What speedup does Attention-Level Speculation report?")
    assert answer.citations and answer.citations[0].title.startswith("Attention-Level Speculation")
    assert "1.65x" in answer.citations[0].quote
