"""A follow-up that picks among the previous answer's papers by a superlative ("Which one is the
fastest?", "Which of them reports the largest speedup?", "哪个最快？"): each paper's own figure,
quoted, in the order asked when the figures compare (`text.superlatives.most_of`, `answer.figures`); and
the same asked first, over the library ("Which paper reports the largest speedup for LLM
inference?", `text.superlatives.ranked`). Before, "largest" was read as a topic word and the answer
abstained ("none covers “largest”")."""

from __future__ import annotations

import re

import pytest

from paperscope.answer.figures import by_figure, figures
from paperscope.records import Evidence, Paper
from paperscope.text.asks import asks
from paperscope.text.superlatives import BEST_MATCH, YEAR, most_of, ranked


@pytest.mark.parametrize("question, word, measure, larger", [
    ("Which one reports the largest speedup?", "largest", "speedup", True),
    ("Which one is the fastest?", "fastest", "speed", True),
    ("Which of them is the most accurate?", "most", "accurate", True),
    ("Which paper has the lowest perplexity on WikiText?", "lowest", "perplexity", False),
    ("What is the best perplexity among them?", "best", "perplexity", False),  # best of a low-is-good measure
    ("Which one uses the fewest parameters?", "fewest", "parameters", False),
    ("哪个最快？", "fastest", "speed", True),
    ("其中哪篇的加速比最大？", "largest", "speedup", True),
    # Recency: by publication year (before, "most recent" was read as a measure, "recent").
    ("Which of them is the most recent?", "most", "year", True),
    ("Which one is the oldest?", "oldest", "year", False),
    ("哪篇最新？", "newest", "year", True),
])
def test_reads_a_superlative_pick(question, word, measure, larger):
    most = most_of(question)
    assert most is not None and most.word == word and most.larger is larger
    assert most.measure[0] == measure


@pytest.mark.parametrize("question", [
    "Which papers study the largest graphs?",  # a list question with a superlative in its topic
    "What are the most recent papers on event cameras?",  # recency (`text.asks.recency`)
    "What is the largest Hits@1 improvement reported by the reinforcement-learning framework that matches "
    "entities across knowledge graphs?",  # a question about a paper of its own
    "Which method achieves the highest accuracy for point cloud segmentation on ScanNet?",
    "那篇用共同立场（common ground）来定制疫苗回应的论文里，哪个大模型表现最好？",
    "Which papers address MoE latency?",
    "What is the best paper on diffusion models?",  # no measure: no pick by a figure (nor a follow-up)
])
def test_a_superlative_in_a_question_of_its_own_is_no_pick(question):
    assert most_of(question) is None


@pytest.mark.parametrize("sentence, measure, expected", [
    ("improving end-to-end decode latency by up to 1.65x, all without sacrificing quality", ("latency",), [(1.65, "x")]),
    ("it delivers 4.2$\\times$ and 3.5$\\times$ speedup while reducing peak memory usage by 9.6x",
     ("speedup",), [(4.2, "x"), (3.5, "x")]),  # the memory figure stands too far from "speedup"
    ("SLIM improves model accuracy by up to 5.66% (LLaMA-2-7B) for 2:4 sparsity with 4-bit weight quantization",
     ("accurate",), [(5.66, "%")]),  # not the model's size, the sparsity pattern or the bit width
    ("achieving perplexity of 6.6 on wikitext2", ("perplexity",), [(6.6, "")]),
    ("runs at 30 FPS with a latency of 12 ms", ("latency",), [(30.0, "fps"), (12.0, "ms")]),
    ("Fast YOLO processes an astounding 155 frames per second", ("faster",), [(155.0, "fps")]),
    ("The method generalizes to new tasks.", ("speedup",), []),
    ("which improves inference latency by $1.8\\times$ while maintaining accuracy", ("latency",), [(1.8, "x")]),  # TeX
    ("a Kinect mounted on a Pioneer 3 robot that was navigated through a cluttered room", ("throughput",), []),
    ("Optimal pose is achieved through \\mathrm{g}2\\mathrm{o} with 12 ms latency", ("latency",), [(12.0, "ms")]),
])
def test_reads_the_figures_next_to_the_measure(sentence, measure, expected):
    assert [(f.value, f.unit) for f in figures(sentence, measure)] == expected


