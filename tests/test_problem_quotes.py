"""A question about the problem a paper sets out from ("What problem does NestQuant solve?", "What
is the motivation behind Banyan?", "Why did they propose Oracle-MoE?", "GAPrompt 解决了什么问题？")
quotes the sentence stating that problem, which abstracts put before their method ("However, ...
remains costly. We propose ..."). Before, the quote rankers (fitted on findings and factoid
answers) quoted NestQuant's "Comparisons on bigger models ... confirm uniform superiority",
Banyan's result, GAPrompt's "we propose" (`relevance.quotes.problem_first`)."""

from __future__ import annotations

import numpy as np
import pytest

from paperscope.relevance.question import analyze
from paperscope.relevance.quotes import asks_problem, problem_first


def _flat_idf(stems: set[str]) -> dict[str, float]:
    return {s: 1.0 for s in stems}


SENTENCES = [
    "Large language models are widely deployed.",  # background
    "However, their memory footprint remains prohibitive on edge devices.",  # the problem
    "We formalize this deployment problem as a budgeted selection.",  # the paper's own doing, not the problem
    "We propose TinyServe, a paged KV cache for phones.",  # the introduction
    "TinyServe cuts memory by 4x and is 2.1x faster than the best baseline.",  # the result the rankers favour
]
SCORES = np.array([0.5, 1.0, 1.5, 2.0, 5.0])


@pytest.mark.parametrize("question", [
    "What problem does TinyServe solve?",
    "What is the motivation behind TinyServe?",
    "Why did they propose TinyServe?",
    "What challenge does TinyServe address?",
    "Which issue does TinyServe tackle?",
    "What problem is TinyServe | solve or resolve",  # a Chinese question's analysis ("TinyServe 解决了什么问题？")
])
def test_the_problem_sentence_before_the_method_comes_first(question):
    q = analyze(question, _flat_idf, scaffolding=False)
    assert int(np.argmax(problem_first(q, SENTENCES, range(5), SCORES))) == 1


def test_without_a_difficulty_before_the_method_the_first_one_after_it_comes_first():
    sentences = ["We present Banyan, a model that learns structured representations.",
                 "While transformers excel at scale, they struggle in low-resource settings.",
                 "Banyan bridges this gap with an entangled tree structure.",
                 "It outperforms larger transformers with 14 non-embedding parameters."]
    q = analyze("What is the motivation behind Banyan?", _flat_idf, scaffolding=False)
    assert int(np.argmax(problem_first(q, sentences, range(4), np.array([1.0, 0.5, 2.0, 3.0])))) == 1


@pytest.mark.parametrize("question", [
    "How much faster is TinyServe?",  # a detail: the rankers' order
    "What is TinyServe?",  # what it is: its introduction (`introduced_first`)
    "Which papers discuss what motivates the people who label data?",  # a list on motivation as a topic
    "Which papers use intrinsic motivation for exploration?",
    "Why does the model need more data?",
])
def test_other_questions_keep_the_rankers_order(question):
    q = analyze(question, _flat_idf, scaffolding=False)
    assert list(problem_first(q, SENTENCES, range(5), SCORES)) == list(SCORES)


def test_reads_questions_about_a_papers_problem():
    assert asks_problem("GAPrompt 解决了什么问题？") and asks_problem("Oracle-MoE 的动机是什么？")
    assert not asks_problem("Which papers address the problem of catastrophic forgetting?")
    assert not asks_problem("What is the role of intrinsic motivation in exploration?")


@pytest.mark.parametrize("question, expected", [
    ("What problem does SLiM address?", "struggle to achieve accuracy comparable to dense models"),
    ("What is the motivation behind Banyan?", "they struggle in low-resource settings"),
    ("What issue does MixMin tackle?", "finding the optimal data mixture is a challenging and open problem"),
    ("GAPrompt 解决了什么问题？", "struggle to achieve competitive performance"),
])
def test_over_the_seeds_the_quote_states_the_papers_problem(seeded, question, expected):
    ans = seeded.ask(question)
    assert not ans.abstained
    assert expected in ans.citations[0].quote


