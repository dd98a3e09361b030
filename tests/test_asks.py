"""Questions that ask for a count of papers or for the newest ones (`text.asks`), answered over a
real library: every paper on the topic is counted and ordered, not just the ones an answer shows."""

from __future__ import annotations

import re

import pytest

from conftest import SHARED, need, topic_library
from paperscope import Assistant
from paperscope.assistant import TextPiece
from paperscope.text.asks import asks, counts_papers, recency, sorted_by_year


@pytest.mark.parametrize("question", [
    "How many papers are about graph neural networks?",
    "How many ICML 2025 papers study MoE?",
    "What is the number of papers on NeRF?",
    "有多少篇论文研究图神经网络？",
    "关于强化学习的论文有几篇？",
])
def test_reads_a_count_of_papers(question):
    assert counts_papers(question)


@pytest.mark.parametrize("question", [
    "How many models were trained to fit the inference-aware scaling laws?",
    "Out of 57 benchmark tasks, on how many did product random forests rank first?",
    "How many parameters does GAPrompt train?",
    "Which papers are about graph neural networks?",
])
def test_a_count_of_a_papers_own_things_is_no_count_of_papers(question):
    assert not counts_papers(question)


@pytest.mark.parametrize("question, expected", [
    ("What are the latest papers on event cameras?", "newest"),
    ("most recent work on diffusion policies", "newest"),
    ("Recent papers on NeRF?", "newest"),
    ("papers on SLAM published recently", "newest"),
    ("最新的脉冲神经网络论文有哪些？", "newest"),
    ("Which is the newest paper on spiking neural networks?", "one"),
    ("What is the latest paper on SLAM?", "one"),
    ("最新的一篇关于事件相机的论文是什么？", "one"),
    # Recency words inside a topic are the topic's.
    ("Which papers prove latest-iterate convergence?", None),
    ("Which papers condition on the most recent observation?", None),
    ("有哪些关于最近邻搜索的论文？", None),
    ("Which papers address MoE latency?", None),
])
def test_reads_recency(question, expected):
    assert recency(question) == expected


@pytest.fixture(scope="module")
def spiking(tmp_path_factory):
    """24 papers titled on spiking neural networks (2004-2025) among 36 learning-theory papers."""
    a, snn = topic_library(tmp_path_factory, "spiking",
                           lambda r: "spiking neural network" in r["title"].lower() and bool(r.get("year")), 24, 36)
    return a, {r["id"]: r for r in snn}


def test_how_many_counts_every_paper_on_the_topic_not_the_ones_shown(spiking):
    a, snn = spiking
    every = a.find_all("Which papers are about spiking neural networks?")
    assert len(every.citations) > 5
    ans = a.ask("How many papers are about spiking neural networks?", max_citations=5)
    assert not ans.abstained
    assert ans.text.startswith(f"{len(every.citations)} papers in the library address this")
    assert "The 5 best are listed" in ans.text
    assert len(ans.citations) == 5
    assert {c.paper_id for c in ans.citations} <= {c.paper_id for c in every.citations} & set(snn)


def test_a_list_cut_at_the_answers_cap_says_more_papers_exist(spiking):
    a, _ = spiking
    cut = a.ask("Which papers are about spiking neural networks?", max_citations=3)
    assert len(cut.citations) == 3
    assert "More papers in the library address this" in cut.text
    whole = a.ask("Which papers are about spiking neural networks?", max_citations=60)
    assert "More papers" not in whole.text


def test_latest_papers_come_newest_first_from_every_paper_on_the_topic(spiking):
    a, snn = spiking
    ans = a.ask("What are the latest papers on spiking neural networks?", max_citations=6)
    years = [c.year for c in ans.citations]
    assert len(years) == 6 and years == sorted(years, reverse=True)
    assert {c.paper_id for c in ans.citations} <= set(snn)
    on_topic = {c.paper_id: c.year for c in a.find_all("Which papers are about spiking neural networks?").citations}
    assert years[0] == max(on_topic.values())
    assert re.search(r"Newest first: \d+ papers in the library address this, published in \d{4}\u2013\d{4}\.", ans.text)
    # Asked without "latest", the same question cites by relevance, not by year.
    plain = a.ask("Which papers are about spiking neural networks?", max_citations=6)
    assert "Newest first" not in plain.text


