"""Questions that ask for a kind of contribution ("mainly theoretical", "a new dataset or
benchmark", "release their code") rather than a topic: told apart from topical questions, and
answered by judging each paper's own claim, not by topical relevance (which cited 29 of the 158
gold papers of such questions over the sixteen hand-labelled libraries, and abstained on
dev2's theory question)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from conftest import SHARED, need
from paperscope import Assistant
from paperscope.relevance import contribution
from paperscope.relevance.question import analyze


def _kind(question: str) -> str | None:
    return contribution.asked(analyze(question, lambda stems: {s: 1.0 for s in stems}))


@pytest.mark.parametrize("question, kind", [
    ("Which papers are mainly theoretical, with proofs as the main contribution?", "theory"),
    ("Are there papers whose main contribution is a theorem or a bound rather than an empirical system?", "theory"),
    ("Which of these papers are primarily theoretical?", "theory"),
    # The theory words negated: the papers that are not mainly theory.
    ("Which papers are empirical rather than theoretical?", "empirical"),
    ("Which papers are mainly empirical?", "empirical"),
    ("Which papers are theoretical rather than empirical?", "theory"),
    ("Which papers run empirical studies of LLMs?", None),
    ("Which papers are both theoretical and empirical?", None),
    ("Which papers propose a new dataset or benchmark?", "dataset"),
    ("Did anyone put out a new benchmark for evaluating models?", "dataset"),
    ("Which papers say they release their code or trained models?", "code"),
    # A topic besides the kind: the relevance model answers these as before.
    ("Which papers give theoretical guarantees for mixture of experts?", None),
    ("Is there a new benchmark for protein folding?", None),
    ("Which papers release code for robot grasping?", None),
    # The kind's words without asking for the kind.
    ("Which papers use benchmarks?", None),
    ("Which papers build on learning theory?", None),
    ("Which papers study code generation?", None),
    # Genres: a paper's kind as a whole ("position" is otherwise a topic word: positional encodings).
    ("Which of these are position papers?", "position"),
    ("Which papers argue for a position rather than presenting new methods?", "position"),
    ("Are there any survey papers?", "survey"),
    ("Which papers are surveys?", "survey"),
    ("Any literature reviews?", "survey"),
    ("Is there a survey of graph neural networks?", None),  # a genre with a topic: `genre`
    ("Give me an overview of the papers?", None),  # a request to the assistant, not for surveys
    ("Which papers analyze survey data?", None),
    ("Did anyone run a survey of nurses about robots?", None),
    ("Which papers study peer review?", None),
])
def test_a_question_asking_for_a_contribution_kind_is_told_from_a_topical_one(question, kind):
    assert _kind(question) == kind


def test_dataset_and_code_judged_on_the_papers_own_claim():
    judge = contribution.judge
    assert judge("dataset", "", ["We introduce ImageNet-X, a new benchmark of 10,000 annotated images."]).probability > .5
    assert judge("dataset", "", ["In this paper we present TQA, a dataset of 5,000 questions."]).sentence == 0
    # The resource as the setting of an evaluation, an adjective, a need, or part of another word.
    for sentence in ("Our method outperforms strong baselines on three new benchmarks.",
                     "Experiments on established benchmarks confirm the gains.",
                     "Adapting to a new camera requires collecting an entirely new training dataset.",
                     "We propose corpus-aware features for cross-dataset transfer."):
        assert judge("dataset", "", [sentence]).probability < .5, sentence
    # A resource named in the title only is a weaker match (related), not a citation.
    assert judge("dataset", "Dataset Geography", ["We study how datasets map to users."]).probability < .5
    for sentence in ("Code is available at https://github.com/x/y.", "We will release our code and models.",
                     "The implementation is publicly available."):
        assert judge("code", "", [sentence]).probability > .5, sentence
    assert judge("code", "", ["We model code generation as search over programs."]).probability < .5


def test_the_theory_model_reads_style_not_topic():
    """Fitted on COLT/ALT against applied venues over style words only: a theory abstract about
    images is theory, an empirical one about bandits (a COLT topic) is not, and the quote is the
    paper's own result, not the prior work it cites."""
    theory = ["Prior work provides regret bounds for image classifiers trained online.",
              "We study the sample complexity of learning image classifiers with convolutional networks.",
              "We prove a tight lower bound on the number of labelled images needed and show it is minimax optimal."]
    empirical = ["We present a new bandit system for news recommendation.",
                 "Extensive experiments on three real-world datasets show that it outperforms state-of-the-art baselines.",
                 "We demonstrate its effectiveness in a large online deployment."]
    t, e = contribution.judge("theory", "", theory), contribution.judge("theory", "", empirical)
    cite_at = json.loads(contribution.MODEL_FILE.read_text())["cite_at"]
    assert t.probability >= cite_at > e.probability
    assert t.sentence == 2


