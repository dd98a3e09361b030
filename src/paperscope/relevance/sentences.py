"""Per-paper sentence vectors for evidence scoring, cached across questions.

The same papers come back across questions, so each paper's sentences (and its title) are
embedded once and kept in an LRU keyed by paper id and content hash (a changed paper is
embedded again). Concurrent questions that need the same paper wait for one embedding.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from paperscope.index.embed import Embedder
from paperscope.records import Paper
from paperscope.text.sentences import sentence_spans

SentenceVectors = tuple[list[str], npt.NDArray[np.float32]]


def paper_key(paper: Paper) -> str:
    """A paper version's cache key (this module's and `features.TextCache`'s)."""
    return f"{paper.paper_id}\x00{paper.content_hash()}"


def paper_sentences(paper: Paper) -> list[str]:
    """The abstract's sentences, as quotes and features split them."""
    return [paper.abstract[s:e] for s, e in sentence_spans(paper.abstract)] or [paper.abstract]


class SentenceCache:
    """LRU of per-paper sentence vectors; the same papers come back across questions."""

    def __init__(self, embedder: Embedder, size: int = 4096) -> None:
        self.embedder, self.size = embedder, size
        self._data: OrderedDict[str, SentenceVectors] = OrderedDict()
        self._lock = threading.Lock()
        self._inflight: dict[str, threading.Event] = {}

    def get(self, papers: Sequence[Paper]) -> list[SentenceVectors]:
        keys = [paper_key(p) for p in papers]
        mine: list[int] = []
        wait: list[threading.Event] = []
        with self._lock:
            for i, key in enumerate(keys):
                if key in self._data:
                    self._data.move_to_end(key)
                elif key in self._inflight:
                    wait.append(self._inflight[key])  # another thread is embedding it
                else:
                    self._inflight[key] = threading.Event()
                    mine.append(i)
        try:
            texts: list[str] = []
            parts: list[tuple[int, list[str], int]] = []
            for i in mine:
                p = papers[i]
                sents = paper_sentences(p)
                parts.append((i, sents, len(texts)))
                texts += sents + [p.display_title]
            chunks: Iterable[npt.NDArray[np.float32]]
            if self.embedder.independent:
                # Each text's vector is computed alone: one call for all missing papers balances
                # the worker threads and saves a dispatch per paper (~1/3 of `ask` time).
                vecs_all = self.embedder.embed(texts) if texts else np.zeros((0, 0), dtype=np.float32)
                chunks = [vecs_all[start:start + len(sents) + 1] for _, sents, start in parts]
            else:
                # One call per paper: a batch-quantised model's vector depends on its batch, and a
                # paper's vectors must not depend on which other papers happened to be missing
                # (answers must not depend on timing).
                # Lazy: each paper is published below as soon as its own call returns.
                chunks = (self.embedder.embed(texts[start:start + len(sents) + 1]) for _, sents, start in parts)
            for (i, sents, _), vecs in zip(parts, chunks):
                with self._lock:
                    self._data[keys[i]] = (sents, vecs)
                    self._inflight.pop(keys[i]).set()
        finally:
            with self._lock:
                for i in mine:
                    event = self._inflight.pop(keys[i], None)
                    if event:
                        event.set()
        for event in wait:
            event.wait()
        with self._lock:
            out = [self._data[k] for k in keys]
            while len(self._data) > self.size:
                self._data.popitem(last=False)
            return out

    def some(self, papers: Sequence[Paper], rows: Sequence[Sequence[int]]) -> list[npt.NDArray[np.float32]]:
        """Vectors of only the sentences `rows[i]` of each paper `papers[i]` (a long list quotes
        from a shortlist): read from the cache when the paper is there, else embedded without
        caching (one call for all when the embedder's vectors are independent of the batch)."""
        keys = [paper_key(p) for p in papers]
        out: list[npt.NDArray[np.float32] | None] = [None] * len(papers)
        with self._lock:
            for i, key in enumerate(keys):
                if key in self._data:
                    out[i] = self._data[key][1][list(rows[i])]
        texts: list[str] = []
        parts: list[tuple[int, int, int]] = []
        for i, p in enumerate(papers):
            if out[i] is None:
                sents = paper_sentences(p)
                parts.append((i, len(texts), len(rows[i])))
                texts += [sents[r] for r in rows[i]]
        if self.embedder.independent and texts:
            vecs = self.embedder.embed(texts)
            for i, start, n in parts:
                out[i] = vecs[start:start + n]
        else:
            for i, start, n in parts:
                out[i] = self.embedder.embed(texts[start:start + n])
        return [v if v is not None else np.zeros((0, 0), np.float32) for v in out]