def test_the_newest_paper_is_of_the_newest_year_on_the_topic(spiking):
    a, snn = spiking
    ans = a.ask("Which is the newest paper on spiking neural networks?")
    newest = max(int(r["year"]) for r in snn.values())
    assert ans.citations and all(c.year == newest for c in ans.citations)
    assert f"the newest are from {newest}" in ans.text
    zh = a.ask("最新的脉冲神经网络论文有哪些？", max_citations=4)
    assert [c.year for c in zh.citations] == sorted((c.year for c in zh.citations), reverse=True)
    assert "按年份从新到旧" in zh.text


@pytest.mark.parametrize("question, expected", [
    ("List papers about RL, sorted by year.", ("List papers about RL.", "newest")),
    ("List papers about RL sorted by year.", ("List papers about RL.", "newest")),
    ("Papers on NeRF, newest first?", ("Papers on NeRF?", "newest")),
    ("Which papers use LiDAR, oldest first?", ("Which papers use LiDAR?", "oldest")),
    ("Papers on SLAM in chronological order", ("Papers on SLAM?", "oldest")),
    ("Papers on diffusion in reverse chronological order", ("Papers on diffusion?", "newest")),
    ("Papers on MoE sorted by date of publication (ascending)", ("Papers on MoE?", "oldest")),
    ("关于强化学习的论文，按年份排序", ("关于强化学习的论文？", "newest")),
    ("Which papers study sorting by year?", None), ("Papers on GANs by year", None),  # a topic; a tally's wording
])
def test_reads_an_order_by_year_after_the_topic(question, expected):
    assert sorted_by_year(question) == expected


def test_papers_sorted_by_year_come_in_that_order(spiking):
    a, snn = spiking
    old = a.ask("Papers on spiking neural networks, oldest first.", max_citations=6)
    years = [c.year for c in old.citations]
    assert len(years) == 6 and years == sorted(years) and "Oldest first:" in old.text
    assert {c.paper_id for c in old.citations} <= set(snn)
    new = a.ask("List papers on spiking neural networks, sorted by year.", max_citations=6)
    assert [c.year for c in new.citations] == sorted((c.year for c in new.citations), reverse=True)
    assert "Newest first:" in new.text  # before: "none covers “sorted”", an abstention


def test_a_list_of_every_paper_comes_in_the_order_of_year_asked(spiking):
    """find_all (`ask --all`, the UI's list mode) read "..., newest first" as a part of the topic: over 20,000
    papers "List all crowd counting papers, newest first." abstained (none covers "newest"), "List the ...,
    newest first." listed 3 of 16. Now the same papers as without the order, in order of year."""
    a, snn = spiking
    plain = a.find_all("Papers on spiking neural networks?")
    assert len(plain.citations) >= 6
    for question, oldest in (("List all papers on spiking neural networks, newest first.", False),
                             ("Papers on spiking neural networks, oldest first.", True),
                             ("脉冲神经网络的论文，按年份排序", False)):
        ans = a.find_all(question)
        years = [c.year for c in ans.citations]
        assert {c.paper_id for c in ans.citations} == {c.paper_id for c in plain.citations}, question
        assert years == sorted(years, reverse=not oldest), question
        assert ("oldest first by publication year" if oldest else ("newest first" if "List" in question else "最新的在前")) \
            in ans.text, ans.text
    # As streamed (the CLI prints the stream, then the verified list only if it differs): markers in listed order.
    streamed = "".join(e.text for e in a.stream_all("Papers on spiking neural networks, oldest first.")
                       if isinstance(e, TextPiece))
    markers = [int(m) for m in re.findall(r"\[(\d+)\]", streamed)]
    assert markers == list(range(1, len(markers) + 1)) and len(markers) == len(plain.citations)
    # A count's best few, in the order asked; the library's records with an order are still records.
    few = a.ask("How many papers on spiking neural networks are there, oldest first?", max_citations=3)
    assert len(few.citations) == 3 and [c.year for c in few.citations] == sorted(c.year for c in few.citations)
    best = a.ask("How many papers on spiking neural networks are there?", max_citations=3)
    assert {c.paper_id for c in few.citations} == {c.paper_id for c in best.citations}, (few.text, best.text)


