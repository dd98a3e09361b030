"""Chinese questions over English abstracts: the cross-lingual index (real USE-m from PyPI),
the translation of a question into search and analysis text, and the answers over the seeds:
the right papers, Chinese framing with verbatim English quotes, abstention, filters, the
factoid quote, and an index that is reused across ingests."""

from __future__ import annotations

import json
import tempfile

import numpy as np
import pytest

from paperscope import Assistant, Settings
from paperscope.crosslingual import is_foreign, translate
from paperscope.index import multilingual
from paperscope.settings import EmbedSettings
from paperscope.text.zh import frame, runs


def fake_settings() -> Settings:
    return Settings(embed=EmbedSettings(model="fake"))


class CountingEncoder(multilingual.Encoder):
    """The real encoder, counting the texts it embeds (to check reuse)."""

    def __init__(self) -> None:
        super().__init__()
        self.embedded = 0

    def embed(self, texts):
        self.embedded += len(texts)
        return super().embed(texts)


def test_language_routing_and_question_kind():
    assert is_foreign("哪些论文研究混合专家模型？") and is_foreign("Какие статьи о трансформерах?")
    assert not is_foreign("Which papers use NeRF for SLAM in Zürich?")
    assert frame("哪些论文研究扩散模型？") == "Which papers"
    assert frame("GAPrompt 只需要训练多大比例的参数？") == "What is"
    # "或" joins alternatives; scaffolding (哪些, 论文, 研究, 的) is dropped.
    assert runs("哪些论文研究训练数据或评测数据的质量？")[:3] == [["训练数据"], "or", ["评测", "数据"]]


def test_dense_gloss_maps_a_phrase_to_the_librarys_wording(tmp_path):
    papers = [("a", "Scaling Mixture of Experts Inference", []), ("b", "Mixture of Experts for Vision", []),
              ("c", "Event Cameras for Optical Flow", []), ("d", "Graph Neural Networks at Scale", [])]
    enc = CountingEncoder()
    lib = multilingual.build(tmp_path, "c", "g1", papers, enc)
    assert "mixture of experts" in lib.phrases
    # 事件相机 is not in CC-CEDICT as a phrase: the dense gloss finds the library's "event cameras".
    t = translate("有没有用事件相机估计光流的论文？", lib, enc)
    assert "event cameras" in t.english and "optical flow" in t.english, t.english
    assert t.analysis.startswith("Which papers")
    top = lib.titles_ranked(t.vector, 2)
    assert top[0][0] == "c", top


def test_large_calls_split_over_worker_processes_give_the_same_rows():
    texts = [f"paper {i} on {topic}" for i, topic in enumerate(["graph neural networks", "事件相机", "diffusion"] * 4)]
    alone = multilingual.Encoder(processes=1).embed(texts)
    split = multilingual.Encoder(processes=2)
    split.PARALLEL_MIN = 4  # type: ignore[misc]  # an index build's size, scaled down
    rows = split.embed(texts)
    assert split._model is None, "a large call is embedded by the worker processes, not in-process"
    assert rows.shape == alone.shape and np.allclose(rows, alone, atol=1e-5)


def test_without_workers_a_large_call_is_embedded_in_process(monkeypatch):
    texts = [f"paper {i} on graph neural networks" for i in range(6)]
    alone = multilingual.Encoder(processes=1).embed(texts)
    monkeypatch.setattr("sys.executable", "/nonexistent/python")  # no interpreter to start workers with
    split = multilingual.Encoder(processes=2)
    split.PARALLEL_MIN = 4  # type: ignore[misc]
    rows = split.embed(texts)
    assert split._model is not None and np.allclose(rows, alone, atol=1e-5)


def test_titles_and_phrases_embedded_ahead_are_taken_by_the_build(tmp_path):
    papers = [(str(i), f"Paper {i} on mixture of experts routing, topic {i % 4}", ["sparse experts"]) for i in range(12)]
    ahead = multilingual.Ahead(tmp_path / "a", "c", papers, processes=2)
    assert ahead.texts, "nothing indexed yet: every title and phrase is embedded ahead"
    enc = CountingEncoder()
    lib = multilingual.build(tmp_path / "a", "c", "g1", papers, enc, ahead=ahead)
    assert enc.embedded == 0, "the build found every vector ready"
    alone = multilingual.build(tmp_path / "b", "c", "g1", papers, CountingEncoder())
    assert lib.phrases == alone.phrases
    assert np.allclose(lib.titles, alone.titles, atol=1e-5)
    assert np.allclose(lib.phrase_vectors, alone.phrase_vectors, atol=1e-5)
    # A re-ingest of the same papers has nothing to embed ahead (and starts no worker).
    again = multilingual.Ahead(tmp_path / "a", "c", papers)
    assert again.texts == [] and again.workers is None


