"""Shared fixtures. Real parts by default (embedded Chroma, the shipped MiniLM); the `fake`
embedder is registered through the real registry for fast unit tests.

PAPERSCOPE_REQUIRE_ALL=1 (set by .ci/run) turns "optional dependency missing" skips into
failures, so CI cannot pass by skipping the browser, server or llama.cpp tests.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "seeds"
SHARED = ROOT.parent / "shared"


def need(condition: bool, reason: str):
    """Skip when an optional part is missing, unless CI demands every part."""
    if condition:
        return
    if os.environ.get("PAPERSCOPE_REQUIRE_ALL"):
        pytest.fail(f"required for CI: {reason}")
    pytest.skip(reason)


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