@pytest.mark.parametrize("question, expected", [
    ("Which papers on large language models do not use reinforcement learning?",
     ("Which papers on large language models?", "reinforcement learning")),
    ("Which papers on robot grasping, excluding suction grippers?", ("Which papers on robot grasping?", "suction grippers")),
    ("LLM papers that are not about chatbots", ("LLM papers?", "chatbots")),
    ("Which papers on LLMs except for those on RLHF?", ("Which papers on LLMs?", "RLHF")),
    ("Which papers on SLAM that don't use GPS and run in real time?", ("Which papers on SLAM that run in real time?", "GPS")),
    # Not exclusions: a property papers state, a finding, "without" (papers say it themselves).
    ("Which quantization papers don't rely on calibration data?", None),
    ("Which papers show that transformers do not need positional encodings?", None),
    ("Which papers study fairness in machine learning without demographic data?", None),
    ("Is anyone still working on decision trees or boosting rather than neural nets?", None),
    # Chinese: not 有没有用 ("is there any using"), 除了 ... 之外 ("besides").
    ("不使用强化学习的大语言模型论文有哪些？", ("大语言模型论文有哪些？", "强化学习")),
    ("哪些关于大语言模型的论文没有使用强化学习？", ("哪些关于大语言模型的论文？", "强化学习")),
    ("有没有用扩散模型的论文？", None),
    ("除了计数对称性之外，有没有利用其他对称性的工作？", None),
])
def test_reads_what_a_question_excludes(question, expected):
    from paperscope.text.asks import excluded

    found = excluded(question)
    assert (tuple(found)[:2] if found else None) == expected


def test_a_negated_mention_is_no_use():
    from paperscope.text.asks import affirmed

    text = affirmed("We align LLMs without reinforcement learning. Our RL-free method works in GPS-denied areas.")
    assert "reinforcement" not in text and "RL-free" not in text and "GPS" not in text
    assert "We align LLMs" in text


def test_papers_that_use_what_the_question_excludes_are_left_out(tmp_path):
    """LLM papers with and without reinforcement learning: "... do not use reinforcement
    learning?" cited the RL ones first before (the clause's words counted as more topic)."""
    from paperscope.bench.corpus import iter_records, write_jsonl

    corpus = SHARED / "corpora" / "conference_abstracts.jsonl.gz"
    need(corpus.exists(), f"shared corpus missing at {corpus}")
    rl = re.compile(r"reinforcement learning|\bRLHF\b|\bRL\b", re.I)
    with_rl, without_rl, theory = [], [], []
    for r in iter_records(corpus):
        text = f"{r['title']} {r['abstract']}"
        if "large language model" in r["title"].lower() and (not rl.search(text) or "reinforcement learning" in text):
            (with_rl if rl.search(text) else without_rl).append(r)
        elif r.get("venue") == "COLT" and len(theory) < 20:
            theory.append(r)
        if len(with_rl) >= 10 and len(without_rl) >= 10 and len(theory) == 20:
            break
    a = Assistant.open(tmp_path / "data")
    a.ingest([write_jsonl(with_rl[:10] + without_rl[:10] + theory, tmp_path / "papers.jsonl")])
    ans = a.ask("Which papers on large language models do not use reinforcement learning?")
    cited = {c.paper_id for c in ans.citations}
    assert len(cited & {r["id"] for r in without_rl[:10]}) >= 5
    assert not cited & {r["id"] for r in with_rl[:10]}
    assert "Left out as asked: papers that use \u201creinforcement learning\u201d" in ans.text
    # In Chinese too (没有使用 was glossed "haven't hasn't doesn't exist").
    zh = a.ask("哪些关于大语言模型的论文没有使用强化学习？")
    assert not {c.paper_id for c in zh.citations} & {r["id"] for r in with_rl[:10]}
    assert len({c.paper_id for c in zh.citations} & {r["id"] for r in without_rl[:10]}) >= 5
    assert "已按要求排除使用“强化学习”的论文" in zh.text
    # Asked plainly, the RL papers are LLM papers like the others.
    plain = {c.paper_id for c in a.ask("Which papers are on large language models?").citations}
    assert plain & {r["id"] for r in with_rl[:10]}


@pytest.mark.parametrize("question", ["Which quantization papers use lattices?", "Which NeRF papers handle dynamic scenes?",
                                      "What diffusion papers are there?", "Which ICML papers study MoE?"])
def test_which_topic_papers_is_a_list_question(seeded, question):
    assert seeded.relevance.analyze(question, seeded.catalog.snapshot()).kind == "list"