def _paper(pid: str, abstract: str) -> Evidence:
    return Evidence(0, Paper(paper_id=pid, title=f"Paper {pid}", abstract=abstract), 0.9, [(abstract, 1.0)])


def test_orders_by_figure_when_the_figures_compare_and_copies_the_evidence():
    most = most_of("Which one reports the largest speedup?")
    assert most is not None
    slow = _paper("a", "We propose A. It achieves a 1.5x speedup over the baseline.")
    fast = _paper("b", "We propose B. B gives a 3.2x speedup on GPUs.")
    none = _paper("c", "We propose C, a new loss. It improves accuracy.")
    picked = by_figure([slow, fast, none], most)
    assert [ev.paper.paper_id for ev in picked.cited] == ["b", "a"] and picked.ordered
    assert [ev.paper.paper_id for ev in picked.without] == ["c"]
    assert picked.cited[0].best_sentence == "B gives a 3.2x speedup on GPUs."
    assert fast.sentences == [(fast.paper.abstract, 1.0)]  # the candidates' evidence is left as it was
    lowest = most_of("Which of them reports the smallest speedup?")
    assert lowest is not None
    assert [ev.paper.paper_id for ev in by_figure([slow, fast], lowest).cited] == ["a", "b"]


def test_figures_in_different_terms_are_not_ordered():
    most = most_of("Which one reports the largest speedup?")
    assert most is not None
    factor = _paper("a", "It achieves a 1.5x speedup.")
    share = _paper("b", "It achieves a 40% speedup.")
    picked = by_figure([factor, share], most)
    assert not picked.ordered and [ev.paper.paper_id for ev in picked.cited] == ["a", "b"]


def test_over_the_seeds_a_pick_by_figure_quotes_it_and_names_the_papers_without_one(seeded):
    first = seeded.ask("Which papers work on quantization or sparsity?")
    cited = {c.title.split(":")[0] for c in first.citations}
    assert {"SLiM", "NestQuant"} <= cited
    ans = seeded.ask("Which of them is the most accurate?", history=[("Which papers work on quantization or sparsity?",
                                                                       first)])
    assert not ans.abstained
    assert [c.title.split(":")[0] for c in ans.citations] == ["SLiM"]
    assert "5.66%" in ans.citations[0].quote
    assert "No figure for \u201caccurate\u201d in: NestQuant" in ans.text


def test_over_the_seeds_a_pick_without_figures_says_so(seeded):
    first = seeded.ask("Which papers address MoE latency?")
    assert first.citations
    ans = seeded.ask("Which one reports the largest speedup?", history=[("Which papers address MoE latency?", first)])
    assert ans.abstained
    assert "reports a figure for \u201cspeedup\u201d" in ans.text  # not "none covers “largest”"
    assert first.citations[0].title in ans.text


def test_the_fastest_is_read_from_each_papers_own_figure(detectors):
    question = "Which papers do real-time object detection?"
    first = detectors.ask(question)
    assert len(first.citations) >= 3
    ans = detectors.ask("Which one is the fastest?", history=[(question, first)])
    assert not ans.abstained and ans.citations
    assert {c.paper_id for c in ans.citations} <= {c.paper_id for c in first.citations}  # among the previous papers
    for c in ans.citations:
        assert figures(c.quote, ("speed", "faster", "speedup"), ("fps",))  # each quote holds its figure
    if len(ans.citations) > 1 and "Ordered by the figure" in ans.text:
        fps = [max(f.value for f in figures(c.quote, ("speed",), ("fps",)) if f.unit == "fps")
               for c in ans.citations]
        assert fps == sorted(fps, reverse=True)
        assert "no head-to-head comparison" in ans.text
    assert not re.search(r"none covers", ans.text)


