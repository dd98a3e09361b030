"""Uploads while 8 threads ask: no answer may come from a half-built index.

The library grows in three uploads. Every answer given while they run must be exactly the
answer that question gets, asked alone, from one of the four complete libraries (before the
first upload, after each upload): never a mix, never an error, never "the library is empty".
Two ways to upload are covered:
- the UI's: the asking Assistant ingests (same catalog);
- another machine's: a second Assistant with its own catalog ingests into the same Chroma, and
  the asking one rebuilds its catalog and BM25 snapshot from Chroma while it answers.
Embedder: the deterministic `fake` one (plugin), so the answers depend on the library only.
"""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

import pytest

from conftest import SEEDS
from paperscope import Answer, Assistant, Settings
from paperscope.index.catalog import Catalog
from paperscope.index.store import ChromaStore
from paperscope.settings import EmbedSettings

pytestmark = pytest.mark.slow
THREADS = 8
UPLOADS = [
    [{"id": "up-1", "title": "Quantum origami folding with entangled crease patterns", "year": 2031, "venue": "IW",
      "abstract": "We fold paper cranes in superposition with entangled crease patterns. The folding protocol "
                  "reaches high crane fidelity on simulated sheets."},
     {"id": "up-2", "title": "Sparse expert routing cuts MoE latency on phones", "year": 2031, "venue": "IW",
      "abstract": "Mixture-of-experts models are slow on phones. Our sparse expert routing cuts MoE latency by "
                  "half on memory-constrained devices."}],
    [{"id": "up-3", "title": "Zero-knowledge proofs for sourdough fermentation", "year": 2031, "venue": "IW",
      "abstract": "Bakers prove that a sourdough fermentation schedule was followed without revealing the recipe, "
                  "with zero-knowledge proofs over fermentation logs."}],
    [{"id": "up-4", "title": "Langevin dynamics for origami crease design", "year": 2031, "venue": "IW",
      "abstract": "We sample origami crease patterns with Langevin dynamics. Crease designs sampled this way fold "
                  "faster than hand-made ones."},
     {"id": "up-5", "title": "Test-time training for sourdough starters", "year": 2031, "venue": "IW",
      "abstract": "Test-time training layers adapt a sourdough starter model to each kitchen. The adapted model "
                  "predicts rise times within ten minutes."}],
]
QUESTIONS = ["Which papers study quantum origami folding?", "Which papers address MoE latency?",
             "Are there papers about zero-knowledge proofs for fermentation?", "Which papers use Langevin dynamics?",
             "Which paper proposes test-time training layers?", "Are there papers about recommender systems?",
             "Which papers are about sourdough?"]


def fingerprint(answer: Answer) -> tuple:
    return (answer.text, answer.abstained, tuple((c.marker, c.paper_id, c.quote) for c in answer.citations))


def settings() -> Settings:
    return Settings(embed=EmbedSettings(model="fake"))


@pytest.fixture(scope="module")
def libraries(tmp_path_factory) -> tuple[Path, list[Path], dict[str, set[tuple]]]:
    """(the data dir before any upload, the upload files, every answer a complete library gives)."""
    root = tmp_path_factory.mktemp("uploads")
    files = []
    for i, records in enumerate(UPLOADS):
        files.append(root / f"upload_{i}.jsonl")
        files[-1].write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    base = root / "base"
    Assistant.open(base, settings=settings()).ingest([SEEDS])
    work = root / "reference"
    shutil.copytree(base, work)
    ref = Assistant.open(work, settings=settings())
    expected: dict[str, set[tuple]] = {q: {fingerprint(ref.ask(q))} for q in QUESTIONS}
    for f in files:
        ref.ingest([f])
        for q in QUESTIONS:
            expected[q].add(fingerprint(ref.ask(q)))
    assert all(len(v) >= 2 for k, v in expected.items() if "recommender" not in k), "uploads must change answers"
    return base, files, expected


def _ask_while(asker: Assistant, upload, expected: dict[str, set[tuple]]) -> tuple[list, list, int]:
    done = threading.Event()
    errors: list[str] = []
    wrong: list[str] = []
    asked = [0]
    lock = threading.Lock()

    def worker(offset: int) -> None:
        i = offset
        rounds_after = 0
        while rounds_after < 2:  # keep asking until two full rounds after the last upload
            q = QUESTIONS[i % len(QUESTIONS)]
            i += 1
            try:
                got = fingerprint(asker.ask(q))
            except Exception as exc:  # any error at all is a failure
                with lock:
                    errors.append(f"{q}: {type(exc).__name__}: {exc}")
                return
            with lock:
                asked[0] += 1
                if got not in expected[q]:
                    wrong.append(f"{q} -> {got[0][:300]!r}")
            if done.is_set() and i % len(QUESTIONS) == offset % len(QUESTIONS):
                rounds_after += 1

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(THREADS)]
    for t in threads:
        t.start()
    try:
        upload()
    finally:
        done.set()
        for t in threads:
            t.join(timeout=600)
    return errors, wrong, asked[0]


def test_upload_through_the_asking_assistant(libraries, tmp_path):
    base, files, expected = libraries
    data = tmp_path / "data"
    shutil.copytree(base, data)
    a = Assistant.open(data, settings=settings())

    def upload() -> None:
        for f in files:
            summary = a.ingest([f])
            assert summary.ok and summary.added == len(f.read_text().splitlines())

    errors, wrong, asked = _ask_while(a, upload, expected)
    assert not errors, errors[:3]
    assert not wrong, f"{len(wrong)} of {asked} answers match no complete library: {wrong[:3]}"
    assert a.catalog.paper_count() == 38 + sum(len(u) for u in UPLOADS)


def test_upload_from_another_machine_while_this_one_rebuilds(libraries, tmp_path):
    base, files, expected = libraries
    data = tmp_path / "data"
    shutil.copytree(base, data)
    uploader = Assistant.open(data, settings=settings())
    s = uploader.settings
    # This machine: the same Chroma, its own catalog (as two machines sharing a Chroma server).
    reader = Assistant(s, ChromaStore(s), Catalog(tmp_path / "machine-b", s.collection_name()), uploader.embedder)
    assert fingerprint(reader.ask(QUESTIONS[0])) in expected[QUESTIONS[0]]  # builds its catalog once

    def upload() -> None:
        for f in files:
            uploader.ingest([f])
            reader.ask(QUESTIONS[1])  # make sure this machine notices each generation

    errors, wrong, asked = _ask_while(reader, upload, expected)
    assert not errors, errors[:3]
    assert not wrong, f"{len(wrong)} of {asked} answers match no complete library: {wrong[:3]}"
    assert reader.catalog.paper_count() == 38 + sum(len(u) for u in UPLOADS)
