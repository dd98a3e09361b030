"""The ingest pipeline: records -> skip unchanged -> chunk -> embed -> Chroma -> local indexes.

Order of writes, and why it survives `kill -9`: each batch is written to Chroma first (all
chunks of a paper in one upsert; chunk 0 carries the content hash), then to the local
catalog. A paper counts as stored only when its chunk 0 has the current hash *and* its last
chunk exists, so a rerun of the same command redoes exactly the papers a crash cut short and
never duplicates one (ids are deterministic, writes are upserts). The generation stamp is
bumped only at the end; readers rebuild their local indexes when it changes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from paperscope.catalog import Catalog
from paperscope.embed import Embedder
from paperscope.ingest.readers import Issue, read_paths
from paperscope.records import Paper
from paperscope.settings import Settings
from paperscope.store import ChromaStore, Chunk, chunk_paper, embed_text


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
    embed_seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.issues

    def as_dict(self) -> dict:
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


def token_counter() -> Callable[[str], int]:
    """Token counts via llama-index's tokenizer (tiktoken cl100k, shipped in its package)."""
    from llama_index.core.utils import get_tokenizer

    encode = get_tokenizer()
    return lambda text: len(encode(text))


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
    count_tokens = token_counter()

    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(papers), unit="paper", desc="ingest", dynamic_ncols=True)
    changed_any = False
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
                complete_check.append(f"{p.paper_id}#{int(head['n_chunks']) - 1}")
        if complete_check:
            present = store.present(complete_check)
            broken = {cid.rpartition("#")[0] for cid in complete_check if cid not in present}
            todo.extend(p for p in batch if p.paper_id in broken)
        todo_ids = {p.paper_id for p in todo}
        unchanged = [p for p in batch if p.paper_id not in todo_ids]
        summary.unchanged += len(unchanged)
        # Heal the catalog for papers Chroma already holds (a crash between the two writes).
        known = catalog.hashes([p.paper_id for p in unchanged])
        heal = [(p, hashes[p.paper_id], int(heads[p.paper_id]["n_chunks"])) for p in unchanged
                if known.get(p.paper_id, ("", 0))[0] != hashes[p.paper_id]]
        if heal:
            catalog.put(heal)
            changed_any = True
        if todo:
            chunks: list[Chunk] = [c for p in todo for c in chunk_paper(p, settings.chunk.tokens, count_tokens)]
            t_embed = time.perf_counter()
            vectors = embedder.embed([embed_text(c) for c in chunks])
            summary.embed_seconds += time.perf_counter() - t_embed
            n_new = {c.paper.paper_id: c.n_chunks for c in chunks}
            # A changed paper may now have fewer chunks: drop the surplus old ones.
            stale = [f"{p.paper_id}#{i}" for p in todo if p.paper_id in heads
                     for i in range(n_new[p.paper_id], int(heads[p.paper_id]["n_chunks"]))]
            if stale:
                store.delete(stale)
            store.upsert(chunks, vectors)
            catalog.put((p, hashes[p.paper_id], n_new[p.paper_id]) for p in todo)
            summary.updated += sum(1 for p in todo if p.paper_id in heads)
            summary.added += sum(1 for p in todo if p.paper_id not in heads)
            changed_any = True
        if bar:
            bar.update(len(batch))
    if bar:
        bar.close()
    if changed_any:
        catalog.build_bm25(store.bump_generation())
    elif not catalog.in_sync(store.count(), store.generation()):
        catalog.rebuild_from(store)
    summary.seconds = time.perf_counter() - t0
    return summary

