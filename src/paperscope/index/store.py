"""Chroma, as paperscope's vector store: embedded (PersistentClient) or a Chroma server.

One collection holds every chunk (`<paper_id>#<n>`), its vector and metadata; chunk 0 also
carries the whole paper record as JSON, so any machine pointed at the same Chroma server can
rebuild its local indexes from Chroma alone. Chunk texts are not stored as Chroma documents:
nothing reads them back (quotes come from the paper record), and Chroma indexes every document
for full-text search, which cost 2.3x the CPU of an upsert without them (8,000 abstracts). The collection name ends with
`Settings.vector_signature()`: a new embedder or chunking gets a fresh collection.

We talk to chromadb directly rather than through llama-index's ChromaVectorStore: that class
writes a serialized copy of every node into each metadata row (`_node_content`), which
doubles write volume. LlamaIndex users get paperscope's retriever instead
(`Assistant.as_retriever`, paperscope.integrations.llama_index).
Chunks are cut by ingest (paperscope.ingest.chunking); this module only stores them.
"""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from paperscope.records import Paper, normalize_venue
from paperscope.settings import Settings

Where = dict[str, Any]  # a Chroma metadata filter
Metadata = dict[str, str | int | float | bool]
T = TypeVar("T")


class StoreError(RuntimeError):
    """The store cannot be reached or written; the message says what to do."""


@dataclass
class Chunk:
    paper: Paper
    index: int
    n_chunks: int
    text: str
    content_hash: str

    @property
    def chunk_id(self) -> str:
        return Chunk.id_of(self.paper.paper_id, self.index)

    @staticmethod
    def id_of(paper_id: str, index: int) -> str:
        """The Chroma id of a paper's chunk `index`: "<paper_id>#<index>" (`paper_of` reads it back)."""
        return f"{paper_id}#{index}"

    @staticmethod
    def paper_of(chunk_id: str) -> str:
        """The paper id inside a `chunk_id` (a paper id may itself hold "#")."""
        return chunk_id.rsplit("#", 1)[0]

    def metadata(self) -> Metadata:
        meta: Metadata = {
            "paper_id": self.paper.paper_id,
            "chunk": self.index,
            "n_chunks": self.n_chunks,
            "hash": self.content_hash,
            "venue": normalize_venue(self.paper.venue),
        }
        if self.paper.year is not None:
            meta["year"] = int(self.paper.year)
        if self.index == 0:
            meta["paper"] = self.paper.model_dump_json()
        return meta


class VectorStore(Protocol):
    def upsert(self, chunks: Sequence[Chunk], vectors: npt.NDArray[np.float32]) -> None: ...
    def delete(self, chunk_ids: Sequence[str]) -> None: ...
    def query(self, vector: npt.NDArray[np.float32], n: int, where: Where | None = None) -> list[tuple[str, float]]: ...
    def paper_vectors(self, n_chunks: Mapping[str, int]) -> dict[str, npt.NDArray[np.float32]]: ...


def _client(settings: Settings) -> Any:
    import chromadb

    chroma_settings = chromadb.Settings(anonymized_telemetry=False, allow_reset=False)
    store = settings.store
    if store.chroma_host:
        try:
            return chromadb.HttpClient(host=store.chroma_host, port=store.chroma_port, settings=chroma_settings)
        except Exception as exc:  # chromadb raises several types for a refused connection
            raise StoreError(
                f"cannot reach the Chroma server at {store.chroma_host}:{store.chroma_port} ({type(exc).__name__}); "
                "start it with `chroma run --path DIR --port PORT`, or unset PAPERSCOPE_CHROMA_HOST for embedded mode"
            ) from exc
    path = store.data_dir / "chroma"
    try:
        path.mkdir(parents=True, exist_ok=True)
        return chromadb.PersistentClient(path=str(path), settings=chroma_settings)
    except Exception as exc:
        raise StoreError(f"cannot open the Chroma database in {path} ({exc}); check that the directory "
                         "is writable, or set PAPERSCOPE_DATA_DIR") from exc


