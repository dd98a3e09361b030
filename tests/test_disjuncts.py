"""A question joining alternatives (words or phrases) with "or" is asked once per alternative as well
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
    assert {s for _, (s,) in found} in [set(g) for g, _ in q.groups]  # each wording's stem: one of the alternatives


@pytest.mark.parametrize("question, wordings", [
    ("Are there papers about dialogue systems or chatbots?",  # one word each would split "dialogue systems"
     [("Are there papers about dialogue systems?", ("dialogu", "system")), ("Are there papers about chatbots?", ("chatbot",))]),
    ("Is anyone still working on decision trees or boosting?",
     [("Is anyone still working on decision trees?", ("decis", "tree")), ("Is anyone still working on boosting?", ("boost",))]),
    ("Which papers study text-to-SQL or semantic parsing?",  # a hyphenated compound is one alternative
     [("Which papers study text-to-SQL?", ("text", "sql")), ("Which papers study semantic parsing?", ("semant", "pars"))]),
    ("Did anyone give a theory of contrastive or self-supervised representation learning?",  # "contrastive" shares the head
     [("Did anyone give a theory of contrastive learning?", ("contrast",)),
      ("Did anyone give a theory of self-supervised representation learning?", ("self", "supervis", "represent", "learn"))]),
    ("Which papers build on generative models such as GANs, VAEs or normalizing flows?",
     [("Which papers build on generative models such as GANs?", ("gan",)),
      ("Which papers build on generative models such as VAEs?", ("vae",)),
      ("Which papers build on generative models such as normalizing flows?", ("normal", "flow"))]),
])
def test_each_phrase_alternative_is_its_own_wording(question, wordings):
    """Phrases joined by "or" (the titles write each alternative's words together): each wording
    keeps one whole alternative, and its papers must use all of that alternative's words."""
    assert disjuncts(analyze(question, _flat_idf)) == wordings


@pytest.mark.parametrize("question", [
    "Which papers study robots without cameras or lidar?",  # negated: both are excluded
    "Which papers study large language models?",  # no "or"
    # An alternative that is not plainly whole: "router" before "collapse" and "load imbalance"
    # after "expert" are topic words the titles do not write with them.
    "Which papers study router collapse or expert load imbalance when pre-training mixture-of-experts models?",
    "Which papers do low-level systems work such as custom GPU kernels or running models on AI accelerators?",
])
def test_no_wordings_where_the_alternatives_are_not_plain(question):
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
    assert alone.evidence and not seeded.relevance.holding(alone, ("symmetri",), snapshot).evidence
    kept = seeded.relevance.holding(alone, ("equivari",), snapshot).evidence
    assert kept and all("quivari" in ev.paper.abstract + ev.paper.title for ev in kept)
    assert any(ev.paper.title.startswith("Rethinking Addressing") for ev in whole.evidence[:1])


def test_a_paper_on_one_phrase_alternative_is_cited(seeded):
    """Over the seeds, "Attention-Level Speculation" is the paper on speculative decoding and two
    papers are on mixture-of-experts routing; read whole, the question asked every paper for both
    phrases, and the speculation paper (no experts, no routing) was left out of the answer."""
    answer = seeded.ask("Which papers study speculative decoding or mixture-of-experts routing?")
    titles = [c.title for c in answer.citations]
    assert any(t.startswith("Attention-Level Speculation") for t in titles)
    assert any("Routing" in t for t in titles)


def test_an_alternatives_stems_are_the_analyzers():
    """A wording's papers must use its stems as the analyzer writes them: "GNNs" is "gnn" by its case
    (`fold`); lower-cased first it stayed "gnns", a stem no paper's concepts hold."""
    from paperscope.relevance.disjuncts import _stem
    from paperscope.text.analyzer import terms

    for word in ("GNNs", "LLMs", "VAEs", "Transformers", "SQL"):
        assert [_stem(word)] == terms(word), word