@pytest.mark.parametrize("question, expected", [
    ("Give me three papers on federated learning.", ("Give me papers on federated learning.", 3)),
    ("Top 3 papers on diffusion policies?", ("papers on diffusion policies?", 3)),
    ("Show me 5 papers about SLAM in dynamic environments.", ("Show me papers about SLAM in dynamic environments.", 5)),
    ("What are the top 5 papers on GNNs?", ("What are papers on GNNs?", 5)),
    ("推荐三篇关于联邦学习的论文", ("推荐关于联邦学习的论文", 3)),
    # A number that is a detail of the papers asked about, not how many to show.
    ("Which papers use 3 cameras?", None),
    ("Which papers train on 10 papers' worth of data?", None),
    ("How many models were trained to fit the inference-aware scaling laws?", None),
])
def test_reads_how_many_papers_to_show(question, expected):
    from paperscope.text.asks import asked_number

    assert asked_number(question) == expected


@pytest.mark.parametrize("question, expected", [
    ("Who works on event cameras?", "Which papers are about event cameras?"),
    ("Which authors have the most papers on spiking neural networks?", "Which papers are about spiking neural networks?"),
    ("Who are the leading researchers in federated learning?", "Which papers are about federated learning?"),
    ("谁在研究事件相机？", "谁在研究事件相机？"),
    ("Who wrote it?", None),
    ("Who are the authors of SLiM?", None),
])
def test_reads_who_works_on_a_topic(question, expected):
    from paperscope.text.asks import asks_who

    assert asks_who(question) == expected


def test_top_authors_counts_each_author_once_per_paper():
    from paperscope.answer.shape import top_authors
    from paperscope.records import Evidence, Paper

    def ev(i: int, *authors: str) -> Evidence:
        return Evidence(i, Paper(paper_id=f"p{i}", abstract="x", authors=list(authors)), 0.9, [])

    papers = [ev(1, "A", "B"), ev(2, "B", "C"), ev(3, "C", "B", "B"), ev(4, "D")]
    assert top_authors(papers) == [("B", 3), ("C", 2)]


def test_a_number_of_papers_asked_for_is_that_many(spiking):
    a, snn = spiking
    three = a.ask("Give me three papers on spiking neural networks.")
    assert len(three.citations) == 3 and {c.paper_id for c in three.citations} <= set(snn)
    top = a.ask("Top 2 papers on spiking neural networks?")
    assert not top.abstained and len(top.citations) == 2


def test_who_works_on_a_topic_names_the_authors_of_most_of_its_papers(spiking):
    a, snn = spiking
    ans = a.ask("Who works on spiking neural networks?")
    assert ans.citations and {c.paper_id for c in ans.citations} <= set(snn)
    line = next(ln for ln in ans.text.splitlines() if ln.startswith(("Authors with the most", "No author wrote")))
    every = a.find_all("Which papers are about spiking neural networks?").citations
    named = re.findall(r"([^,:]+?) \((\d+)\)", line.split(": ", 1)[-1])
    assert named  # some authors wrote several of these 24 papers
    for name, count in named:
        assert int(count) >= 2
        assert sum(name.strip() in c.authors for c in every) >= int(count)


@pytest.mark.parametrize("question", ["Who wrote NestQuant?", "Who are the authors of SLiM?", "Who wrote the GAPrompt paper?",
                                      "When was Oracle-MoE published?", "Which venue published NestQuant?", "SLiM 的作者是谁？"])
def test_a_question_about_a_named_papers_record_answers_from_that_paper(seeded, question):
    """"Who wrote NestQuant?" abstained over the seeds that hold it: "wrote" is in no abstract."""
    from paperscope.text.asks import asks_record

    assert asks_record(question)
    ans = seeded.ask(question)
    assert len(ans.citations) == 1
    c = ans.citations[0]
    assert c.title.split(":")[0].lower() in question.lower()
    assert c.venue and str(c.year) in ans.text
    if re.search(r"wrote|authors|作者", question):
        assert all(a in ans.text for a in c.authors)  # every author, not "First Author et al."


def test_a_record_question_naming_no_paper_of_the_library_abstains(seeded):
    ans = seeded.ask("Who wrote the PointNet++ paper?")
    assert ans.abstained and not ans.citations


@pytest.mark.parametrize("question", ["What are the open problems in federated learning?",
                                      "What are the open questions in causal discovery?"])