def test_the_most_recent_of_them_is_read_from_their_years(detectors):
    question = "Which papers do real-time object detection?"
    first = detectors.ask(question)
    assert len(first.citations) >= 3
    for pick, newest in (("Which of them is the most recent?", True), ("Which one is the oldest?", False)):
        ans = detectors.ask(pick, history=[(question, first)])
        assert not ans.abstained and {c.paper_id for c in ans.citations} <= {c.paper_id for c in first.citations}
        years = [c.year for c in ans.citations]
        assert years == sorted(years, reverse=newest) and len(set(years)) > 1
        assert f"Ordered by publication year, {'newest' if newest else 'oldest'} first." in ans.text


@pytest.mark.parametrize("question, topic, measure, larger", [
    ("Which paper reports the largest speedup for LLM inference?", "LLM inference", "speedup", True),
    ("Which LLM inference paper reports the largest speedup?", "LLM inference", "speedup", True),
    ("What is the fastest method for sparse model inference?", "sparse model inference", "speed", True),
    ("Which is the fastest real-time object detector?", "real-time object detector", "speed", True),  # a topic, no measure
    ("Which pruning method gives the lowest perplexity on LLaMA?", "pruning on LLaMA", "perplexity", False),
    ("Which paper has the lowest memory footprint for KV cache compression?", "KV cache compression", "memory", False),
    ("Which method achieves the highest accuracy for point cloud segmentation on ScanNet?",
     "point cloud segmentation on ScanNet", "accuracy", True),
    ("Which paper proposes the fastest algorithm for submodular maximization?", "submodular maximization", "speed", True),
    ("Which paper on diffusion models is the most recent?", "diffusion models", "year", True),
    ("Which NeRF method renders the fastest?", "NeRF", "speed", True),  # the superlative ends the question
])
def test_reads_a_superlative_question_over_the_library(question, topic, measure, larger):
    got = ranked(question)
    assert got is not None and got.question == f"Which papers are about {topic}?"
    assert got.most.measure[0] == measure and got.most.larger is larger


@pytest.mark.parametrize("question, topic, label, larger", [
    ("哪篇论文在大语言模型推理上的加速比最大？", "大语言模型推理", "加速比", True),
    ("哪个目标检测模型最快？", "目标检测", "速度", True),
    ("在大模型推理方面，哪种方法最快？", "大模型推理", "速度", True),
    ("哪种剪枝方法的困惑度最低？", "剪枝", "困惑度", False),
])
def test_reads_a_chinese_superlative_question_over_the_library(question, topic, label, larger):
    got = ranked(question)
    assert got is not None and got.question == f"哪些论文研究{topic}？"
    assert got.most.label == label and got.most.larger is larger  # the remark names the measure as asked


@pytest.mark.parametrize("question", [
    "Which papers study the largest graphs?",  # plural: the superlative is part of the topic
    "Which papers train the largest models?",
    "Which paper studies the largest eigenvalue of random matrices?",  # not a verb that reports a figure
    "What is the best paper on diffusion models?",  # nothing to measure
    "What is the largest Hits@1 improvement reported by the reinforcement-learning framework that matches "
    "entities across knowledge graphs?",  # one given paper's figure: a factoid
    "Which one reports the largest speedup?",  # no topic: a pick among an answer's papers
    "What is the most recent paper on diffusion?",  # recency (`text.asks.recency`)
    "哪个最快？", "其中哪篇的加速比最大？",  # picks among an answer's papers
    "哪篇关于扩散模型的论文最新？",  # recency
])
def test_a_topical_superlative_is_no_question_over_the_library(question):
    assert asks(question).most is None


def test_over_the_seeds_the_largest_speedup_is_asked_of_every_paper_on_the_topic(seeded):
    ans = seeded.ask("Which paper reports the largest speedup for LLM inference?")
    assert not ans.abstained and "none covers" not in ans.text  # before: "none covers “largest speedup”"
    assert ans.citations[0].title == "Attention-Level Speculation"
    assert "1.65x" in ans.citations[0].quote  # its figure's sentence, not its most topical one
    for c in ans.citations:
        assert figures(c.quote, ("speedup", "latency"))
    assert re.search(r"Of the \d+ papers in the library that address this, \d+ report", ans.text)
    assert "no head-to-head comparison" in ans.text