def test_large_ingest_builds_the_same_crosslingual_index_with_workers(tmp_path, monkeypatch):
    rows = [{"id": f"p{i}", "title": f"Event cameras for optical flow, part {i}",
             "abstract": f"We estimate optical flow from event cameras. Variant {i} is faster."} for i in range(6)]
    src = tmp_path / "p.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    small = Assistant.open(tmp_path / "small", settings=fake_settings())
    small.ingest([src])
    monkeypatch.setattr(multilingual.Encoder, "PARALLEL_MIN", 4)  # a large ingest, scaled down
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    large = Assistant.open(tmp_path / "large", settings=fake_settings())
    large.ingest([src])
    one, two = (a.catalog.multilingual(a.catalog.get_state("generation")) for a in (small, large))
    assert one.ids == two.ids and one.phrases == two.phrases
    assert np.allclose(one.titles, two.titles, atol=2e-3) and np.allclose(one.phrase_vectors, two.phrase_vectors, atol=2e-3)
    assert not list((tmp_path / "tmp").iterdir()), "the workers' files are removed"


def test_index_is_reused_across_generations(tmp_path):
    papers = [(str(i), f"Paper number {i} on topic {i % 3}", ["keyword"]) for i in range(20)]
    enc = CountingEncoder()
    first = multilingual.build(tmp_path, "c", "g1", papers, enc)
    n_first = enc.embedded
    papers[5] = ("5", "A changed title about diffusion models", ["keyword"])
    second = multilingual.build(tmp_path, "c", "g2", papers, enc)
    new_phrases = set(second.phrases) - set(first.phrases)
    assert enc.embedded - n_first == 1 + len(new_phrases)  # the new title and its new phrases only
    assert multilingual.load(tmp_path, "c", "g1") is None  # the old generation's file is gone
    loaded = multilingual.load(tmp_path, "c", "g2")
    assert loaded is not None and loaded.ids == second.ids
    assert np.allclose(loaded.titles[0], first.titles[0], atol=2e-3)


@pytest.fixture(scope="module")
def zh(tmp_path_factory):
    from conftest import SEEDS

    a = Assistant.open(tmp_path_factory.mktemp("zh"))
    a.ingest([SEEDS])
    return a


def test_ingest_builds_the_index(zh):
    gen = zh.catalog.snapshot().generation
    assert multilingual.load(zh.catalog.dir, zh.catalog.collection, gen) is not None


def test_chinese_mission_question_cites_moe_papers_with_chinese_framing(zh):
    ans = zh.ask("哪些论文研究混合专家模型？")
    assert not ans.abstained and ans.citations
    assert all("MoE" in c.title or "Experts" in c.title for c in ans.citations), [c.title for c in ans.citations]
    assert ans.text.startswith("语料库中有")
    for c in ans.citations:  # quotes stay verbatim English sentences of the abstract
        assert c.quote in zh.catalog.papers([c.paper_id])[c.paper_id].abstract


def test_chinese_off_topic_question_abstains_in_chinese(zh):
    ans = zh.ask("有没有关于脑电信号解码的论文？")
    assert ans.abstained and "没有论文" in ans.text, ans.text


def test_llm_tuili_is_inference_as_well_as_reasoning_and_youguan_is_framing(zh):
    """推理 is inference and reasoning: 大模型推理 was glossed "llm reasoning" alone, and a question
    on LLM inference cited only the formal-methods position paper. "和 X 有关" (related to X) frames
    the question; it was a part ("relate or related or concern") every paper had to cover."""
    snap = zh.catalog.snapshot()
    t = zh.gather.crosslingual.translate("有没有关于大模型推理的论文？", snap)
    assert "inference or reasoning" in t.analysis, t
    ans = zh.ask("有没有关于大模型推理的论文？")
    assert any("Oracle-MoE" in c.title or "Speculation" in c.title for c in ans.citations), ans.text
    t = zh.gather.crosslingual.translate("哪些论文和联邦学习有关？", snap)
    assert t.analysis == "Which papers federated learning", t


def test_a_chinese_request_or_situation_is_framing_not_topic(zh):
    """"请推荐一些关于 X 的论文" abstained on "recommendation", "我在写关于 X 的毕业论文" on "write",
    "X 方面有什么进展" on "headway", "我想了解一下 X，应该读哪些论文" on "comma" (读's other sense);
    "谁研究过 X" cited one paper (a factoid question). Each now cites as "有没有 X 的论文？" does."""
    plain = {c.paper_id for c in zh.ask("有没有模型量化的论文？").citations}
    assert len(plain) >= 2
    for question in ("请推荐一些关于模型量化的论文", "我在写关于模型量化的毕业论文，有哪些相关工作？", "谁研究过模型量化？",
                     "我想了解一下模型量化，应该读哪些论文？", "给我概述一下模型量化的研究", "模型量化方面有什么进展？",
                     "有什么好的模型量化论文推荐吗？", "模型量化领域有哪些经典论文？", "关于模型量化，有哪些必读论文？",
                     # How many papers (a count of papers, not a number in one: it cited one); 几 is
                     # no "table" (CC-CEDICT's other sense), 最适合 no topic.
                     "有多少篇论文研究模型量化？", "给我找几篇关于模型量化的论文", "哪篇论文最适合入门模型量化？",
                     # 有没有人 (has anyone) is no topic "person", 过 after a verb no "celebrate".
                     "有没有人研究过模型量化？"):
        ans = zh.ask(question)
        assert {c.paper_id for c in ans.citations} == plain, (question, ans.text)
    assert zh.ask("有哪些关于推荐的论文？").abstained  # 推荐 alone is the topic (no recommender paper here)


