import re

from paperscope.text.analyzer import concept, terms
from paperscope.text.sentences import sentence_spans, sentences
from paperscope.text.zh import has_cjk, to_english_query


def test_sentence_spans_are_exact_substrings_and_respect_abbreviations():
    text = ("We use e.g. Fig. 3 to show it. Smith et al. proposed X. It reaches a 60.8x speedup! "
            "Code: https://x.org/a.b. The end")
    spans = sentence_spans(text)
    got = [text[s:e] for s, e in spans]
    assert got == ["We use e.g. Fig. 3 to show it.", "Smith et al. proposed X.",
                   "It reaches a 60.8x speedup!", "Code: https://x.org/a.b.", "The end"]


def test_marker_after_closing_quote_stays_with_its_sentence():
    assert sentences("- T (A, 2025): \u201cWe do X.\u201d [1]") == ["- T (A, 2025): \u201cWe do X.\u201d [1]"]
    assert sentences("It is fast. [1] More.")[0].startswith("It is fast. [1]")


def test_terms_drop_stopwords_and_stem():
    assert terms("Which papers address Mixture-of-Experts latency?") == ["mixtur", "expert", "latenc", "mixtureofexpert"]


def test_hyphen_compounds_meet_their_joined_and_spaced_forms():
    """SciFact writes "birth weight", "birth-weight" and "birthweight": BM25 matches all three."""
    from paperscope.index.bm25 import Bm25Snapshot

    snap = Bm25Snapshot.build("g", ["joined", "other"], ["Low birthweight in infants.", "Adult height and diet."])
    assert [pid for pid, _ in snap.search("birth-weight of infants", 5)][0] == "joined"
    assert [pid for pid, _ in snap.search("low birth weight", 5)][0] == "joined"


def test_acronyms_spelled_by_word_prefixes():
    from paperscope.text.acronyms import acronym_definitions

    found = dict(acronym_definitions("We use Neural Radiance Fields (NeRF) and 3D Gaussian Splatting (3DGS)."))
    assert found == {"NeRF": "Neural Radiance Fields", "3DGS": "3D Gaussian Splatting"}


def test_concept_joins_inflections_but_not_unrelated_words():
    assert concept(terms("molecular")[0]) == concept(terms("molecules")[0])
    assert concept(terms("compression")[0]) != concept(terms("comprehensive")[0])


def test_chinese_question_is_glossed_to_english_terms():
    q = "哪些论文研究大语言模型的量化？"
    assert has_cjk(q)
    english = to_english_query(q)
    stems = set(terms(english))
    assert {"languag", "model", "quantiz"} <= stems
    assert to_english_query("plain english") == "plain english"


def test_acronyms_learned_from_the_corpus_link_both_spellings():
    from paperscope.text.acronyms import Acronyms, acronym_definitions
    from paperscope.text.analyzer import concepts

    texts = ["Mixture-of-Experts (MoE) is widely adopted to deploy Large Language Models (LLMs) on edge devices."]
    assert ("MoE", "Mixture of Experts") in acronym_definitions(texts[0])
    acr = Acronyms.learn(texts, min_count=1)
    assert concepts("large language models") <= acr.expand(concepts("we prune LLMs"))
    assert "moe" in acr.expand(concepts("a sparse mixture of experts"))
    assert acr.expand(concepts("plain words")) == concepts("plain words")


def test_acronym_scan_survives_odd_spacing():
    from paperscope.text.acronyms import acronym_definitions

    acronym_definitions("see - (AB) and  - -(CD)")  # raised IndexError on 3 corpus records
    assert acronym_definitions("Large  Language Models (LLMs)") == [("LLMs", "Large Language Models")]


def _reference_acronym_definitions(text: str) -> list[tuple[str, str]]:
    """The first implementation's scan (one regex over the whole text; ~10x slower), which the
    look-back scan must reproduce; matching words to the acronym is shared and unchanged."""
    import re

    from paperscope.text.acronyms import acronym_expansion

    out = []
    for m in re.finditer(r"((?:[A-Za-z0-9][A-Za-z0-9]*[\s-]+){1,8})\(((?=[A-Za-z0-9]*[A-Z])[A-Z0-9][A-Za-z0-9]{1,9})\)", text):
        expansion = acronym_expansion(m.group(2), [w for w in re.split(r"[\s-]+", m.group(1)) if w])
        if expansion is not None:
            out.append((m.group(2), expansion))
    return out


