"""A question's venue, year and author are filters, not topic words (`text.scope`), and a
question that names only them lists the papers they admit."""

from __future__ import annotations

import json
import re

import pytest

from conftest import SEEDS
from paperscope.answer.plan import AbstainReason
from paperscope.text.scope import read_scope

AUTHORS = ["Sattar Vakili", "Carlo Ciliberto", "Isaac Newton", "Jixian Zhou"]


def _has(name: str) -> bool:
    return any(name.lower() in a.lower() for a in AUTHORS)


@pytest.mark.parametrize("question, venue, year, author, rest", [
    ("ICML 2025 papers on quantization", "icml", 2025, None, "papers on quantization"),
    ("papers from 2019 about NeRF", None, 2019, None, "papers about NeRF"),
    ("Which 2023 papers study NeRF?", None, 2023, None, "Which papers study NeRF?"),
    ("Which papers at NeurIPS use MoE?", "neurips", None, None, "Which papers use MoE?"),
    ("Which papers are by Sattar Vakili?", None, None, "Sattar Vakili", "Which papers are?"),
    ("papers by Vakili on kernel methods", None, None, "Vakili", "papers on kernel methods"),
    ("Vakili's work on kernel methods", None, None, "Vakili", "work on kernel methods"),
    # A full name after "from" or before "wrote" / "published" (before, they stayed topic words: abstained).
    ("Any papers from Jixian Zhou?", None, None, "Jixian Zhou", "Any papers?"),
    ("Which papers did Sattar Vakili write?", None, None, "Sattar Vakili", "Which papers did?"),
    ("Papers from Human Feedback studies", None, None, None, "Papers from Human Feedback studies"),  # no such author
    ("Which papers learn from Newton iterations?", None, None, None, "Which papers learn from Newton iterations?"),
    ("Which papers by Zhou (ICML 2025) study MoE?", "icml", 2025, "Zhou", "Which papers study MoE?"),
    ("2025年关于量化的论文", None, 2025, None, "关于量化的论文"),
    ("ICML 2025上关于量化的论文", "icml", 2025, None, "关于量化的论文"),
    # A venue in Chinese: "发表在 X 上", "X 上的", "在 X 发表的" (before, "CVPR" stayed the topic: "none covers “CVPR”").
    ("哪些发表在ICML上的论文研究量化？", "icml", None, None, "哪些论文研究量化？"),
    ("ICML上关于量化的论文有哪些？", "icml", None, None, "关于量化的论文有哪些？"),
    ("在NeurIPS发表的量化论文有哪些", "neurips", None, None, "量化论文有哪些"),
    # The papers' year after "are" / "the ones" (before, "from 2025" stayed a topic word: "none covers “2025”").
    ("Which papers on graph learning are from 2025?", None, 2025, None, "Which papers on graph learning are?"),
    ("Only the ones from 2023.", None, 2023, None, "Only the ones."),
    # Other words for "published": they stayed topic words the abstracts lack.
    ("Which NeRF papers appeared in 2019?", None, 2019, None, "Which NeRF papers?"),
    ("Which papers on MoE were presented at ICML?", "icml", None, None, "Which papers on MoE were?"),
    ("Papers on MoE that came out in 2025", None, 2025, None, "Papers on MoE that"),
    # The venue's year after "in" (before, "2023" stayed a topic word: "none covers “2023”").
    ("Which papers were published at ICML in 2023 on MoE?", "icml", 2023, None, "Which papers were on MoE?"),
])
def test_venue_year_and_author_are_read_as_filters(question, venue, year, author, rest):
    s = read_scope(question, ["icml", "neurips"], _has)
    assert (s.venue, s.year, s.author, s.question) == (venue, year, author, rest)


@pytest.mark.parametrize("question, years, rest", [
    ("Which papers since 2021 study event cameras?", (2021, 9999), "Which papers study event cameras?"),
    ("Event camera papers from 2020 or later?", (2020, 9999), "Event camera papers?"),  # was the year 2020 alone
    ("Any papers on event cameras published after 2019?", (2020, 9999), "Any papers on event cameras?"),
    ("Papers on NeRF before 2021", (0, 2020), "Papers on NeRF"),
    ("Which papers on visual-inertial odometry came out before 2019?", (0, 2018),
     "Which papers on visual-inertial odometry?"),
    ("Which papers between 2018 and 2020 study SLAM?", (2018, 2020), "Which papers study SLAM?"),
    ("How has accuracy improved since 2020?", None, "How has accuracy improved since 2020?"),  # no papers scoped
])
def test_a_year_range_that_scopes_papers_is_a_filter(question, years, rest):
    s = read_scope(question, ["icml"], _has)
    assert (s.years, s.year, s.question) == (years, None, rest)