def test_where_a_chinese_question_places_its_topic_is_framing_not_topic(zh):
    """"跟 X 有关的论文" (jieba cut 跟 into the topic: "heel" + ...), "库里有没有 X 的工作？" (库里
    "warehouse"), "X 这个方向有哪些论文？" ("direction"), "X 这一块" ("one block"),
    "X 相关文献" ("document"), "有关 X 的论文都有哪些" (都 "all / both"), "X 这类方法" ("kind"): over
    20,000 papers each listed fewer papers than "有哪些 X 的论文？" (NER 0.07 and 0.15 of them).
    Each now cites as that does; each word stays a topic where it is one."""
    plain = {c.paper_id for c in zh.ask("有没有模型量化的论文？").citations}
    for question in ("跟模型量化有关的论文", "库里有没有模型量化的工作？", "模型量化这个方向有哪些论文？",
                     "哪些论文跟模型量化有关系？",
                     "模型量化这一块有什么论文？", "模型量化相关文献", "有关模型量化的论文都有哪些？", "模型量化这类方法的论文",
                     "模型量化的最新进展", "和模型量化相关的论文", "模型量化方向这里有相关的论文吗？",
                     # A reader's verbs for what a paper holds: 讲 "speak", 提到 "mention", 聚焦于 "focus" + "go".
                     "讲模型量化的论文有哪些？", "哪些论文提到了模型量化？", "哪些论文聚焦于模型量化？",
                     "哪些论文以模型量化为主？", "哪些论文讨论了模型量化？", "模型量化任务有哪些论文？",
                     "请帮我找出全部模型量化论文", "模型量化论文清单"):
        ans = zh.ask(question)
        assert {c.paper_id for c in ans.citations} == plain, (question, ans.text)
    # Each only in its place: 方向 as a topic, 跟 of 跟车 (car following), 文献 of 文献计量, 列表 of 列表解码 (list
    # decoding), 讨论 of 多智能体讨论 (debate), 聚焦 of 共聚焦 (confocal), 检索 of 检索增强生成.
    words = {q: [w for r in runs(q) for w in r] for q in (
        "怎样估计尖峰协方差模型中的方向？", "梯度方向的研究有哪些？", "跟车模型有哪些论文？", "文献计量的论文", "列表解码的论文",
        "多智能体讨论的论文", "有没有为共聚焦显微腹腔镜设计远端螺旋扫描机构的论文？", "请检索增强生成的论文", "任务规划的论文")}
    assert words["任务规划的论文"] == ["任务规划"]
    assert "方向" in words["怎样估计尖峰协方差模型中的方向？"] and "梯度方向" in words["梯度方向的研究有哪些？"]
    assert "跟车" in words["跟车模型有哪些论文？"] and "文献" in words["文献计量的论文"] and "列表" in words["列表解码的论文"]
    assert "讨论" in words["多智能体讨论的论文"] and "检索增强生成" in words["请检索增强生成的论文"]
    assert "聚焦" in words["有没有为共聚焦显微腹腔镜设计远端螺旋扫描机构的论文？"]
    assert frame("请总结一下这一篇论文") != "Which papers" and frame("跟模型量化有关的论文") == "Which papers"


def test_methods_and_how_often_are_no_chinese_topic_words(zh):
    """方法 glossed "method or way or means or methodology" and 常用 "ordinary": parts of the question
    ("哪些方法可以提高 X" abstained over 20,000 abstracts where "哪些论文提高 X" cited nine papers)."""
    snap = zh.catalog.snapshot()
    for question, analysis in [("哪些方法可以提高模型量化的效率？", "Which papers"), ("模型量化常用哪些方法？", "Which papers")]:
        t = zh.gather.crosslingual.translate(question, snap)
        assert t.analysis.startswith(analysis) and not {"method", "means", "ordinary"} & set(t.analysis.split()), t
    plain = {c.paper_id for c in zh.ask("有没有模型量化的论文？").citations}
    assert {c.paper_id for c in zh.ask("有哪些模型量化的方法？").citations} == plain


