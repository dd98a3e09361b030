"""Ingest into real embedded Chroma (fake embedder: the vectors do not matter here): seeds with
their real titles, idempotent re-ingest, a changed abstract replacing its old chunks, summary
counts, .gz and directories, and the title-only accepted-papers file."""

from __future__ import annotations

import gzip
import json
import shutil

import pytest

from conftest import SEEDS, SHARED
from paperscope import Assistant, Paper, Settings
from paperscope.settings import ChunkSettings, EmbedSettings

ORACLE = "000_a7ebabe1402f1cf3.txt:5"


def fake_settings(max_tokens: int | None = None, **chunk) -> Settings:
    embed = EmbedSettings(model="fake", **({"max_tokens": max_tokens} if max_tokens else {}))
    return Settings(embed=embed, chunk=ChunkSettings(**chunk))


def chunk_ids(a: Assistant, paper_id: str) -> list[str]:
    got = a.store.collection.get(where={"paper_id": paper_id}, include=[])
    return sorted(got["ids"])


def test_seeds_ingest_with_real_titles_then_idempotent(tmp_path):
    a = Assistant.open(tmp_path / "data", settings=fake_settings())
    s1 = a.ingest([SEEDS])
    assert (s1.files, s1.papers_read, s1.added, s1.updated, s1.unchanged) == (3, 38, 38, 0, 0)
    assert s1.ok and s1.seconds > 0
    chunks = a.store.count()
    assert chunks >= 38
    assert a.stats()["papers"] == 38
    paper = a.catalog.papers([ORACLE])[ORACLE]
    assert paper.title.startswith("Oracle-MoE:") and paper.venue == "ICML" and paper.year == 2025
    hits = a.search("Oracle-MoE locality-preserving routing memory-constrained inference", k=3)
    assert hits[0].paper_id == ORACLE and hits[0].title.startswith("Oracle-MoE:")
    gen = a.store.generation()

    s2 = a.ingest([SEEDS])
    assert (s2.added, s2.updated, s2.unchanged) == (0, 0, 38)
    assert a.store.count() == chunks
    assert a.store.generation() == gen, "a no-op re-ingest must not invalidate other readers' indexes"
    # Every paper is complete: chunks 0..n-1 and nothing else.
    for pid, (_, n) in a.catalog.hashes([p for p in a.catalog.papers([ORACLE])]).items():
        assert chunk_ids(a, pid) == sorted(f"{pid}#{i}" for i in range(n))

    # A fresh process view (reopened Assistant) agrees.
    b = Assistant.open(tmp_path / "data", settings=fake_settings())
    assert b.stats()["papers"] == 38 and b.stats()["chunks"] == chunks


def _long_abstract(tag: str, sentences: int) -> str:
    return " ".join(f"Sentence {i} of the {tag} abstract describes sparse expert routing for model number {i}."
                    for i in range(sentences))


def test_changed_abstract_replaces_old_chunks(tmp_path):
    a = Assistant.open(tmp_path / "data", settings=fake_settings(tokens=32))
    src = tmp_path / "p.jsonl"
    other = {"id": "keep", "title": "Unrelated", "abstract": "Graph neural networks for molecules."}
    src.write_text(json.dumps({"id": "x", "title": "Long", "abstract": _long_abstract("original", 12)}) + "\n"
                   + json.dumps(other) + "\n")
    s = a.ingest([src])
    assert s.added == 2
    before = chunk_ids(a, "x")
    assert len(before) >= 4, before
    total_before = a.store.count()

    src.write_text(json.dumps({"id": "x", "title": "Long", "abstract": "A short replacement about zebra migration."})
                   + "\n" + json.dumps(other) + "\n")
    s = a.ingest([src])
    assert (s.added, s.updated, s.unchanged) == (0, 1, 1)
    assert chunk_ids(a, "x") == ["x#0"], "stale chunks of the old version must be gone"
    assert a.store.count() == total_before - len(before) + 1
    got = a.store.collection.get(ids=["x#0"], include=["metadatas", "documents"])
    assert json.loads(got["metadatas"][0]["paper"])["abstract"] == "A short replacement about zebra migration."
    assert got["documents"] == [None], "chunk texts are not stored as Chroma documents (nothing reads them)"
    assert got["metadatas"][0]["n_chunks"] == 1
    assert a.catalog.hashes(["x"])["x"][1] == 1
    # BM25 sees the new text, not the old one.
    assert a.search("zebra migration", k=1)[0].paper_id == "x"
    assert all(h.paper_id != "x" for h in a.search("original abstract sentence", k=5) if h.score > 0 and h.bm25_rank)

    # And back to a longer text: chunk ids are 0..n-1 again, nothing left over.
    src.write_text(json.dumps({"id": "x", "title": "Long", "abstract": _long_abstract("third", 6)}) + "\n")
    a.ingest([src])
    n = a.catalog.hashes(["x"])["x"][1]
    assert chunk_ids(a, "x") == sorted(f"x#{i}" for i in range(n)) and n >= 2


