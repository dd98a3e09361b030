"""End-to-end answering over the seeds with the real shipped embedder and embedded Chroma."""

import json
import subprocess
import sys

import pytest

from paperscope.answer.backends import register_answerer
from paperscope.answer.base import Answerer, Draft

ORACLE = "000_a7ebabe1402f1cf3.txt:5"


def _verbatim(assistant, citation):
    paper = assistant.catalog.papers([citation.paper_id])[citation.paper_id]
    return citation.quote in paper.abstract


def test_moe_latency_cites_oracle_moe_with_verbatim_quote(seeded):
    ans = seeded.ask("Which papers address MoE latency?")
    assert not ans.abstained
    ids = [c.paper_id for c in ans.citations]
    assert ORACLE in ids
    for c in ans.citations:
        assert _verbatim(seeded, c) and c.title and c.url.startswith("https://")
        assert f"[{c.marker}]" in ans.text
    assert ans.citations[0].title.startswith("Oracle-MoE")


def test_unanswerable_question_abstains_and_names_nearest(seeded):
    ans = seeded.ask("Are there papers about recommender systems?")
    assert ans.abstained and ans.citations == []
    assert "No paper in the corpus" in ans.text
    assert ans.nearest and all(n.title in ans.text for n in ans.nearest)


def test_key_fact_is_in_the_quoted_sentence(seeded):
    ans = seeded.ask("What kernel speedup does FlashTP report over cuEquivariance?")
    assert "60.8" in ans.text and any("60.8" in c.quote for c in ans.citations)


def test_follow_up_resolves_against_previous_papers(seeded):
    first = seeded.ask("Which paper proposes test-time training layers?")
    assert first.citations[0].paper_id == "000_a7ebabe1402f1cf3.txt:17"
    second = seeded.ask("How large were the models evaluated?",
                        history=[("Which paper proposes test-time training layers?", first)])
    assert [c.paper_id for c in second.citations] == ["000_a7ebabe1402f1cf3.txt:17"]
    assert "1.3B" in second.text


def test_who_wrote_it_is_a_follow_up_answered_with_every_author(seeded):
    from paperscope.answer.followup import is_follow_up

    # The referring phrase ends the question: "the authors?" must still read as "the authors".
    assert is_follow_up("Who are the authors?") and is_follow_up("Who wrote the paper?")
    assert not is_follow_up("Which papers study the authorship of code?")
    first = seeded.ask("Which paper proposes test-time training layers?")
    second = seeded.ask("Who are the authors?", history=[("Which paper proposes test-time training layers?", first)])
    assert [c.paper_id for c in second.citations] == [first.citations[0].paper_id]
    assert all(a in second.text for a in second.citations[0].authors)  # every author, not "X et al."


def test_a_question_about_the_papers_parts_or_more_of_it_is_a_follow_up(seeded):
    """"Is the code available?" cited five papers that mention code, "Can you give me the link?"
    a link-prediction paper, "Tell me more." abstained (no searchable word): each asks about the
    paper just named."""
    from paperscope.answer.followup import is_follow_up

    assert not is_follow_up("Tell me more about diffusion models.")  # a new topic
    assert not is_follow_up("Which papers study code generation?")
    q = "Which paper proposes test-time training layers?"
    first = seeded.ask(q)
    for follow_up in ("Can you give me the link?", "Tell me more.", "More details?", "What's the main limitation?"):
        second = seeded.ask(follow_up, history=[(q, first)])
        assert [c.paper_id for c in second.citations] == [first.citations[0].paper_id], (follow_up, second.text)
    # Its abstract says nothing of code: the answer says so about that paper, not about five others.
    code = seeded.ask("Is the code available?", history=[(q, first)])
    assert code.abstained and [p.paper_id for p in code.nearest] == [first.citations[0].paper_id]