def test_chinese_which_of_them_picks_among_the_previous_papers(zh):
    """"其中哪些用到了剪枝？" (which of them use pruning) was no follow-up and read 其中 as "among / in /
    included among these": it picks among the previous answer's papers, or says none of them fits."""
    q = "哪些论文研究大语言模型的量化？"
    first = zh.ask(q)
    slim = "004_1ed39a575c500c91.txt:2"
    assert slim in {c.paper_id for c in first.citations}, first.text
    second = zh.ask("其中哪些用到了剪枝？", history=[(q, first)])
    assert [c.paper_id for c in second.citations] == [slim], second.text
    none = zh.ask("这些论文中哪些和蛋白质折叠有关？", history=[(q, first)])
    assert none.abstained and none.text.startswith("上一个回答中的论文都不涉及"), none.text


def test_chinese_follow_ups_ask_about_the_paper_just_named(zh):
    """它 (it), 这篇论文 (this paper), 作者 (the authors), 代码 (the code), 再详细说说 (tell me more) point
    back at the previous answer (each cited other papers or abstained on "persuade", "author");
    "它评测的模型有多大？" (how large were the models it evaluated) quotes the sentence with the sizes."""
    from paperscope.answer.followup import is_follow_up

    assert not is_follow_up("有没有其他研究量化的论文？") and not is_follow_up("哪些论文研究模型量化？")
    q = "哪篇论文提出了测试时训练层？"
    first = zh.ask(q)
    ttt = [c.paper_id for c in first.citations]
    assert len(ttt) == 1 and "Test Time" in first.citations[0].title
    for follow_up in ("它的主要创新是什么？", "这篇论文用了哪些数据集？", "作者是谁？", "再详细说说"):
        second = zh.ask(follow_up, history=[(q, first)])
        assert [c.paper_id for c in second.citations] == ttt, (follow_up, second.text)
    code = zh.ask("代码开源了吗？", history=[(q, first)])  # its abstract says nothing of code: said of that paper
    assert code.abstained and [p.paper_id for p in code.nearest] == ttt, code.text
    sizes = zh.ask("它评测的模型有多大？", history=[(q, first)])
    assert "1.3B" in sizes.citations[0].quote, sizes.citations[0].quote


def test_chinese_factoid_quotes_the_sentence_with_the_number(zh):
    ans = zh.ask("FlashTP 的内核相比 cuEquivariance 加速了多少倍？")
    assert ans.citations and "FlashTP" in ans.citations[0].title
    assert "60.8" in ans.citations[0].quote, ans.citations[0].quote


def test_a_characters_common_sense_comes_before_a_country_it_abbreviates(zh):
    """CC-CEDICT lists a name's entry first (比 "Belgium", 加 "Canada", 法 "France"); read first,
    it hid the common sense: "Attention-Level Speculation 的加速比是多少？" (its speedup ratio)
    abstained, no paper covering "belgian/belgium". A word with only a name keeps it (欧 "Europe")."""
    from paperscope.text.zh import glosses

    assert "ratio" in glosses("比") and "belgium" not in glosses("比")
    assert "add" in glosses("加") and "method" in glosses("法")
    assert glosses("欧") == ["europe"]
    ans = zh.ask("Attention-Level Speculation 的加速比是多少？")
    assert not ans.abstained, ans.text
    assert ans.citations[0].title.startswith("Attention-Level Speculation")


def test_chinese_question_honours_filters(zh):
    ans = zh.ask("哪些论文研究混合专家模型？", filters={"venue": "NoSuchVenue"})
    assert ans.abstained and "筛选" in ans.text


def test_multilingual_off_falls_back_to_glossing(zh):
    settings = zh.settings.model_copy(update={"retrieve": zh.settings.retrieve.model_copy(update={"multilingual": False})})
    plain = Assistant.open(zh.settings.store.data_dir, settings=settings)
    assert plain.crosslingual.translate("哪些论文研究混合专家模型？", plain.catalog.snapshot()) is None
    hits = plain.search("混合专家", k=3)
    assert hits  # the dictionary path still searches
    json.dumps([h.paper_id for h in hits])


def test_crosslingual_benchmark_scores_known_items(zh):
    from paperscope.bench import crosslingual

    oracle = next(h.paper_id for h in zh.search("Oracle-MoE locality-preserving routing", k=3) if "Oracle" in h.title)
    items = [{"zh": "有没有在预言机空间里做局部性保持路由的混合专家论文？",
              "en": "Is there a mixture-of-experts paper with locality-preserving routing in an oracle space?",
              "gold": [oracle]}]
    for lang in ("zh", "en"):
        scores = crosslingual.known_item(zh, items, lang)
        assert set(scores) == {"R@1", "R@5", "R@10"} and scores["R@10"] == 1.0, (lang, scores)


