"""Questions about the library's records as a whole ("How many papers are there?", "Which authors have
more than one paper?", "Which paper has the most authors?") answered from the records, and records the
library does not keep (affiliations, citation counts) said plainly (`text.facts`, `Listings.facts`).
Before, each was read as a topic: it abstained ("none covers “authors”", 库 glossed "storehouse") or listed
the library as papers that "address this"."""

from __future__ import annotations

import json
import re

import pytest

from paperscope.text.facts import Record, asks_fact, extreme_authors, prolific


@pytest.mark.parametrize("question, kind", [
    ("How many papers are in the library?", "count"), ("How many papers are there?", "count"),
    ("How many abstracts have been ingested?", "count"), ("How big is the corpus?", "count"),
    ("库里有多少篇论文？", "count"), ("一共有多少篇论文？", "count"),
    ("What years do the papers cover?", "years"), ("When were these papers published?", "years"),
    ("这些论文来自哪些年份？", "years"), ("这些论文是哪年发表的？", "years"),
    ("Which venues are in the library?", "venues"), ("Which conferences do the papers come from?", "venues"),
    ("Which authors have more than one paper?", "prolific"), ("Who wrote the most papers?", "prolific"),
    ("Who are the most prolific authors?", "prolific"), ("哪些作者有多篇论文？", "prolific"),
    ("Which paper has the most authors?", "most_authors"), ("Which paper has the fewest authors?", "fewest_authors"),
    ("Which papers are single-authored?", "single_author"), ("Which papers have a single author?", "single_author"),
    ("Which paper is the most cited?", "citations"), ("引用最多的论文是哪篇？", "citations"),
    ("Which papers come from Google?", "affiliations"), ("Which papers are by researchers at Google DeepMind?", "affiliations"),
    ("Which universities are represented?", "affiliations"),
    # topic questions, and one paper's record, are not about the library's records as a whole
    ("How many papers use LoRA?", None), ("How many papers are there on MoE?", None), ("有多少篇论文研究量化？", None),
    ("Who wrote the most papers on quantization?", None), ("Which authors have more than one paper on RL?", None),
    ("What is the most cited paper on diffusion?", None), ("Who wrote NestQuant?", None),
    ("Where was LocMoE published?", None), ("Which papers use data from Wikipedia?", None),
    ("Which papers come from the same group?", None), ("Which methods come from physics?", None),
    ("Which years saw the most papers on NeRF?", None), ("Which paper is the most efficient?", None),
    ("How many papers are in total?", "count"), ("How many authors are there?", "prolific"),
    ("Who is the most prolific author?", "prolific"), ("Which author has written the most papers?", "prolific"),
    ("Which year has the most papers?", "years"), ("Which conference has the most papers?", "venues"),
    ("这些论文是哪年发表的？", "years"), ("哪篇论文的作者最多？", "most_authors"),
    # capitalised topics and things, not organisations; topic questions about countries, labs, companies
    ("Which papers come from Reinforcement Learning?", None), ("Which papers are from Computer Vision?", None),
    ("Which papers come from NLP?", None), ("Which papers come from ImageNet?", None),
    ("Which papers are written by GPT-4?", None), ("Which papers are produced by AI?", None),
    ("Which countries are covered by the datasets?", None), ("Which labs are working on quantization?", None),
    ("Which institutions are involved in federated learning?", None), ("Which companies are mentioned?", None),
    ("How big is the dataset?", None), ("Who is the most prolific author on RL?", None),
    ("Which papers come from Microsoft Research?", "affiliations"), ("What institutions do the authors come from?",
                                                                     "affiliations"),
    ("Which papers are affiliated with Stanford University?", "affiliations"),
    # a second review: a Chinese topic and datasets named after organisations are no affiliations
    ("哪些论文来自强化学习？", None), ("哪些论文来自清华大学？", "affiliations"), ("哪些论文来自Gemini？", None),
    ("Which papers come from Microsoft COCO?", None), ("Which papers come from Stanford Dogs?", None),
    ("Which papers come from Google DeepMind?", "affiliations"), ("哪位作者的论文最多？", "prolific"),
    ("How many citations does NestQuant have?", "citations"), ("How many times does the model call the verifier?", None),
])
def test_what_asks_about_the_records(question, kind):
    fact = asks_fact(question)
    assert (fact.kind if fact else None) == kind


def test_the_affiliation_asked_about_is_the_name_as_written():
    assert asks_fact("Which papers are by researchers at Google DeepMind?").name == "Google DeepMind"
    assert asks_fact("Which papers are from the University of Toronto?").name == "University of Toronto"
    assert asks_fact("Which universities are represented?").name == ""


