"""Questions asking for papers that do without something ("Which methods need no training?",
`text.absence`, `Listings.doing_without`): the papers that say so, quoting where they do."""

from __future__ import annotations

import pytest

from paperscope.text.absence import absent, states_absence


@pytest.mark.parametrize("question, rest, thing", [
    ("Which methods need no training?", "Which methods?", "training"),
    ("Which quantization methods do not require retraining?", "Which quantization methods?", "retraining"),
    ("Any approaches that work without any labels?", "Any approaches?", "labels"),
    ("Which papers don't need additional fine-tuning?", "Which papers?", "fine-tuning"),
    ("Which papers need no labeled data and run in real time?", "Which papers that run in real time?", "labeled data"),
    ("无需训练的方法有哪些？", "方法有哪些？", "训练"),
    ("Which localization methods work without GPS in urban canyons?", "Which localization methods in urban canyons?", "GPS"),
    ("Which papers study methods that need no retraining of the backbone?", "Which papers study methods?", "retraining"),
    ("What works without the need for human annotations?", "What?", "human annotations"),
])
def test_what_asks_for_papers_doing_without_something(question, rest, thing):
    asked = absent(question)
    assert asked is not None and (asked.question, asked.thing) == (rest, thing)


def test_alternatives_are_each_a_thing_to_do_without():
    asked = absent("Which methods require no training or fine-tuning?")
    assert asked is not None and asked.question == "Which methods?" and asked.english == ("training", "fine-tuning")


@pytest.mark.parametrize("question", [
    "Which papers study fairness without demographics?",  # "without Y" after a topic: the topic, as papers write it
    "Which papers on LLMs do not use reinforcement learning?",  # an exclusion (`text.asks.excluded`)
    "Which papers are training-free?",  # a term papers write, found as any topic
    "Which papers need large batches?",
    "Which methods need no more than 4 GPUs?",  # a bound, not an absence
    "Does LoRA need no additional parameters at inference?",  # one paper asked about, not a list
    "How can we train without labels?",
    "多人姿态估计中，有没有不用热图，而是把关键点和姿态当作目标来检测的方法？",  # a compound glossed by its parts
])
def test_other_questions_ask_for_no_absence(question):
    assert absent(question) is None


@pytest.mark.parametrize("sentence, says", [
    ("Focusing on these drawbacks, we propose a novel training-free method, WinWinLay.", True),
    ("Existing works can achieve this goal without training on any specific data.", True),
    ("It eliminates the need for additional training.", True),
    ("Conventional techniques typically require computationally expensive retraining.", False),
    ("We study not only training but also inference.", False),
    ("Noise2Void compares favorably to training-free denoising methods.", False),  # others' methods, compared with
    ("Compared to existing training-free methods, ours is faster.", False),
])
def test_which_sentences_say_a_paper_does_without_training(sentence, says):
    assert states_absence(sentence, ("training",)) is says


def test_papers_doing_without_training_cite_the_one_that_says_so(seeded):
    ans = seeded.ask("Which methods need no training?")
    assert not ans.abstained  # before: abstained, the paper titled "... without Training" only a weaker match
    assert [c.title.split(":")[0] for c in ans.citations] == ["Control and Realism"]
    assert "training-free" in ans.citations[0].quote  # its own sentence, not the background one on existing works
    zh = seeded.ask("无需训练的方法有哪些？")
    assert [c.title.split(":")[0] for c in zh.citations] == ["Control and Realism"]


def test_papers_doing_without_fine_tuning_are_only_those_saying_so(seeded):
    ans = seeded.ask("Which papers require no fine-tuning?")
    # Before: six papers, most of them fine-tuning ("no" dropped, the question read as "require fine-tuning").
    assert 1 <= len(ans.citations) <= 2
    assert all(states_absence(c.quote, ("fine-tuning",)) for c in ans.citations)


def test_when_no_paper_says_it_does_without_the_thing_it_abstains_saying_what(seeded):
    ans = seeded.ask("Which papers need no labels?")
    assert ans.abstained and "\u201cwithout labels\u201d" in ans.text and ans.nearest
    every = seeded.find_all("Which papers need no labels?")
    assert every.abstained and "\u201cwithout labels\u201d" in every.text


def test_avoiding_a_thing_is_not_doing_without_it():
    assert not states_absence("Salient region detection helps avoiding spurious loop closures.", ("loop closure",))
    assert states_absence("Our method avoids the need for loop closure entirely.", ("loop closure",))