def test_over_the_seeds_a_topic_without_the_figure_is_listed_and_says_so(seeded):
    ans = seeded.ask("Which paper achieves the lowest perplexity with pruning?")
    assert not ans.abstained and "SLiM" in ans.citations[0].title
    assert "reports a figure for \u201cperplexity\u201d" in ans.text and "none covers" not in ans.text


def test_the_fastest_detector_over_the_library_is_read_from_each_papers_figure(detectors):
    ans = detectors.ask("Which is the fastest real-time object detector?")
    assert not ans.abstained and len(ans.citations) >= 3
    fps = [max((f.value for f in figures(c.quote, ("speed",), ("fps",)) if f.unit == "fps"), default=None)
           for c in ans.citations]
    assert None not in fps and fps == sorted(fps, reverse=True)  # fastest first, each quoting its frame rate
    assert "Ordered by the figure" in ans.text and "none covers" not in ans.text


def test_a_recency_pick_over_the_library_orders_by_year(detectors):
    ans = detectors.ask("Which real-time object detection paper is the most recent?")
    assert ranked("Which real-time object detection paper is the most recent?").most.measure == YEAR
    years = [c.year for c in ans.citations]
    assert not ans.abstained and years == sorted(years, reverse=True) and len(set(years)) > 1


@pytest.mark.parametrize("question, label", [
    ("Which one is most relevant?", "relevant"),
    ("Which of them is the most important?", "important"),
    ("Which paper is the most cited?", "cited"),
    ("哪个最重要？", "重要"),
])
def test_a_judgement_is_no_figure_but_the_best_match(question, label):
    most = most_of(question)  # before: a pick by the figure next to "relevant", which no abstract reports
    assert most is not None and most.measure == BEST_MATCH and most.label == label
    assert ranked(question) is None


@pytest.mark.parametrize("question, topic, judged", [
    ("Which paper is the most relevant to LLM compression?", "Which papers are about LLM compression?", "relevant"),
    ("What is the most influential paper on diffusion models?", "Which papers are about diffusion models?",
     "influential"),
    ("Which is the most cited paper on NeRF?", "Which papers are about NeRF?", "cited"),
    ("哪篇关于模型压缩的论文最重要？", "哪些论文研究模型压缩？", "重要"),
    ("关于神经辐射场，哪篇论文最有影响力？", "哪些论文研究神经辐射场？", "有影响力"),
])
def test_a_judgement_over_the_library_is_a_question_on_its_topic(question, topic, judged):
    wants = asks(question)
    assert wants.most is None and wants.question == topic and wants.judged == judged


def test_the_most_cited_paper_on_a_topic_says_the_library_holds_no_citation_counts(seeded):
    """Before, "the most cited paper on X" cited the topic's papers as if one were the most cited."""
    ans = seeded.ask("Which is the most cited paper on quantization?")
    assert ans.text.startswith("The library holds no citation counts") and "\u201cmost cited\u201d" in ans.text
    assert ans.citations and any("Quant" in c.title for c in ans.citations)
    zh = seeded.ask("哪篇关于量化的论文最重要？")
    assert zh.text.startswith("库中没有引用次数") and zh.citations


def test_over_the_seeds_which_one_is_most_relevant_is_the_previous_answers_best_match(seeded):
    question = "Which papers work on quantization or sparsity?"
    first = seeded.ask(question)
    assert len(first.citations) >= 2
    ans = seeded.ask("Which one is most relevant?", history=[(question, first)])
    assert not ans.abstained and [c.paper_id for c in ans.citations] == [first.citations[0].paper_id]
    assert "matches its question best" in ans.text and "figure" not in ans.text
    assert "presents" in ans.citations[0].quote or "propose" in ans.citations[0].quote  # what the paper is