def test_authors_are_counted_once_per_paper_however_written():
    records = [Record("a", "ICML", 2020, ["Ada  Lovelace", "Alan Turing"]), Record("b", "ICML", 2021, ["ada lovelace"]),
               Record("c", "COLT", 2021, ["Alan Turing", "Alan Turing"]), Record("d", "COLT", None, ["Grace Hopper"])]
    assert prolific(records) == [("Ada Lovelace", ["a", "b"]), ("Alan Turing", ["a", "c"])]
    assert extreme_authors(records, fewest=False) == (2, ["a"])  # "c" lists one author twice
    assert extreme_authors(records, fewest=True) == (1, ["b", "c", "d"])


def _records():
    """Eight papers: Jane Doe on three, John Roe on two, one single-authored, one abstract naming Google."""
    body = ("We propose a method for {t} and show that it improves accuracy on standard benchmarks. "
            "Experiments confirm the gains across several settings.")
    rows = [("Graph pooling with anchors", ["Jane Doe", "Wei Chen"], 2019, "ICML"),
            ("Sparse attention for long inputs", ["Jane Doe", "John Roe", "Ana Lima"], 2020, "ICML"),
            ("Robust bandits under drift", ["Jane Doe"], 2021, "COLT"),
            ("Faster protein folding", ["John Roe", "Mia Park", "Li Na", "Omar Haddad"], 2021, "NeurIPS"),
            ("Causal probing of language models", ["Sara Kim", "Tom Berg"], 2022, "NeurIPS"),
            ("Speech recognition for dialects", ["Ivan Petrov", "Eva Novak"], 2022, "ICML"),
            ("Tabular learning with trees", ["Lena Vogel", "Paul Meyer"], 2023, "NeurIPS"),
            ("Street view navigation", ["Nora Ali", "Sam Lee"], 2023, "ICML")]
    out = []
    for i, (title, authors, year, venue) in enumerate(rows):
        abstract = body.format(t=title.lower())
        if title.startswith("Street"):
            abstract = "We train agents on Google Street View panoramas to navigate cities. " + abstract
        out.append({"id": f"p{i}", "title": title, "authors": authors, "year": year, "venue": venue,
                    "abstract": abstract, "url": f"https://example.org/{i}"})
    return out


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    from paperscope import Assistant, Settings
    from paperscope.settings import EmbedSettings

    tmp = tmp_path_factory.mktemp("facts")
    path = tmp / "papers.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in _records()))
    a = Assistant.open(tmp / "data", settings=Settings(embed=EmbedSettings(model="fake")))
    a.ingest([path])
    return a


def test_the_most_prolific_authors_and_their_papers(small):
    ans = small.ask("Which authors have more than one paper?")
    assert not ans.abstained  # before: it abstained
    assert "2 are on more than one paper: Jane Doe (3), John Roe (2)" in ans.text
    assert {c.title for c in ans.citations} == {"Graph pooling with anchors", "Sparse attention for long inputs",
                                                "Robust bandits under drift", "Faster protein folding"}
    assert small.ask("Who wrote the most papers?").text.split("\n")[0] == ans.text.split("\n")[0]


def test_papers_by_their_number_of_authors(small):
    single = small.ask("Which papers are single-authored?")
    assert [c.title for c in single.citations] == ["Robust bandits under drift"]
    most = small.ask("Which paper has the most authors?")
    assert most.text.startswith("The most authors on one paper: 4 authors, on “Faster protein folding”.")
    assert [c.title for c in most.citations] == ["Faster protein folding"]


def test_counts_years_and_venues_come_from_the_records(small):
    count = small.ask("How many papers are in the library?")
    assert not count.abstained and not count.citations
    assert count.text.startswith("The library holds 8 papers. By venue: ICML (4), NeurIPS (3), COLT (1).")
    assert small.ask("How many papers are from 2021?").text.startswith("The library holds 2 papers from 2021.")
    years = small.ask("What years do the papers cover?").text
    assert "published in 2019\u20132023: 2019 (1), 2020 (1), 2021 (2), 2022 (2), 2023 (2)." in years  # oldest first
    assert "come from 3 venues" in small.ask("Which venues are in the library?").text
    assert small.ask("库里有多少篇论文？").text.startswith("库中共有 8 篇论文。")


def test_affiliations_are_not_recorded_and_mentions_are_shown_as_such(small):
    google = small.ask("Which papers come from Google?")
    assert not google.abstained and google.text.startswith("The library does not record the authors' affiliations")
    assert "1 paper writes “Google” in its title or abstract:" in google.text
    assert [c.title for c in google.citations] == ["Street view navigation"]
    mit = small.ask("Which papers are from MIT?")
    assert mit.abstained and "No paper writes “MIT” in its title or abstract." in mit.text
    assert not mit.nearest  # no topic was asked: no "nearest papers"
    cited = small.ask("Which paper is the most cited?")
    assert cited.abstained and "no citation counts" in cited.text and not cited.nearest