def test_a_library_phrase_never_overrules_a_glossary_term():
    """混合专家 模型 sits near "mixture model" in USE-m space; the glossary knows 混合专家 is
    "mixture of experts", so a phrase match that drops it is refused (the mission question in
    Chinese cited Dirichlet-process mixture papers)."""
    from paperscope.crosslingual import _contradicts

    assert _contradicts(["混合专家", "模型"], "mixture model")
    assert not _contradicts(["混合专家", "模型"], "mixture of experts models")
    assert not _contradicts(["混合专家", "模型"], "MoE models")
    assert not _contradicts(["没有词典", "的词"], "anything")  # words outside the glossary: USE-m decides


def test_a_bracketed_english_term_is_the_translation_of_the_words_before_it(tmp_path):
    """"共形预测（conformal prediction）": the writer's own English replaces the dictionary senses of
    共形 ("jointly") and stays one phrase, so the analysis equals the English question's (the
    Chinese list found 4 papers where the English one found 12, 20,000-paper benchmark). A
    bracketed acronym keeps the Chinese words: they say what it stands for."""
    from paperscope.relevance.question import analyze

    papers = [("a", "Conformal Prediction under Shift", []), ("b", "Visual-Inertial Odometry on Drones", [])]
    enc = CountingEncoder()
    lib = multilingual.build(tmp_path, "c", "g1", papers, enc)
    t = translate("共形预测（conformal prediction）有哪些论文？", lib, enc)
    assert t.english == "conformal prediction" and t.analysis == "Which papers conformal prediction", t
    english = analyze("Which papers use conformal prediction?", lambda stems: {})
    chinese = analyze(t.analysis, lambda stems: {})
    assert chinese.groups == english.groups and chinese.phrases == english.phrases == (("conform", "predict"),)
    t = translate("机器人轴孔装配（peg-in-hole）方面有哪些工作？", lib, enc)
    assert t.analysis == "Which papers peg-in-hole" and "assembl" not in t.english, t
    t = translate("有哪些关于视觉惯性里程计（VIO）的论文？", lib, enc)
    assert "VIO" in t.english and t.english != "VIO", t


def test_every_glossary_term_segments_whole_and_the_benchmark_topics_stay_out():
    """jieba keeps each research term one word (so 脉冲神经网络 is glossed as a term, not as
    "pulse" + "neural networks"); the list-all benchmark's Chinese topic words are not glossary
    terms, so that benchmark keeps measuring topics the glossary does not name."""
    from paperscope.bench.listall import load_topics
    from paperscope.bench.relevance_items import asks_benchmark_topic
    from paperscope.text.zh import _ZH_STOP, GLOSSARY, corpus_glossary, research_terms

    assert len(GLOSSARY) >= 300 and len(corpus_glossary()) >= 3000
    terms = research_terms()
    # Or a term that, asked, frames the question: "X 的最新进展" ("recent advances") asks for X's papers.
    assert all(runs(term) == [[term]] or (term in _ZH_STOP and runs(term) == []) for term in terms)
    for word in ("同心管", "讽刺", "共指消解", "插帧", "场景图", "人群计数", "抓手", "夹爪", "配准", "外参标定", "里程计"):
        assert word not in terms and any(word in t["zh"] for t in load_topics()), word
    assert not any(asks_benchmark_topic(forms) for forms in corpus_glossary().values())


def test_glossary_phrases_keep_the_head_their_chinese_term_says():
    """The corpus phrases were title n-grams, some cut after a hyphenated head: 零样本目标检测 read
    "shot object detection", 自监督视频表示学习 "supervised video representation" (any supervised
    paper), 无模型强化学习 "free reinforcement"."""
    from paperscope.text.zh import _HEADS, corpus_glossary

    glossary = corpus_glossary()
    assert glossary["零样本目标检测"][0] == "zero shot object detection"
    assert glossary["小样本目标检测"][0] == "few shot object detection"
    assert glossary["自监督视频表示学习"][0] == "self supervised video representation"
    assert glossary["无模型强化学习"][0] == "model free reinforcement"
    assert glossary["端到端"] == ["end to end"]  # already whole
    for term, forms in glossary.items():
        for prefix, tail, head in _HEADS:
            assert not (term.startswith(prefix) and any(f.split()[0] == tail and not f.startswith(f"{head} ")
                                                        for f in forms)), (term, forms)


def test_corpus_glossary_translates_compounds_that_word_glossing_breaks(zh):
    """镜像下降 glossed word by word is "mirror image" + "decline", 后悔界 "regret" + "boundary":
    both questions abstained over the seeds. The corpus glossary knows the terms."""
    from paperscope.text.zh import glosses

    assert glosses("镜像下降") == ["mirror descent"] and glosses("后悔界")[0] == "regret bounds"
    assert glosses("小样本学习")[0] == "few shot learning"  # CC-CEDICT: "galley proof", "unimpressive" ...
    ans = zh.ask("有哪些关于镜像下降的论文？")
    assert not ans.abstained and "Mirror Descent" in ans.citations[0].title, ans.text
    ans = zh.ask("有哪些论文给出了后悔界？")
    assert not ans.abstained and any("Regret Bounds" in c.title for c in ans.citations), ans.text


