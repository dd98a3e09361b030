"""Papers like a given one: "Find papers similar to X", "Any similar papers?" after an answer
(`relevance.similar`, `Gatherer.similar`): the nearest abstracts, never the paper itself."""

from __future__ import annotations

import json

import pytest

from paperscope.relevance.similar import asks_other_on, asks_others, asks_similar, named, refers_back

MOE = [
    ("ExpertFlow: Low-latency Mixture-of-Experts Inference with Predictive Expert Prefetching",
     "Mixture-of-Experts (MoE) language models activate few experts per token, but serving them is slow because "
     "expert weights must be moved between host and GPU memory. We present ExpertFlow, which predicts the experts "
     "the next tokens will route to and prefetches their weights, cutting MoE inference latency by 2.1x."),
    ("RouteLite: Reducing Mixture-of-Experts Inference Latency by Caching Expert Routing Decisions",
     "Serving Mixture-of-Experts (MoE) large language models suffers from high latency when expert weights are "
     "offloaded from GPU memory. RouteLite caches routing decisions of consecutive tokens so that the experts they "
     "need stay on the GPU, lowering MoE decoding latency by 1.8x on consumer hardware."),
    ("GateCache: Expert Offloading for Fast Mixture-of-Experts Decoding on a Single GPU",
     "Mixture-of-Experts (MoE) models are too large for one GPU, so experts are offloaded to CPU memory and loaded "
     "on demand, which dominates decoding latency. GateCache schedules expert loading from the gate's predictions "
     "and keeps popular experts resident, making MoE inference 2.4x faster."),
]


def test_what_asks_for_similar_papers():
    assert asks_similar("Find papers similar to SLiM.") and asks_similar("Papers like NestQuant?")
    assert asks_similar("Are there other papers on this topic?") and asks_similar("Any similar papers?")
    assert asks_similar("Which other papers address the same problem?")
    assert not asks_similar("Which papers address MoE latency?") and not asks_similar("What does SLiM do?")
    assert not asks_similar("Is NestQuant's error similar to SLiM's?")  # a detail of two papers
    assert not asks_similar("Which existing upper bound are the new lower bounds close to?")
    # In Chinese: 和 X 类似 (like X), 还有类似的论文吗 (any similar ones?), 同一主题 (the same topic).
    assert asks_similar("有没有和SLiM类似的论文？") and not refers_back("有没有和SLiM类似的论文？")
    assert refers_back("还有类似的论文吗？") and refers_back("同一主题的其他论文有哪些？")
    assert not asks_similar("有没有其他研究量化的论文？") and not asks_similar("和基线相比提升了多少？")
    assert refers_back("Any similar papers?") and refers_back("Are there other papers like it?")
    assert refers_back("Are there other papers on this topic?")
    assert not refers_back("Which papers are related to quantization?")  # a topic of its own
    titles = {"a": "SLiM: One-shot Quantization and Sparsity", "b": "Slimmer Models for Edge Devices"}
    assert named("Find papers similar to SLiM.", titles) == ["a"]  # the name before the colon, as a word
    assert named("有没有和SLiM类似的论文？", titles) == ["a"]  # between Chinese characters too
    assert named("Which papers are related to quantization?", titles) == []
    assert named("Papers related to TCAV?", {"c": "Quantitative Testing with Concept Activation Vectors (TCAV)"}) == ["c"]


def test_similar_papers_never_cite_the_paper_itself(seeded):
    plan = seeded.plan("Find papers similar to SLiM.")
    assert all("SLiM" not in ev.paper.display_title for ev in plan.evidence)
    assert any("NestQuant" in ev.paper.display_title for ev in plan.evidence[:3])  # the other LLM quantizer
    assert any("papers like" in n for n in plan.notes)
    # A topic stays a topic: the quantization papers, not papers like one of them.
    topical = seeded.ask("Which papers are related to quantization?")
    assert {c.title.split(":")[0] for c in topical.citations} == {"SLiM", "NestQuant"}