def test_datasets_first_quotes_the_sentence_naming_the_datasets():
    from paperscope.relevance.quotes import datasets_first

    sentences = ["Crowd counting estimates the number of people in an image.",
                 "Our method achieves state-of-the-art results on two challenging crowd counting datasets.",
                 "Experiments on ShanghaiTech, UCF_CC_50 and UCF-QNRF datasets confirm it."]
    scores = np.array([1.0, 3.0, 2.0])  # the rankers favour the unnamed claim
    q = analyze("What datasets are commonly used for crowd counting?", _flat_idf, scaffolding=False)
    assert int(np.argmax(datasets_first(q, sentences, range(3), "Density-Aware Crowd Counting", scores))) == 2
    other = analyze("Which papers do crowd counting?", _flat_idf, scaffolding=False)
    assert list(datasets_first(other, sentences, range(3), "", scores)) == list(scores)


def test_over_a_library_the_datasets_question_quotes_the_named_datasets(tmp_path_factory):
    import re

    from conftest import topic_library
    from paperscope.relevance.sentences import paper_sentences

    a, _ = topic_library(tmp_path_factory, "crowds", lambda r: "crowd counting" in r["title"].lower(), 20, 30)
    ans = a.ask("What datasets are commonly used for crowd counting?")
    assert not ans.abstained and len(ans.citations) >= 3
    dataset = re.compile(r"ShanghaiTech|UCF|WorldExpo|Mall|TRANCOS|NWPU|JHU")
    named = 0
    for c in ans.citations:
        sentences = paper_sentences(a.catalog.papers([c.paper_id])[c.paper_id])
        if any(re.search(r"\b(?:datasets?|benchmarks?)\b", s, re.I) and dataset.search(s) for s in sentences):
            named += 1  # the abstract names its datasets: the quote is that sentence
            assert dataset.search(c.quote), c.title
    assert named >= 2


def test_names_first_quotes_the_sentence_naming_the_methods():
    """"Which existing RL algorithms did they plug it into?" is answered by the sentence naming
    them (IQL, PEX, APL), not by the one restating "existing ... RL algorithms"."""
    from paperscope.relevance.quotes import names_first

    sentences = ["Offline-to-online RL fine-tunes an offline policy online.",
                 "Our method is versatile and can be integrated with existing offline-to-online RL algorithms.",
                 "By implementing CFDG to popular methods IQL, PEX and APL, we achieve a 15% improvement on D4RL."]
    scores = np.array([1.0, 3.0, 2.0])  # the rankers favour the restating sentence
    title = "Offline-to-Online Reinforcement Learning with Classifier-Free Diffusion Generation"
    q = analyze("Which existing RL algorithms did they plug it into?", _flat_idf, scaffolding=False)
    assert q.kind == "factoid"
    assert int(np.argmax(names_first(q, sentences, range(3), title, scores))) == 2
    # Unchanged: a list question, a question not after names, or a best sentence that names some.
    for other in ("Which papers integrate offline-to-online RL algorithms?", "How much does it improve on D4RL?"):
        o = analyze(other, _flat_idf, scaffolding=False)
        assert list(names_first(o, sentences, range(3), title, scores)) == list(scores)
    named = np.array([1.0, 2.0, 3.0])
    assert list(names_first(q, sentences, range(3), title, named)) == list(named)
    # Plain capitalised names answer too: "Adam and Momentum optimizers" stays ahead of a later
    # sentence listing architectures and datasets.
    l4 = ["We propose a stepsize adaptation scheme for stochastic gradient descent.",
          "We demonstrate its capabilities by conclusively improving the performance of Adam and Momentum optimizers.",
          "The performance is validated on architectures including CNNs, ResNets and datasets MNIST and CIFAR10."]
    q = analyze("Which optimizers does the loss-based stepsize adaptation scheme improve?", _flat_idf, scaffolding=False)
    assert list(names_first(q, l4, range(3), "L4: Practical loss-based stepsize adaptation", scores)) == list(scores)


def test_names_first_in_a_follow_up_over_the_seeds(seeded):
    history = [("Is there a paper that uses classifier-free guidance diffusion to augment data for offline-to-online RL?", None)]
    first = seeded.ask(history[0][0])
    answer = seeded.ask("Which existing RL algorithms did they plug it into?", history=[(history[0][0], first)])
    assert answer.citations and "IQL" in answer.citations[0].quote