def test_the_seed_library_answers_from_its_records(seeded):
    count = seeded.ask("How many papers are in the library?")
    assert re.match(r"The library holds 38 papers\. By venue: ICML \(38\)\. Published in 2025\.", count.text)
    assert seeded.ask("库里有多少篇论文？").text.startswith("库中共有 38 篇论文。")  # before: "storehouse/warehouse"
    ids = seeded.catalog.snapshot().positions.keys()
    most = max(seeded.catalog.papers(sorted(ids)).values(), key=lambda p: len(p.authors))
    ans = seeded.ask("Which paper has the most authors?")
    assert [c.paper_id for c in ans.citations] == [most.paper_id]
    assert f"{len(most.authors)} authors" in ans.text.split("\n")[0]


def test_list_mode_answers_a_question_about_the_records_the_same_way(small):
    listed = small.find_all("Which authors have more than one paper?")  # the UI's "List all papers" mode, `ask --all`
    asked = small.ask("Which authors have more than one paper?")
    assert listed.text.split("\n")[0] == asked.text.split("\n")[0]
    assert {c.paper_id for c in listed.citations} == {c.paper_id for c in asked.citations}


def test_papers_not_about_a_thing_are_the_library_less_those_that_use_it(small):
    """"Which papers are not about X?" names no topic but X: it was scored as a topic question on X."""
    ans = small.ask("Which papers are not about bandits?", max_citations=20)
    assert ans.text.startswith("Of the library's 8 papers, 7 do not mention “bandits” in their title, keywords or "
                               "abstract (1 that does is left out):")
    assert len(ans.citations) == 7 and "Robust bandits under drift" not in {c.title for c in ans.citations}
    listed = small.find_all("Which papers don't use bandits?")
    assert {c.paper_id for c in listed.citations} == {c.paper_id for c in ans.citations}
    # No paper writes it: the abstracts cannot tell which do without it, so none is listed as doing so.
    none = small.ask("Which papers don't use deep learning?")
    assert not none.abstained and not none.citations and "None of the library's 8 papers mentions “deep learning”" in none.text
    assert "0 papers" not in small.find_all("Which papers don't use deep learning?").text
    # "Not about X" where no paper writes X: every paper is not about it.
    assert len(small.find_all("Which papers are not about robotics?").citations) == 8
    # Neither a hypothetical nor a comparison is a request for the papers without a thing.
    assert not small.ask("What if we do not use bandits?").text.startswith("Of the library's")
    assert not small.ask("Which papers do not use the same datasets as Graph pooling?").text.startswith(("Of the", "None of"))


def test_papers_not_about_llms_over_the_seeds(seeded):
    ans = seeded.find_all("Which papers are not about LLMs?")
    kept, left = map(int, re.search(r"(\d+) do not mention “LLMs” .*?\((\d+) that do", ans.text).groups())
    assert kept + left == 38 and len(ans.citations) == kept and 0 < left < 38
    for c in ans.citations:
        paper = seeded.catalog.papers([c.paper_id])[c.paper_id]
        assert not re.search(r"\bLLMs?\b|large language models?", f"{paper.title} {paper.abstract}", re.I), c.title
    zh = seeded.find_all("哪些论文不是关于大语言模型的？")  # 不是关于: was read as "blame/fault" and abstained
    assert {c.paper_id for c in zh.citations} == {c.paper_id for c in ans.citations}
    # A topic besides is the relevance decision's, as before: only LLM papers, none using RL.
    topical = seeded.ask("Which LLM papers do not use reinforcement learning?")
    assert topical.citations and not topical.text.startswith("Of the library's")


def test_a_count_within_a_venue_or_author_is_answered_in_both_modes(small):
    """"How many papers are at ICML?" went from `ask` to list mode and back, forever (RecursionError): the venue
    read as a filter made it a question about the records in one and a count of a topic in the other."""
    for question in ("How many ICML papers are there?", "How many papers are at ICML?", "How many papers are by Jane Doe?"):
        for answer in (small.ask(question), small.find_all(question)):
            assert re.match(r"The library holds \d+ papers? (?:at ICML|by Jane Doe)\.", answer.text), answer.text
    assert small.ask("How many papers are by Jane Doe?").text.startswith("The library holds 3 papers by Jane Doe.")
    assert small.ask("How many papers are published since 2022?").text.startswith("The library holds 4 papers from 2022 on.")
    assert small.ask("ICML 2019 有多少篇论文？").text.startswith("库中（ICML，2019 年）共有 1 篇论文。")
    assert small.ask("ICML 有多少篇论文？").text.startswith("库中（ICML）共有 4 篇论文。")  # the venue with no year too


def test_chinese_answers_say_what_the_records_say(seeded):
    text = seeded.ask("哪些作者有多篇论文？").text
    assert "没有作者出现在多篇论文里" in text and "共同作者" not in text  # "no co-authors" was false


def test_an_empty_listing_that_says_nothing_is_not_answered_with_silence(small):
    """Only a records answer (its lead) stands without papers: an empty title listing within filters keeps its heading."""
    ans = small.ask("Which papers have protein in the title?", filters={"year": 2019})
    assert ans.text.strip() and not ans.citations