def test_a_follow_up_can_name_papers_of_the_list_by_place():
    from paperscope.answer.followup import is_follow_up, pointed, unpointed

    for question, places in [("Who wrote the second one?", [2]), ("What does the last paper propose?", [-1]),
                             ("Tell me more about paper 3.", [3]), ("Is #2 open source?", [2]), ("What is [2] about?", [2]),
                             ("Compare the first and the third one.", [1, 3]), ("And the latter?", [-1]),
                             ("What about the third one on the list?", [3]), ("第二篇是谁写的？", [2]),
                             ("最后一篇讲了什么？", [-1])]:
        assert pointed(question) == places, question
        assert is_follow_up(question), question
    # The field's history, a model's name, a number, a stage: no place in a list.
    for question in ("Which was the first paper to propose LoRA?", "How does GPT 2 do?", "Which paper reports a 2.5x speedup?",
                     "What happens in the first stage?", "Which papers use 4 GPUs?", "reference 12% improvement"):
        assert pointed(question) == [], question
    assert unpointed("What does [1] propose?") == "What does it propose?"


def test_who_wrote_the_second_one_answers_about_the_lists_second_paper(seeded):
    """"Who wrote the second one?" abstained ("none covers wrote"): the place names a paper of the
    list, cited whatever its score; after a one-paper answer, places still count in the list."""
    q = "Which papers address quantization?"
    first = seeded.ask(q)
    ids = [c.paper_id for c in first.citations]
    assert len(ids) >= 2
    history = [(q, first)]
    second = seeded.ask("Who wrote the second one?", history=history)
    assert [c.paper_id for c in second.citations] == [ids[1]], second.text
    assert all(a in second.text for a in second.citations[0].authors)
    history.append(("Who wrote the second one?", second))
    both = seeded.ask("Compare the first and the second one.", history=history)
    assert [c.paper_id for c in both.citations] == ids[:2], both.text
    last = seeded.ask("What does the last paper propose?", history=history)
    assert [c.paper_id for c in last.citations] == [ids[-1]], last.text


def test_which_of_those_cites_each_listed_paper_it_asks_for(seeded):
    """After "Which papers deal with large language models?" (a dozen papers), "Which of those use
    quantization?" cited NestQuant alone (a follow-up cited its best paper); read with the earlier
    question, a paper on LLMs alone also reached the threshold."""
    from paperscope.answer.followup import scoring_text

    assert scoring_text("Which of those use quantization?", "Q") == "Which of those use quantization?"
    assert scoring_text("How large were the models?", "Q") == "How large were the models? Q"
    from paperscope.answer.followup import narrows

    assert narrows("So, are any of these about images?") and narrows("其中哪些用到了剪枝？")
    assert not narrows("Anything on combining answers from annotators when some of them may collude?")
    q = "Which papers deal with large language models?"
    first = seeded.ask(q)
    quant = {"004_1ed39a575c500c91.txt:2", "004_1ed39a575c500c91.txt:10"}  # SLiM, NestQuant
    assert quant <= {c.paper_id for c in first.citations}
    second = seeded.ask("Which of those use quantization?", history=[(q, first)])
    assert {c.paper_id for c in second.citations} == quant, second.text
    # None of those fits: said so, not answered from the rest of the library (it cited FlashTP).
    none = seeded.ask("Which of them study protein folding?", history=[(q, first), ("Which of those use quantization?", second)])
    assert none.abstained and none.text.startswith("None of the papers of the previous answer"), none.text
    assert {n.paper_id for n in none.nearest} <= quant


def test_chinese_question_is_answered_with_the_right_lead_citation(seeded):
    # "Which papers study quantization of large language models?" 量化 also glosses to
    # "quantify", so a paper "Quantifying dataset leakage in LLMs" may follow; the lead
    # citation must be a quantization paper, and every quote verbatim.
    ans = seeded.ask("哪些论文研究大语言模型的量化？")
    gold = {"004_1ed39a575c500c91.txt:2", "004_1ed39a575c500c91.txt:10"}
    assert not ans.abstained and ans.citations[0].paper_id in gold
    assert all(_verbatim(seeded, c) for c in ans.citations)


def test_emoji_only_question_abstains_with_reason(seeded):
    ans = seeded.ask("🤖🚀🔥")
    assert ans.abstained and "no searchable words" in ans.text


def test_empty_question_is_an_error(seeded):
    from paperscope import QuestionError

    with pytest.raises(QuestionError):
        seeded.ask("   ")


def test_filters_restrict_citations(seeded):
    assert seeded.search("mixture of experts", filters={"venue": "NeurIPS"}) == []
    hits = seeded.search("mixture of experts", filters={"venue": "icml", "year": 2025, "author": "zhou"})
    assert hits and all("zhou" in " ".join(h.authors).lower() for h in hits)