def test_second_glossary_pass_names_rarer_terms_and_adds_no_two_character_word():
    """The second pass (phrases in >= 8 titles): CC-CEDICT glossed 鲍登线 (Bowden cable) as
    "abalone" + "scale" + "ascend" + "thread", 欠驱动手 as "owe" + "lack" ..., 迹范数 as "footprint";
    over 26 such topics at 20,000 papers, Chinese list recall rose 0.73 -> 0.90. Its two-character
    terms were left out: 软体 ("soft bodied") split 软体抓手 and took its gloss, 预测 would have lost
    "predict"; those keep CC-CEDICT's senses."""
    from paperscope.bench import crosslingual
    from paperscope.text.zh import glosses, research_terms

    assert glosses("鲍登线") == ["bowden cable"] and glosses("迹范数") == ["trace norm"]
    assert glosses("欠驱动手")[0] == "underactuated hand" and glosses("偏标签") == ["partial label"]
    terms = research_terms()
    assert "软体" not in terms and "预测" not in terms and "predict" in glosses("预测")
    rare = crosslingual.load("crosslingual_rare_topics.jsonl")  # the benchmark's topics of such terms
    assert len(rare) == 26 and all(6 <= len(t["gold"]) <= 60 and is_foreign(t["zh"]) for t in rare)


def test_words_cedict_lacks_are_read_off_the_glossary_terms_that_contain_them():
    """位姿, 单目, 人脸 are not in CC-CEDICT: glossed by character they were "position location beauty
    disposition", "bill list eye look". The terms that begin or end with them say what they mean
    (单目深度估计 / 深度估计); a benchmark word (配准) is never read off."""
    from paperscope.bench.zh_glossary import derive_morphemes
    from paperscope.text.zh import glosses

    assert glosses("位姿") == ["pose"] and glosses("单目") == ["monocular"] and glosses("人脸") == ["face"]
    terms = [("monocular depth estimation", ["单目深度估计"]), ("monocular camera", ["单目相机"]),
             ("depth estimation", ["深度估计"]), ("3d registration", ["三维配准"]), ("image registration", ["图像配准"]),
             ("monocular slam", ["单目视觉"])]
    assert derive_morphemes(terms) == {"单目": "monocular"}  # 相机 is CC-CEDICT's "camera"; 配准 is a benchmark word


def test_everyday_words_get_the_research_sense_the_glossary_terms_give_them():
    """分割 is CC-CEDICT's "cut up / break up", 追踪 "follow a trail": a compound the glossary lacks
    (肿瘤分割, 目标追踪) was glossed "tumor" + "cut up", and segmentation papers did not cover it.
    图像分割, 实例分割, 动作分割 ... say it is "segmentation": that sense comes first now. One term
    family (a single other half) is not enough, nor a word of a benchmark topic."""
    from paperscope.bench.zh_glossary import derive_senses
    from paperscope.text.zh import gloss_words, glosses

    assert glosses("分割")[0] == "segmentation" and "cut up" in glosses("分割")
    assert gloss_words("肿瘤分割")[1][0] == "segmentation" and gloss_words("目标追踪")[1][0] == "tracking"
    # The hand-written GLOSSARY's terms take part too (图像分割, 语义分割, 图像分类, 文本分类, 节点分类 ...).
    assert derive_senses([]) == {"分割": "segmentation", "分类": "classification"}
    terms = [("pose control", ["姿态控制"]), ("pose tracking", ["姿态跟踪"]),
             ("pose data", ["姿态数据"]), ("image editing", ["图像编辑"]),
             ("time warping", ["时间编辑"]), ("time warping method", ["时间编辑"]), ("time warpings", ["时间编辑"]),
             ("point cloud registration", ["点云配准"]), ("image registration", ["图像配准"]),
             ("3d registration", ["三维配准"])]
    # 编辑: three votes, one other half (时间); 配准: not in CC-CEDICT (a morpheme), and a benchmark word.
    assert derive_senses(terms) == {"分割": "segmentation", "分类": "classification", "姿态": "pose"}