def test_theory_question_over_the_seeds_cites_the_theory_papers_with_their_result(seeded, monkeypatch):
    question = "Which papers are mainly theoretical, with proofs and guarantees as the main contribution?"
    ans = seeded.ask(question)
    assert not ans.abstained, ans.text
    assert len(ans.citations) >= 4
    theory_word = re.compile(r"\b(prov\w*|proof|theor\w*|bound\w*|regret|guarantee\w*|converge\w*|analy\w*)\b", re.I)
    by_id = {p.paper_id: p for p in seeded.catalog.papers([c.paper_id for c in ans.citations]).values()}
    for c in ans.citations:
        assert c.quote in by_id[c.paper_id].abstract  # verbatim
        assert theory_word.search(c.quote), c.quote
    # Judged by topical relevance instead (as before), the question cites far fewer of them.
    from paperscope import gather

    monkeypatch.setattr(gather, "asked", lambda q, asked_as=None: None)
    assert len(seeded.ask(question).citations) < len(ans.citations) - 2


def test_empirical_rather_than_theoretical_cites_no_theory_paper(seeded):
    """The theory kind read "rather than theoretical" as asking for theory, and cited the theory
    papers; the empirical kind is the theory model's complement."""
    theory = seeded.ask("Which papers are mainly theoretical, with proofs and guarantees as the main contribution?")
    empirical = seeded.ask("Which papers are empirical rather than theoretical?")
    assert not empirical.abstained and len(empirical.citations) >= 4, empirical.text
    assert not {c.paper_id for c in theory.citations} & {c.paper_id for c in empirical.citations}
    by_id = {p.paper_id: p for p in seeded.catalog.papers([c.paper_id for c in empirical.citations]).values()}
    for c in empirical.citations:
        assert c.quote in by_id[c.paper_id].abstract
        judged = contribution.judge("theory", c.title, [c.quote])
        assert judged.probability < json.loads(contribution.MODEL_FILE.read_text())["cite_at"], c.quote


def test_a_chinese_question_asks_for_the_same_kinds(seeded):
    """Told from the question as written (主要 "mainly", 新的 "new") and its gloss, whose
    alternatives ("new or newly or meso-") count as the kind's word when one of them is."""
    english = {c.paper_id for c in seeded.ask("Which papers are mainly theoretical?").citations}
    chinese = {c.paper_id for c in seeded.ask("哪些论文主要是理论工作？").citations}
    assert len(english) >= 4 and chinese == english
    code = seeded.ask("哪些论文公开了代码？")
    assert len(code.citations) >= 3
    assert all(re.search(r"github|code|available|release", c.quote, re.I) for c in code.citations)


def test_find_all_lists_the_papers_that_contribute_a_dataset(tmp_path):
    """Papers whose titles announce a dataset or benchmark among learning-theory papers: the
    list names most of them (their abstracts say "we introduce ... a new benchmark") and no
    theory paper; quotes are the sentences that say so."""
    from paperscope.bench.corpus import iter_records, write_jsonl

    corpus = SHARED / "corpora" / "conference_abstracts.jsonl.gz"
    need(corpus.exists(), f"shared corpus missing at {corpus}")
    titled = re.compile(r":\s+(A|An)\s+(?:[\w-]+\s+){0,5}(Dataset|Benchmark|Corpus)\b")
    datasets, theory = [], []
    for r in iter_records(corpus):
        if r.get("venue") in ("ACL", "NAACL") and titled.search(r["title"]) and len(datasets) < 12:
            datasets.append(r)
        elif r.get("venue") == "COLT" and len(theory) < 28:
            theory.append(r)
        if len(datasets) == 12 and len(theory) == 28:
            break
    a = Assistant.open(tmp_path / "data")
    a.ingest([write_jsonl(datasets + theory, tmp_path / "papers.jsonl")])
    ans = a.find_all("Which papers propose a new dataset or benchmark?")
    listed = {c.paper_id for c in ans.citations}
    assert len(listed & {r["id"] for r in datasets}) >= 9
    assert not listed & {r["id"] for r in theory}
    resource = re.compile(r"\b(dataset|benchmark|corpus|corpora|data set)s?\b", re.I)
    assert all(resource.search(c.quote) for c in ans.citations)
    # Over the theory papers alone it abstains, naming the contribution no paper makes.
    b = Assistant.open(tmp_path / "theory")
    b.ingest([write_jsonl(theory, tmp_path / "theory.jsonl")])
    none = b.ask("Which papers propose a new dataset or benchmark?")
    assert none.abstained and not none.citations
    assert contribution.CLAIMS["dataset"] in none.text.splitlines()[0]


