"""Hybrid retrieval: BM25 + dense, fused by weighted reciprocal rank, returning papers.

Dense search runs over chunks in Chroma and keeps each paper's best chunk; BM25 runs over
whole papers (title + keywords + abstract) in the local catalog. Filters (venue, year,
author) are resolved once against the catalog into the set of allowed paper ids, and both
retrievers honour that set, so a narrow filter still returns k papers.
A search runs against one `Bm25Snapshot` (the library of one generation): dense results for
papers outside it (vectors an ingest has written but not yet published) are left out.
Leaves out: sentence-level reranking, which belongs to relevance (`paperscope.relevance`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from paperscope.index.bm25 import Bm25Snapshot
from paperscope.index.catalog import Catalog
from paperscope.index.embed import Embedder
from paperscope.index.store import VectorStore, Where
from paperscope.records import Hit, normalize_venue
from paperscope.settings import RetrieveSettings
from paperscope.text.zh import to_english_query

# Above this many allowed papers, filter Chroma by venue/year metadata instead of an id list.
_MAX_ID_FILTER = 2000


@dataclass(frozen=True)
class Filters:
    venue: str | None = None
    year: int | None = None
    author: str | None = None
    years: tuple[int, int] | None = None  # an inclusive range ("since 2020": (2020, 9999))

    @classmethod
    def of(cls, value: Filters | Mapping[str, Any] | None) -> Filters | None:
        if value is None or isinstance(value, Filters):
            return value
        return cls(**{k: v for k, v in dict(value).items() if v not in (None, "")})

    def empty(self) -> bool:
        return not (self.venue or self.year is not None or self.author or self.years is not None)

    def described(self, venues: Sequence[str] = (), chinese: bool = False) -> str:
        """The filters in words ("from CVPR 2019", "by Zhou, from 2015-2018"); `venues`: the
        library's venue names, for the venue as the library writes it."""
        venue = next((v for v in venues if normalize_venue(v) == normalize_venue(self.venue)), self.venue or "")
        lo, hi = self.years or (None, None)
        span = (str(self.year) if self.year is not None else f"{lo}–{hi}" if lo and hi and hi < 9999
                else (f"{lo} or later" if not chinese else f"{lo} 年及以后") if lo
                else (f"{hi} or earlier" if not chinese else f"{hi} 年及以前") if hi is not None else "")
        if chinese:
            return "、".join(x for x in (self.author or "", " ".join(x for x in (venue, span) if x)) if x)
        parts = ([f"by {self.author}"] if self.author else []) + ([f"from {' '.join(x for x in (venue, span) if x)}"]
                                                                   if venue or span else [])
        return ", ".join(parts)


def rrf(rankings: list[tuple[list[str], float]], k: int) -> dict[str, float]:
    """Weighted reciprocal-rank fusion of several best-first id lists."""
    fused: dict[str, float] = {}
    for ids, weight in rankings:
        for rank, pid in enumerate(ids):
            fused[pid] = fused.get(pid, 0.0) + weight / (k + rank + 1)
    return fused