def test_glossary_build_keeps_whole_chinese_terms_and_leaves_out_labels_and_benchmark_words(tmp_path):
    from paperscope.bench.zh_glossary import build

    rows = [{"en": "mirror descent", "zh": ["镜像下降", "镜像下降"]},
            {"en": "machine learning ml regression", "zh": ["回归"]},  # a subject-area label
            {"en": "3d gaussian", "zh": ["3D高斯"]},  # Latin inside: would split 高斯泼溅 in jieba
            {"en": "force torque", "zh": ["力/力矩", "力矩"]},
            {"en": "crowd counting", "zh": ["人群计数"]},  # a list-all benchmark word
            {"en": "locomotion", "zh": ["运动", "行走"]},  # 运动 is "motion" first: too broad
            {"en": "control for human", "zh": []}]
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    out = tmp_path / "g.json"
    counts = build([src], out)
    assert json.loads(out.read_text(encoding="utf-8"))["terms"] == [
        ["force torque", ["力矩"]], ["locomotion", ["行走"]], ["mirror descent", ["镜像下降"]]]
    assert counts == {"phrases": 3, "terms": 3, "dropped": 6, "morphemes": 0, "senses": 2}  # GLOSSARY's 分割, 分类


def test_a_phrase_the_dictionary_and_the_library_agree_on_is_one_concept(tmp_path):
    """Below the phrase floor, a library phrase still translates several Chinese words when each
    word's dictionary sense (or its own nearest library word) is in it: "同心 管 机器人" is
    "concentric tube robots", not "united or concentric, manage or control, robot" (管's first
    CC-CEDICT senses), and "人群 计数" is "crowd counting". A bracketed Chinese restatement is
    searched but adds no part every paper must cover. 20,000-paper list-all benchmark, Chinese:
    recall 0.589 -> 0.686, precision 0.694 -> 0.764."""
    papers = [("a", "Kinematics of Concentric Tube Robots", []), ("b", "Human-Machine Interaction for Robot Arms", []),
              ("c", "Crowd Counting with Density Maps", []), ("d", "Video Frame Rates", []),
              ("e", "Causal Discovery from Observational Data", []), ("f", "Causal Structure Learning at Scale", []),
              ("g", "Soft Grippers for Fragile Objects", [])]
    enc = CountingEncoder()
    lib = multilingual.build(tmp_path, "c", "g1", papers, enc)
    t = translate("同心管机器人方面有哪些论文？", lib, enc)
    assert t.analysis == "Which papers concentric tube robots", t
    t = translate("人群计数方面有哪些论文？", lib, enc)
    assert t.analysis == "Which papers crowd counting", t
    t = translate("因果发现（因果结构学习）方面的论文有哪些？", lib, enc)
    assert t.analysis == "Which papers causal discovery" and "structure learning" in t.english, t
    # Examples in a bracket are asked for, not a restatement.
    t = translate("哪些论文研究循环网络（例如LSTM）？", lib, enc)
    assert "LSTM" in t.english and "LSTM" in t.analysis, t


def test_latin_script_languages_are_told_from_english_by_function_words():
    from paperscope.text.languages import latin_language

    assert latin_language("Welche Arbeiten befassen sich mit MoE-Latenz?") == "de"
    assert latin_language("Quels articles étudient l'apprentissage fédéré ?") == "fr"
    assert latin_language("¿Qué artículos estudian la privacidad diferencial?") == "es"
    # One foreign word, acronyms that spell one ("DA-NAS"), or English with borrowed phrases: English.
    for english in ("Which papers use die casting or de novo design?", "DA-NAS: Data Adapted Pruning for NAS",
                    "Is there work on in situ learning la carte?", "Which papers study the article retrieval task?"):
        assert latin_language(english) is None, english
        assert not is_foreign(english)
    assert is_foreign("Welche Arbeiten befassen sich mit MoE-Latenz?")


def test_a_latin_script_question_is_split_at_its_scaffolding_and_glossed_densely(tmp_path):
    from paperscope.crosslingual import _latin_pieces

    # Names stay as written, hyphenated compounds split, "de" kept inside a phrase to look it up whole.
    assert _latin_pieces("Welche Arbeiten befassen sich mit MoE-Latenz?", "de") == ["MoE", ["Latenz"]]
    assert _latin_pieces("¿Qué artículos tratan sobre modelos de mezcla de expertos o NeRF?", "es") == [
        ["modelos", "de", "mezcla", "de", "expertos"], "or", "NeRF"]
    assert _latin_pieces("Quels articles étudient l'apprentissage fédéré ?", "fr") == [["apprentissage", "fédéré"]]
    papers = [("a", "Differential Privacy for Federated Learning", []), ("b", "Event Cameras for Optical Flow", []),
              ("c", "Graph Neural Networks at Scale", [])]
    enc = multilingual.Encoder()
    lib = multilingual.build(tmp_path, "c", "g1", papers, enc)
    t = translate("Welche Arbeiten untersuchen differentielle Privatsphäre?", lib, enc)
    assert t.analysis == "Which papers differential privacy", t.analysis
    assert lib.titles_ranked(t.vector, 1)[0][0] == "a"


