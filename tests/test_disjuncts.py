"""A question joining single-word alternatives with "or" is asked once per alternative as well
(relevance.disjuncts, Gatherer.scored): a paper on one of them is what the question asks for."""

from __future__ import annotations

import pytest

from paperscope.relevance.disjuncts import disjuncts
from paperscope.relevance.question import analyze


def _flat_idf(stems: set[str]) -> dict[str, float]:
    return {s: 1.0 for s in stems}


@pytest.mark.parametrize("question, wordings", [
    ("Which papers deal with symmetry or equivariance in neural networks?",
     ["Which papers deal with symmetry in neural networks?", "Which papers deal with equivariance in neural networks?"]),
    ("Are there papers on legged, quadruped, biped or humanoid robots?",
     ["Are there papers on legged robots?", "Are there papers on quadruped robots?", "Are there papers on biped robots?",
      "Are there papers on humanoid robots?"]),
    ("Is there work on pruning or quantization of LLMs?",
     ["Is there work on pruning of LLMs?", "Is there work on quantization of LLMs?"]),
    ("Which papers tackle the memory footprint of models during training or inference?",
     ["Which papers tackle the memory footprint of models during training?",
      "Which papers tackle the memory footprint of models during inference?"]),
])
def test_each_single_word_alternative_is_its_own_wording(question, wordings):
    found = disjuncts(analyze(question, _flat_idf))
    assert [w for w, _ in found] == wordings
    assert all(analyze(w, _flat_idf).groups for w, _ in found)
    q = analyze(question, _flat_idf)
    assert {s for _, s in found} in [set(g) for g, _ in q.groups]  # each wording's stem: one of the alternatives


@pytest.mark.parametrize("question", [
    "Are there papers about dialogue systems or chatbots?",  # phrases joined: one word each would split them
    "Is anyone still working on decision trees or boosting?",
    "Which papers study robots without cameras or lidar?",  # negated: both are excluded
    "Which papers study large language models?",  # no "or"
    "Which papers study text-to-SQL or semantic parsing?",  # part of a hyphenated compound
])
def test_no_wordings_where_one_word_is_not_one_alternative(question):
    assert disjuncts(analyze(question, _flat_idf)) == []


def test_a_paper_on_one_alternative_is_cited(seeded):
    """Over the seeds, TAPE ("Contextualized Equivariant Positional Encoding") is the paper on
    equivariance; read whole, the question's "symmetry" took it below the cite threshold and it
    abstained, naming TAPE as a weaker match."""
    answer = seeded.ask("Which papers deal with symmetry or equivariance in neural networks?")
    assert not answer.abstained
    assert any("Equivariant" in c.title for c in answer.citations)
    alone = seeded.ask("Which papers deal with equivariance in neural networks?")
    assert {c.paper_id for c in alone.citations} <= {c.paper_id for c in answer.citations}


def test_a_wording_speaks_only_for_papers_using_its_alternative(seeded):
    """An alternative's wording lifts only the papers that use that word: asked "... symmetry in
    neural networks?", no seed paper uses "symmetry", so nothing it scores may reach the merged
    answer above what the whole question gave it, while the wording alone scores papers."""
    snapshot = seeded.catalog.snapshot()
    whole = seeded.gather.scored("Which papers deal with symmetry or equivariance in neural networks?", snapshot)
    c = seeded.gather.candidates("Which papers deal with symmetry in neural networks?", snapshot)
    alone = seeded.relevance.score(c.question, c.vectors, c.hits, snapshot, c.chunk_vectors)
    assert alone.evidence and not seeded.relevance.holding(alone, "symmetri", snapshot).evidence
    kept = seeded.relevance.holding(alone, "equivari", snapshot).evidence
    assert kept and all("quivari" in ev.paper.abstract + ev.paper.title for ev in kept)
    assert any(ev.paper.title.startswith("Rethinking Addressing") for ev in whole.evidence[:1])