class Retriever:
    def __init__(self, store: VectorStore, catalog: Catalog, embedder: Embedder, settings: RetrieveSettings) -> None:
        self.store, self.catalog, self.embedder, self.settings = store, catalog, embedder, settings

    def _where(self, filters: Filters | None, allowed: set[str] | None) -> Where | None:
        if filters is None or filters.empty():
            return None
        if allowed is not None and len(allowed) <= _MAX_ID_FILTER:
            return {"paper_id": {"$in": sorted(allowed)}} if len(allowed) > 1 else {"paper_id": next(iter(allowed))}
        clauses: list[Where] = []
        if filters.venue:
            clauses.append({"venue": normalize_venue(filters.venue)})
        if filters.year is not None:
            clauses.append({"year": int(filters.year)})
        if filters.years is not None:
            clauses += [{"year": {"$gte": int(filters.years[0])}}, {"year": {"$lte": int(filters.years[1])}}]
        if not clauses:
            return None
        return clauses[0] if len(clauses) == 1 else {"$and": clauses}

    def dense(self, vector: npt.NDArray[np.float32], n: int, filters: Filters | None = None,
              allowed: set[str] | None = None, snapshot: Bm25Snapshot | None = None) -> list[tuple[str, float]]:
        """(paper_id, best chunk's cosine) best first; only papers of `snapshot` when given."""
        where = self._where(filters, allowed)
        best: dict[str, float] = {}
        for pid, sim in self.store.query(vector, n * 2, where):
            if (allowed is not None and pid not in allowed) or (snapshot is not None and pid not in snapshot):
                continue
            if sim > best.get(pid, -1.0):
                best[pid] = sim
        return sorted(best.items(), key=lambda kv: -kv[1])[:n]

    def search(self, query: str, k: int | None = None, filters: Filters | Mapping[str, Any] | None = None,
               restrict: set[str] | None = None, vector: npt.NDArray[np.float32] | None = None,
               snapshot: Bm25Snapshot | None = None, each: int = 0, exclude: set[str] | None = None,
               depth: int | None = None, variants: bool = False,
               extra: Sequence[tuple[Sequence[str], float]] = ()) -> list[Hit]:
        """Top-k papers for `query`, best fused first. `restrict` limits results to given paper
        ids (follow-ups), `exclude` leaves some out; `snapshot` is the library to search (default:
        the catalog's current one). `each` > 0 also keeps each retriever's top `each` papers
        beyond k, so fusion never drops a paper that one retriever ranks high and the other
        misses (a spelling variant BM25 cannot match, a paraphrase only dense finds). `depth` is
        how far down each retriever's list to read (default: the candidates setting, or k);
        `variants` also gathers (without changing any score or rank) the papers BM25 finds for the
        query with its acronym <-> expansion variants ("NeRF" <-> "neural radiance fields").
        `extra`: more (best-first paper ids, weight) rankings to fuse (a non-English question's
        title ranking); ids outside the allowed papers are ignored."""
        k = k or self.settings.k
        if snapshot is None:
            snapshot = self.catalog.snapshot()
        filters = Filters.of(filters)
        allowed = None if filters is None or filters.empty() else self.catalog.allowed(
            filters.venue, filters.year, filters.author, filters.years)
        if restrict is not None:
            allowed = set(restrict) if allowed is None else allowed & set(restrict)
        if exclude:
            allowed = (set(snapshot.ids) if allowed is None else allowed) - exclude
        if allowed is not None and not allowed:
            return []
        text = to_english_query(query)
        n = depth or max(self.settings.candidates, k)
        lexical = snapshot.search(text, n, allowed)
        variant_hits = snapshot.search(text, n, allowed, extra_terms=snapshot.variants(text)) if variants else []
        if vector is None:
            vector = self.embedder.embed([text])[0]
        dense = self.dense(vector, n, filters, allowed, snapshot)
        lists: list[tuple[list[str], float]] = [([p for p, _ in lexical], self.settings.bm25_weight),
                                                ([p for p, _ in dense], self.settings.dense_weight)]
        for ids, weight in extra:
            lists.append(([p for p in ids[:n] if p in snapshot and (allowed is None or p in allowed)], weight))
        fused = rrf(lists, self.settings.rrf_k)
        order = sorted(fused, key=lambda pid: -fused[pid])[:k]
        if each or variant_hits:
            seen = set(order)
            keep = [p for p, _ in lexical[:each]] + [p for p, _ in dense[:each]] + [p for p, _ in variant_hits]
            keep += [p for ids, _ in lists[2:] for p in ids[:each]]
            order += [pid for pid in dict.fromkeys(keep) if pid not in seen]
        papers = self.catalog.papers(order)
        b_rank = {pid: i + 1 for i, (pid, _) in enumerate(lexical)}
        b_score = dict(lexical)
        d_rank = {pid: i + 1 for i, (pid, _) in enumerate(dense)}
        d_score = dict(dense)
        hits: list[Hit] = []
        for pid in order:
            paper = papers.get(pid)
            if paper is None:
                continue  # catalog behind Chroma for a moment; skip rather than show a stub
            hits.append(Hit(
                paper_id=pid, title=paper.display_title, score=round(fused.get(pid, 0.0), 6), authors=paper.authors,
                venue=paper.venue, year=paper.year, url=paper.url, source=paper.source, position=paper.position,
                bm25_rank=b_rank.get(pid), bm25_score=round(b_score.get(pid, 0.0), 4), dense_rank=d_rank.get(pid),
                dense_score=round(d_score.get(pid, 0.0), 4),
                paper=paper,
            ))
        return hits
