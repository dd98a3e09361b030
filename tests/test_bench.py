"""`paperscope bench` end to end (small), the known-item benchmark, the int8 embedder's
determinism and agreement with fp32, and bench/gpu.sh in its CPU small mode.

Everything runs for real: the shipped embedder, embedded Chroma, sentence-transformers and
llama-index for the baselines (torch comes with the `bench` extra; `need` skips without it
locally and fails in CI). Numbers are only checked for sanity (positive, in range): this
machine is shared, so speed is reported, not asserted.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import ROOT, SHARED, need

CORPUS = SHARED / "corpora" / "conference_abstracts.jsonl.gz"
PAPERSCOPE = str(ROOT / ".venv" / "bin" / "paperscope")
HAVE_TORCH = all(importlib.util.find_spec(m) for m in ("torch", "sentence_transformers"))


def _positive(d: dict, *keys: str) -> None:
    for key in keys:
        assert isinstance(d[key], (int, float)) and d[key] > 0, (key, d.get(key))


@pytest.mark.slow
def test_bench_cli_small_json(tmp_path):
    need(CORPUS.exists(), f"shared corpus missing at {CORPUS}")
    need(HAVE_TORCH, "torch + sentence-transformers (pip install 'paperscope[bench]') for the baselines")
    env = dict(os.environ, PAPERSCOPE_DATA_DIR=str(tmp_path / "unused"))
    proc = subprocess.run([PAPERSCOPE, "bench", "--n", "200", "--json", "--questions", "12", "--known-item-papers", "60",
                           "--cold-runs", "1", "--work-dir", str(tmp_path / "work")],
                          capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(proc.stdout)
    assert report["n"] == 200 and report["machine"]["cores"] >= 1 and report["machine"]["cpu"]

    ingest = report["ingest"]
    for job in ("paperscope", "naive", "llama-index"):
        _positive(ingest[job], "abstracts_per_s", "seconds", "peak_rss_mb")
        assert ingest[job]["papers"] == 200, (job, ingest[job])
    assert ingest["paperscope"]["chunks"] >= 200  # long abstracts are split into chunks
    _positive(ingest["ratios"], "paperscope_vs_naive", "paperscope_vs_llama_index")

    agreement = report["quality"]["agreement"]
    assert agreement["texts"] == 200 and agreement["reference_tokens"] == 256
    for key in ("vs_naive", "same_length"):
        ag = agreement[key]
        assert 0.9 <= ag["mean_cos"] <= 1.0 and 0.5 <= ag["min_cos"] <= ag["mean_cos"], (key, ag)
    # Quantisation alone (same truncation) must agree more closely than a shorter truncation does.
    assert agreement["same_length"]["mean_cos"] >= 0.98
    assert agreement["same_length"]["mean_cos"] >= agreement["vs_naive"]["mean_cos"] - 1e-4
    from paperscope.settings import Settings

    ours = f"minilm-int8:{Settings().embed.max_tokens}"
    ki = report["quality"]["known_item"]
    assert list(ki) == [ours, "minilm:256"], list(ki)
    assert set(report["quality"]["r1_change"]) == {"of", "vs", "dense", "hybrid"}
    assert report["quality"]["r1_change"]["of"] == ours
    for emb, name in ((ours, "minilm-int8"), ("minilm:256", "minilm")):
        res = ki[emb]
        assert res["embedder"] == name and res["n_papers"] == 60
        for retriever in ("bm25", "dense", "hybrid"):
            m = res[retriever]
            assert 0.5 <= m["R@1"] <= m["R@5"] <= m["R@10"] <= 1.0, (emb, retriever, m)
            assert m["R@1"] <= m["MRR"] <= 1.0

    queries = report["queries"]
    assert queries["papers"] == 200 and queries["questions"] == 12  # --questions timed, warm-up extra
    _positive(queries["search"], "p50_ms", "p95_ms")
    _positive(queries["ask"], "p50_ms", "p95_ms")
    assert queries["search"]["p50_ms"] <= queries["search"]["p95_ms"]
    _positive(queries["cold_start_ask"], "median_s")

    from paperscope.bench.run import markdown

    table = markdown(report)
    assert "| ingest 200 abstracts, paperscope |" in table and "cold start" in table


def test_known_item_metrics_and_variants_without_reingest(tmp_path):
    need(CORPUS.exists(), f"shared corpus missing at {CORPUS}")
    from paperscope.bench.known_item import KnownItem, metrics
    from paperscope.settings import RetrieveSettings

    assert metrics([1, 2, None, 6]) == {"R@1": 0.25, "R@5": 0.5, "R@10": 0.75, "MRR": round((1 + 0.5 + 1 / 6) / 4, 4)}

    kb = KnownItem.build(tmp_path / "ki", n_papers=40, n_queries=15)
    assert kb.n_papers == 40 and len(kb.queries) == 15 and kb.ingest_summary["added"] == 40
    indexed = [json.loads(line) for line in (tmp_path / "ki" / "known_item_papers.jsonl").read_text().splitlines()]
    assert not any("tldr" in rec for rec in indexed)  # the query text is never indexed
    base = kb.evaluate()
    for retriever in ("bm25", "dense", "hybrid"):
        m = base[retriever]
        assert 0.6 <= m["R@1"] <= m["R@5"] <= 1.0, (retriever, m)
    chunks = kb.assistant.store.count()
    # A fusion variant is applied to this call only, without re-ingesting: dense weight 0
    # makes the hybrid ranking the BM25 ranking.
    lexical_only = kb.evaluate(RetrieveSettings(dense_weight=0.0), which=("bm25", "hybrid"))
    assert lexical_only["hybrid"]["R@1"] == lexical_only["bm25"]["R@1"]
    assert lexical_only["hybrid"]["MRR"] == lexical_only["bm25"]["MRR"]
    assert lexical_only["settings"]["dense_weight"] == 0.0 and "dense" not in lexical_only
    from paperscope.settings import RetrieveSettings

    assert kb.assistant.retriever.settings.dense_weight == RetrieveSettings().dense_weight  # restored afterwards
    assert kb.assistant.store.count() == chunks


@pytest.mark.slow
def test_int8_embedder_is_deterministic_and_agrees_with_fp32():
    need(CORPUS.exists(), f"shared corpus missing at {CORPUS}")
    from paperscope.bench.corpus import embed_texts, sample
    from paperscope.index.embed import make_embedder
    from paperscope.settings import EmbedSettings

    texts = embed_texts(sample(CORPUS, 24)) + ["mixture of experts latency", "哪些论文研究混合专家模型？"]
    emb = make_embedder(EmbedSettings(model="minilm-int8"))
    need(emb.fused, "the `onnx` package, to build the fused int8 graph (else the slower shipped file runs)")
    together = emb.embed(texts)
    alone = np.stack([emb.embed([t])[0] for t in texts])
    reordered = emb.embed(texts[::-1])[::-1]
    # A vector depends on its text only, never on the other texts of the call.
    assert np.array_equal(together, alone) and np.array_equal(together, reordered)
    assert together.shape == (len(texts), 384) and np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    if HAVE_TORCH:
        ref = make_embedder(EmbedSettings(model="minilm", device="cpu")).embed(texts)
        cos = (together * ref).sum(1)
        assert cos.mean() > 0.99 and cos.min() > 0.97, cos


@pytest.mark.slow
def test_gpu_script_cpu_small_mode(tmp_path):
    out = tmp_path / "gpu.json"
    proc = subprocess.run(["bash", str(ROOT / "src" / "paperscope" / "bench" / "gpu.sh"), "--small", "--out", str(out)],
                          capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHON=sys.executable))
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(out.read_text())
    assert report["small"] is True and report["device"] in ("cpu", "cuda")
    embed = report["embed"]
    assert embed["texts"] == 64
    _positive(embed, "texts_per_s_model", "tokens_per_s_model", "model_s")
    gen = report["generate"]
    assert gen["params"] > 100_000_000  # SmolLM2-135M's shapes, whatever the weights
    assert [r["batch"] for r in gen["runs"]] == [1, 4]
    for run in gen["runs"]:
        _positive(run, "ttft_ms", "decode_tokens_per_s_total", "bytes_per_decode_step")


def test_bench_known_item_cli_takes_name_and_truncation(tmp_path):
    need(CORPUS.exists(), f"shared corpus missing at {CORPUS}")
    env = dict(os.environ, PAPERSCOPE_DATA_DIR=str(tmp_path / "unused"))
    proc = subprocess.run([PAPERSCOPE, "bench", "--known-item", "--known-item-papers", "60", "--embedder", "minilm-int8:64",
                           "--json"], capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    (res,) = json.loads(proc.stdout)
    assert res["embedder"] == "minilm-int8" and res["max_tokens"] == 64 and res["n_papers"] == 60
    assert 0.5 <= res["hybrid"]["R@1"] <= 1.0
    table = subprocess.run([PAPERSCOPE, "bench", "--known-item", "--known-item-papers", "60", "--embedder", "fake"],
                           capture_output=True, text=True, env=env, timeout=600)
    from paperscope.settings import Settings

    row = f"| fake:{Settings().embed.max_tokens} | dense |"
    assert table.returncode == 0 and row in table.stdout, table.stdout + table.stderr[-2000:]


def test_listall_section_scores_find_all_on_a_small_library(tmp_path):
    """The listall section end to end on ~100 papers: 2 labelled topics (their gold and acceptable
    papers) among distractors from the shared corpus; recall, precision and latency are reported."""
    need(CORPUS.exists(), f"shared corpus missing at {CORPUS}")
    from paperscope.bench.corpus import sample, write_jsonl
    from paperscope.bench.listall import load_topics, score
    from paperscope.bench.run import markdown, run_bench

    assert score(["a", "b", "c"], {"a", "d"}, {"b"}) == {"recall": 0.5, "precision": 2 / 3, "strict_precision": 1 / 3,
                                                        "found": 3.0, "empty": 0.0}
    assert score([], {"a"}, set())["precision"] == 0.0 and score([], {"a"}, set())["empty"] == 1.0
    with pytest.raises(ValueError, match="unknown bench section"):
        run_bench(sections=("listal",), corpus=CORPUS)
    topics = [t for t in load_topics() if t["id"] in ("sarcasm", "stein_variational_gradient_descent")]
    assert len(topics) == 2
    labelled = {i for t in topics for i in t["gold_85k"] + t["acceptable_85k"]}
    recs = sample(CORPUS, None)
    papers = [r for r in recs if r["id"] in labelled] + [r for r in recs if r["id"] not in labelled][:60]
    corpus = write_jsonl(papers, tmp_path / "corpus.jsonl")
    (tmp_path / "topics.jsonl").write_text("".join(json.dumps(t) + "\n" for t in topics), encoding="utf-8")
    report = run_bench(n=len(papers), corpus=corpus, sections=("listall",), work_dir=tmp_path / "work",
                       listall_topics=tmp_path / "topics.jsonl")
    assert set(report) >= {"listall", "n"} and "queries" not in report
    (size, res), = report["listall"]["by_size"].items()
    assert int(size) == res["papers"] == len(papers)
    assert res["topics"] == 2 and res["questions"] == {"english": 6, "zh": 2}
    assert [t["id"] for t in res["per_topic"]] == [t["id"] for t in topics]
    assert {t["gold"] for t in res["per_topic"]} == {len(t["gold_85k"]) for t in topics}
    english = res["mean"]["english"]
    # Two distinctive topics among 60 unrelated papers. The bar is low (find_all is conservative
    # today: ~0.4 recall here) but a broken id mapping or an empty list fails it.
    assert 0.2 <= english["recall"] <= 1.0 and 0.6 <= english["precision"] <= 1.0, english
    assert max(q["recall"] for t in res["per_topic"] for q in t["questions"] if q["kind"] == "direct") >= 0.6
    assert english["strict_precision"] <= english["precision"] and english["found"] > 0
    lat = res["latency"]["english"]
    assert lat["n"] == 6 and 0 < lat["p50_ms"] <= lat["p95_ms"] <= lat["max_ms"], lat
    assert res["errors"]["questions"] == 0, res["errors"]
    assert set(res["targets_met"]) == {"no_errors", "recall", "precision", "p50"}
    table = markdown(report)
    assert f"| find_all, {size} papers, 2 topics, English: recall / precision (strict) |" in table
    assert "| find_all, " + size + " papers, sarcasm (22 gold) | recall" in table
    # Counts and newest-first answers of both topics ("How many papers detect sarcasm?").
    shaped = res["shaped"]
    assert shaped["topics"] == 2 and [t["id"] for t in shaped["per_topic"]] == [t["id"] for t in topics]
    assert all(t["count"] > 0 and t["newest_gold_year"] for t in shaped["per_topic"])
    assert 0 <= shaped["newest_first"] <= 2 and 0.0 <= shaped["newest_precision"] <= 1.0
    assert f"| ask, {size} papers, \"How many papers ...?\" over 2 topics" in table


def test_hand_labelled_question_libraries_are_consistent():
    """The human-written training questions (bench/questions/lib<X>_questions.jsonl): every label
    names a paper of that library, every key is verbatim in its gold paper's abstract, gold and
    acceptable never overlap, and no question that asks about a list-all benchmark topic is
    trained on (the benchmark stays held out)."""
    import gzip

    from paperscope.bench.relevance_items import DATA, HUMAN_LIBRARIES, asks_benchmark_topic, human_items, load_jsonl

    libraries = json.loads((DATA / "libraries.json").read_text())
    wanted = {i for x in HUMAN_LIBRARIES for i in libraries[f"lib{x}"]}
    corpus = SHARED / "corpora" / "conference_abstracts.jsonl.gz"
    if not corpus.exists():
        pytest.skip("needs ../shared/corpora")
    abstracts = {}
    with gzip.open(corpus, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line[8:line.find('"', 8)] in wanted:  # '{"id": "<id>", ...': parse only the labelled papers
                rec = json.loads(line)
                abstracts[rec["id"]] = f"{rec['title']} {rec['abstract']}".lower()
    assert set(abstracts) == wanted
    assert asks_benchmark_topic(["What research exists on retrieval-augmented generation over legal documents?"])
    for x in HUMAN_LIBRARIES:
        ids = set(libraries[f"lib{x}"])
        assert len(ids) == 38
        for n, item in enumerate(load_jsonl(DATA / f"lib{x}_questions.jsonl"), 1):
            where = f"lib{x}_questions.jsonl:{n}"
            gold, acceptable = set(item["gold"]), set(item.get("acceptable") or [])
            assert gold | acceptable <= ids, where
            assert not gold & acceptable, where
            if item.get("key"):
                assert len(gold) == 1 and item["key"].lower() in abstracts[next(iter(gold))], where
        for it in human_items(DATA / f"lib{x}_questions.jsonl", f"qgen{x}", f"lib{x}"):
            assert not asks_benchmark_topic([it["question"]]), it["question"]


def test_one_word_training_topics_are_topic_words_and_skip_the_benchmark():
    """`word_topics` (one-word title topics for the relevance model): a word that names a topic in
    its titles is kept; words used everywhere in abstracts, adverbs, research verbs and title-genre
    words are not; a benchmark pattern keeps its topic out."""
    import re

    from paperscope.bench.relevance_items import benchmark_topic_words, word_topics

    def paper(title: str, abstract: str) -> dict[str, str]:
        return {"title": title, "abstract": abstract}

    papers = [paper(f"Hexapod gait {i} towards whole walking", "We build a hexapod. The whole method works quickly.")
              for i in range(6)]
    papers += [paper(f"Sarcasm {i} quickly", "Sarcasm detection in tweets.") for i in range(6)]
    papers += [paper(f"Other {i}", "The whole thing is whole again, whole.") for i in range(60)]
    words = word_topics(papers, 5, 150, 100, seed=0)
    assert "hexapod" in words and "sarcasm" in words and "walking" in words
    assert not {"whole", "towards", "quickly", "other"} & set(words)
    assert "sarcasm" not in word_topics(papers, 5, 150, 100, seed=0, skip=[re.compile("sarcas", re.I)])
    assert "hexapod" not in word_topics(papers, 5, 150, 100, seed=0, skip_words={"hexapod"})
    assert {"crowd", "counting", "grippers", "sarcasm"} <= benchmark_topic_words()  # benchmark topics' words


def test_libraries_section_pools_the_hand_labelled_questions(tmp_path):
    """One hand-labelled library through the `libraries` section: ingested from the corpus, its
    questions scored as `paperscope eval` scores them (pooled over one library = that library's
    own metrics), reused on a second run, and its row in the bench table."""
    need(CORPUS.exists(), f"shared corpus missing at {CORPUS}")
    from paperscope.bench.libraries import run_libraries
    from paperscope.bench.run import machine, markdown

    with pytest.raises(ValueError, match="unknown hand-labelled library"):
        run_libraries(CORPUS, tmp_path, names=["libZ"])
    res = run_libraries(CORPUS, tmp_path, names=["libA"])
    own, pooled, totals = res["per_library"]["libA"], res["pooled"], res["totals"]
    assert totals["questions"] == own["items"] >= 50
    for metric in ("citation_precision", "citation_recall", "abstention_accuracy", "key_fact_rate"):
        assert pooled[metric] == own[metric], metric
    # The shipped model answers its own training library well; a broken id mapping scores ~0.
    assert pooled["citation_precision"] > 0.7 and pooled["abstention_accuracy"] > 0.6, pooled
    assert (tmp_path / "libraries" / "libA.jsonl").read_text().count("\n") == 38
    again = run_libraries(CORPUS, tmp_path, names=["libA"])  # the library is reused, the answers the same
    assert again["totals"] == totals
    row = markdown({"machine": machine(), "libraries": res}).splitlines()[-1]
    assert row.startswith("| hand-labelled libraries (1, ") and f"({totals['cited_ok']}/{totals['cited']})" in row


def test_phrasings_section_asks_the_same_questions_in_other_wordings(tmp_path):
    """A library's "Which papers <verb> X?" questions asked as "Who has worked on X?", "Is X
    covered by any paper here?", "Recommend papers on X": read as the same request, they cite about
    as many gold papers as the original wording (a factoid reading cites one paper; "covered" and
    "recommend" were topic words)."""
    need(CORPUS.exists(), f"shared corpus missing at {CORPUS}")
    from paperscope.bench.phrasings import run_phrasings, topic_of
    from paperscope.bench.run import machine, markdown

    assert topic_of("Which papers study event cameras?") == "event cameras"
    assert topic_of("How large is the model?") is None
    with pytest.raises(ValueError, match="unknown phrasing style"):
        run_phrasings(CORPUS, tmp_path, names=["libA"], styles=["shouting"])
    styles = ["who has worked", "covered by", "recommend", "typing slip", "misspelt verb"]
    both = run_phrasings(CORPUS, tmp_path, names=["libA", "libB"], styles=styles)
    res = both["styles"]
    facts = both["factoid_styles"]  # factoid questions inside an aside quote the key fact as worded ones do
    assert facts["as worded"]["questions"] >= 10 and facts["as worded"]["key_facts"] >= 8, facts
    for style, f in facts.items():
        assert f["key_facts"] >= 0.9 * facts["as worded"]["key_facts"], (style, f, facts["as worded"])
    worded = res["as worded"]
    assert worded["questions"] >= 8 and worded["gold_cited"] >= 8, worded
    for style in styles:
        assert res[style]["questions"] == worded["questions"]
        assert res[style]["gold_cited"] >= 0.85 * worded["gold_cited"], (style, res[style], worded)
    rows = markdown({"machine": machine(), "phrasings": both}).splitlines()
    assert any(r.startswith("| factoid \u201cquick question\u201d") for r in rows)
    assert any(r.startswith("| phrasing \u201cwho has worked\u201d") for r in rows)
