"""The three ingest pipelines `paperscope bench` compares, each run in its own process.

- `paperscope`: `Assistant.open(...).ingest([file])`, exactly what `paperscope ingest` does.
- `naive`: sentence-transformers fp32 all-MiniLM-L6-v2 (max_seq_length 256, its default
  batch size) encodes "title. abstract", then `collection.add` into a fresh Chroma
  PersistentClient with the vectors passed explicitly (and the abstracts as documents).
- `llama-index`: `VectorStoreIndex.from_documents` over a `ChromaVectorStore`, the same model
  wrapped as a llama-index embedding, default settings (embed_batch_size=10,
  SentenceSplitter).
Each job prints one JSON line: seconds (ingest only), load_seconds (model load / open),
abstracts_per_s, abstracts_per_cpu_s (CPU time of all threads, load included: steadier than
wall time on a shared machine), peak_rss_mb (this process: model + Chroma + Python). Run as
`python -m paperscope.bench.pipelines JOB SAMPLE_FILE WORK_DIR [EMBEDDER]`.
Leaves out: GPU runs (see gpu.sh beside this file).
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from llama_index.core.embeddings import BaseEmbedding

from paperscope.bench.corpus import embed_texts


def run_job(job: str, sample_file: Path, work: Path, *args: str, timeout: float = 6 * 3600) -> dict[str, Any]:
    """One pipeline in a fresh process; its BENCH_RESULT line as a dict."""
    cmd = [sys.executable, "-m", "paperscope.bench.pipelines", job, str(sample_file), str(work), *args]
    t = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    for line in proc.stdout.splitlines():
        if line.startswith("BENCH_RESULT "):
            out: dict[str, Any] = json.loads(line[len("BENCH_RESULT "):])
            out["process_seconds"] = round(time.perf_counter() - t, 2)
            return out
    raise RuntimeError(f"bench job {job} failed ({proc.returncode}): {proc.stderr[-2000:]}")


NAIVE_MAX_TOKENS = 256  # sentence-transformers' default for all-MiniLM-L6-v2, used by both baselines


def peak_rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def cpu_seconds() -> float:
    """CPU time of this process, all threads, and of its finished child processes (the
    cross-lingual index embeds in workers); less sensitive than wall time to other load."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _records(sample: Path) -> list[dict[str, Any]]:
    with open(sample, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def sentence_transformer() -> Any:
    import torch  # noqa: F401  (imported here so its import time counts as load time)
    from sentence_transformers import SentenceTransformer

    from paperscope.index.minilm import minilm_model_dir

    model = SentenceTransformer(str(minilm_model_dir()), device="cpu")
    model.max_seq_length = NAIVE_MAX_TOKENS
    return model


def _chroma_collection(work: Path) -> tuple[Any, Any]:
    import chromadb

    client = chromadb.PersistentClient(path=str(work / "chroma"),
                                       settings=chromadb.Settings(anonymized_telemetry=False))
    col = client.get_or_create_collection("bench", configuration={"hnsw": {"space": "cosine"}},
                                          embedding_function=None)
    return client, col


def run_paperscope(sample: Path, work: Path, embedder: str = "minilm-int8") -> dict[str, Any]:
    from paperscope.assistant import Assistant
    from paperscope.settings import EmbedSettings, Settings

    t0 = time.perf_counter()
    a = Assistant.open(work / "data", settings=Settings(embed=EmbedSettings(model=embedder)))
    load = time.perf_counter() - t0
    t0 = time.perf_counter()
    summary = a.ingest([sample])
    seconds = time.perf_counter() - t0
    return {"seconds": seconds, "load_seconds": load, "papers": summary.added + summary.updated,
            "chunks": a.store.count(), "embed_seconds": summary.embed_seconds, "embedder": embedder,
            "write_seconds": summary.write_seconds, "index_seconds": summary.index_seconds,
            "max_tokens": a.settings.embed.max_tokens,
            "issues": len(summary.issues)}


def run_naive(sample: Path, work: Path) -> dict[str, Any]:
    t0 = time.perf_counter()
    model = sentence_transformer()
    client, col = _chroma_collection(work)
    load = time.perf_counter() - t0
    t0 = time.perf_counter()
    recs = _records(sample)
    t_embed = time.perf_counter()
    vecs = model.encode(embed_texts(recs), normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)
    embed_seconds = time.perf_counter() - t_embed
    step = client.get_max_batch_size()
    for s in range(0, len(recs), step):
        part = recs[s:s + step]
        col.add(ids=[r["id"] for r in part], embeddings=vecs[s:s + len(part)],
                documents=[r["abstract"] for r in part],
                metadatas=[{"title": r.get("title") or "", "venue": r.get("venue") or "", "year": r.get("year") or 0}
                           for r in part])
    seconds = time.perf_counter() - t0
    return {"seconds": seconds, "load_seconds": load, "papers": len(recs), "chunks": col.count(),
            "embed_seconds": embed_seconds, "batch_size": 32}


def llama_embedding(model: Any) -> BaseEmbedding:
    """The sentence-transformers model as a llama-index embedding (no extra package)."""
    from llama_index.core.embeddings import BaseEmbedding
    from pydantic import PrivateAttr

    class SentenceTransformerEmbedding(BaseEmbedding):
        _model: Any = PrivateAttr()

        def __init__(self, st_model: Any, **kwargs: Any) -> None:
            super().__init__(model_name="all-MiniLM-L6-v2", **kwargs)
            self._model = st_model

        def _encode(self, texts: list[str]) -> list[list[float]]:
            vecs = self._model.encode(list(texts), batch_size=len(texts), normalize_embeddings=True,
                                      convert_to_numpy=True, show_progress_bar=False)
            return [list(map(float, v)) for v in vecs]

        def _get_query_embedding(self, query: str) -> list[float]:
            return self._encode([query])[0]

        async def _aget_query_embedding(self, query: str) -> list[float]:
            return self._get_query_embedding(query)

        def _get_text_embedding(self, text: str) -> list[float]:
            return self._encode([text])[0]

        def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
            return self._encode(texts)

    return SentenceTransformerEmbedding(model)


def run_llama_index(sample: Path, work: Path) -> dict[str, Any]:
    t0 = time.perf_counter()
    from llama_index.core import Document, StorageContext, VectorStoreIndex
    from llama_index.vector_stores.chroma import ChromaVectorStore

    embed = llama_embedding(sentence_transformer())
    _, col = _chroma_collection(work)
    load = time.perf_counter() - t0
    t0 = time.perf_counter()
    docs = [Document(text=r["abstract"], id_=r["id"],
                     metadata={"title": r.get("title") or "", "venue": r.get("venue") or "", "year": r.get("year") or 0})
            for r in _records(sample)]
    storage = StorageContext.from_defaults(vector_store=ChromaVectorStore(chroma_collection=col))
    VectorStoreIndex.from_documents(docs, storage_context=storage, embed_model=embed)
    seconds = time.perf_counter() - t0
    return {"seconds": seconds, "load_seconds": load, "papers": len(docs), "chunks": col.count(),
            "batch_size": embed.embed_batch_size}


JOBS: dict[str, Callable[..., dict[str, Any]]] = {"paperscope": run_paperscope, "naive": run_naive,
                                                  "llama-index": run_llama_index}


def main(argv: list[str]) -> None:
    job, sample, work_dir, *rest = argv
    work = Path(work_dir)
    work.mkdir(parents=True, exist_ok=True)
    cpu0 = cpu_seconds()
    result = JOBS[job](Path(sample), work, *rest)
    result["cpu_seconds"] = cpu_seconds() - cpu0  # load + ingest
    result["abstracts_per_s"] = result["papers"] / max(result["seconds"], 1e-9)
    result["abstracts_per_cpu_s"] = result["papers"] / max(result["cpu_seconds"], 1e-9)
    result["peak_rss_mb"] = peak_rss_mb()
    print("BENCH_RESULT " + json.dumps(result), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