class _LyingAnswerer(Answerer):
    """A drafter that cites a paper that was never provided and one that does not support it."""

    name = "liar"

    def draft(self, question, evidence):
        return Draft("Quantum gravity is solved [42]. Bananas cure latency [1].")


def test_unverifiable_draft_falls_back_to_extractive(seeded):
    register_answerer("liar")(lambda settings: _LyingAnswerer())
    seeded.answerer = _LyingAnswerer()
    ans = seeded.ask("Which papers address MoE latency?")
    assert ans.backend == "extractive (fallback from liar)"
    assert ans.citations and all(_verbatim(seeded, c) for c in ans.citations)
    assert any("[42]" in n for n in ans.notes)


def test_cli_ask_json_contract(seeded_data_dir, tmp_path):
    import shutil

    data = tmp_path / "d"
    shutil.copytree(seeded_data_dir, data)
    out = subprocess.run([sys.executable, "-m", "paperscope.cli", "ask", "Which papers address MoE latency?",
                          "--json", "--data-dir", str(data)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    obj = json.loads(out.stdout)
    assert set(obj) >= {"answer", "abstained", "citations", "timings", "backend"}
    assert obj["citations"][0]["paper_id"] == ORACLE
    assert set(obj["citations"][0]) >= {"paper_id", "title", "authors", "url", "source", "position", "quote", "score"}


class _CountingEmbedder:
    """The fake embedder, counting calls; `independent` as the wrapped model says or overridden."""

    def __init__(self, independent: bool):
        from paperscope_test_plugin import FakeEmbedder

        self.inner, self.name, self.dim, self.independent, self.calls = FakeEmbedder(), "fake", 64, independent, []

    def embed(self, texts):
        self.calls.append(len(texts))
        return self.inner.embed(texts)


@pytest.mark.parametrize("independent", [True, False])
def test_sentence_cache_batches_only_per_text_embedders_and_vectors_match(independent):
    import numpy as np

    from paperscope.records import Paper
    from paperscope.relevance.sentences import SentenceCache

    papers = [Paper(paper_id=f"p{i}", title=f"Title {i}", abstract=f"First claim {i} here. Second point {i} there. Third.")
              for i in range(4)]
    emb = _CountingEmbedder(independent)
    cache = SentenceCache(emb)
    got = cache.get(papers[:1])  # one cached paper: only the other three are embedded next
    got = cache.get(papers)
    assert emb.calls == ([4, 12] if independent else [4, 4, 4, 4]), emb.calls
    for paper, (sents, vecs) in zip(papers, got):
        assert sents == [f"First claim {paper.paper_id[1:]} here.", f"Second point {paper.paper_id[1:]} there.", "Third."]
        alone = emb.inner.embed(sents + [paper.display_title])
        assert np.array_equal(vecs, alone)


def test_int8_embedder_declares_per_text_vectors_truthfully():
    import numpy as np

    from conftest import need
    from paperscope.index.embed import make_embedder
    from paperscope.settings import EmbedSettings

    emb = make_embedder(EmbedSettings(model="minilm-int8"))
    need(emb.independent, "the `onnx` package for the fused int8 graph (the fallback is batch-dependent and says so)")
    texts = ["Mixture of experts latency.", "A much longer sentence about protein structure prediction with diffusion."]
    together = emb.embed(texts)
    assert np.array_equal(together[0], emb.embed(texts[:1])[0]) and np.array_equal(together[1], emb.embed(texts[1:])[0])


@pytest.mark.parametrize("question", ["Is the code available?", "Where can I find their code?", "代码开源了吗？"])
def test_is_the_code_available_quotes_the_papers_that_say_so_and_only_them(seeded, question):
    from paperscope.answer.followup import narrows

    assert narrows(question)  # among the previous papers, by its own words
    assert not narrows("哪些论文研究代码生成？") and not narrows("Which papers study code generation?")  # a topic
    first = seeded.ask("What is GraphGPT?")
    assert first.citations and first.citations[0].title.startswith("GraphGPT")
    ans = seeded.ask(question, history=[("What is GraphGPT?", first)])
    assert not ans.abstained and "github.com" in ans.citations[0].quote  # the sentence that says where
    other = seeded.ask("What is NestQuant?")
    none = seeded.ask(question, history=[("What is NestQuant?", other)])
    # NestQuant's abstract says nothing of code: before, its perplexity sentence was quoted as the answer.
    assert none.abstained and none.text.startswith(("None of the abstracts of the previous answer's papers says whether",
                                                    "上一个回答中论文的摘要都没有提到代码"))
    assert not none.outside  # no library-wide search for "code"


@pytest.mark.parametrize("follow_up", ["Which of them use quantization?", "And which ones use flow matching?"])
def test_which_of_them_naming_a_topic_none_of_them_is_on_names_the_librarys_papers_on_it(seeded, follow_up):
    """Before, the answer said only that none of the previous papers does, while the library held papers that do."""
    from paperscope.answer.followup import picks_by_topic

    assert picks_by_topic(follow_up) and not picks_by_topic("Which of them have code available?")
    assert not any(picks_by_topic(q) for q in ("Which of them have code?", "Which of them are open source?", "其中哪些有代码？"))
    assert picks_by_topic("Which of them do code generation?")
    q = "Which papers work on LLM inference efficiency?"
    first = seeded.ask(q)
    before = {c.paper_id for c in first.citations}
    assert before and not any("Quant" in c.title or "Flow Matching" in c.title for c in first.citations)
    ans = seeded.ask(follow_up, history=[(q, first)])
    assert ans.abstained and ans.outside and ans.text.startswith("None of the papers of the previous answer addresses this. "
                                                                 "Elsewhere in the library,")
    named = {n.paper_id for n in ans.nearest}
    assert named and not named & before
    word = "Quant" if "quantization" in follow_up else "Flow Matching"
    assert all(word in n.title for n in ans.nearest)


@pytest.mark.parametrize("follow_up", ["What datasets do they use?", "Who wrote them?", "Which venues are they from?",
                                       "When were they published?", "Summarize them.", "它们发表在哪些会议？"])
def test_a_follow_up_about_every_previous_paper_answers_for_each(detectors, follow_up):
    """Judged with the earlier question like any follow-up, one paper of the previous answer passed (before)."""
    from paperscope.answer.followup import all_of_them

    q = "Which papers do real-time object detection?"
    first = detectors.ask(q)
    assert len(first.citations) >= 5
    ans = detectors.ask(follow_up, history=[(q, first)])
    assert [c.paper_id for c in ans.citations] == [c.paper_id for c in first.citations]
    kind = all_of_them(follow_up)
    if kind == "venue":
        venues = {c.venue for c in first.citations}
        assert ans.text.startswith(("By venue, the previous answer's papers", "按会议统计上一个回答的"))
        assert all(v in ans.text.split("\n")[0] for v in venues)
    elif kind == "year":
        line = ans.text.split("\n")[0]
        assert line.startswith("By year, the previous answer's papers") and all(str(c.year) in line for c in first.citations)
    if "wrote" in follow_up:
        assert all(a in ans.text for c in ans.citations for a in c.authors)  # every author


@pytest.mark.parametrize("question", ["Which of them use transformers?", "Do they use transformers?",
                                      "Who wrote the second one?", "Which one is the fastest?", "Any others?",
                                      "What is its main contribution?"])
def test_follow_ups_that_pick_among_the_previous_papers_are_not_about_each(question):
    from paperscope.answer.followup import all_of_them

    assert all_of_them(question) is None


@pytest.mark.parametrize("follow_up", ["Which of them report perplexity?", "其中哪些报告了perplexity？"])
def test_which_of_them_report_a_measure_are_those_giving_a_figure_for_it(seeded, follow_up):
    """Read as topic words, "report MAE" matched none of 13 crowd counting papers (20,000 papers) and abstained."""
    from paperscope.answer.followup import reported_measure

    assert reported_measure(follow_up) == "perplexity" and reported_measure("Which of them report their code?") is None
    q = "Which papers deal with large language models?"
    first = seeded.ask(q)
    ans = seeded.ask(follow_up, history=[(q, first)])
    assert ans.citations and {c.paper_id for c in ans.citations} <= {c.paper_id for c in first.citations}
    assert all("perplexity" in c.quote.lower() and any(ch.isdigit() for ch in c.quote) for c in ans.citations)
    none = seeded.ask("Which of them report BLEU?", history=[(q, first)])
    assert none.abstained
    assert none.text.startswith("None of the papers of the previous answer reports a figure for \u201cBLEU\u201d")