def test_a_word_the_encoder_cannot_place_stays_a_part_of_the_question(tmp_path):
    papers = [("a", "Scaling Mixture of Experts Inference", []), ("b", "Graph Neural Networks at Scale", [])]
    enc = multilingual.Encoder()
    lib = multilingual.build(tmp_path, "c", "g1", papers, enc)
    # "Latenz" has no library phrase near it: kept (accents folded), so the answer says nothing covers
    # it instead of answering "MoE" alone; CC-CEDICT never glosses a German word ("Ü" pieces before).
    t = translate("Gibt es Arbeiten zur Übersetzung mit MoE-Latenz?", lib, enc)
    assert "Latenz" in t.analysis and "Ü" not in t.analysis and "Ubersetzung" in t.analysis, t.analysis


def test_german_and_spanish_questions_find_the_moe_papers_with_english_framing(zh):
    for q in ("Welche Arbeiten befassen sich mit Mixture-of-Experts-Modellen?",
              "¿Qué artículos tratan sobre modelos de mezcla de expertos?"):
        ans = zh.ask(q)
        assert not ans.abstained and ans.citations, (q, ans.text)
        assert any("MoE" in c.title or "Experts" in c.title for c in ans.citations), [c.title for c in ans.citations]
        assert "papers in the corpus" in ans.text or "paper in the corpus" in ans.text, ans.text


def test_a_japanese_question_is_read_by_its_kana_and_framed_in_english_not_chinese(zh):
    from paperscope.text.languages import japanese_pieces
    from paperscope.text.zh import chinese

    assert japanese_pieces("MoEの推論遅延に関する論文は？") == ["MoE", ["推論", "遅延"]]
    assert japanese_pieces("拡散モデルまたは強化学習") == [["拡散", "モデル"], "or", ["強化", "学習"]]
    assert not chinese("MoEの推論遅延に関する論文は？") and chinese("哪些论文研究混合专家模型？")
    ans = zh.ask("MoEの推論遅延に関する論文は？")
    assert ans.citations and any("MoE" in c.title for c in ans.citations), ans.text
    assert "语料库" not in ans.text and "paper" in ans.text, ans.text


def test_a_japanese_word_the_encoder_cannot_place_is_kept_only_when_the_question_would_shrink_to_one_part(tmp_path):
    from paperscope.relevance.question import analyze

    papers = [("a", "Learning Robot Locomotion", []), ("b", "Graph Neural Networks at Scale", []),
              ("c", "Scaling Mixture of Experts Inference", [])]
    enc = multilingual.Encoder()
    lib = multilingual.build(tmp_path, "c", "g1", papers, enc)
    # Without 外骨格 the question would ask for every robot paper: it stays a part (as written: NFKD
    # folding would turn the katakana プ into フ), no English abstract covers it, so the answer abstains
    # naming it. It is never searched (BM25 has no such word).
    t = translate("外骨格ロボットに関する論文はどれですか？", lib, enc)
    assert "外骨格" in t.analysis and "外骨格" not in t.english, (t.analysis, t.english)
    q = analyze(t.analysis, lambda stems: {s: 1.0 for s in stems})
    assert any("外骨格" in g for g, _ in q.groups), q.groups
    t = translate("オプティカルフローを推定する論文はどれですか？", lib, enc)
    assert "オプティカルフロー" in t.analysis, t.analysis
    # With two or more parts left, an unplaced word is left out as before.
    t = translate("混合エキスパート（MoE）モデルに関する論文はどれですか？", lib, enc)
    assert "エキスパート" not in t.analysis and "MoE" in t.analysis, t.analysis


def test_the_suffix_hua_is_no_topic(zh):
    """化 after a word ("稀疏化" sparsification, "正则化" regularization) was glossed "make into change
    into -ization -ize", and those glosses became a part every paper had to cover: "哪些论文研究量化或
    稀疏化？" abstained ("没有论文涉及“ization/ize”"). The word before it carries the topic (Snowball
    stems "regularization" as "regular"); 化学 (chemistry) is its own word."""
    from paperscope.text.zh import to_english_query

    assert "ization" not in to_english_query("有哪些关于正则化的论文？")
    assert to_english_query("有哪些关于正则化的论文？").split()[0] == "regular"
    assert "chemistry" in to_english_query("有没有关于化学的论文？")
    # Dictionary notes are no glosses either: a measure word's "classifier for ships" (an ML word),
    # a "Taiwan pr." pronunciation, an "abbr. for" note.
    english = to_english_query("多艘水下航行器只用一个声学信标导航时，有没有去中心化的估计方法？")
    assert "underwater" in english and "classifier" not in english and "taiwan" not in english
    assert "abbr" not in to_english_query("PU学习为什么有时比普通的正负样本监督学习还好？")
    ans = zh.ask("哪些论文研究量化或稀疏化？")
    assert not ans.abstained, ans.text
    assert any(c.title.startswith("SLiM") for c in ans.citations)