def test_acronym_scan_matches_the_reference_implementation():
    from conftest import SHARED
    from paperscope.text.acronyms import acronym_definitions

    texts = ["Large Language Models (LLMs) and 3D Gaussian Splatting (3DGS) x", "a (AB) (CD) mixture-of-experts (MoE)",
             "大型语言模型 (LLM) large language model (LLM)", "x " * 300 + "Deep Q Network (DQN)", "(AB)(CD) e (EF)",
             "Vision Transformer (ViT) (ViT) with Low-Rank Adaptation (LoRA) of Large Language Models (LLMs)."]
    corpus = SHARED / "corpora" / "conference_abstracts.jsonl.gz"
    if corpus.exists():
        from paperscope.bench.corpus import iter_records

        for i, rec in enumerate(iter_records(corpus)):
            if i >= 3000:
                break
            texts.append(f"{rec.get('title') or ''}. {rec['abstract']}")
    found = 0
    for text in texts:
        want = _reference_acronym_definitions(text)
        assert acronym_definitions(text) == want, text[:200]
        found += len(want)
    assert found >= (100 if corpus.exists() else 5)


def test_acronyms_are_spelled_out_for_embedding_as_the_corpus_writes_them():
    from paperscope.text.acronyms import Acronyms

    acr = Acronyms.learn(["Sparse Mixture-of-Experts (MoE) layers route tokens.",
                          "We build a visual-inertial odometry (VIO) pipeline."], min_count=1)
    assert acr.spell_out("Which papers address MoE latency?") == \
        "Which papers address MoE (mixture of experts) latency?"
    assert acr.spell_out("Is there work on VIO?") == "Is there work on VIO (visual inertial odometry)?"
    # Already spelled out, or unknown to this library: unchanged.
    assert acr.spell_out("mixture of experts (MoE) routing") == "mixture of experts (MoE) routing"
    assert acr.spell_out("Which papers use NeRF?") == "Which papers use NeRF?"


def test_only_words_written_as_acronyms_are_spelled_out():
    """"mapping" is not MAP and "scans" is not SCAN: a lower-case word is a word (spelling it out
    put "maximum a posteriori" into SLAM questions' vectors); "VIO", "NeRF", "AUVs" are acronyms."""
    from paperscope.text.acronyms import Acronyms, written_as_acronym

    assert all(map(written_as_acronym, ["VIO", "NeRF", "AUVs", "3DGS", "LiDAR", "MoE", "LLMs"]))
    assert not any(map(written_as_acronym, ["mapping", "scans", "moe", "Transformer", "A"]))
    acr = Acronyms.learn(["A maximum a posteriori (MAP) estimate.", "A Stage Conscious Attention Network (SCAN).",
                          "We build a visual-inertial odometry (VIO) pipeline.",
                          "Autonomous underwater vehicles (AUVs) dive.", "PAC-Bayes and probably approximately "
                          "correct (PAC) learning."], min_count=1)
    question = "Is there work on simultaneous localization and mapping from 3D scans?"
    assert acr.spell_out(question) == question and acr.spelled(question) is None
    assert acr.spell_out("Which MAP estimates?") == "Which MAP (maximum a posteriori) estimates?"


def test_spelled_replaces_acronyms_for_find_alls_second_question():
    from paperscope.text.acronyms import Acronyms

    acr = Acronyms.learn(["We build a visual-inertial odometry (VIO) pipeline.",
                          "Autonomous underwater vehicles (AUVs) dive.",
                          "Probably approximately correct (PAC) learning."], min_count=1)
    assert acr.spelled("Is there work on VIO?") == "Is there work on visual inertial odometry?"
    assert acr.spelled("Is there work on AUVs?") == "Is there work on autonomous underwater vehicles?"
    # Already spelled out, unknown, or part of a hyphenated name ("PAC-Bayes" is not "probably
    # approximately correct-Bayes"): nothing to ask twice.
    assert acr.spelled("VIO (visual-inertial odometry) on drones") is None
    assert acr.spelled("Which papers use NeRF?") is None
    assert acr.spelled("Which papers prove PAC-Bayes bounds?") is None


def test_a_questions_acronyms_stay_acronyms_in_its_lower_cased_topic_words():
    """The relevance features embed the question's topic words, which come lower-cased and folded
    ("llm" for "LLMs"); the question wrote them as acronyms, so they are still spelled out there."""
    from paperscope.text.acronyms import Acronyms, acronyms_in

    acr = Acronyms.learn(["Large language models (LLMs) answer."], min_count=1)
    known = acronyms_in("Can LLMs check their own answers?")
    assert known == {"llms", "llm"}
    assert acr.spell_out("llms", known) == "llms (large language models)"
    assert acr.spell_out("llm", known) == "llm (large language models)"
    assert acr.spell_out("llms") == "llms"


