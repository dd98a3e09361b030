"""A question asking what the library holds as a whole ("What are the main themes?"): the themes its
titles share, with counts a reader can check, and one paper on each (`text.overview`, `Listings.overview`)."""

from __future__ import annotations

import re

import pytest

from paperscope.text.overview import asks_overview, themes


@pytest.mark.parametrize("question, asks", [
    ("What are the main themes in this collection?", True), ("What topics are covered?", True),
    ("Give me an overview of the papers.", True), ("Summarize the corpus.", True),
    ("What is this library about?", True), ("这些论文主要涉及哪些主题？", True),
    ("What are the main topics of the papers?", True),
    ("What is the main topic of SLiM?", False),  # one paper's topic
    ("Which papers study diffusion?", False), ("What topics does TAPE cover?", False),
    ("Give me an overview of diffusion models.", False),  # a topic: papers on it
    ("What topics are there?", True), ("Which topics are covered in this library?", True),
    ("Summarize the papers on pruning.", False), ("Give me an overview of the papers on diffusion.", False),
    ("What are the main directions for future work in LLM quantization?", False),
    ("What are the key topics of the papers on RL?", False), ("这篇论文涉及哪些主题？", False),  # one paper
])
def test_what_asks_for_the_library_as_a_whole(question, asks):
    assert asks_overview(question) is asks


def test_themes_are_the_topical_words_and_phrases_titles_share():
    titles = {"a": "Graph Transformers for Molecules", "b": "Towards Better Graph Pooling", "c": "Graph Diffusion Models",
              "d": "Diffusion Models for Audio", "e": "Towards Robust Learning", "f": "Learning to Rank"}
    weights = {"graph": 2.7, "diffus": 4.5, "model": 0.7, "toward": 2.9, "learn": 1.0, "transform": 2.9, "molecul": 4.0}
    found = themes(titles, lambda stems: {s: weights.get(s, 3.0) for s in stems})
    assert found[0] == ("graph", ["a", "b", "c"])
    assert ("diffusion models", ["c", "d"]) in found  # the phrase: "model" sits beside a topical word
    assert all(t not in ("towards", "learning") for t, _ in found)  # framing and common words name no theme
    # A hyphenated word weighs as its parts ("real-tim" is no term of the background corpus, so it read as the rarest).
    hyphens = {"a": "Real-Time Detection", "b": "Real-Time Tracking", "c": "Large-Scale Graph Mining",
               "d": "Large-Scale Graph Pooling"}
    weights = {"real": 1.5, "time": 1.3, "larg": 1.7, "scale": 2.2, "graph": 2.7}
    found = [t for t, _ in themes(hyphens, lambda stems: {s: weights.get(s, 9.0) for s in stems})]
    assert found and "real-time" not in found and "large-scale" not in found and all("graph" in t for t in found)


def test_the_library_overview_names_its_themes_and_one_paper_on_each(seeded):
    ans = seeded.ask("What are the main themes in this collection?")
    assert not ans.abstained  # before: "none covers “themes”"
    head = ans.text.split("\n")[0]
    assert head.startswith("The most frequent themes in the titles of the library's 38 papers:")
    named = re.findall(r"([\w -]+) \((\d+) papers?\)", head.split(":", 1)[1])
    assert len(named) >= 3 and ("graph", "4") in [(t.strip(), n) for t, n in named]
    for c in ans.citations:  # each cited paper is on one of the themes, by its title
        assert any(t.strip().split()[0][:5] in c.title.lower() for t, _ in named), c.title
    assert len({c.paper_id for c in ans.citations}) == len(ans.citations)


def test_the_themes_are_read_once_per_library_generation(seeded, monkeypatch):
    import paperscope.listings as listings

    calls = []
    monkeypatch.setattr(listings, "themes", lambda *a: calls.append(1) or themes(*a))
    seeded.listings._themes.clear()
    first = seeded.ask("What topics are covered?").text
    assert seeded.ask("Summarize the corpus.").text.split("\n")[0] == first.split("\n")[0]
    assert len(calls) == 1  # every title is read once (2.3 s at 20,000 papers), not per question


def test_list_mode_answers_the_overview_as_ask_does(seeded):
    """`ask --all` / the UI's list mode read "What are the main themes?" as a topic and abstained ("none covers “themes”")."""
    listed = seeded.find_all("What are the main themes in this collection?")
    assert not listed.abstained
    assert listed.text.split("\n")[0] == seeded.ask("What are the main themes in this collection?").text.split("\n")[0]
