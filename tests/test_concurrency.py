"""50 concurrent `Assistant.ask` calls in one process (threads, as the UI server makes them)
over the seeds with the real default embedder: no errors, and every answer identical to the
one the same question gets sequentially. The concurrent run goes first, on a freshly opened
Assistant, so the lazy paths (catalog sync, BM25 load, sentence cache) are raced too. The
p95 latency is printed, not asserted (2 shared cores)."""

from __future__ import annotations

import json
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import SHARED
from paperscope import Assistant

pytestmark = pytest.mark.slow

FALLBACK_QUESTIONS = [
    "Which papers address MoE latency?",
    "Which papers compress large language models?",
    "What kernel speedup does FlashTP report over cuEquivariance?",
    "Which papers are about molecules?",
    "Are there papers about recommender systems?",
    "Which paper extends random forests to product manifolds?",
    "哪些论文研究混合专家模型的推理延迟？",
    "Which papers study aligning LLMs with human preferences?",
    "Which papers improve long-context sequence modeling?",
    "🤖🤖",
]


def questions() -> list[str]:
    dev = SHARED / "eval" / "dev.jsonl"
    rows = [json.loads(line) for line in dev.read_text().splitlines() if line.strip()] if dev.exists() else []
    qs = [r["question"] for r in rows if "question" in r]  # multi-turn rows ("turns") left out
    qs = list(dict.fromkeys(qs + FALLBACK_QUESTIONS))
    return [qs[i % len(qs)] for i in range(50)]


def fingerprint(ans) -> tuple:
    return (ans.text, ans.abstained, tuple((c.marker, c.paper_id, c.quote) for c in ans.citations),
            tuple(n.paper_id for n in ans.nearest))


@pytest.fixture(scope="module")
def concurrent_run(seeded_data_dir, tmp_path_factory):
    """50 asks at once on a freshly opened Assistant: (data dir, questions, [(answer, seconds)])."""
    import shutil

    data = tmp_path_factory.mktemp("concurrency") / "data"
    shutil.copytree(seeded_data_dir, data)
    qs = questions()
    fresh = Assistant.open(data)

    def timed(q):
        t0 = time.perf_counter()
        ans = fresh.ask(q)
        return ans, time.perf_counter() - t0

    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=50) as pool:
        futures = [pool.submit(timed, q) for q in qs]
    wall = time.perf_counter() - t0
    errors = [f.exception() for f in futures if f.exception() is not None]
    results = [f.result() for f in futures if f.exception() is None]
    lat = sorted(sec for _, sec in results)
    if lat:
        p95 = lat[int(0.95 * (len(lat) - 1))]
        print(f"\n50 concurrent asks: wall {wall:.2f} s, median {statistics.median(lat):.2f} s, "
              f"p95 {p95:.2f} s, max {lat[-1]:.2f} s")
    return data, qs, results, errors


def test_50_concurrent_asks_without_errors(concurrent_run):
    data, qs, results, errors = concurrent_run
    assert errors == [] and len(results) == 50
    assert any(not ans.abstained for ans, _ in results) and any(ans.abstained for ans, _ in results)
    catalog = Assistant.open(data).catalog
    for ans, _ in results:
        papers = catalog.papers([c.paper_id for c in ans.citations])
        for c in ans.citations:  # every quote is still a verbatim sentence of its paper
            assert c.quote and c.quote in papers[c.paper_id].abstract
        assert ans.abstained == (not ans.citations)


def test_50_concurrent_asks_match_sequential(concurrent_run):
    data, qs, results, errors = concurrent_run
    assert not errors
    sequential = Assistant.open(data)
    expected = {q: fingerprint(sequential.ask(q)) for q in dict.fromkeys(qs)}
    mismatches = [q for q, (ans, _) in zip(qs, results) if fingerprint(ans) != expected[q]]
    assert not mismatches, mismatches[:3]