def test_an_acronyms_plural_is_the_acronym():
    """Snowball leaves a word without vowels as it is: "LLMs" and "LLM" were two terms, so BM25,
    coverage and IDF never met a question's "LLM" in an abstract's "LLMs". Case tells a plural
    (capitals, then a small "s"); "GPS", "RKHS" and "https" are not plurals."""
    from paperscope.index.bm25 import Bm25Snapshot
    from paperscope.text.analyzer import fold

    assert terms("LLMs GNNs 3DMMs mLLMs") == terms("LLM GNN 3DMM mLLM") == ["llm", "gnn", "3dmm", "mllm"]
    for word in ("GPS", "RKHS", "https", "MCTS", "Ms", "process"):
        assert fold(word) == word.lower()
    snap = Bm25Snapshot.build("g", ["plural", "other"], ["We fine-tune LLMs on code.", "Gaussian processes for GPS data."])
    assert [pid for pid, _ in snap.search("LLM fine-tuning", 5)][0] == "plural"
    assert [pid for pid, _ in snap.search("GPs", 5)] == []  # "GPS" is no plural of "GP"


def test_a_question_asked_with_an_acronym_meets_papers_writing_its_plural(seeded):
    """"Papers on LLM reasoning?" over the seeds: before the fold it abstained (best paper 0.36);
    the position paper on LLMs' "human-like reasoning" is cited now."""
    ans = seeded.ask("Papers on LLM reasoning?")
    assert not ans.abstained, ans.text
    assert any(re.search(r"\bLLMs\b", c.quote) and "reasoning" in c.quote for c in ans.citations)


def test_background_acronyms_fill_in_those_a_library_writes_without_defining():
    """A small library defines few acronyms itself: "RNN layers" without "recurrent neural network (RNN)"
    anywhere left "recurrent neural networks" unconnected to the paper that writes only "RNN"."""
    from paperscope.text.acronyms import Acronyms, written_acronyms

    texts = ["Existing RNN layers have linear complexity. We call it TTT.",
             "Mixture of experts (MoE) layers route tokens; MoE is cheap.",
             "We apply knowledge distillation to a small student."]
    acr = Acronyms.learn(texts, min_count=1).with_background(written_acronyms(texts))
    assert acr.table["rnn"] == {"recurr", "neural", "network"} and "rnn" in acr.background
    assert "kd" not in acr.table  # no paper writes "KD": asking it so would only lose words
    assert acr.table["moe"] == {"mixtur", "expert"} and "moe" not in acr.background  # the library's own
    assert acr.abbreviated("Papers on recurrent neural networks?") == "Papers on RNN?"
    # MiniLM reads well-known acronyms as they are: the background's are not spelled out for embedding.
    assert acr.spell_out("RNN and MoE latency") == "RNN and MoE (mixture of experts) latency"


def test_a_library_defining_an_acronym_otherwise_keeps_its_own():
    from paperscope.text.acronyms import Acronyms, written_acronyms

    texts = ["We study representation learning (RL) of graphs.", "Better RL of molecules."]
    acr = Acronyms.learn(texts, min_count=1).with_background(written_acronyms(texts))
    assert acr.table["rl"] == {"represe", "learn"} and not acr.background


def test_the_shipped_background_acronyms_are_the_builders(tmp_path):
    """`text/data/acronyms.json` is what `python -m paperscope.bench.relevance_data --acronyms` builds."""
    import json
    from pathlib import Path

    from conftest import SHARED, need
    from paperscope.bench.relevance_data import build_acronyms

    corpus = SHARED / "corpora" / "conference_abstracts.jsonl.gz"
    need(corpus.exists(), f"shared corpus missing at {corpus}")
    build_acronyms(corpus, tmp_path / "acronyms.json")
    shipped = Path(__file__).resolve().parents[1] / "src" / "paperscope" / "text" / "data" / "acronyms.json"
    assert json.loads((tmp_path / "acronyms.json").read_text()) == json.loads(shipped.read_text())
    table = json.loads(shipped.read_text())["table"]
    assert table["rnn"] == ["network", "neural", "recurr"] and "dp" not in table  # DP: privacy 42%, programming 27%


def test_recurrent_neural_networks_meet_the_paper_writing_rnn(seeded):
    """Over the seeds it abstained ("none covers “recurrent neural”"): the TTT paper writes only "RNN"."""
    ans = seeded.ask("Papers on recurrent neural networks?")
    assert not ans.abstained and any("RNNs with Expressive Hidden States" in c.title for c in ans.citations)