def test_a_relative_year_range_counts_from_this_year():
    """"in the last five years" read as a topic abstained over 20,000 abstracts ("five", "years")."""
    from datetime import date

    now = date.today().year
    for question, years, rest in [
        ("Which papers from the last five years study event cameras?", (now - 5, now), "Which papers study event cameras?"),
        ("Papers on NeRF published in the past 3 years", (now - 3, now), "Papers on NeRF"),
        ("Which papers of last year use diffusion models?", (now - 1, now - 1), "Which papers use diffusion models?"),
        ("Which papers in the past couple of years study RAG?", (now - 2, now), "Which papers study RAG?"),
        # Content, not scope: no papers scoped, or years of something else.
        ("How has accuracy changed over the last five years?", None, "How has accuracy changed over the last five years?"),
        ("Which papers study the last few years of climate data?", None,
         "Which papers study the last few years of climate data?"),
    ]:
        s = read_scope(question, ["icml"], _has)
        assert (s.years, s.question) == (years, rest), question
    for question, years in [("近五年关于事件相机的论文有哪些？", (now - 5, now)),
                            ("去年有哪些关于NeRF的论文？", (now - 1, now - 1)),
                            ("过去3年里有哪些RAG的工作？", (now - 3, now)), ("近年来模型量化有什么进展？", None)]:
        assert read_scope(question, ["icml"], _has).years == years, question