def test_similar_papers_cite_the_nearest_abstracts(seeded, tmp_path):
    extra = tmp_path / "moe.jsonl"
    extra.write_text("".join(json.dumps({"title": t, "authors": ["A. Author"], "abstract": a, "venue": "TEST",
                                         "year": 2025, "url": f"https://example.org/{i}"}) + "\n"
                             for i, (t, a) in enumerate(MOE)), encoding="utf-8")
    seeded.ingest([extra])
    ans = seeded.ask("Find papers similar to ExpertFlow.")
    cited = [c.title.split(":")[0] for c in ans.citations]
    assert not ans.abstained and {"RouteLite", "GateCache"} <= set(cited), ans.text
    assert "ExpertFlow" not in cited
    zh = [c.title.split(":")[0] for c in seeded.ask("有没有和ExpertFlow类似的论文？").citations]
    assert {"RouteLite", "GateCache"} <= set(zh) and "ExpertFlow" not in zh
    # After an answer, "Any similar papers?" is like that answer's paper, which is not cited again.
    q = "Which paper prefetches experts to cut MoE inference latency?"
    first = seeded.ask(q)
    assert first.citations[0].title.startswith("ExpertFlow"), first.text
    more = seeded.ask("Any similar papers?", history=[(q, first)])
    again = [c.title.split(":")[0] for c in more.citations]
    assert "ExpertFlow" not in again and {"RouteLite", "GateCache"} <= set(again), more.text


@pytest.mark.parametrize("question, others", [
    ("Any others?", True), ("Are there any more papers?", True), ("Anything else?", True), ("More papers?", True),
    ("And any others?", True), ("What else?", True), ("还有其他的吗？", True), ("其他的呢？", True),
    ("Tell me more.", False), ("Show me more.", False), ("More details?", False),  # about the same papers
    ("Any other papers on diffusion models?", False),  # a question of its own
    ("Any more papers like these?", False),  # papers like the previous ones (`asks_similar`)
])
def test_what_asks_for_more_papers_on_the_previous_question(question, others):
    assert asks_others(question) is others


def test_any_others_lists_the_papers_on_the_previous_question_it_did_not_show(detectors):
    question = "Which papers do real-time object detection?"
    first = detectors.ask(question, max_citations=4)
    assert len(first.citations) == 4
    more = detectors.ask("Any others?", history=[(question, first)], max_citations=4)
    assert not more.abstained and more.citations  # before: no words of its own, so it abstained
    shown = {c.paper_id for c in first.citations}
    assert not shown & {c.paper_id for c in more.citations}
    assert all("detect" in c.title.lower() for c in more.citations)  # on the same topic, not the COLT papers


def test_any_others_when_the_answer_showed_every_paper_says_so(seeded):
    question = "Which papers study federated learning?"
    first = seeded.ask(question)
    assert first.citations
    more = seeded.ask("Any others?", history=[(question, first)])
    assert more.abstained and more.text.startswith("No other paper in the library addresses this")
    assert not {c.paper_id for c in first.citations} & {p.paper_id for p in more.nearest}


@pytest.mark.parametrize("question, other_on", [
    ("Is there any other paper on tree-structured representations?", True), ("Which other papers use sparsity?", True),
    ("Any other approaches to MoE routing?", True), ("Are there more papers about quantization?", True),
    ("Anything else on diffusion?", True), ("还有其他关于量化的论文吗？", True), ("有没有其他研究量化的论文？", True),
    ("Any others?", False),  # the previous question again (`asks_others`)
    ("Are there other papers on this topic?", False), ("Any other papers like it?", False),  # like the previous papers
    ("Which papers use other datasets?", False), ("How does it compare to other methods?", False),
    ("Which papers study quantization?", False),
    ("How does LoRA compare with other methods for PEFT?", False),  # a comparison, not a request for papers
    ("Is it better than other methods that use distillation?", False), ("Any other papers on it?", False),
])
def test_what_asks_for_other_papers_on_a_topic_of_its_own(question, other_on):
    assert asks_other_on(question) is other_on


def test_other_papers_on_a_topic_leave_out_the_papers_already_shown(seeded):
    question = "Which papers work on quantization?"
    first = seeded.ask(question)
    shown = {c.paper_id for c in first.citations}
    assert any("SLiM" in c.title for c in first.citations)
    more = seeded.ask("Which other papers use sparsity?", history=[(question, first)])
    assert not more.abstained and not shown & {c.paper_id for c in more.citations}  # before: SLiM again
    assert any("FlashTP" in c.title for c in more.citations)  # "Sparsity-Aware", not shown before


def test_other_papers_on_a_topic_only_the_shown_one_covers_says_so(seeded):
    question = "Tell me about Banyan."
    first = seeded.ask(question)
    assert [c.title.split(":")[0] for c in first.citations] == ["Banyan"]
    more = seeded.ask("Is there any other paper on tree-structured representations?", history=[(question, first)])
    assert more.abstained and more.text.startswith("No other paper in the library addresses this")  # before: Banyan
    # A topic the shown paper does not address either is answered as any question: what no paper covers.
    off = seeded.ask("Any other papers on quantum computing?", history=[(question, first)])
    assert off.abstained and "none covers" in off.text and not off.text.startswith("No other paper")
