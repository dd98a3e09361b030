"""`Library`: the papers of one data directory and search over them (ingest, hybrid search, the
relevance model's scored candidates); `Assistant` (paperscope.assistant) answers from it.

Every seam (embedder, store, relevance) is injectable, which is how the tests swap in
deterministic fakes without patching.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from paperscope.crosslingual import CrossLingual
from paperscope.gather import Candidates, FilterArg, Gatherer
from paperscope.index.bm25 import Bm25Snapshot
from paperscope.index.catalog import Catalog
from paperscope.index.embed import Embedder
from paperscope.index.store import ChromaStore
from paperscope.ingest.pipeline import IngestSummary, ingest_paths
from paperscope.listings import Listings
from paperscope.records import Evidence, Hit
from paperscope.relevance import Relevance, Scored
from paperscope.retrieve import Retriever
from paperscope.settings import Settings

if TYPE_CHECKING:
    from paperscope.integrations.llama_index import PaperscopeRetriever

MAX_QUESTION_CHARS = 2000


class QuestionError(ValueError):
    """The question cannot be answered as given (empty, no searchable words)."""


class Library:
    def __init__(self, settings: Settings, store: ChromaStore, catalog: Catalog, embedder: Embedder,
                 relevance: Relevance | None = None) -> None:
        self.settings = settings
        self.store, self.catalog, self.embedder = store, catalog, embedder
        self.retriever = Retriever(store, catalog, embedder, settings.retrieve)
        self.relevance = relevance or Relevance(embedder, settings.answer)
        self._sync_lock = threading.Lock()
        self._checked_generation: str | None = None
        self.crosslingual = CrossLingual(catalog, settings.retrieve)
        self.gather = Gatherer(settings, store, catalog, embedder, self.retriever, self.relevance, self.crosslingual)
        self.listings = Listings(self.gather)

    def refresh(self) -> None:
        """Reload local indexes if Chroma changed under us (another process or machine)."""
        with self._sync_lock:
            gen = self.store.generation()
            if gen == self._checked_generation:
                return
            if not self.catalog.in_sync(self.store.count(), gen):
                self.catalog.rebuild_from(self.store)
            self._checked_generation = gen

    # -- ingest ---------------------------------------------------------------------------
    def ingest(self, paths: Sequence[str | Path], progress: bool = False, encoding: str = "utf-8") -> IngestSummary:
        summary = ingest_paths([Path(p) for p in paths], self.settings, self.store, self.catalog,
                               self.embedder, progress=progress, encoding=encoding)
        self._checked_generation = None
        return summary

    def empty_reason(self) -> str:
        """What to do about an empty library (`ChromaStore.empty_reason`)."""
        return self.store.empty_reason()

    # -- search ---------------------------------------------------------------------------
    def search(self, query: str, k: int = 10, filters: FilterArg = None) -> list[Hit]:
        query = self._check_question(query)[0]
        self.refresh()
        snapshot = self.catalog.snapshot()
        english, _, extra = self.crosslingual.query(query, snapshot, max(self.settings.retrieve.candidates, k))
        return self.retriever.search(english, k=k, filters=filters, snapshot=snapshot, extra=extra)

    def candidates(self, question: str, snapshot: Bm25Snapshot, filters: FilterArg = None, k: int | None = None,
                   restrict: set[str] | None = None, exclude: set[str] | None = None, deep: bool = False,
                   depth: int | None = None) -> Candidates:
        """See `Gatherer.candidates`."""
        return self.gather.candidates(question, snapshot, filters, k, restrict, exclude, deep, depth)

    def scored(self, question: str, snapshot: Bm25Snapshot, filters: FilterArg = None, k: int | None = None,
               restrict: set[str] | None = None, exclude: set[str] | None = None, deep: bool = False,
               depth: int | None = None) -> Scored:
        """`candidates`, each with the relevance model's probability, most likely first."""
        return self.gather.scored(question, snapshot, filters, k, restrict, exclude, deep, depth)

    def evidence(self, question: str, k: int | None = None, filters: FilterArg = None,
                 restrict: set[str] | None = None) -> list[Evidence]:
        """The papers `ask` would weigh for `question`, most likely to address it first; the
        first `k` (default all) have their sentences ranked for quoting."""
        question = self._check_question(question)[0]
        self.refresh()
        snapshot = self.catalog.snapshot()
        scored = self.scored(question, snapshot, filters, restrict=restrict)
        top = scored.evidence[:k] if k else scored.evidence
        self.relevance.quote(scored, top, snapshot)
        return top

    def as_retriever(self, k: int = 5, filters: FilterArg = None) -> PaperscopeRetriever:
        """This library as a LlamaIndex retriever: the `k` best-supported papers per query, as
        nodes with paper metadata and the best sentence (paperscope.integrations.llama_index)."""
        from paperscope.integrations.llama_index import PaperscopeRetriever

        def search(question: str) -> list[Evidence]:
            return self.evidence(question, k=k, filters=filters)

        return PaperscopeRetriever(search)

    def _check_question(self, question: str) -> tuple[str, list[str]]:
        notes: list[str] = []
        question = (question or "").strip()
        if not question:
            raise QuestionError("the question is empty; ask something like \"Which papers address MoE latency?\"")
        if len(question) > MAX_QUESTION_CHARS:
            question = question[:MAX_QUESTION_CHARS]
            notes.append(f"question truncated to its first {MAX_QUESTION_CHARS} characters")
        return question, notes
