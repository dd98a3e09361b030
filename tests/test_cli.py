"""The `paperscope` command as a user runs it (real subprocesses): `ingest seeds/` with its
progress bar and summary, idempotent re-runs, `--json`/`--quiet`, usage errors, and a
`--help` that stays light (no Chroma, torch or gradio import)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, SEEDS, SHARED

EXE = str(ROOT / ".venv" / "bin" / "paperscope")
ORACLE = "000_a7ebabe1402f1cf3.txt:5"


def run(*args, timeout=300, **env) -> subprocess.CompletedProcess:
    full = dict(os.environ, PAPERSCOPE_EMBED_MODEL="fake", **env)
    return subprocess.run([EXE, *map(str, args)], capture_output=True, text=True, env=full, timeout=timeout)


def test_help_is_light():
    code = ("import sys\nfrom paperscope.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit as e:\n"
            "    assert e.code == 0\nheavy = sorted(m for m in ('chromadb', 'torch', 'gradio', 'onnxruntime', "
            "'llama_index.core') if m in sys.modules)\nprint('HEAVY', heavy)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "paperscope ingest seeds/" in r.stdout  # examples are in the help
    assert "HEAVY []" in r.stdout, r.stdout[-300:]


@pytest.mark.slow
def test_ingest_seeds_progress_summary_and_rerun(tmp_path):
    data = tmp_path / "data"
    r = run("ingest", SEEDS, "--data-dir", data)
    assert r.returncode == 0, r.stderr
    assert "38/38" in r.stderr and "ingest" in r.stderr  # the progress bar, on stderr
    assert r.stdout.startswith("3 files, 38 papers read: 38 added, 0 updated, 0 unchanged, "
                               "0 skipped without abstract, 0 problems, in ")
    again = run("ingest", SEEDS, "--data-dir", data, "--json")
    assert again.returncode == 0
    summary = json.loads(again.stdout)
    assert (summary["added"], summary["updated"], summary["unchanged"], summary["files"]) == (0, 0, 38, 3)
    assert again.stderr.strip() == ""  # --json: no progress bar mixed in
    hits = json.loads(run("search", "Oracle-MoE locality-preserving routing", "--json", "--data-dir", data).stdout)
    assert hits[0]["paper_id"] == ORACLE and hits[0]["title"].startswith("Oracle-MoE:")
    stats = json.loads(run("stats", "--json", "--data-dir", data).stdout)
    assert stats["papers"] == 38 and stats["embedder"] == "fake"
    quiet = run("ingest", SEEDS, "--data-dir", data, "--quiet")
    assert quiet.returncode == 0 and quiet.stderr.strip() == "" and "38 unchanged" in quiet.stdout


def test_ingest_usage_errors(tmp_path):
    r = run("ingest", "--data-dir", tmp_path / "d")
    assert r.returncode == 2 and "Missing argument 'PATHS...'" in r.stderr
    r = run("ingest", SEEDS, "--data-dir", tmp_path / "d", "--encoding", "nope")
    assert r.returncode == 2 and "error: unknown encoding 'nope'" in r.stderr and "Traceback" not in r.stderr


def test_title_only_list_reports_skipped(tmp_path):
    path = SHARED / "seeds" / "icml2025_accepted_papers.jsonl"
    if not path.exists():
        pytest.skip("shared seeds not mounted")
    r = run("ingest", path, "--data-dir", tmp_path / "d", "--quiet")
    assert r.returncode == 0, r.stderr
    assert "0 papers read: 0 added" in r.stdout and "3340 skipped without abstract" in r.stdout