def test_shipped_theory_model_is_what_contribution_train_fits(tmp_path):
    corpus = SHARED / "corpora" / "conference_abstracts.jsonl.gz"
    need(corpus.exists(), f"shared corpus missing at {corpus}")
    pytest.importorskip("sklearn")
    out = tmp_path / "contribution.json"
    subprocess.run([sys.executable, "-m", "paperscope.bench.contribution_train", "--corpus", str(corpus),
                    "--out", str(out)], check=True, capture_output=True)
    fitted, shipped = json.loads(out.read_text()), json.loads(contribution.MODEL_FILE.read_text())
    assert fitted["stems"] == shipped["stems"] == contribution.cue_stems()
    assert fitted["weights"] == pytest.approx(shipped["weights"], abs=1e-3)
    assert fitted["info"]["cv_auc"] > 0.95


@pytest.mark.parametrize("question, kind, topic", [
    ("Is there a survey of graph neural networks?", "survey", "graph neural networks"),
    ("Any reviews on diffusion models?", "survey", "diffusion models"),
    ("Are there papers that review the literature on federated learning?", "survey", "federated learning"),
    ("Which position papers discuss AI agents?", "position", "AI agents"),
    ("有没有关于图神经网络的综述？", "survey", "图神经网络"),
    # The word as a topic, a questionnaire, a product review: no genre.
    ("Which papers analyze survey data?", None, None),
    ("Did anyone run a survey of nurses about robots?", None, None),
    ("Did anyone study the overall opinion a long document, like a review, expresses toward people?", None, None),
    ("Which papers classify product reviews?", None, None),
    ("Which papers propose new positional encodings?", None, None),
    # A new dataset or benchmark with a topic; not the datasets papers use, nor "a dataset, or a toolset".
    ("Which papers propose benchmarks for named entity recognition?", "dataset", "named entity recognition"),
    ("Which datasets exist for text-to-SQL?", "dataset", "text-to-SQL"),
    ("Are there datasets for crowd counting?", "dataset", "crowd counting"),
    ("Is there a benchmark for evaluating LLM agents?", "dataset", "evaluating LLM agents"),
    ("Which NER papers introduce new corpora?", "dataset", "NER"),
    ("有哪些人群计数的数据集？", "dataset", "人群计数"),
    ("What datasets are used for crowd counting?", None, None),
    ("Which papers evaluate on benchmarks for NER?", None, None),
    ("Which papers introduce a new dataset?", None, None),  # the kind alone (`asked`)
    ("Are there papers that release a new dataset, or a toolset for generating one?", None, None),
    ("有没有论文在做神经架构搜索的公开基准，让没有大算力的人也能复现实验？", None, None),
    ("它们用了哪些数据集？", None, None),
    ("Has anyone built a dataset for sarcasm detection?", "dataset", "sarcasm detection"),
    # Not after a question for papers, or not a new one: one paper's detail, the datasets papers use.
    ("How do LLMs perform on new benchmarks for math reasoning?", None, None),
    ("Does NestQuant introduce a new benchmark?", None, None), ("Is there a benchmark on which GPT-4 fails?", None, None),
    ("Which papers evaluate on a new dataset for NER?", None, None), ("有哪些常用的人群计数数据集？", None, None),
    ("有哪些新闻推荐的数据集？", "dataset", "新闻推荐"),  # 新闻 keeps its 新
    ("有哪些提出新数据集的命名实体识别论文？", "dataset", "命名实体识别"),
])
def test_a_genre_asked_with_a_topic_is_told_apart_and_removed_from_the_topic(question, kind, topic):
    g = contribution.genre(question)
    if kind is None:
        assert g is None
        return
    assert g is not None and g.kind == kind
    assert topic in g.topic
    assert not re.search(r"surve|review|position|综述|dataset|benchmark|corpora|数据集", g.topic, re.I)