class ChromaStore:
    """Chunks + vectors in one Chroma collection. Thread-safe as chromadb clients are."""

    def __init__(self, settings: Settings, create: bool = True) -> None:
        self.settings = settings
        self.name = settings.collection_name()
        self.client = _client(settings)
        self.max_batch = int(self.client.get_max_batch_size())
        try:
            if create:
                self.collection = self.client.get_or_create_collection(
                    self.name, configuration={"hnsw": {"space": "cosine"}}, embedding_function=None,
                    metadata={"generation": "empty"},
                )
            else:
                self.collection = self.client.get_collection(self.name, embedding_function=None)
        except StoreError:
            raise
        except Exception as exc:
            raise StoreError(self._explain(exc)) from exc

    def _explain(self, exc: Exception) -> str:
        where = (f"the Chroma server at {self.settings.store.chroma_host}:{self.settings.store.chroma_port}"
                 if self.settings.store.chroma_host else f"{self.settings.store.data_dir / 'chroma'}")
        text = str(exc)
        if self.settings.store.chroma_host and ("connect" in text.lower() or "refused" in text.lower()):
            return (f"cannot reach {where} ({type(exc).__name__}: {text[:200]}); is it running? start it with "
                    f"`chroma run --path DIR --port {self.settings.store.chroma_port}`")
        if not self.settings.store.chroma_host and _low_disk(self.settings.store.data_dir):
            return f"cannot write to {where}: the disk is full; free space and run the same command again"
        if "readonly" in text.lower() or "read-only" in text.lower() or "permission" in text.lower():
            return f"cannot write to {where}: it is read-only; choose a writable PAPERSCOPE_DATA_DIR"
        if "disk" in text.lower() and "full" in text.lower():
            return f"cannot write to {where}: the disk is full; free space and run the same command again"
        return f"Chroma error at {where}: {type(exc).__name__}: {text}"

    def _call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            raise StoreError(self._explain(exc)) from exc

    # -- writes ---------------------------------------------------------------------------
    def upsert(self, chunks: Sequence[Chunk], vectors: npt.NDArray[np.float32]) -> None:
        for start in range(0, len(chunks), self.max_batch):
            part = chunks[start:start + self.max_batch]
            self._call(
                self.collection.upsert,
                ids=[c.chunk_id for c in part],
                embeddings=vectors[start:start + len(part)],
                metadatas=[c.metadata() for c in part],
            )

    def delete(self, chunk_ids: Sequence[str]) -> None:
        for start in range(0, len(chunk_ids), self.max_batch):
            self._call(self.collection.delete, ids=list(chunk_ids[start:start + self.max_batch]))

    def bump_generation(self) -> str:
        gen = uuid.uuid4().hex[:12]
        self._call(self.collection.modify, metadata={"generation": gen})
        return gen

    # -- reads ----------------------------------------------------------------------------
    def generation(self) -> str:
        col = self._call(self.client.get_collection, self.name, embedding_function=None)
        return str((col.metadata or {}).get("generation", "empty"))

    def count(self) -> int:
        return int(self._call(self.collection.count))

    def heads(self, paper_ids: Sequence[str]) -> dict[str, Metadata]:
        """Metadata of chunk 0 of each stored paper (hash, n_chunks), by paper id."""
        out: dict[str, Metadata] = {}
        ids = [Chunk.id_of(pid, 0) for pid in paper_ids]
        for start in range(0, len(ids), self.max_batch):
            got = self._call(self.collection.get, ids=ids[start:start + self.max_batch], include=["metadatas"])
            for meta in got["metadatas"] or []:
                out[str(meta["paper_id"])] = dict(meta)
        return out

    def present(self, chunk_ids: Sequence[str]) -> set[str]:
        found: set[str] = set()
        for start in range(0, len(chunk_ids), self.max_batch):
            got = self._call(self.collection.get, ids=list(chunk_ids[start:start + self.max_batch]), include=[])
            found.update(got["ids"])
        return found

    def paper_vectors(self, n_chunks: Mapping[str, int]) -> dict[str, npt.NDArray[np.float32]]:
        """Stored chunk vectors of each paper ({paper_id: number of chunks} -> {paper_id: (n, dim)})."""
        ids = [Chunk.id_of(pid, i) for pid, n in n_chunks.items() for i in range(n)]
        rows: dict[str, list[tuple[int, npt.NDArray[np.float32]]]] = {}
        for start in range(0, len(ids), self.max_batch):
            got = self._call(self.collection.get, ids=ids[start:start + self.max_batch], include=["embeddings"])
            embeddings = got["embeddings"]
            if embeddings is None:
                continue
            for cid, vec in zip(got["ids"], embeddings):
                pid, _, idx = str(cid).rpartition("#")
                rows.setdefault(pid, []).append((int(idx), np.asarray(vec, dtype=np.float32)))
        return {pid: np.stack([v for _, v in sorted(parts, key=lambda x: x[0])]) for pid, parts in rows.items()}

    def iter_papers(self, page: int = 2000) -> Iterator[tuple[Paper, str, int]]:
        """Every stored paper as (paper, hash, n_chunks), from chunk-0 rows."""
        offset = 0
        while True:
            got = self._call(self.collection.get, where={"chunk": 0}, limit=page, offset=offset, include=["metadatas"])
            metas = got["metadatas"] or []
            for meta in metas:
                yield Paper.model_validate_json(str(meta["paper"])), str(meta["hash"]), int(meta["n_chunks"])
            if len(metas) < page:
                return
            offset += page

    def query(self, vector: npt.NDArray[np.float32], n: int, where: Where | None = None) -> list[tuple[str, float]]:
        """(paper_id, cosine similarity) per matching chunk, best first. Chroma answers a request
        for more results than it holds (or an empty collection) with what it has, so the count is
        not read first (12 of 44 ms of a `search` at 85,864 papers). The paper id is read from
        the chunk id ("<paper_id>#<n>", `Chunk.chunk_id`), not from the metadata: fetching the
        metadata of 200 chunks took 17 of a query's 20 ms."""
        res = self._call(
            self.collection.query, query_embeddings=[np.asarray(vector, dtype=np.float32)],
            n_results=n, where=where or None, include=["distances"],
        )
        ids = res["ids"][0] if res["ids"] else []
        dists = res["distances"][0] if res["distances"] else []
        return [(Chunk.paper_of(cid), 1.0 - float(d)) for cid, d in zip(ids, dists)]

    def siblings(self) -> dict[str, int]:
        """Other collections with this prefix (built with other embedding settings): name -> chunks."""
        prefix = f"{self.settings.store.collection_prefix}_"
        out: dict[str, int] = {}
        for col in self._call(self.client.list_collections):
            name = getattr(col, "name", col)
            if name != self.name and str(name).startswith(prefix):
                count = int(self._call(self.client.get_collection, name, embedding_function=None).count())
                if count:
                    out[name] = count
        return out

    def empty_reason(self) -> str:
        """What to do about an empty library: ingest, or re-ingest after a settings change
        (a new embedder or truncation gets a fresh collection; the old vectors are not reused)."""
        where = (f"the Chroma server at {self.settings.store.chroma_host}:{self.settings.store.chroma_port}"
                 if self.settings.store.chroma_host else str(self.settings.store.data_dir))
        others = self.siblings()
        if others:
            name, chunks = max(others.items(), key=lambda kv: kv[1])
            return (f"{where} holds {chunks:,} chunks embedded with other settings (collection {name}; this "
                    f"configuration uses {self.name}). Run `paperscope ingest` on your paper lists again "
                    "to embed them for the current settings, or go back to the settings that built it")
        return f"nothing is ingested in {where} yet; run `paperscope ingest seeds/` (or your own paper lists) first"


def _low_disk(path: Path, minimum: int = 64 << 20) -> bool:
    try:
        return shutil.disk_usage(path).free < minimum
    except OSError:
        return False