def test_open_problems_frame_the_question_and_open_is_no_topic_word(seeded, question):
    """As a topic word "open" ranked "Open-Vocabulary Federated Learning" first over 20,000 papers."""
    q = seeded.relevance.analyze(question, seeded.catalog.snapshot())
    words = {w for g, _ in q.groups for w in g}
    assert q.kind == "list" and "open" not in words and words & {"feder", "causal"}


@pytest.mark.parametrize("question", ["How many papers are in the library?", "How many papers are there?", "有多少篇论文？"])
def test_how_many_papers_in_all_counts_the_library(seeded, question):
    """It abstained: "in the library" is read as scope, and "How many papers are?" named no topic. Now the
    records' count (`text.facts`), by venue; no paper is cited for it."""
    total = seeded.catalog.paper_count()
    ans = seeded.ask(question, max_citations=5)
    assert not ans.abstained and not ans.citations
    assert ans.text.startswith((f"The library holds {total} papers.", f"库中共有 {total} 篇论文"))


def test_asks_reads_every_shape_once():
    from paperscope.text.asks import Asks, asks

    assert asks("Top 3 papers on diffusion policies?") == Asks("papers on diffusion policies?", 3)
    who = asks("Who works on event cameras?")
    assert (who.question, who.who, who.deep, who.every) == ("Which papers are about event cameras?", True, True, True)
    latest = asks("What are the latest papers on event cameras?")
    assert (latest.order, latest.deep, latest.number) == ("newest", True, None)
    cut = asks("Which papers on LLMs do not use RL?")
    assert cut.exclusion is not None and cut.exclusion.thing == "RL" and not cut.every
    assert asks("Which papers address MoE latency?") == Asks("Which papers address MoE latency?")


@pytest.mark.parametrize("question, key", [("Regarding NestQuant, which lattice is used?", "Gosset"),
                                           ("In the SLiM paper, what accuracy improvement is reported on LLaMA-2-7B?",
                                            "5.66%")])
def test_a_question_after_the_paper_it_is_about_quotes_the_answer(seeded, question, key):
    """Read as 'other' ("Regarding X, which ...?"), they quoted the paper's most topical sentence."""
    assert seeded.relevance.analyze(question, seeded.catalog.snapshot()).kind == "factoid"
    ans = seeded.ask(question)
    assert len(ans.citations) == 1 and key in ans.citations[0].quote


def test_a_leading_clause_with_a_relative_where_keeps_its_list_reading(seeded):
    q = "For my thesis on deep random feature models, where only the last layer is trained, which papers are relevant?"
    assert seeded.relevance.analyze(q, seeded.catalog.snapshot()).kind == "list"


@pytest.mark.parametrize("question, topic, kind", [
    ("Which venues publish most on crowd counting?", "crowd counting", "venue"),
    ("Where are papers on NeRF published?", "NeRF", "venue"),
    ("At which conferences do papers on event cameras appear?", "event cameras", "venue"),
    ("What conferences are the papers on SLAM from?", "SLAM", "venue"),
    ("How has research on NeRF evolved over the years?", "NeRF", "year"),
    ("How many papers on event cameras per year?", "event cameras", "year"),
    ("In which years were papers on crowd counting published?", "crowd counting", "year"),
    ("What is the trend of research on federated learning?", "federated learning", "year"),
    ("Event camera papers by year", "Event camera", "year"),
])
def test_questions_for_the_papers_on_a_topic_by_venue_or_year(question, topic, kind):
    from paperscope.text.asks import asks_record
    from paperscope.text.tallies import tallied

    assert tallied(question) == (f"Which papers are about {topic}?", kind)
    assert not asks_record(question)  # "Where are papers on NeRF published?" was read as the record of "NeRF"


@pytest.mark.parametrize("question", [
    "Which venue published Oracle-MoE?", "Where was LocMoE published?",  # one paper's record
    "How has accuracy improved over the years?", "Which papers study time series over the years?",  # content
    "Which papers on forecasting study trends?", "Which papers address MoE latency?",
])
def test_questions_that_are_no_tally(question):
    from paperscope.text.tallies import tallied

    assert tallied(question) is None


@pytest.mark.parametrize("question", ["Who has written the most papers on spiking neural networks?",
                                      "Who are the authors of the papers on spiking neural networks?",
                                      "Who wrote the most papers on spiking neural networks?"])
