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


# -- ask --all, --format, --output: the real default embedder over the seeds ----------------------
LLM_QUESTION = "Which papers are about large language models?"


@pytest.fixture(scope="module")
def seeded_dir(seeded_data_dir, tmp_path_factory):
    """A private copy of the seeded data dir (real MiniLM) for this module's commands."""
    import shutil

    copy = tmp_path_factory.mktemp("cli") / "data"
    shutil.copytree(seeded_data_dir, copy)
    return copy


@pytest.fixture(scope="module")
def listed(seeded_dir):
    """find_all's answer to LLM_QUESTION, from the library itself (what the CLI must export)."""
    from paperscope import Assistant

    answer = Assistant.open(seeded_dir).find_all(LLM_QUESTION)
    assert len(answer.citations) >= 5, answer.text  # the seeds hold a dozen LLM papers
    return answer


def invoke(*args):
    """`paperscope ...` in this process (the loaded model is reused); stdout and stderr apart."""
    from click.testing import CliRunner

    from paperscope.cli import main

    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def _bibtex_entries(text: str, n: int) -> list[dict]:
    """Parse with bibtexparser v2 and pybtex; both must find `n` entries and nothing broken."""
    import bibtexparser
    from pybtex.database import parse_string

    library = bibtexparser.parse_string(text)
    assert not library.failed_blocks, [b.error for b in library.failed_blocks]
    assert len(library.entries) == n and len({e.key for e in library.entries}) == n
    pybtex = parse_string(text, "bibtex")
    assert len(pybtex.entries) == n
    for entry in pybtex.entries.values():
        assert entry.fields["title"] and entry.persons["author"] and entry.fields["year"].isdigit()
    return [{"key": e.key, **{f.key: f.value for f in e.fields}} for e in library.entries]


@pytest.mark.slow
def test_ask_all_streams_the_list_and_writes_a_csv_a_spreadsheet_opens(seeded_dir, listed, tmp_path):
    import csv

    out = tmp_path / "llm papers.csv"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPERSCOPE_")}
    r = subprocess.run([EXE, "ask", "--all", LLM_QUESTION, "--data-dir", str(seeded_dir), "--output", str(out)],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    n = len(listed.citations)
    lines = r.stdout.strip().splitlines()
    assert lines[0].startswith(f"{n} papers in the library address this") and "By venue: ICML 2025" in lines[0]
    assert len([x for x in lines if x.startswith("- ")]) == n  # one line per paper, in the answer's order
    assert [x.rsplit("[", 1)[1].rstrip("]") for x in lines[1:n + 1]] == [str(c.marker) for c in listed.citations]
    assert r.stderr.strip().endswith(f"wrote {n} papers as csv to {out}")
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw  # UTF-8 BOM (Excel), RFC 4180 line ends
    with out.open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["paper_id"] for r in rows] == [c.paper_id for c in listed.citations]
    first, cited = rows[0], listed.citations[0]
    assert (first["title"], first["venue"], first["year"], first["url"]) == (cited.title, "ICML", "2025", cited.url)
    assert first["authors"] == "; ".join(cited.authors) and first["quote"] == cited.quote


@pytest.mark.slow
def test_ask_all_bibtex_and_json_exports(seeded_dir, listed, tmp_path):
    n = len(listed.citations)
    r = invoke("ask", "--all", LLM_QUESTION, "--data-dir", seeded_dir, "--format", "bibtex")
    assert r.exit_code == 0, r.output
    entries = _bibtex_entries(r.stdout, n)
    assert [e["title"].strip("{}").split("}")[0] for e in entries][:1] == [listed.citations[0].title.split(":")[0]] \
        or entries[0]["title"].replace("{", "").replace("}", "") == listed.citations[0].title
    assert all(e["booktitle"] == "ICML" and e["year"] == "2025" for e in entries)

    r = invoke("ask", "--all", LLM_QUESTION, "--data-dir", seeded_dir, "--format", "json")
    data = json.loads(r.stdout)
    assert data["question"] == LLM_QUESTION and not data["abstained"]
    assert [c["paper_id"] for c in data["citations"]] == [c.paper_id for c in listed.citations]
    assert all(c["title"] and c["quote"] and c["authors"] for c in data["citations"])

    r = invoke("ask", "--all", LLM_QUESTION, "--data-dir", seeded_dir, "--json")
    from paperscope.records import Answer

    full = Answer.model_validate(json.loads(r.stdout))
    assert [c.paper_id for c in full.citations] == [c.paper_id for c in listed.citations]
    assert full.backend == listed.backend and full.text == listed.text

    # The name says the format: .bib -> BibTeX, .json -> JSON; the list still prints.
    bib, js = tmp_path / "llm.bib", tmp_path / "llm.json"
    r = invoke("ask", "--all", LLM_QUESTION, "--data-dir", seeded_dir, "--no-stream", "-o", bib)
    assert r.stdout.startswith(f"{n} papers in the library") and f"as bibtex to {bib}" in r.stderr
    _bibtex_entries(bib.read_text(encoding="utf-8"), n)
    invoke("ask", "--all", LLM_QUESTION, "--data-dir", seeded_dir, "-o", js)
    assert len(json.loads(js.read_text(encoding="utf-8"))["citations"]) == n


@pytest.mark.slow
def test_export_of_a_normal_answer_and_of_an_abstention(seeded_dir, tmp_path):
    from paperscope import Assistant

    question = "Which papers address MoE latency?"
    expected = Assistant.open(seeded_dir).ask(question)
    bib = tmp_path / "refs.bib"
    r = invoke("ask", question, "--data-dir", seeded_dir, "--format", "bibtex", "--output", bib)
    assert r.exit_code == 0 and "Oracle-MoE" in r.stdout  # the answer itself still prints
    entries = _bibtex_entries(bib.read_text(encoding="utf-8"), len(expected.citations))
    assert entries[0]["key"] == "zhou2025oracle" and entries[0]["annote"]
    r = invoke("ask", question, "--data-dir", seeded_dir, "--format", "csv")
    assert r.stdout.splitlines()[0] == "title,authors,venue,year,url,quote,paper_id"  # stdout: no BOM
    assert len(r.stdout.strip().splitlines()) == 1 + len(expected.citations)

    none = tmp_path / "none.csv"
    r = invoke("ask", "--all", "Are there papers about recommender systems?", "--data-dir", seeded_dir, "-o", none)
    assert r.exit_code == 0 and "No paper in the corpus" in r.stdout and "wrote 0 papers as csv" in r.stderr
    assert none.read_bytes() == b"\xef\xbb\xbftitle,authors,venue,year,url,quote,paper_id\r\n"


def test_ask_all_usage_errors_and_help(tmp_path):
    r = run("ask", "--all", "--k", "3", "Which papers use NeRF?", "--data-dir", tmp_path / "d")
    assert r.returncode == 2 and "--all lists every paper" in r.stderr
    r = run("ask", "--json", "--format", "csv", "Which papers use NeRF?", "--data-dir", tmp_path / "d")
    assert r.returncode == 2 and "add --output FILE" in r.stderr
    r = run("ask", "--format", "ris", "x", "--data-dir", tmp_path / "d")
    assert r.returncode == 2 and "'ris' is not one of 'text', 'json', 'csv', 'bibtex'" in r.stderr
    r = run("ask", "--help")
    assert r.returncode == 0 and 'paperscope ask --all "Which papers use NeRF?" --output nerf.csv' in r.stdout
    assert "--format [text|json|csv|bibtex]" in r.stdout and "--output FILE" in r.stdout