def test_a_year_range_lists_only_papers_of_those_years(tmp_path):
    """"since 2021" was a topic word no abstract has (the answer abstained); a real library of
    four event-camera papers, one a year, answers with the two it admits."""
    from paperscope import Assistant
    from paperscope.retrieve import Filters

    rows = [{"id": f"ev{y}", "title": f"Event camera tracking {n}", "authors": ["A. Author"], "venue": "ICRA", "year": y,
             "abstract": f"We track features with an event camera ({n}). Event cameras report brightness changes "
                         "asynchronously, which makes tracking at high speed possible."}
            for n, y in zip(("one", "two", "three", "four"), (2018, 2019, 2021, 2022))]
    (tmp_path / "lib.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    a = Assistant.open(tmp_path / "data")
    a.ingest([tmp_path / "lib.jsonl"])
    ans = a.ask("Which papers since 2021 study event cameras?")
    assert not ans.abstained, ans.text
    assert {c.paper_id for c in ans.citations} <= {"ev2021", "ev2022"} and ans.citations, ans.text
    assert any("since 2021" in n for n in ans.notes)
    hits = a.retriever.search("event camera tracking", k=10, filters=Filters(years=(2019, 2021)))
    assert {h.paper_id for h in hits} == {"ev2019", "ev2021"}
    assert a.ask("Which papers before 2015 study event cameras?").abstained


@pytest.mark.parametrize("question", [
    "Which papers are about AutoML?",  # a venue's name used as a topic
    "Which papers estimate gradients by Monte Carlo sampling?",  # "Carlo" is an author's name
    "Which papers solve it by Newton iterations?",  # so is "Newton"
    "How many domains did it process in the first 8 months of 2024?",  # a year the paper reports
    "Which papers beat GPT-2025?",
    "Which papers train on data from 2019?",
    "Which results are from 2019 experiments?",  # the year goes on into the topic
])
def test_topic_words_stay_topic_words(question):
    s = read_scope(question, ["icml", "automl"], _has)
    assert s.empty and s.question == question


def _papers_by(author: str) -> set[str]:
    """The seed papers listing `author`, read from the seed metadata (not through the catalog)."""
    rows = [json.loads(line) for line in (SEEDS / "icml2025_seed_metadata.jsonl").read_text().splitlines() if line]
    return {f"{r['source']}:{r['position']}" for r in rows if author in r["authors"]}


def test_a_question_by_author_lists_that_authors_papers(seeded):
    author = "Sattar Vakili"
    expected = _papers_by(author)
    assert expected
    answer = seeded.ask(f"Which papers are by {author}?")
    assert not answer.abstained and {c.paper_id for c in answer.citations} == expected
    assert all(author in c.authors for c in answer.citations)
    assert any("read as filters" in n for n in answer.notes)
    listed = seeded.find_all(f"List every paper by {author}.")
    assert {c.paper_id for c in listed.citations} == expected
    # With a topic, the author narrows it: his paper on Bayesian optimisation, none on MoE latency.
    assert {c.paper_id for c in seeded.ask(f"Which papers by {author} study Bayesian optimization?").citations} \
        == expected
    assert seeded.ask(f"Which papers by {author} address MoE latency?").abstained
    for asked in (f"Any papers from {author}?", f"Which papers did {author} write?"):  # abstained before
        assert {c.paper_id for c in seeded.ask(asked).citations} == expected, asked
    # A filter the library cannot meet says so, instead of "no paper covers 'NeurIPS'".
    plan = seeded.plan("Which papers at NeurIPS address MoE latency?")
    assert plan.abstain is AbstainReason.NO_MATCH_FOR_FILTERS


def test_a_scope_that_holds_every_paper_answers_as_the_topic_alone(seeded):
    plain = seeded.ask("Which papers address MoE latency?")
    scoped = seeded.ask("Which ICML 2025 papers address MoE latency?")
    assert not scoped.abstained
    assert [c.paper_id for c in scoped.citations] == [c.paper_id for c in plain.citations]


def test_a_request_for_every_paper_lists_the_library(seeded):
    total = seeded.catalog.paper_count()
    assert len(seeded.find_all("List all papers").citations) == total
    answer = seeded.ask("Show me every paper in the library", max_citations=5)
    assert len(answer.citations) == 5 and any(f"of the {total} papers" in n for n in answer.notes)
    assert not seeded.ask("列出所有论文").abstained
    # "in the library" says where to look, not what about.
    assert read_scope("Which papers in the corpus study MoE latency?", [], _has).question == \
        "Which papers study MoE latency?"


def test_a_follow_up_that_only_filters_keeps_the_previous_papers_of_that_year(detectors):
    question = "Which papers do real-time object detection?"
    first = detectors.ask(question)
    years = {c.year for c in first.citations}
    assert len(first.citations) >= 3 and len(years) > 1
    year = max(years, key=lambda y: sum(c.year == y for c in first.citations))
    expected = [c.paper_id for c in first.citations if c.year == year]
    for follow in (f"Only the ones from {year}.", f"Which of them are from {year}?"):
        ans = detectors.ask(follow, history=[(question, first)])
        # before: the whole library's papers of that year (no topic left), or "none covers “{year}”"
        assert sorted(c.paper_id for c in ans.citations) == sorted(expected), follow
    other = next(h.year for h in detectors.search("regret bounds for online learning", k=30) if h.year not in years)
    none = detectors.ask(f"Only those from {other}.", history=[(question, first)])  # the library holds that year
    assert none.abstained and none.text.startswith("None of the papers of the previous answer")


@pytest.mark.parametrize("question", [
    "What topics does the library cover?", "What are the newest papers?", "Which paper was published most recently?",
    "最新的论文有哪些？",
])
def test_a_question_about_the_library_itself_lists_it(seeded, question):
    from paperscope.text.scope import asks_about_library

    assert asks_about_library(question)
    ans = seeded.ask(question)  # before: "none covers “published”", or "No paper in the corpus addresses this"
    assert not ans.abstained and len(ans.citations) == 15
    assert any("of the 38 papers shown" in n for n in ans.notes)


def test_the_newest_papers_of_the_library_come_newest_first(detectors):
    from paperscope.text.scope import asks_about_library

    assert not asks_about_library("What are the newest papers on object detection?")  # a topic: recency of it
    ans = detectors.ask("What are the newest papers?")
    years = [c.year for c in ans.citations]
    assert not ans.abstained and years == sorted(years, reverse=True) and len(set(years)) > 1


@pytest.mark.parametrize("question, words", [
    ("Which papers have scaling in the title?", ["scaling"]),
    ("Papers with LLM in their titles?", ["LLM"]),
    ("papers whose titles contain \"diffusion\"", ["diffusion"]),
    ("List titles containing mixture of experts", ["mixture", "of", "experts"]),
    ("Which papers study scaling laws?", []),  # a topic, anywhere in the abstract
])
def test_words_asked_for_in_titles(question, words):
    from paperscope.text.scope import title_words

    assert title_words(question) == words


def test_papers_with_a_word_in_the_title_are_those_whose_titles_hold_it(seeded):
    ans = seeded.ask("Which papers have scaling in the title?")
    assert not ans.abstained  # before: "scaling" and "title" read as the topic
    assert sorted(c.title for c in ans.citations) == sorted(
        t for t in _seed_titles() if "scaling" in t.lower())
    none = seeded.ask("Which papers have quantum in the title?")
    assert none.abstained


def _seed_titles() -> list[str]:
    rows = [json.loads(line) for line in (SEEDS / "icml2025_seed_metadata.jsonl").read_text().splitlines() if line]
    return [r["title"] for r in rows]


def test_a_topic_the_filters_leave_no_paper_for_names_the_papers_outside_them(detectors):
    """Before, "none covers “real-time object detection”" and the nearest COLT papers, untrue of a library
    holding 20 papers on it from other venues."""
    from paperscope.ui.render import abstention

    detecting = {h.paper_id for h in detectors.search("real-time object detection", k=20)}
    venue = next(h.venue for h in detectors.search("regret bounds for online learning", k=5))
    assert not any(h.venue == venue for h in detectors.search("real-time object detection", k=20))
    for ans in (detectors.ask(f"Which papers on real-time object detection were published at {venue}?"),
                detectors.find_all(f"Which papers on real-time object detection were published at {venue}?")):
        assert ans.abstained and ans.outside
        assert ans.text.startswith(f"No paper from {venue} addresses this question. Without that filter, ")
        assert ans.nearest and {p.paper_id for p in ans.nearest} <= detecting
        assert "These address it:" in abstention(ans)  # the UI's heading: not "weaker matches"
    zh = detectors.ask(f"{venue}上关于实时目标检测的论文有哪些？")
    assert zh.abstained and zh.outside and zh.text.startswith(f"没有{venue}的论文涉及这个问题")
    # A topic no paper of the library covers: the usual abstention, its nearest papers weaker matches.
    none = detectors.ask(f"Which papers on protein folding were published at {venue}?")
    assert none.abstained and not none.outside and "weaker matches" in none.text
    assert "Nearest papers (weaker matches)" in abstention(none)


@pytest.mark.parametrize("question, mention", [
    ("Which papers evaluate on KITTI?", ("KITTI", "")),
    ("Which papers report results on ShanghaiTech?", ("ShanghaiTech", "")),
    ("Which depth estimation papers use the KITTI dataset?", ("KITTI", "depth estimation")),
    ("Which papers are evaluated on ImageNet?", ("ImageNet", "")),
    ("Which papers test on CIFAR-10?", ("CIFAR-10", "")),
    ("Which papers use the Spider benchmark?", ("Spider", "")),
    ("Which papers mention SQuAD?", ("SQuAD", "")),
    ("Which papers compare against YOLO?", ("YOLO", "")), ("Which papers outperform BERT?", ("BERT", "")),
    ("哪些论文在KITTI上做了评测？", ("KITTI", "")), ("哪些深度估计论文使用了KITTI数据集？", ("KITTI", "深度估计")),
    ("在ShanghaiTech数据集上评测的论文有哪些？", ("ShanghaiTech", "")), ("哪些论文研究KITTI？", None),
    # A topic, not a name: the relevance model's question.
    ("Which papers evaluate on real robots?", None), ("Which papers use BERT?", None),
    ("Which papers are tested on Atari games?", None),  # "games" is no part of a name
    ("Which papers evaluate on KITTI.", ("KITTI", "")), ("Which papers mention the curse of dimensionality?",
                                                        ("curse of dimensionality", "")),
    ("Which papers outperform SOTA?", None), ("Which papers evaluate on RL benchmarks?", None),
    # Chinese: only a question for papers, and a name (not a threshold, not a word cut at the Chinese).
    ("NestQuant优于GPTQ吗？", None), ("GAPrompt用了ModelNet40数据集吗？", None), ("哪些论文的准确率超过90%？", None),
    ("哪些论文提到了3D高斯？", None), ("哪些方法的性能超过了baseline？", None),
    ("Which papers evaluate on benchmarks?", None), ("Which papers use LLMs?", None),
])
def test_a_named_dataset_asked_for_is_a_mention(question, mention):
    from paperscope.text.scope import named_mention

    assert named_mention(question) == mention


def test_a_superlatives_topic_is_a_dataset_only_when_it_is_a_name_after_on():
    from paperscope.text.scope import named_topic

    assert named_topic("Which paper reports the lowest MAE on ShanghaiTech?", "Which papers are about ShanghaiTech?") \
        == "ShanghaiTech"
    assert named_topic("Which paper reports the largest speedup for LLM inference?",
                       "Which papers are about LLM inference?") is None  # a topic: read by the relevance model
    assert named_topic("Which method is the fastest on LLMs?", "Which papers are about LLMs?") is None
    from paperscope.text.asks import asks

    zh = asks("哪篇论文在ShanghaiTech上的MAE最低？")  # a measure written in Latin letters (it was no pick)
    assert zh.most is not None and zh.most.measure[0] == "mae"
    assert named_topic("哪篇论文在ShanghaiTech上的MAE最低？", zh.question) == "ShanghaiTech"


def test_the_papers_that_evaluate_on_a_named_dataset_are_those_that_write_it(seeded):
    """Read by the relevance model, one dataset name made no paper likely enough: over 20,000 papers
    "Which papers report results on ShanghaiTech?" abstained while 10 abstracts name it."""
    ans = seeded.ask("Which papers evaluate on PCQM4Mv2?")
    assert [c.title.split(":")[0] for c in ans.citations] == ["GraphGPT"] and "PCQM4Mv2" in ans.citations[0].quote
    wiki = seeded.ask("Which papers report results on WikiText2?")  # written "wikitext2"
    assert [c.title.split(":")[0] for c in wiki.citations] == ["NestQuant"] and "wikitext2" in wiki.citations[0].quote
    # No citation links in the library: said first, then the papers that name it.
    cites = seeded.ask("Which papers cite PCQM4Mv2?")
    assert cites.text.startswith("The library holds no citation links between papers; these papers name \u201cPCQM4Mv2\u201d")
    assert seeded.ask("哪些论文引用了PCQM4Mv2？").text.startswith("库中没有论文之间的引用关系")
    versus = seeded.ask("Which papers compare against e3nn?")  # FlashTP: "speedups over _e3nn_ and ..."
    assert versus.text.startswith("These papers name \u201ce3nn\u201d in their abstracts; each quote shows how")
    assert [c.title.split(":")[0] for c in versus.citations] == ["FlashTP"] and "e3nn" in versus.citations[0].quote
    every = seeded.find_all("Which papers evaluate on PCQM4Mv2?")
    assert [c.paper_id for c in every.citations] == [c.paper_id for c in ans.citations]
    none = seeded.ask("Which papers evaluate on ShanghaiTech?")  # no seed abstract names it: read as any question
    assert none.abstained
    best = seeded.ask("Which paper reports the lowest perplexity on WikiText2?")
    assert [c.title.split(":")[0] for c in best.citations] == ["NestQuant"] and "6.6" in best.citations[0].quote
    assert "The one paper in the library that addresses this reports a figure for \u201cperplexity\u201d" in best.text


def test_a_named_dataset_among_real_abstracts_lists_every_paper_that_writes_it(tmp_path):
    """Real abstracts naming ShanghaiTech (crowd counting, anomaly detection) among others: each is
    listed, alone or for a superlative ("the lowest MAE on ShanghaiTech" read "ShanghaiTech" as its topic)."""
    from conftest import SHARED, need
    from paperscope.assistant import Assistant
    from paperscope.bench.corpus import iter_records, write_jsonl

    corpus = SHARED / "corpora" / "conference_abstracts.jsonl.gz"
    need(corpus.exists(), f"shared corpus missing at {corpus}")
    named, other = [], []
    for r in iter_records(corpus):
        text = r["title"] + " " + r["abstract"]
        if "ShanghaiTech" in text and len(named) < 8:
            named.append(r)
        elif "hanghai" not in text and re.search(r"crowd|anomal|count", text, re.I) and len(other) < 40:
            other.append(r)
        if len(named) == 8 and len(other) == 40:
            break
    a = Assistant.open(tmp_path / "data")
    a.ingest([write_jsonl(named + other, tmp_path / "papers.jsonl")])
    ids = {r["id"] for r in named}
    every = a.find_all("Which papers report results on ShanghaiTech?")
    assert {c.paper_id for c in every.citations} == ids
    assert all(re.search("shanghaitech", c.quote, re.I) for c in every.citations)
    best = a.ask("Which paper reports the lowest MAE on ShanghaiTech?")
    assert best.citations and {c.paper_id for c in best.citations} <= ids
    common = a.ask("What is the most common dataset for crowd counting?")  # the names counted first
    assert re.match(r"Named most in the abstracts of these \d+ papers, as datasets or benchmarks: ShanghaiTech \(\d+ papers\)",
                    common.text), common.text[:300]
