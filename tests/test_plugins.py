"""Plugins through setuptools entry points, as a third party would ship them: the distribution
in tests/plugin (installed into this venv by conftest.py) declares an embedder (`fake`), an
LLM client (`test-echo`) and an answerer (`test-first-sentence`) in the groups
`paperscope.embedders`, `paperscope.llms` and `paperscope.answerers`. Each is checked in a
fresh `paperscope` process, which knows them only from the installed metadata."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import SEEDS

EXE = str(Path(sys.executable).with_name("paperscope"))
QUESTION = "Which papers address MoE latency?"


def run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith("PAPERSCOPE_") or k == "PAPERSCOPE_REQUIRE_ALL"}
    full.update(env)
    return subprocess.run([EXE, *args], capture_output=True, text=True, env=full, timeout=300)


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    data = tmp_path_factory.mktemp("plugin") / "data"
    r = run("ingest", str(SEEDS), "--data-dir", str(data), "--quiet", PAPERSCOPE_EMBED_MODEL="fake")
    assert r.returncode == 0, r.stderr
    return data


def test_registries_list_entry_point_plugins_in_a_fresh_process():
    code = ("import json\n"
            "from paperscope.index.embed import EMBEDDERS\n"
            "from paperscope.llm.base import LLMS\n"
            "from paperscope.answer.backends import ANSWERERS, answerer_names\n"
            "print(json.dumps({'embedders': EMBEDDERS.names(), 'llms': LLMS.names(), 'answerers': answerer_names(),\n"
            "  'fake': EMBEDDERS.plugins()['fake'].value, 'dist': EMBEDDERS.plugins()['fake'].dist.name}))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert {"fake", "minilm-int8", "minilm"} <= set(got["embedders"])
    assert {"test-echo", "openai", "openai-compatible", "local", "transformers"} <= set(got["llms"])
    assert {"extractive", "test-first-sentence", "test-echo"} <= set(got["answerers"])
    assert got["fake"] == "paperscope_test_plugin:FakeEmbedder" and got["dist"] == "paperscope-test-plugin"


def test_embedder_plugin_ingests_and_answers(data):
    r = run("stats", "--json", "--data-dir", str(data), PAPERSCOPE_EMBED_MODEL="fake")
    assert r.returncode == 0, r.stderr
    stats = json.loads(r.stdout)
    assert stats["embedder"] == "fake" and stats["papers"] == 38


def test_llm_plugin_is_an_answer_backend(data):
    r = run("ask", QUESTION, "--json", "--data-dir", str(data), PAPERSCOPE_EMBED_MODEL="fake", PAPERSCOPE_LLM="test-echo")
    assert r.returncode == 0, r.stderr
    answer = json.loads(r.stdout)
    assert answer["backend"] == "test-echo", answer  # drafted by the plugin, not the extractive fallback
    # The answer echoes the cited sentence as the prompt showed it (long ones cut with an ellipsis);
    # the citation quotes the whole sentence, verified against the abstract.
    echoed = answer["answer"].split(" [")[0].rstrip(".…")
    assert len(answer["citations"]) == 1 and len(echoed) > 40 and answer["citations"][0]["quote"].startswith(echoed)


def test_answerer_plugin_drafts_and_code_verifies(data):
    r = run("ask", QUESTION, "--json", "--data-dir", str(data), PAPERSCOPE_EMBED_MODEL="fake",
            PAPERSCOPE_LLM="test-first-sentence")
    assert r.returncode == 0, r.stderr
    answer = json.loads(r.stdout)
    assert answer["backend"] == "test-first-sentence" and answer["answer"].startswith("According to one paper:")
    assert [c["marker"] for c in answer["citations"]] == [1]


def test_unknown_plugin_name_lists_the_installed_ones(data):
    r = run("ask", QUESTION, "--data-dir", str(data), PAPERSCOPE_EMBED_MODEL="fake", PAPERSCOPE_LLM="no-such-backend")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "no-such-backend" in r.stderr and "test-echo" in r.stderr and "extractive" in r.stderr