def test_who_wrote_the_papers_on_a_topic_is_who_works_on_it(spiking, question):
    """Before, "Who are the authors of the papers on X?" read as one paper's record (one citation), and "Who
    has written the most papers on X?" listed papers without saying who."""
    from paperscope.text.asks import asks_record, asks_who

    a, snn = spiking
    assert asks_who(question) == "Which papers are about spiking neural networks?" and not asks_record(question)
    ans = a.ask(question)
    assert ans.text.startswith(("Authors with the most of the", "No author wrote more than one"))  # said first
    assert len(ans.citations) > 3 and {c.paper_id for c in ans.citations} <= set(snn)


def _tally(line: str) -> tuple[int, list[tuple[str, int]]]:
    n = int(re.search(r"of the (\d+) papers", line).group(1))
    return n, [(k.strip(), int(v)) for k, v in re.findall(r"([^,:;]+?) \((\d+)\)", line.split(": ", 1)[1])]


def test_the_papers_on_a_topic_counted_by_venue_and_by_year(spiking):
    a, snn = spiking
    every = {c.paper_id: c for c in a.find_all("Which papers are about spiking neural networks?").citations}
    venues = a.ask("Which venues publish most on spiking neural networks?")
    assert venues.text.startswith("By venue, of the ")
    n, counts = _tally(venues.text.splitlines()[0])
    assert n > 5 and sum(k for _, k in counts) == n and [k for _, k in counts] == sorted((k for _, k in counts), reverse=True)
    for venue, k in counts:  # each venue's count is of papers on the topic at that venue
        assert sum(c.venue == venue for c in every.values()) >= k
    years = a.ask("How has research on spiking neural networks evolved over the years?")
    line = years.text.splitlines()[0]
    assert line.startswith("By year, of the ") and "; most in " in line
    n, counts = _tally(line.split("; most in ")[0])
    assert [int(y) for y, _ in counts] == sorted(int(y) for y, _ in counts) and sum(k for _, k in counts) == n
    assert {int(y) for y, _ in counts} <= {c.year for c in every.values()}
    per_year = a.ask("How many papers on spiking neural networks per year?")  # a count: every paper, by year
    assert per_year.text.startswith(f"{len(every)} papers in the library address this, best match first. By year: ")
    zh = a.ask("脉冲神经网络的论文发表在哪些会议上？")
    assert zh.text.startswith("按会议统计，库中与此相关的") and {c.paper_id for c in zh.citations} <= set(snn)


@pytest.mark.parametrize("question, topic", [
    ("What datasets are used in the quantization papers?", "quantization"),
    ("Which models do the papers on quantization evaluate?", "quantization"),
    ("How do the MoE papers differ?", "MoE"), ("What do the MoE papers have in common?", "MoE"),
    ("What problems do the SLAM papers address?", "SLAM"),
    ("What benchmarks are used for text-to-SQL?", "text-to-SQL"),
    ("What loss functions are used for metric learning?", "metric learning"),  # was a topic word
    ("Which sensors are commonly used for terrain classification?", "terrain classification"),
    ("What losses are used to train NeRF?", "NeRF"),
    # Which one the papers use most: for the reader to count from their quotes (read as a judgement, before).
    ("What is the most common dataset for crowd counting?", "crowd counting"),
    ("Which benchmarks are most widely used in NER?", "NER"),
    ("人群计数最常用的数据集是什么？", "人群计数"), ("人群计数的论文都用了哪些数据集？", "人群计数"),
])
def test_a_question_about_the_papers_on_a_topic_as_a_group(question, topic):
    from paperscope.text.tallies import grouped

    topical = f"哪些论文研究{topic}？" if "\u4e00" <= question[0] <= "\u9fff" else f"Which papers are about {topic}?"
    assert grouped(question) == topical
    wants = asks(question)
    assert wants.question == topical and wants.judged is None and wants.most is None


@pytest.mark.parametrize("question", [
    "What datasets do these papers use?", "How do the two papers differ?", "What do the cited papers have in common?",
    "Which of the quantization papers is the fastest?", "Which papers cite the MoE papers?", "List all the papers on NeRF.",
    "What is the main contribution of the GAPrompt paper?",
    "List the position papers.", "What do the survey papers cover?",  # a kind of paper (`relevance.contribution`)
    "What is the most used benchmark in the library?", "What features are used in the model?",  # no topic
])
def test_questions_about_no_topic_group(question):
    from paperscope.text.tallies import grouped

    assert grouped(question) is None