def test_an_overview_asked_of_the_assistant_is_no_genre():
    """"Give me an overview of the papers on X" asks for the papers on X (it abstained: no survey)."""
    assert contribution.genre("Give me an overview of the papers on event cameras.") is None
    assert contribution.genre("Can you write a short summary of the work on event cameras?") is None
    assert contribution.genre("Is there an overview of event cameras?").kind == "survey"


def test_genre_judged_on_the_title_or_the_papers_own_words():
    judge = contribution.judge
    for title in ("A Survey on Universal Adversarial Attack", "Bayesian Federated Learning: A Survey",
                  "Formation control: a review and a new consideration", "Goal Recognition Design - Survey"):
        assert judge("survey", title, ["We study x."]).probability > .5, title
    said = judge("survey", "Few-Shot Learning on Graphs", ["Graphs are common.", "In this survey, we organize the work."])
    assert said.probability > .5 and said.sentence == 1
    # "survey" as a method or a statistic, a hyphenated "Peer-Review", background reviewing.
    for title, sentences in (("Learning from Survey Training Samples: Rate Bounds", ["We prove bounds."]),
                             ("Stochastic block model entropy and broadcasting on trees with survey", ["We show x."]),
                             ("Community Perspectives on Issues and Ideals in Conference Peer-Review", ["We ask."]),
                             ("Sparse Attention", ["We first review prior work on attention.", "We propose x."])):
        assert judge("survey", title, sentences).probability < .5, title
    pos = judge("position", "Position: Trustworthy AI Agents Require Formal Methods",
                ["Agents act.", "This position paper argues x."])
    assert pos.probability > .5 and pos.sentence == 1
    assert judge("position", "Changing the World", ["This position paper maps out the arguments."]).probability > .5
    assert judge("position", "Rethinking Positional Encoding", ["We argue that position matters."]).probability < .5


def test_position_papers_over_the_seeds_are_the_position_papers(seeded, monkeypatch):
    """The three ICML 2025 "Position:" papers of the seeds, alone or with a topic, in English or
    Chinese; read as a topic word (as before), "position" cited the positional-encoding paper."""
    from paperscope import gather

    titles = {p.paper_id: p.title for p in seeded.catalog.papers(list(seeded.catalog.snapshot().positions)).values()}
    position = {pid for pid, t in titles.items() if t.startswith("Position:")}
    assert len(position) == 3
    for question in ("Which of these are position papers?", "List the position papers.", "哪些是立场论文？"):
        cited = {c.paper_id for c in seeded.ask(question).citations}
        assert cited == position, question
    data = seeded.ask("Is there a position paper about data?")
    assert [titles[c.paper_id] for c in data.citations] == [
        t for t in titles.values() if t.startswith("Position: When Incentives Backfire")]
    # Where no position paper is on the topic, the answer abstains naming the genre.
    moe = seeded.ask("Is there a position paper on mixture of experts?")
    assert moe.abstained and contribution.CLAIMS["position"] in moe.text.splitlines()[0]
    assert re.search(r"MoE|Mixtures of Experts", "\n".join(moe.text.splitlines()[1:]))  # the topic's papers, nearest
    monkeypatch.setattr(gather, "asked", lambda q, asked_as=None: None)
    monkeypatch.setattr(gather, "genre", lambda question: None)
    assert {c.paper_id for c in seeded.ask("Which of these are position papers?").citations} != position
    assert not {c.paper_id for c in seeded.ask("Is there a position paper about data?").citations} <= position


