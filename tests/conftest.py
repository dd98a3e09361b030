"""Shared fixtures. Real parts by default (embedded Chroma, the shipped MiniLM); the `fake`
embedder (fast unit tests) is not part of paperscope: it comes from the plugin distribution
in tests/plugin, which this file builds and installs into the test interpreter's environment
(offline) the first time, so it registers through the real entry-point registry, in this
process and in the `paperscope` subprocesses the tests start.

PAPERSCOPE_REQUIRE_ALL=1 (set by .ci/run) turns "optional dependency missing" skips into
failures, so CI cannot pass by skipping the browser, server or llama.cpp tests.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "seeds"
SHARED = ROOT.parent / "shared"
PLUGIN = ROOT / "tests" / "plugin"
PLUGIN_MODULE = "paperscope_test_plugin"


def plugin_source_hash() -> str:
    h = hashlib.sha256()
    for f in sorted(p for p in PLUGIN.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        h.update(f.relative_to(PLUGIN).as_posix().encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]


def installed_plugin_hash() -> str | None:
    spec = importlib.util.find_spec(PLUGIN_MODULE)
    if spec is None or not spec.submodule_search_locations:
        return None
    stamp = Path(list(spec.submodule_search_locations)[0]) / "source_hash.txt"
    return stamp.read_text().strip() if stamp.exists() else None


def install_test_plugin() -> None:
    """pip-install tests/plugin (a copy stamped with its source hash) unless that version is in."""
    want = plugin_source_hash()
    if installed_plugin_hash() == want:
        return
    with tempfile.TemporaryDirectory(prefix="paperscope-test-plugin-") as tmp:
        src = Path(tmp) / "plugin"
        shutil.copytree(PLUGIN, src, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
        (src / PLUGIN_MODULE / "source_hash.txt").write_text(want + "\n")
        r = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                            "--no-index", "--disable-pip-version-check", str(src)],
                           capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise RuntimeError(f"could not install the test plugin from {PLUGIN}:\n{r.stdout}\n{r.stderr}")
    importlib.invalidate_caches()


def pytest_sessionstart(session: pytest.Session) -> None:
    install_test_plugin()


def need(condition: bool, reason: str):
    """Skip when an optional part is missing, unless CI demands every part."""
    if condition:
        return
    if os.environ.get("PAPERSCOPE_REQUIRE_ALL"):
        pytest.fail(f"required for CI: {reason}")
    pytest.skip(reason)


def topic_library(factory, name: str, on_topic, topical: int, theory: int):
    """A real library (embedded Chroma, the shipped MiniLM) of the first `topical` shared-corpus
    papers `on_topic(record)` accepts among `theory` COLT papers (off topic): (Assistant, topic records)."""
    from paperscope import Assistant
    from paperscope.bench.corpus import iter_records, write_jsonl

    corpus = SHARED / "corpora" / "conference_abstracts.jsonl.gz"
    need(corpus.exists(), f"shared corpus missing at {corpus}")
    chosen: list[dict] = []
    off: list[dict] = []
    for r in iter_records(corpus):
        if on_topic(r) and len(chosen) < topical:
            chosen.append(r)
        elif r.get("venue") == "COLT" and len(off) < theory:
            off.append(r)
        if len(chosen) == topical and len(off) == theory:
            break
    tmp = factory.mktemp(name)
    a = Assistant.open(tmp / "data")
    a.ingest([write_jsonl(chosen + off, tmp / "papers.jsonl")])
    return a, chosen


@pytest.fixture(scope="session")
def detectors(tmp_path_factory):
    """20 papers titled on real-time object detection (of several years and venues) among 30
    learning-theory papers: a real library for picks by figure, "Any others?" and filters."""
    def detector(r) -> bool:
        title = r["title"].lower()
        return "real-time" in title and "detect" in title and "object" in title

    return topic_library(tmp_path_factory, "detectors", detector, 20, 30)[0]


@pytest.fixture(autouse=True)
def _isolate_env(monkeypatch, tmp_path):
    # Never let a developer's .env or data dir leak into tests.
    for key in list(os.environ):
        if key.startswith("PAPERSCOPE_") and key not in ("PAPERSCOPE_REQUIRE_ALL", "PAPERSCOPE_DEBUG"):
            monkeypatch.delenv(key, raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def fake_assistant(tmp_path):
    """An Assistant over the seeds with the deterministic fake embedder (fast)."""
    from paperscope import Assistant, Settings
    from paperscope.settings import EmbedSettings

    settings = Settings(embed=EmbedSettings(model="fake"))
    a = Assistant.open(tmp_path / "data", settings=settings)
    a.ingest([SEEDS])
    return a


@pytest.fixture(scope="session")
def seeded_data_dir(tmp_path_factory) -> Path:
    """A data dir with the seeds ingested by the real default embedder (built once)."""
    from paperscope import Assistant

    data = tmp_path_factory.mktemp("seeded")
    Assistant.open(data).ingest([SEEDS])
    return data


@pytest.fixture
def seeded(seeded_data_dir, tmp_path):
    """A private copy of the seeded data dir, so a test may write to it."""
    from paperscope import Assistant

    copy = tmp_path / "seeded"
    shutil.copytree(seeded_data_dir, copy)
    return Assistant.open(copy)