def test_gz_and_directories_ingest(tmp_path):
    d = tmp_path / "in" / "nested"
    d.mkdir(parents=True)
    recs = [{"id": f"g{i}", "title": f"Paper {i}", "abstract": f"Abstract number {i} about topic {i}."} for i in range(5)]
    (d / "a.jsonl.gz").write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in recs).encode()))
    shutil.copy(SEEDS / "004_1ed39a575c500c91.txt", tmp_path / "in" / "list.txt")
    (d / "other.txt.gz").write_bytes(gzip.compress((SEEDS / "000_a7ebabe1402f1cf3.txt").read_bytes()))
    a = Assistant.open(tmp_path / "data", settings=fake_settings())
    s = a.ingest([tmp_path / "in"])
    assert (s.files, s.added, s.duplicates) == (3, 5 + 19 + 19, 0) and s.ok
    got = a.catalog.papers([f"g{i}" for i in range(5)] + ["list.txt:1", "list.txt:19", "other.txt:19"])
    assert len(got) == 8
    assert got["other.txt:19"].source == "other.txt"

    # A second paper list of the same file name would reuse those ids: it is skipped, named.
    (tmp_path / "in" / "other.txt").write_text("Header\n\nA different abstract about zebras.\n")
    s = a.ingest([tmp_path / "in"])
    assert (s.added, s.updated, s.unchanged) == (0, 0, 43)
    assert len(s.issues) == 1 and "same file name" in str(s.issues[0]) and s.issues[0].skipped == "file"
    assert a.catalog.papers(["other.txt:1"])["other.txt:1"].abstract.startswith("Scaling laws")


def test_summary_counts_and_cli_line(tmp_path):
    p = tmp_path / "mixed.jsonl"
    p.write_text("\n".join([
        json.dumps({"id": "a", "abstract": "Alpha abstract on vision."}),
        json.dumps({"id": "b", "title": "no abstract"}),
        "{broken",
        json.dumps({"id": "a", "abstract": "Alpha abstract on vision."}),  # identical duplicate
    ]) + "\n")
    a = Assistant.open(tmp_path / "data", settings=fake_settings())
    s = a.ingest([p])
    d = s.as_dict()
    assert d["files"] == 1 and d["papers_read"] == 1 and d["added"] == 1
    assert d["skipped_no_abstract"] == 1 and d["duplicates"] == 1
    assert d["issues"][0] == f"{p}:3: invalid JSON (Expecting property name enclosed in double quotes); fix or delete this line"
    line = s.line()
    assert "1 added" in line and "1 skipped without abstract" in line and f"{len(s.issues)} problems" in line


def test_accepted_papers_store_nothing(tmp_path):
    path = SHARED / "seeds" / "icml2025_accepted_papers.jsonl"
    if not path.exists():
        pytest.skip("shared seeds not mounted")
    a = Assistant.open(tmp_path / "data", settings=fake_settings())
    s = a.ingest([path])
    assert (s.added, s.papers_read, s.skipped_no_abstract) == (0, 0, 3340)
    assert a.store.count() == 0 and a.stats()["papers"] == 0


