"""Known-item retrieval: each paper's TL;DR is the query, the paper itself the one right answer.

    from paperscope.bench import KnownItem, known_item
    kb = KnownItem.build(data_dir="/tmp/ki", n_papers=2000)      # ingests once (re-runs skip)
    kb.evaluate()                                                 # bm25 / dense / hybrid metrics
    kb.evaluate(RetrieveSettings(rrf_k=20, dense_weight=0.7))     # a fusion variant, no re-ingest
    known_item(n_papers=2000, variants=[RetrieveSettings(), ...]) # the same in one call

BM25-only is `catalog.bm25_search`, dense-only is `retriever.dense` over
`embedder.embed`, hybrid is `Assistant.search` itself (so changes to fusion are measured as
shipped). Query vectors are computed once and memoised, so a settings variant costs only
retrieval. `Paper.index_text()` and the embedded chunk text exclude the tldr, and the indexed
copies have it removed as well, so the query never appears in the index.
Leaves out: graded relevance (one relevant paper per query by construction).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperscope.bench.corpus import default_corpus, known_item_sample, write_jsonl
from paperscope.index.embed import Embedder, Vectors
from paperscope.settings import EmbedSettings, RetrieveSettings, Settings
from paperscope.text.zh import to_english_query

if TYPE_CHECKING:
    from paperscope.assistant import Assistant

CUTOFFS = (1, 5, 10)


class MemoEmbedder:
    """Wraps an embedder; single-text calls (queries) are memoised across evaluations."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.name, self.dim, self.independent = inner, inner.name, inner.dim, inner.independent
        self.memo: dict[str, Vectors] = {}

    @property
    def window(self) -> int:
        return self.inner.window

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        return self.inner.count_tokens(texts)

    def embed(self, texts: Sequence[str]) -> Vectors:
        if len(texts) != 1:
            return self.inner.embed(texts)
        vec = self.memo.get(texts[0])
        if vec is None:
            vec = self.memo[texts[0]] = self.inner.embed(texts)[0]
        return vec[None, :]

    def warm(self, texts: Sequence[str]) -> None:
        """Embed every query once, up front (vectors exactly as `embed` gives them)."""
        todo = sorted({t for t in texts if t not in self.memo})
        if todo:
            for text, vec in zip(todo, self.inner.embed(todo)):
                self.memo[text] = vec


def metrics(ranks: Sequence[int | None], cutoffs: Sequence[int] = CUTOFFS) -> dict[str, Any]:
    """R@k and MRR from 1-based ranks of the right paper (None: not retrieved)."""
    n = max(len(ranks), 1)
    out = {f"R@{k}": round(sum(1 for r in ranks if r is not None and r <= k) / n, 4) for k in cutoffs}
    out["MRR"] = round(sum(1.0 / r for r in ranks if r) / n, 4)
    return out


def _rank(ids: Sequence[str], target: str) -> int | None:
    for i, pid in enumerate(ids, 1):
        if pid == target:
            return i
    return None