def test_the_group_is_every_paper_on_the_topic_each_quoting_what_is_asked(seeded):
    """Before, "datasets" and "differ" were topic words: each question cited one paper of two."""
    quant = seeded.ask("What datasets are used in the quantization papers?")
    titles = {c.title.split(":")[0] for c in quant.citations}
    assert {"SLiM", "NestQuant"} <= titles
    nest = next(c for c in quant.citations if c.title.startswith("NestQuant"))
    assert "wikitext2" in nest.quote  # the sentence that names its dataset
    moe = seeded.ask("How do the MoE papers differ?")
    assert len(moe.citations) >= 2 and all("MoE" in c.title or "Experts" in c.title for c in moe.citations)


@pytest.mark.parametrize("question, name", [("What does SLiM stand for?", "SLiM"), ("What is GAPrompt short for?", "GAPrompt"),
                                            ("SLiM的全称是什么？", "SLiM")])
def test_what_an_acronym_stands_for_is_what_the_paper_is(seeded, question, name):
    """Before, "stand" was a topic word: "No paper ... none covers “stand”"."""
    ans = seeded.ask(question)
    assert not ans.abstained and ans.citations[0].title.startswith(f"{name}:")
    assert name.lower() in ans.citations[0].quote.lower()  # the sentence that introduces it


@pytest.mark.parametrize("question", ["Which paper introduced Oracle-MoE?", "Who proposed NestQuant?",
                                      "Oracle-MoE 是哪篇论文提出的？"])
def test_which_paper_introduced_a_named_method_is_that_papers_record(seeded, question):
    ans = seeded.ask(question)
    assert len(ans.citations) == 1 and ans.citations[0].title.split(":")[0] in question


def test_which_paper_introduced_a_method_no_paper_is_named_after(seeded):
    """Before, "Who proposed mixture of experts?" cited the MoE papers as if they had."""
    ans = seeded.ask("Who proposed mixture of experts?")
    assert ans.text.startswith("No paper in the library is named \u201cmixture of experts\u201d, and the abstracts do not say")
    assert ans.citations and all("MoE" in c.title or "Experts" in c.title for c in ans.citations)


def test_a_name_of_capitalised_words_is_named_by_its_initials():
    from paperscope.relevance.similar import named

    titles = {"y": "You Only Look Once: Unified, Real-Time Object Detection", "s": "Sample, Scrutinize and Scale: Search"}
    assert named("Which paper introduced YOLO?", titles) == ["y"]
    assert named("Which paper introduced SSS?", titles) == []  # "and" is no capitalised word: no initials


def test_the_datasets_a_topics_papers_name_are_counted_first():
    """"What is the most common dataset for crowd counting?" listed the papers on crowd counting; the reader
    counted the names in their quotes. Over 20,000 papers: ShanghaiTech (5), UCF_CC_50 (3), ..."""
    from paperscope.answer.datasets import asks_datasets, dataset_names
    from paperscope.records import Evidence, Paper

    abstracts = {
        "Crowd counting with attention": ["We propose X.", "Experiments on the ShanghaiTech and UCF_CC_50 datasets show gains."],
        "Density maps for crowds": ["Results on ShanghaiTech, UCF-QNRF and WorldExpo'10 benchmarks improve the MAE."],
        "ScaleNet: counting at scale": ["ScaleNet uses a CNN.", "We evaluate ScaleNet on ShanghaiTech and UCF_CC_50."],
        "Counting in videos": ["Our FlowCount model tracks people.", "It reaches 12.3 MAE on the UCF-QNRF dataset."],
    }
    cited = [Evidence(i, Paper(paper_id=str(i), title=t, abstract=" ".join(s)), 1.0, []) for i, (t, s) in
             enumerate(abstracts.items(), 1)]
    question = "What is the most common dataset for crowd counting?"
    assert asks_datasets(question) and not asks_datasets("Which papers study crowd counting?")
    names = dataset_names(cited, list(abstracts.values()), question)
    # ScaleNet and FlowCount are one paper's own (its title, or one paper), MAE and CNN no datasets.
    assert names == [("ShanghaiTech", 3), ("UCF_CC_50", 2), ("UCF-QNRF", 2)]
    assert dataset_names(cited, list(abstracts.values()), "What benchmarks are used for UCF-QNRF?") == [
        ("ShanghaiTech", 3), ("UCF_CC_50", 2)]  # the question's own words are no answer