def test_seeds_with_real_embedder_answer_with_titles(seeded):
    """The default embedder path: the Oracle-MoE question cites the paper by its real title."""
    ans = seeded.ask("Which paper proposes locality-preserving routing in an oracle space for MoE inference?")
    assert not ans.abstained
    assert ans.citations[0].paper_id == ORACLE and ans.citations[0].title.startswith("Oracle-MoE:")
    assert seeded.stats()["papers"] == 38


def test_empty_library_says_to_ingest_and_names_a_library_built_with_other_settings(tmp_path):
    fresh = Assistant.open(tmp_path / "data", settings=fake_settings())
    ans = fresh.ask("Which papers address MoE latency?")
    assert ans.abstained and "paperscope ingest" in ans.text and "nothing is ingested" in ans.text, ans.text

    fresh.ingest([SEEDS])
    other = Assistant.open(tmp_path / "data", settings=fake_settings(tokens=64))  # new chunking: new collection
    assert other.store.name != fresh.store.name
    ans = other.ask("Which papers address MoE latency?")
    assert ans.abstained and not ans.citations
    assert fresh.store.name in ans.text and "other settings" in ans.text and "paperscope ingest" in ans.text, ans.text
    other.ingest([SEEDS])  # re-ingesting under the new settings fills the new collection
    ans = other.ask("Which papers address MoE latency?")
    assert "other settings" not in ans.text and "nothing is ingested" not in ans.text, ans.text
    assert other.search("MoE latency", k=3)


def test_window_chunks_replace_old_chunks_too(tmp_path):
    a = Assistant.open(tmp_path / "data", settings=fake_settings(max_tokens=32, by="window"))  # one sentence each
    src = tmp_path / "p.jsonl"
    src.write_text(json.dumps({"id": "x", "title": "Long", "abstract": _long_abstract("original", 12)}) + "\n")
    a.ingest([src])
    assert chunk_ids(a, "x") == sorted(f"x#{i}" for i in range(12))
    src.write_text(json.dumps({"id": "x", "title": "Long", "abstract": _long_abstract("second", 3)}) + "\n")
    assert a.ingest([src]).updated == 1
    assert chunk_ids(a, "x") == ["x#0", "x#1", "x#2"]
    assert a.search("second abstract sentence", k=1)[0].paper_id == "x"


def test_reingest_fixes_a_library_stored_with_doubled_authors(tmp_path):
    """A library ingested before authors were kept once (its records list each author twice, as
    35,689 records of the shared corpus do) is fixed by ingesting the same file again."""
    from paperscope.index.store import Chunk

    doubled = ["P. Newman", "D. Cole", "K. Ho", "P. Newman", "D. Cole", "K. Ho"]
    rec = {"id": "nc", "title": "Navigating with maps", "authors": doubled, "abstract": "We navigate with maps. It works."}
    src = tmp_path / "p.jsonl"
    src.write_text(json.dumps(rec) + "\n")
    a = Assistant.open(tmp_path / "data", settings=fake_settings())
    # What an earlier version stored: the record as read, doubled authors and all.
    old = Paper.model_construct(paper_id="nc", abstract=rec["abstract"], title=rec["title"], authors=doubled, venue="",
                                year=None, url="", keywords=[], tldr="", status="", source="p.jsonl", position=1)
    chunk = Chunk(old, 0, 1, rec["abstract"], old.content_hash())
    a.store.upsert([chunk], a.embedder.embed([rec["abstract"]]))
    a.catalog.put([(old, old.content_hash(), 1)])
    a.catalog.build_bm25(a.store.bump_generation())
    assert a.catalog.papers(["nc"])["nc"].authors == ["P. Newman", "D. Cole", "K. Ho"]  # read back: once each
    stored = json.loads(a.store.collection.get(ids=["nc#0"], include=["metadatas"])["metadatas"][0]["paper"])
    assert stored["authors"] == doubled

    s = a.ingest([src])
    assert (s.added, s.updated, s.unchanged) == (0, 1, 0)  # the content hash changed: replaced
    stored = json.loads(a.store.collection.get(ids=["nc#0"], include=["metadatas"])["metadatas"][0]["paper"])
    assert stored["authors"] == ["P. Newman", "D. Cole", "K. Ho"]
    assert a.ingest([src]).unchanged == 1
