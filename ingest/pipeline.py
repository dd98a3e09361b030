"""The ingest pipeline: records -> skip unchanged -> chunk -> embed -> Chroma -> local indexes.

Order of writes, and why it survives `kill -9`: each batch is written to Chroma first (all
chunks of a paper in one upsert; chunk 0 carries the content hash), then to the local
catalog. A paper counts as stored only when its chunk 0 has the current hash *and* its last
chunk exists, so a rerun of the same command redoes exactly the papers a crash cut short and
never duplicates one (ids are deterministic, writes are upserts). Before its first write an
ingest marks the catalog `ingest_pending`; the generation stamp is bumped and BM25 rebuilt
only at the end, which clears the mark, so a crash after the last write (before the bump)
still gets its BM25 rebuilt by the rerun. Readers rebuild their local indexes when the
generation changes.

Throughput: three stages overlap. The calling thread reads, hashes and chunks batch k+2
while a thread embeds batch k+1 (ONNX Runtime releases the GIL) and another writes batch k
to Chroma and the catalog, in batch order, so the write order above is unchanged; the
progress bar counts papers only once they are written. A large ingest also starts niced worker
processes that embed the cross-lingual index's new titles and phrases in the CPU time the chunk
embedding leaves idle (`multilingual.Ahead`); after the last write, BM25 is built in this process
while the rest of that index is built from them (85,864 papers: 552 s in all, 32 s of it after
the last write; README "Ingest time").
Leaves out: multi-process chunk embedding (ONNX Runtime already uses every core).
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from paperscope.index import multilingual
from paperscope.index.catalog import Catalog, StoredPaper
from paperscope.index.embed import Embedder, Vectors
from paperscope.index.store import ChromaStore, Chunk
from paperscope.ingest.chunking import Chunker, embed_text
from paperscope.ingest.readers import Issue, read_paths
from paperscope.records import Paper
from paperscope.settings import Settings

T = TypeVar("T")
# (stale chunk ids, chunks, catalog rows, papers done): the embedder's input
EmbedJob = tuple[list[str], list[Chunk], list[StoredPaper], int]
# (stale chunk ids, chunks, vectors or None, catalog rows, papers done): the writer's input
WriteJob = tuple[list[str], list[Chunk], "Vectors | None", list[StoredPaper], int]


@dataclass
class IngestSummary:
    files: int = 0
    papers_read: int = 0
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    skipped_no_abstract: int = 0
    duplicates: int = 0
    issues: list[Issue] = field(default_factory=list)
    seconds: float = 0.0
    embed_seconds: float = 0.0  # time inside embedder.embed (its own thread)
    write_seconds: float = 0.0  # time writing Chroma + catalog (the writer thread)
    index_seconds: float = 0.0  # BM25 rebuild at the end

    @property
    def ok(self) -> bool:
        return not self.issues

    def as_dict(self) -> dict[str, Any]:
        return {
            "files": self.files, "papers_read": self.papers_read, "added": self.added,
            "updated": self.updated, "unchanged": self.unchanged,
            "skipped_no_abstract": self.skipped_no_abstract, "duplicates": self.duplicates,
            "issues": [str(i) for i in self.issues], "seconds": round(self.seconds, 2),
        }

    def line(self) -> str:
        return (f"{self.files} files, {self.papers_read} papers read: {self.added} added, {self.updated} updated, "
                f"{self.unchanged} unchanged, {self.skipped_no_abstract} skipped without abstract, "
                f"{len(self.issues)} problems, in {self.seconds:.1f} s")


class _Aborted(Exception):
    pass


class _Stage(Generic[T]):
    """One worker thread fed through a short queue; `put` re-raises the worker's error."""

    def __init__(self, fn: Callable[[T], None], depth: int = 1, name: str = "stage") -> None:
        self.fn = fn
        self.error: BaseException | None = None
        self.queue: queue.Queue[T | None] = queue.Queue(maxsize=depth)
        self.thread = threading.Thread(target=self._run, name=f"paperscope-ingest-{name}", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while True:
            item = self.queue.get()
            if item is None:
                return
            if self.error is None:
                try:
                    self.fn(item)
                except BaseException as exc:  # handed to the caller by put()/close()
                    self.error = exc

    def _check(self) -> None:
        if self.error is not None:
            raise self.error

    def put(self, item: T) -> None:
        self._check()
        while True:
            try:
                self.queue.put(item, timeout=0.5)
                return
            except queue.Full:
                self._check()

    def close(self, wait: bool = True) -> None:
        self.queue.put(None)
        if wait:
            self.thread.join()
            self._check()


def dedupe(items: list[tuple[Paper, str]], summary: IngestSummary) -> list[Paper]:
    """One record per id; a later record replaces an earlier one (reported when they differ)."""
    seen: dict[str, tuple[Paper, str]] = {}
    for paper, where in items:
        prev = seen.get(paper.paper_id)
        if prev is not None:
            summary.duplicates += 1
            if prev[0].content_hash() != paper.content_hash():
                path, _, line = where.rpartition(":")
                summary.issues.append(Issue(path, int(line) if line.isdigit() else None,
                                            f"duplicate id {paper.paper_id!r} with different content "
                                            f"(first seen at {prev[1]}); keeping this later record"))
        seen[paper.paper_id] = (paper, where)
    return [p for p, _ in seen.values()]


def ingest_paths(
    paths: list[Path], settings: Settings, store: ChromaStore, catalog: Catalog, embedder: Embedder,
    progress: bool = True, encoding: str = "utf-8", batch_papers: int = 512,
) -> IngestSummary:
    t0 = time.perf_counter()
    summary = IngestSummary()
    read = read_paths(paths, encoding=encoding)
    summary.files, summary.issues = read.files, list(read.issues)
    summary.skipped_no_abstract = read.no_abstract
    papers = dedupe(read.papers, summary)
    summary.papers_read = len(papers)
    chunker = Chunker(settings.chunk, embedder)
    # A large ingest embeds the cross-lingual index's new titles and phrases alongside, in the
    # CPU time the chunk embedding leaves idle (multilingual.Ahead).
    ahead = None
    if settings.retrieve.multilingual and len(papers) >= multilingual.Encoder.PARALLEL_MIN:
        ahead = catalog.multilingual_ahead(papers)

    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(papers), unit="paper", desc="ingest", dynamic_ncols=True)
    pending = {"marked": False}

    def write(job: WriteJob) -> None:
        # Runs on the writer thread, one batch at a time in batch order: Chroma, then catalog.
        stale, chunks, vectors, rows, n_done = job
        if chunks and vectors is not None:
            t_write = time.perf_counter()
            if stale:
                store.delete(stale)
            store.upsert(chunks, vectors)
            catalog.put(rows)
            summary.write_seconds += time.perf_counter() - t_write
        if bar:
            bar.update(n_done)

    def embed(job: EmbedJob) -> None:
        stale, chunks, rows, n_done = job
        vectors = None
        if chunks:
            t_embed = time.perf_counter()
            vectors = embedder.embed([embed_text(c) for c in chunks])
            summary.embed_seconds += time.perf_counter() - t_embed
        writer.put((stale, chunks, vectors, rows, n_done))

    writer: _Stage[WriteJob] = _Stage(write, name="write")
    embedder_stage: _Stage[EmbedJob] = _Stage(embed, name="embed")
    try:
        for start in range(0, len(papers), batch_papers):
            batch = papers[start:start + batch_papers]
            heads = store.heads([p.paper_id for p in batch])
            hashes = {p.paper_id: p.content_hash() for p in batch}
            todo: list[Paper] = []
            complete_check: list[str] = []
            for p in batch:
                head = heads.get(p.paper_id)
                if head is None or head["hash"] != hashes[p.paper_id]:
                    todo.append(p)
                elif int(head["n_chunks"]) > 1:
                    complete_check.append(Chunk.id_of(p.paper_id, int(head["n_chunks"]) - 1))
            if complete_check:
                present = store.present(complete_check)
                broken = {Chunk.paper_of(cid) for cid in complete_check if cid not in present}
                todo.extend(p for p in batch if p.paper_id in broken)
            todo_ids = {p.paper_id for p in todo}
            unchanged = [p for p in batch if p.paper_id not in todo_ids]
            summary.unchanged += len(unchanged)
            # Heal the catalog for papers Chroma already holds (a crash between the two writes).
            known = catalog.hashes([p.paper_id for p in unchanged])
            heal = [(p, hashes[p.paper_id], int(heads[p.paper_id]["n_chunks"])) for p in unchanged
                    if known.get(p.paper_id, ("", 0))[0] != hashes[p.paper_id]]
            if (heal or todo) and not pending["marked"]:
                catalog.set_state("ingest_pending", "1")
                pending["marked"] = True
            if heal:
                catalog.put(heal)
            chunks: list[Chunk] = []
            stale: list[str] = []
            rows: list[StoredPaper] = []
            if todo:
                chunks = chunker(todo)
                n_new = {c.paper.paper_id: c.n_chunks for c in chunks}
                # A changed paper may now have fewer chunks: drop the surplus old ones.
                stale = [Chunk.id_of(p.paper_id, i) for p in todo if p.paper_id in heads
                         for i in range(n_new[p.paper_id], int(heads[p.paper_id]["n_chunks"]))]
                rows = [(p, hashes[p.paper_id], n_new[p.paper_id]) for p in todo]
                summary.updated += sum(1 for p in todo if p.paper_id in heads)
                summary.added += sum(1 for p in todo if p.paper_id not in heads)
            embedder_stage.put((stale, chunks, rows, len(batch)))
        embedder_stage.close()
        writer.close()
    except BaseException:
        # Stop both threads: queued batches are dropped, a write in progress completes (each
        # batch is Chroma-then-catalog, so what is written stays consistent; the rerun redoes
        # the rest).
        stages: list[_Stage[Any]] = [embedder_stage, writer]
        for stage in stages:
            stage.error = stage.error or _Aborted("ingest aborted")
        for stage in stages:
            stage.close(wait=False)
            stage.thread.join()
        if ahead is not None:
            ahead.cancel()
        raise
    finally:
        if bar:
            bar.close()
    try:
        _finish(settings, store, catalog, summary, pending["marked"], ahead)
    finally:
        if ahead is not None:
            ahead.cancel()
    summary.seconds = time.perf_counter() - t0
    return summary


def _finish(settings: Settings, store: ChromaStore, catalog: Catalog, summary: IngestSummary, marked: bool,
            ahead: multilingual.Ahead | None) -> None:
    """After the last write: a new generation with its BM25 and cross-lingual indexes."""
    if marked or catalog.get_state("ingest_pending"):
        t_index = time.perf_counter()
        generation = store.bump_generation()
        # The cross-lingual index embeds in worker processes (multilingual.Encoder) while this
        # process builds BM25: at 85,864 papers 36 s + 106 s of one core each, ~1 minute together.
        with ThreadPoolExecutor(1, thread_name_prefix="paperscope-xling") as xling:
            built = xling.submit(catalog.build_multilingual, generation, ahead) if settings.retrieve.multilingual else None
            catalog.build_bm25(generation)
            if built is not None:
                built.result()
        catalog.set_state("ingest_pending", "")
        summary.index_seconds = time.perf_counter() - t_index
    elif not catalog.in_sync(store.count(), store.generation()):
        catalog.rebuild_from(store)
