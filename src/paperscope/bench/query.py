"""Query-side benchmark: warm latency of `search` and `ask`, and cold start of `paperscope ask`.

Questions are generated from the corpus itself (keywords and titles of papers in hash-of-id
order), so they are distinct, realistic in length, and the same on every machine. "Warm"
means after a few untimed questions in the same process (models loaded, BM25 and catalog
read); the sentence cache of `ask` is not cleared, as it is not in a long-running server.
Cold start is a new `paperscope ask` process: interpreter, imports, opening Chroma,
loading BM25, one answer.
Leaves out: concurrency (tests/test_concurrency.py covers correctness under load).
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from paperscope.assistant import Assistant

from paperscope.bench.corpus import sample

_TEMPLATES_KW = ("Which papers study {}?", "What methods are proposed for {}?", "Are there papers on {}?")
_TEMPLATES_TITLE = ("Which paper is about {}?", "Is there work on {}?")


def questions(corpus: Path, n: int = 200) -> list[str]:
    """n distinct questions: ~3/4 from paper keywords, the rest from title phrases."""
    out: dict[str, None] = {}
    recs = sample(corpus, None)
    n_kw = (3 * n) // 4
    for i, rec in enumerate(r for r in recs if r.get("keywords")):
        if len(out) >= n_kw:
            break
        kw = str(rec["keywords"][0]).strip().lower()
        if 3 <= len(kw) <= 60:
            out.setdefault(_TEMPLATES_KW[i % len(_TEMPLATES_KW)].format(kw))
    for i, rec in enumerate(recs):
        if len(out) >= n:
            break
        title = re.sub(r"[:?!.].*$", "", rec.get("title") or "").strip()
        words = title.split()
        if 3 <= len(words) <= 12:
            out.setdefault(_TEMPLATES_TITLE[i % len(_TEMPLATES_TITLE)].format(title[0].lower() + title[1:]))
    return list(out)[:n]


def percentiles(seconds: list[float]) -> dict[str, Any]:
    ms = sorted(1000 * s for s in seconds)
    if not ms:
        return {"n": 0}

    def pct(p: float) -> float:
        return round(ms[min(len(ms) - 1, int(round(p * (len(ms) - 1))))], 1)

    return {"n": len(ms), "p50_ms": pct(0.50), "p95_ms": pct(0.95), "mean_ms": round(statistics.fmean(ms), 1),
            "max_ms": round(ms[-1], 1)}


def latency(assistant: Assistant, qs: list[str], warmup: int = 5, k: int = 10) -> dict[str, Any]:
    """Warm p50/p95 of search and ask over `qs` (each question once per call type)."""
    for q in qs[:warmup]:
        assistant.search(q, k=k)
        assistant.ask(q)
    timed = qs[warmup:] or qs
    search_s, ask_s, abstained = [], [], 0
    for q in timed:
        t = time.perf_counter()
        assistant.search(q, k=k)
        search_s.append(time.perf_counter() - t)
    for q in timed:
        t = time.perf_counter()
        ans = assistant.ask(q)
        ask_s.append(time.perf_counter() - t)
        abstained += bool(ans.abstained)
    return {"search": percentiles(search_s), "ask": percentiles(ask_s), "questions": len(timed),
            "abstained": abstained, "papers": assistant.catalog.paper_count()}


def _cli() -> list[str]:
    exe = Path(sys.executable).parent / "paperscope"
    if exe.exists():
        return [str(exe)]
    found = shutil.which("paperscope")
    return [found] if found else [sys.executable, "-m", "paperscope.cli"]


def cold_start(data_dir: Path, question: str, runs: int = 3, embedder: str | None = None) -> dict[str, Any]:
    """Wall time of whole `paperscope ask QUESTION --json` processes (median of `runs`)."""
    env = dict(os.environ, PAPERSCOPE_DATA_DIR=str(data_dir))
    if embedder:
        env["PAPERSCOPE_EMBED_MODEL"] = embedder
    walls = []
    for _ in range(runs):
        t = time.perf_counter()
        proc = subprocess.run(_cli() + ["ask", question, "--json"], capture_output=True, text=True, env=env,
                              timeout=600)
        walls.append(time.perf_counter() - t)
        if proc.returncode != 0:
            raise RuntimeError(f"paperscope ask failed ({proc.returncode}): {proc.stderr[-500:]}")
    return {"runs": [round(w, 2) for w in walls], "median_s": round(statistics.median(walls), 2)}
