"""Deterministic samples of the shared abstracts corpus for benchmarks.

Every sample is a pure function of (corpus, sizes): records are ordered by a hash of their
id, so the same call returns the same records on every machine, and a bigger sample
contains the smaller one. Samples are written as plain JSONL, the format users ingest.
Leaves out: any corpus download (the corpus is a local file, ../shared by default).
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parents[3]
DEFAULT_CORPUS = _ROOT.parent / "shared" / "corpora" / "conference_abstracts.jsonl.gz"


def default_corpus() -> Path:
    import os

    return Path(os.environ.get("PAPERSCOPE_BENCH_CORPUS") or DEFAULT_CORPUS)


def iter_records(path: Path) -> Iterator[dict[str, Any]]:
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if line:
                rec = json.loads(line)
                if (rec.get("abstract") or "").strip():
                    yield rec


def _key(rec: dict[str, Any]) -> str:
    return hashlib.sha1(str(rec.get("id") or rec.get("title")).encode()).hexdigest()


def sample(path: Path, n: int | None) -> list[dict[str, Any]]:
    """n records (all when n is None or larger than the corpus) in hash-of-id order."""
    recs = sorted(iter_records(path), key=_key)
    return recs if n is None else recs[:n]


def known_item_sample(path: Path, n_papers: int,
                      n_queries: int | None = None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(papers to index, queries). Queries are records with a `tldr` (all of them, or the
    first n_queries in hash order); the indexed papers are those records *without* their
    tldr, plus distractors up to n_papers."""
    recs = sorted(iter_records(path), key=_key)
    with_tldr = [r for r in recs if (r.get("tldr") or "").strip()]
    if n_queries is not None:
        with_tldr = with_tldr[:n_queries]
    with_tldr = with_tldr[:n_papers]
    ids = {r["id"] for r in with_tldr}
    distractors = [r for r in recs if r["id"] not in ids][: max(0, n_papers - len(with_tldr))]
    papers = [{k: v for k, v in r.items() if k != "tldr"} for r in with_tldr + distractors]
    queries = [{"id": r["id"], "query": r["tldr"].strip(), "title": r.get("title", "")} for r in with_tldr]
    return papers, queries


def write_jsonl(records: list[dict[str, Any]], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    return path


def embed_texts(records: list[dict[str, Any]]) -> list[str]:
    """What a naive pipeline embeds per abstract: title and abstract, as paperscope does."""
    return [f"{r['title']}. {r['abstract']}" if r.get("title") else r["abstract"] for r in records]
