"""A question about a name alone ("What is TAPE?", "What does PTQ stand for?", "TAPE 是什么？") is
answered by the paper that introduces the name, quoting the sentence that does (`Listings.introducing`).
Read as a topic, the one word "TAPE" scored 0.43 (the question's vector reads adhesive tape) and the
answer abstained, naming the right paper as a weaker match."""

from __future__ import annotations

import pytest

from paperscope.text.scope import defined_name


@pytest.mark.parametrize("question, name", [
    ("What is TAPE?", "TAPE"), ("What does PTQ stand for?", "PTQ"), ("Explain ALSpec.", "ALSpec"),
    ("what's NestQuant", "NestQuant"), ("TAPE 是什么？", "TAPE"), ("What is GPT-4?", "GPT-4"),
])
def test_reads_a_question_about_a_name(question, name):
    assert defined_name(question) == name


@pytest.mark.parametrize("question", [
    "What is quantization?",  # a word, not a name
    "What is LLM?",  # the field's word
    "What is TAPE used for in robotics?",  # more than the name
    "Which papers use TAPE?",
])
def test_other_questions_name_nothing(question):
    assert defined_name(question) is None


@pytest.mark.parametrize("question, title, words", [
    ("What is TAPE?", "Rethinking Addressing in Language Models", "(**TAPE**)"),
    ("What does PTQ stand for?", "NestQuant", "Post-training quantization (PTQ)"),
    ("TAPE 是什么？", "Rethinking Addressing in Language Models", "(**TAPE**)"),
])
def test_over_the_seeds_the_paper_introducing_the_name_answers(seeded, question, title, words):
    answer = seeded.ask(question)
    assert not answer.abstained, answer.text
    assert answer.citations[0].title.startswith(title)
    assert words in answer.citations[0].quote


def test_a_name_no_paper_introduces_is_read_as_any_question(seeded):
    snapshot = seeded.catalog.snapshot()
    assert seeded.listings.introducing("What is BERT?", snapshot, None) is None  # no seed paper defines it
    assert seeded.listings.introducing("What is quantization?", snapshot, None) is None