def test_surveys_on_a_topic_are_cited_and_listed_and_no_other_paper(tmp_path, monkeypatch):
    """Real abstracts: the reinforcement-learning surveys among RL papers, surveys of other
    fields and robot-grasping papers. `ask` and `find_all` name RL surveys only; asked for a
    survey of grasping (there is none) the answer abstains naming the genre. With "survey" read
    as one more topic word (as before), that question cited four grasping papers that are not
    surveys."""
    from paperscope import gather
    from paperscope.bench.corpus import iter_records, write_jsonl

    corpus = SHARED / "corpora" / "conference_abstracts.jsonl.gz"
    need(corpus.exists(), f"shared corpus missing at {corpus}")
    rl, survey = re.compile(r"reinforcement learning", re.I), re.compile(r"\b(survey|review|overview)\b", re.I)
    groups: dict[str, list[dict]] = {"rl_surveys": [], "rl": [], "surveys": [], "grasping": []}
    wanted = {"rl_surveys": 3, "rl": 25, "surveys": 10, "grasping": 12}
    for r in iter_records(corpus):
        t = r["title"]
        key = ("rl_surveys" if rl.search(t) and re.search(r"\bSurvey\b", t) else "rl" if rl.search(t) and not survey.search(t)
               else "surveys" if re.search(r": A Survey\b", t) else "grasping" if re.search(r"\bgrasp", t, re.I)
               and not survey.search(t) else None)
        if key and len(groups[key]) < wanted[key]:
            groups[key].append(r)
        if all(len(groups[k]) == n for k, n in wanted.items()):
            break
    assert len(groups["rl_surveys"]) == 3
    a = Assistant.open(tmp_path / "data")
    a.ingest([write_jsonl([r for rs in groups.values() for r in rs], tmp_path / "papers.jsonl")])
    ids = {k: {r["id"] for r in rs} for k, rs in groups.items()}
    question = "Are there any surveys on reinforcement learning?"
    cited = {c.paper_id for c in a.ask(question).citations}
    assert len(cited & ids["rl_surveys"]) >= 2 and cited <= ids["rl_surveys"]
    listed = {c.paper_id for c in a.find_all(question).citations}
    assert len(listed & ids["rl_surveys"]) >= 2 and listed <= ids["rl_surveys"]
    none = a.ask("Is there a survey on robotic grasping?")
    assert none.abstained and contribution.CLAIMS["survey"] in none.text.splitlines()[0]
    nearest = "\n".join(none.text.splitlines()[1:])
    assert any(r["title"] in nearest for r in groups["grasping"])
    monkeypatch.setattr(gather, "genre", lambda question: None)
    assert {c.paper_id for c in a.ask("Is there a survey on robotic grasping?").citations} & ids["grasping"]


def test_datasets_on_a_topic_are_the_papers_that_introduce_one_quoting_that_sentence(tmp_path):
    """Real abstracts: named entity recognition papers, some introducing a corpus or benchmark.
    Read as topic words, "benchmarks" cited the NER papers that evaluate on benchmarks (over 20,000
    papers, 15, the first "Experiments on three benchmarks show ..."); asked for with the topic,
    the papers cited are those that introduce one, each quoting the sentence that says so."""
    from paperscope.bench.corpus import iter_records, write_jsonl

    corpus = SHARED / "corpora" / "conference_abstracts.jsonl.gz"
    need(corpus.exists(), f"shared corpus missing at {corpus}")
    ner = re.compile(r"named entity recognition|\bNER\b", re.I)
    data = re.compile(r"\b(Dataset|Corpus|Benchmark)\b")
    groups: dict[str, list[dict]] = {"datasets": [], "methods": []}
    wanted = {"datasets": 5, "methods": 25}
    for r in iter_records(corpus):
        if not ner.search(r["title"]):
            continue
        plain = not re.search(r"data|corp|bench", r["title"], re.I)
        key = "datasets" if data.search(r["title"]) else "methods" if plain else None
        if key and len(groups[key]) < wanted[key]:
            groups[key].append(r)
        if all(len(groups[k]) == n for k, n in wanted.items()):
            break
    assert len(groups["datasets"]) >= 3
    a = Assistant.open(tmp_path / "data")
    a.ingest([write_jsonl([r for rs in groups.values() for r in rs], tmp_path / "papers.jsonl")])
    dataset_ids = {r["id"] for r in groups["datasets"]}
    ans = a.ask("Which papers propose benchmarks for named entity recognition?")
    cited = {c.paper_id for c in ans.citations}
    assert len(cited & dataset_ids) >= 2
    for c in ans.citations:
        sentences = a.relevance.texts.get(a.catalog.papers([c.paper_id])[c.paper_id]).sentences
        j = contribution.judge("dataset", c.title, sentences)
        assert j.probability >= 0.5 and c.quote == sentences[j.sentence], c.title
