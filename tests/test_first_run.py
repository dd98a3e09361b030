"""A first run on a fresh machine (empty model cache, so the int8 graph is built) configures no
logging: nothing like "DEBUG:bm25s:Building index from tokens" reaches the terminal, and the
root logger has no handler afterwards (a library that logs stays silent unless the host
application configures logging)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import SEEDS

pytestmark = pytest.mark.slow
EXE = str(Path(sys.executable).with_name("paperscope"))


def _env(cache: Path, data: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPERSCOPE_")}
    env.update(PAPERSCOPE_CACHE_DIR=str(cache), PAPERSCOPE_DATA_DIR=str(data), TMPDIR=str(cache.parent / "tmp"))
    (cache.parent / "tmp").mkdir(exist_ok=True)
    return env


def test_first_run_cli_prints_no_log_lines(tmp_path):
    cache, data = tmp_path / "cache", tmp_path / "data"
    env = _env(cache, data)
    ingest = subprocess.run([EXE, "ingest", str(SEEDS), "--quiet"], capture_output=True, text=True, env=env, timeout=600)
    assert ingest.returncode == 0, ingest.stderr
    assert list(cache.glob("minilm-l6-fused-int8-*.onnx")), "the first run should have built the int8 graph"
    ask = subprocess.run([EXE, "ask", "Which papers address MoE latency?"], capture_output=True, text=True, env=env,
                         timeout=600)
    assert ask.returncode == 0, ask.stderr
    for out in (ingest.stderr, ask.stderr):
        assert not [line for line in out.splitlines() if "DEBUG" in line or "INFO:" in line], out[-2000:]


def test_first_run_leaves_the_root_logger_unconfigured(tmp_path):
    cache, data = tmp_path / "cache", tmp_path / "data"
    code = ("import logging\n"
            "from paperscope import Assistant\n"
            f"a = Assistant.open({str(data)!r})\n"
            f"a.ingest([{str(SEEDS)!r}])\n"
            "a.ask('Which papers address MoE latency?')\n"
            "root = logging.getLogger()\n"
            "print('ROOT', len(root.handlers), root.level)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(cache, data), timeout=600)
    assert r.returncode == 0, r.stderr
    assert list(cache.glob("minilm-l6-fused-int8-*.onnx"))
    assert "ROOT 0 30" in r.stdout, r.stdout  # no handler; level WARNING, as Python starts
    assert "DEBUG" not in r.stderr, r.stderr[-2000:]