@dataclass
class KnownItem:
    assistant: Assistant
    memo: MemoEmbedder
    queries: list[dict[str, Any]]
    n_papers: int
    ingest_seconds: float = 0.0
    ingest_summary: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def build(cls, data_dir: str | Path | None = None, n_papers: int = 2000, n_queries: int | None = None,
              corpus: str | Path | None = None, embedder: str | Embedder | None = None,
              settings: Settings | None = None) -> KnownItem:
        """Ingest the sample into `data_dir` (a temp dir when None) and return the bench.
        `embedder`: a registry name ('minilm-int8', 'minilm', ...) or an Embedder object."""
        from paperscope.assistant import Assistant
        from paperscope.index.embed import make_embedder

        settings = settings or Settings()
        if isinstance(embedder, str):
            settings = settings.model_copy(update={"embed": settings.embed.model_copy(update={"model": embedder})})
            embedder = None
        inner = embedder or make_embedder(settings.embed)
        data_dir = Path(data_dir) if data_dir else Path(tempfile.mkdtemp(prefix="paperscope-known-item-"))
        papers, queries = known_item_sample(Path(corpus or default_corpus()), n_papers, n_queries)
        sample_file = write_jsonl(papers, data_dir / "known_item_papers.jsonl")
        memo = MemoEmbedder(inner)
        a = Assistant.open(data_dir, settings=settings, embedder=memo)
        t0 = time.perf_counter()
        summary = a.ingest([sample_file])
        return cls(a, memo, queries, len(papers), time.perf_counter() - t0, summary.as_dict())

    def _query_texts(self) -> list[str]:
        return [to_english_query(q["query"]) for q in self.queries]

    def evaluate(self, retrieve: RetrieveSettings | None = None, which: Iterable[str] = ("bm25", "dense", "hybrid"),
                 depth: int | None = None) -> dict[str, Any]:
        """Metrics per retriever. `retrieve` replaces the assistant's RetrieveSettings for this
        call only (fusion weights, rrf_k, candidates ...)."""
        a = self.assistant
        which = set(which)
        old_settings, old_retrieve = a.settings, a.retriever.settings
        retrieve = retrieve or old_retrieve
        depth = depth or max(retrieve.candidates, max(CUTOFFS))
        texts = self._query_texts()
        self.memo.warm(texts)
        a.refresh()
        ranks: dict[str, list[int | None]] = {w: [] for w in which}
        seconds: dict[str, float] = {w: 0.0 for w in which}
        try:
            a.settings = old_settings.model_copy(update={"retrieve": retrieve})
            a.retriever.settings = retrieve
            for q, text in zip(self.queries, texts):
                if "bm25" in which:
                    t = time.perf_counter()
                    ids = [pid for pid, _ in a.catalog.bm25_search(text, depth)]
                    seconds["bm25"] += time.perf_counter() - t
                    ranks["bm25"].append(_rank(ids, q["id"]))
                if "dense" in which:
                    t = time.perf_counter()
                    ids = [pid for pid, _ in a.retriever.dense(a.embedder.embed([text])[0], depth)]
                    seconds["dense"] += time.perf_counter() - t
                    ranks["dense"].append(_rank(ids, q["id"]))
                if "hybrid" in which:
                    t = time.perf_counter()
                    ids = [h.paper_id for h in a.search(q["query"], k=depth)]
                    seconds["hybrid"] += time.perf_counter() - t
                    ranks["hybrid"].append(_rank(ids, q["id"]))
        finally:
            a.settings, a.retriever.settings = old_settings, old_retrieve
        out: dict[str, Any] = {"n_queries": len(self.queries), "n_papers": self.n_papers, "embedder": a.embedder.name,
                     "max_tokens": a.settings.embed.max_tokens, "settings": retrieve.model_dump()}
        for w in ("bm25", "dense", "hybrid"):
            if w in which:
                out[w] = metrics(ranks[w]) | {"ms_per_query": round(1000 * seconds[w] / max(len(texts), 1), 2)}
        return out


def known_item(n_papers: int = 2000, n_queries: int | None = None, variants: Sequence[RetrieveSettings] | None = None,
               data_dir: str | Path | None = None, corpus: str | Path | None = None,
               embedder: str | Embedder | None = None, settings: Settings | None = None) -> dict[str, Any]:
    """Ingest once, evaluate the default settings and every variant. Returns
    {"ingest": {...}, "results": [evaluate() per settings]}."""
    kb = KnownItem.build(data_dir, n_papers, n_queries, corpus, embedder, settings)
    results = [kb.evaluate()]
    for variant in variants or []:
        results.append(kb.evaluate(variant, which=("hybrid",)))
    return {"ingest": {"seconds": round(kb.ingest_seconds, 2), **kb.ingest_summary}, "results": results}


def table(results: Sequence[dict[str, Any]]) -> str:
    """Markdown table of evaluate() results (one row per retriever and settings)."""
    rows = ["| embedder | retriever | settings | R@1 | R@5 | R@10 | MRR |", "|---|---|---|---|---|---|---|"]
    for res in results:
        s = res["settings"]
        tag = f"bm25 {s['bm25_weight']}, dense {s['dense_weight']}, rrf_k {s['rrf_k']}"
        for w in ("bm25", "dense", "hybrid"):
            if w in res:
                m = res[w]
                label = f"{res['embedder']}:{res.get('max_tokens', '?')}"
                rows.append(f"| {label} | {w} | {tag if w == 'hybrid' else ''} | {m['R@1']:.3f} | "
                            f"{m['R@5']:.3f} | {m['R@10']:.3f} | {m['MRR']:.3f} |")
    return "\n".join(rows)


__all__ = ["KnownItem", "known_item", "metrics", "table", "EmbedSettings"]
