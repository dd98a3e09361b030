"""`Assistant`: the one object behind the Python API, the CLI and the UI.

    a = Assistant.open()                 # embedded Chroma in PAPERSCOPE_DATA_DIR
    a.ingest(["seeds/"])
    a.search("MoE latency")              # -> list[Hit]
    ans = a.ask("Which papers address MoE latency?")   # -> Answer(text, citations, abstained)

`ask` = rewrite follow-ups -> hybrid retrieval -> evidence scoring -> abstain or draft
(extractive, or an LLM) -> code-verified citations. Every seam (embedder, store, answerer)
is injectable, which is how the tests swap in deterministic fakes without patching.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from paperscope.answer.backends import Answerer, make_answerer
from paperscope.answer.extractive import ExtractiveAnswerer, abstention_text
from paperscope.answer.support import DEFAULT_MIN_SUPPORT, SentenceCache, score_evidence
from paperscope.answer.types import Answer, Evidence
from paperscope.answer.verify import verify
from paperscope.catalog import Catalog
from paperscope.embed import Embedder, make_embedder
from paperscope.retrieve import Filters, Hit, Retriever
from paperscope.settings import Settings
from paperscope.store import ChromaStore
from paperscope.text import STOPWORDS, raw_terms, terms, to_english_query

MAX_QUESTION_CHARS = 2000
NO_WORDS = "the question has no searchable words"
NO_MATCH = "no papers match the filters"
EMPTY = "the library is empty"
_ANAPHORA = {"it", "its", "they", "them", "their", "this", "that", "these", "those", "such"}
_REFERRING = ("the paper", "the papers", "the method", "the model", "the models", "the authors",
              "the approach", "the work", "the same", "above", "previous", "mentioned")


class QuestionError(ValueError):
    """The question cannot be answered as given (empty, no searchable words)."""


def is_follow_up(question: str) -> bool:
    words = raw_terms(question)
    content = [w for w in words if w not in STOPWORDS]
    lowered = f" {question.lower()} "
    refers = any(w in _ANAPHORA for w in words) or any(f" {p}" in lowered for p in _REFERRING)
    return refers and len(content) <= 4


class Assistant:
    def __init__(self, settings: Settings, store: ChromaStore, catalog: Catalog, embedder: Embedder,
                 answerer: Answerer | None = None):
        self.settings = settings
        self.store, self.catalog, self.embedder = store, catalog, embedder
        self.retriever = Retriever(store, catalog, embedder, settings.retrieve)
        self.answerer = answerer or make_answerer(settings)
        self.extractive = ExtractiveAnswerer()
        self.sentences = SentenceCache(embedder)
        self._sync_lock = threading.Lock()
        self._checked_generation: str | None = None

    # -- construction ---------------------------------------------------------------------
    @classmethod
    def open(cls, data_dir: str | Path | None = None, settings: Settings | None = None,
             embedder: Embedder | None = None, answerer: Answerer | None = None) -> "Assistant":
        settings = (settings or Settings()).with_data_dir(data_dir)
        embedder = embedder or make_embedder(settings.embed)
        if embedder.name != settings.embed.model:
            # An injected embedder names its own collection (vectors never mix).
            settings = settings.model_copy(update={"embed": settings.embed.model_copy(update={"model": embedder.name})})
        store = ChromaStore(settings)
        catalog = Catalog(settings.store.data_dir / "index", settings.collection_name())
        return cls(settings, store, catalog, embedder, answerer)

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
    def ingest(self, paths: Sequence[str | Path], progress: bool = False, encoding: str = "utf-8"):
        from paperscope.ingest.pipeline import ingest_paths

        summary = ingest_paths([Path(p) for p in paths], self.settings, self.store, self.catalog,
                               self.embedder, progress=progress, encoding=encoding)
        self._checked_generation = None
        return summary

    def stats(self) -> dict:
        self.refresh()
        return {
            "papers": self.catalog.paper_count(),
            "chunks": self.store.count(),
            "data_dir": str(self.settings.store.data_dir),
            "chroma": (f"http://{self.settings.store.chroma_host}:{self.settings.store.chroma_port}"
                       if self.settings.store.chroma_host else "embedded"),
            "collection": self.store.name,
            "embedder": self.embedder.name,
            "answer_backend": self.answerer.name,
            "venues": dict(self.catalog.venues()[:20]),
        }

    def empty_reason(self) -> str:
        """What to do about an empty library: ingest, or re-ingest after a settings change
        (a new embedder or truncation gets a fresh collection; the old vectors are not reused)."""
        where = (f"the Chroma server at {self.settings.store.chroma_host}:{self.settings.store.chroma_port}"
                 if self.settings.store.chroma_host else str(self.settings.store.data_dir))
        others = self.store.siblings()
        if others:
            name, chunks = max(others.items(), key=lambda kv: kv[1])
            return (f"{where} holds {chunks:,} chunks embedded with other settings (collection {name}; this "
                    f"configuration uses {self.store.name}). Run `paperscope ingest` on your paper lists again "
                    "to embed them for the current settings, or go back to the settings that built it")
        return f"nothing is ingested in {where} yet; run `paperscope ingest seeds/` (or your own paper lists) first"

    # -- search ---------------------------------------------------------------------------
    def search(self, query: str, k: int = 10, filters: Filters | dict | None = None) -> list[Hit]:
        query = self._check_question(query)[0]
        self.refresh()
        return self.retriever.search(query, k=k, filters=filters)

    # -- ask ------------------------------------------------------------------------------
    def _check_question(self, question: str) -> tuple[str, list[str]]:
        notes: list[str] = []
        question = (question or "").strip()
        if not question:
            raise QuestionError("the question is empty; ask something like \"Which papers address MoE latency?\"")
        if len(question) > MAX_QUESTION_CHARS:
            question = question[:MAX_QUESTION_CHARS]
            notes.append(f"question truncated to its first {MAX_QUESTION_CHARS} characters")
        return question, notes

    def threshold(self) -> float:
        if self.settings.answer.min_support is not None:
            return self.settings.answer.min_support
        return DEFAULT_MIN_SUPPORT.get(self.embedder.name, 1.0)

    def _evidence(self, question: str, filters, restrict: set[str] | None) -> list[Evidence]:
        english = to_english_query(question)
        qvec = self.embedder.embed([english])[0]
        hits = self.retriever.search(english, k=self.settings.answer.context_papers, filters=filters,
                                     restrict=restrict, vector=qvec)
        evidence = score_evidence(question, qvec, [h.paper for h in hits if h.paper], self.sentences,
                                  self.catalog.idf, self.catalog.acronyms())
        evidence.sort(key=lambda ev: -ev.support)
        for marker, ev in enumerate(evidence, 1):
            ev.marker = marker
        return evidence

    def _plan(self, question: str, history, filters) -> tuple[str, list[Evidence], bool, list[str]]:
        """(standalone question, evidence best first, abstain?, notes)."""
        question, notes = self._check_question(question)
        self.refresh()
        if self.catalog.paper_count() == 0:
            return question, [], True, notes + [f"{EMPTY}: {self.empty_reason()}"]
        if not terms(to_english_query(question)):
            return question, [], True, notes + [NO_WORDS]
        f = Filters.of(filters)
        if f is not None and not f.empty() and not self.catalog.allowed(f.venue, f.year, f.author):
            known = ", ".join(v or "(none)" for v, _ in self.catalog.venues()[:10])
            wanted = ", ".join(f"{k}={v!r}" for k, v in vars(f).items() if v not in (None, ""))
            return question, [], True, notes + [f"{NO_MATCH}: {wanted} (venues in the corpus: {known})"]
        threshold = self.threshold()
        prior = [a for _, a in (history or []) if getattr(a, "citations", None)]
        if prior and is_follow_up(question):
            last = prior[-1]
            standalone = f"{question} (follow-up to: {last.standalone_question or last.question})"
            rewrite = getattr(self.answerer, "rewrite", None)
            if rewrite is not None:  # an LLM can resolve "it"/"the models" into a full question
                try:
                    standalone = rewrite(question, history) or standalone
                except Exception as exc:
                    notes.append(f"follow-up rewrite failed ({type(exc).__name__}: {_safe(exc)}); used the heuristic")
            restricted = self._evidence(question, filters, {c.paper_id for c in last.citations})
            if restricted and restricted[0].support >= threshold * 0.5:
                return standalone, restricted[:1], False, notes
        evidence = self._evidence(question, filters, None)
        abstain = not evidence or evidence[0].support < threshold
        return question, evidence, abstain, notes

    def _select(self, evidence: list[Evidence], max_citations: int | None = None) -> list[Evidence]:
        best = evidence[0].support
        floor = max(self.threshold(), best * self.settings.answer.relative_cutoff)
        limit = max_citations or self.settings.answer.max_citations
        return [ev for ev in evidence if ev.support >= floor][:limit] or evidence[:1]

    def ask(self, question: str, history: list | None = None, filters: Filters | dict | None = None,
            max_citations: int | None = None) -> Answer:
        t0 = time.perf_counter()
        standalone, evidence, abstain, notes = self._plan(question, history, filters)
        t_retrieve = time.perf_counter() - t0
        if abstain:
            return self._abstain(question, standalone, evidence, notes, t0, t_retrieve)
        cited = self._select(evidence, max_citations)
        backend = self.answerer.name
        t1 = time.perf_counter()
        shown = cited if backend == "extractive" else evidence[: len(cited) + 2]
        try:
            text, quotes = self.answerer.draft(standalone, shown)
            checked = verify(text, shown, quotes)  # only papers the drafter saw can be cited
        except Exception as exc:  # an LLM backend failed: say so, answer extractively
            checked = None
            notes.append(f"{backend} backend failed ({type(exc).__name__}: {_safe(exc)}); extractive answer shown")
        checked, backend = self._finish(checked, backend, standalone, cited, notes)
        answer = Answer(text=checked.text, citations=checked.citations, abstained=False, backend=backend,
                        question=question, standalone_question=standalone, notes=notes,
                        evidence_ids=[ev.paper.paper_id for ev in evidence])
        answer.timings = {"retrieve_s": t_retrieve, "answer_s": time.perf_counter() - t1,
                          "total_s": time.perf_counter() - t0}
        return answer

    def _finish(self, checked, backend: str, standalone: str, cited: list[Evidence], notes: list[str]):
        """Keep a verified draft, or replace it by the extractive answer (with a note)."""
        if checked is not None:
            notes.extend(_grouped(checked.notes))
        if checked is not None and checked.citations:
            return checked, backend
        if checked is not None and backend != "extractive":
            notes.append(f"{backend} answer had no verifiable citation; extractive answer shown")
        text, quotes = self.extractive.draft(standalone, cited)
        checked = verify(text, cited, quotes)
        return checked, ("extractive" if backend == "extractive" else f"extractive (fallback from {backend})")

    def stream(self, question: str, history: list | None = None, filters=None,
               max_citations: int | None = None) -> Iterator[str | Answer]:
        """Yields text pieces as they are produced, then the final verified `Answer`."""
        from paperscope.answer.backends import stream_or_draft

        if getattr(self.answerer, "stream_draft", None) is None:
            answer = self.ask(question, history, filters, max_citations)
            yield answer.text
            yield answer
            return
        t0 = time.perf_counter()
        standalone, evidence, abstain, notes = self._plan(question, history, filters)
        if abstain:
            answer = self._abstain(question, standalone, evidence, notes, t0, time.perf_counter() - t0)
            yield answer.text
            yield answer
            return
        cited = self._select(evidence, max_citations)
        shown = evidence[: len(cited) + 2]
        pieces: list[str] = []
        backend = self.answerer.name
        try:
            for piece in stream_or_draft(self.answerer, standalone, shown):
                pieces.append(piece)
                yield piece
            checked = verify("".join(pieces), shown)
        except Exception as exc:
            checked = None
            notes.append(f"{backend} backend failed ({type(exc).__name__}: {_safe(exc)}); extractive answer shown")
        checked, backend = self._finish(checked, backend, standalone, cited, notes)
        answer = Answer(text=checked.text, citations=checked.citations, backend=backend, question=question,
                        standalone_question=standalone, notes=notes,
                        evidence_ids=[ev.paper.paper_id for ev in evidence],
                        timings={"total_s": time.perf_counter() - t0})
        yield answer

    def _abstain(self, question, standalone, evidence, notes, t0, t_retrieve) -> Answer:
        nearest = evidence[:3]
        reason = None
        if notes and notes[-1] == NO_WORDS:
            reason = "The question has no searchable words, so no paper can be matched to it."
        elif notes and notes[-1].startswith(EMPTY):
            reason = f"The library is empty: {notes[-1][len(EMPTY) + 2:]}."
        elif notes and notes[-1].startswith(NO_MATCH):
            reason = f"No paper matches the filters: {notes[-1][len(NO_MATCH) + 2:]}."
        if reason:
            notes = notes[:-1]  # said in the answer text; not repeated as a note
        return Answer(
            text=abstention_text(question, nearest, reason), citations=[], abstained=True, backend="abstain",
            question=question, standalone_question=standalone, notes=notes,
            evidence_ids=[ev.paper.paper_id for ev in evidence],
            nearest=[{"paper_id": ev.paper.paper_id, "title": ev.paper.display_title, "url": ev.paper.url,
                      "score": ev.support} for ev in nearest],
            timings={"retrieve_s": t_retrieve, "total_s": time.perf_counter() - t0},
        )


def _grouped(notes: list[str]) -> list[str]:
    """Collapse repeated "removed citation [n]: why" notes into one line per reason."""
    removed: dict[str, list[str]] = {}
    out: list[str] = []
    for note in notes:
        m = re.match(r"removed citation (\[\d+\]): (.*)", note)
        if m is None:
            if note not in out:
                out.append(note)
            continue
        if m.group(2) not in removed:
            removed[m.group(2)] = []
            out.append("\0" + m.group(2))
        removed[m.group(2)].append(m.group(1))
    lines = []
    for note in out:
        if not note.startswith("\0"):
            lines.append(note)
            continue
        why, markers = note[1:], removed[note[1:]]
        more = f" (+{len(markers) - 10} more)" if len(markers) > 10 else ""
        word = "citation" if len(markers) == 1 else "citations"
        lines.append(f"removed {word} {', '.join(markers[:10])}{more}: {why}")
    return lines


def _safe(exc: Exception) -> str:
    """An exception message with anything that looks like a secret masked."""
    from paperscope.secrets import redact

    return redact(str(exc))[:300]
