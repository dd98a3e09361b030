"""Bad input through the CLI: every case checks the exit code, the message (file and line,
what to do) and that what was stored before is intact (38 seed papers, Oracle-MoE still the
top hit). Most cases run in-process with click's CliRunner; a few run `paperscope` as a real
subprocess to prove the real exit codes. The fake embedder keeps this fast; vectors do not
matter for input handling.

Policy under test (ingest/readers.py docstring): record problems skip the record, file
problems skip the file, exit 1 when any problem was reported (good records still stored),
exit 2 for usage errors (unknown --encoding, empty question).
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import ROOT, SEEDS
from paperscope.cli import main

ORACLE = "000_a7ebabe1402f1cf3.txt:5"
ORACLE_QUERY = "Oracle-MoE locality-preserving routing oracle space memory-constrained inference"
PAPERSCOPE = str(ROOT / ".venv" / "bin" / "paperscope")


@pytest.fixture(scope="module")
def base_store(tmp_path_factory) -> Path:
    from paperscope import Assistant, Settings
    from paperscope.settings import EmbedSettings

    data = tmp_path_factory.mktemp("base") / "data"
    Assistant.open(data, settings=Settings(embed=EmbedSettings(model="fake"))).ingest([SEEDS])
    return data


@pytest.fixture
def data(base_store, tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("PAPERSCOPE_EMBED_MODEL", "fake")
    copy = tmp_path / "data"
    shutil.copytree(base_store, copy)
    return copy


def cli(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ, PAPERSCOPE_EMBED_MODEL="fake")
    return subprocess.run([PAPERSCOPE, *map(str, args)], capture_output=True, text=True, timeout=timeout, env=env)


def intact(data: Path, extra: int = 0) -> dict:
    """The store still holds the seeds (+ `extra` new papers) and still finds Oracle-MoE."""
    stats = cli("stats", "--json", "--data-dir", data)
    assert stats.exit_code == 0, stats.output
    info = json.loads(stats.stdout)
    assert info["papers"] == 38 + extra
    hits = json.loads(cli("search", ORACLE_QUERY, "--json", "--k", "3", "--data-dir", data).stdout)
    assert hits[0]["paper_id"] == ORACLE
    return info


def ingest(data: Path, *paths, extra_args=()):
    return cli("ingest", *paths, "--quiet", "--data-dir", data, *extra_args)


# -- files ----------------------------------------------------------------------------------

def test_empty_file(data, tmp_path):
    f = tmp_path / "empty.txt"
    f.write_text("")
    r = ingest(data, f)
    assert r.exit_code == 1
    assert f"{f}: no abstracts found (empty file or header only)" in r.stderr
    assert "blank line" in r.stderr  # says what the format should be
    intact(data)


def test_empty_jsonl_and_csv(data, tmp_path):
    (tmp_path / "e.jsonl").write_text("\n\n")
    (tmp_path / "e.csv").write_text("")
    r = ingest(data, tmp_path / "e.jsonl", tmp_path / "e.csv")
    assert r.exit_code == 1
    assert f"{tmp_path / 'e.jsonl'}: no records found (empty file)" in r.stderr
    assert f"{tmp_path / 'e.csv'}: no records found (empty file)" in r.stderr
    intact(data)


def test_header_only(data, tmp_path):
    f = tmp_path / "header.txt"
    f.write_text("ICML 2025 论文列表\n\n")
    r = ingest(data, f)
    assert r.exit_code == 1 and "header only" in r.stderr and str(f) in r.stderr
    intact(data)


def test_binary_file_real_exit_code(data, tmp_path):
    f = tmp_path / "image.txt"
    f.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40)
    r = run("ingest", f, "--quiet", "--data-dir", data)
    assert r.returncode == 1, r.stderr
    assert f"{f}: looks like a binary file, not a paper list" in r.stderr
    assert "Traceback" not in r.stderr
    intact(data)


def test_latin1_needs_encoding_then_works(data, tmp_path):
    f = tmp_path / "latin.txt"
    f.write_bytes("Liste\n\nAn abstract on naïve Bayes for café menus.\n".encode("latin-1"))
    r = run("ingest", f, "--quiet", "--data-dir", data)
    assert r.returncode == 1
    assert f"{f}:3: not valid utf-8 (byte 0xef)" in r.stderr and "--encoding latin-1" in r.stderr
    intact(data)
    r = ingest(data, f, extra_args=("--encoding", "latin-1"))
    assert r.exit_code == 0 and "1 added" in r.stdout
    hits = json.loads(cli("search", "naïve Bayes café", "--json", "--k", "1", "--data-dir", data).stdout)
    assert hits[0]["paper_id"] == "latin.txt:1"
    intact(data, extra=1)


def test_unknown_encoding_is_usage_error(data, tmp_path):
    f = tmp_path / "a.txt"
    f.write_text("List\n\nAn abstract.\n")
    r = ingest(data, f, extra_args=("--encoding", "klingon-8"))
    assert r.exit_code == 2 and "unknown encoding 'klingon-8'" in r.stderr and "latin-1" in r.stderr
    intact(data)


def test_utf16_hint_then_works(data, tmp_path):
    f = tmp_path / "wide.txt"
    f.write_bytes("List\n\nAn abstract about wide characters in UTF-16 files.\n".encode("utf-16"))
    r = ingest(data, f)
    assert r.exit_code == 1 and "--encoding utf-16" in r.stderr
    r = ingest(data, f, extra_args=("--encoding", "utf-16"))
    assert r.exit_code == 0 and "1 added" in r.stdout
    intact(data, extra=1)


def test_bom_is_stripped(data, tmp_path):
    f = tmp_path / "bom.txt"
    f.write_bytes("\ufeffMy list\n\nAn abstract about tokenizers that saw a byte order mark.\n".encode("utf-8"))
    r = ingest(data, f)
    assert r.exit_code == 0 and "1 added" in r.stdout, r.output
    from paperscope.index.catalog import Catalog

    info = intact(data, extra=1)
    paper = Catalog(data / "index", info["collection"]).papers(["bom.txt:1"])["bom.txt:1"]
    assert paper.abstract.startswith("An abstract about tokenizers")  # the header was recognised


def test_crlf_line_endings(data, tmp_path):
    f = tmp_path / "crlf.txt"
    f.write_bytes(b"List\r\n\r\nFirst abstract on windows files\r\ncontinued here.\r\n\r\nSecond abstract.\r\n")
    r = ingest(data, f)
    assert r.exit_code == 0 and "2 added" in r.stdout
    info = intact(data, extra=2)
    from paperscope.index.catalog import Catalog

    paper = Catalog(data / "index", info["collection"]).papers(["crlf.txt:1"])["crlf.txt:1"]
    assert paper.abstract == "First abstract on windows files continued here."


@pytest.mark.slow
def test_50mb_single_line_does_not_hang_or_blow_memory(data, tmp_path):
    f = tmp_path / "huge.txt"
    with f.open("w") as fh:
        fh.write("List\n\nA normal abstract about sparse attention kernels.\n\n")
        fh.write("token " * (50 * 1024 * 1024 // 6))
        fh.write("\n")
    size = len(("token " * (50 * 1024 * 1024 // 6)).strip())
    # A fresh parent whose only child is the CLI, so RUSAGE_CHILDREN is that child's peak.
    measure = ("import resource, subprocess, sys\nr = subprocess.run(sys.argv[1:])\n"
               "print('PEAK_KIB', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
               "sys.exit(r.returncode)")
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", measure, PAPERSCOPE, "ingest", str(f), "--quiet", "--data-dir", str(data)],
                       capture_output=True, text=True, timeout=180, env=dict(os.environ, PAPERSCOPE_EMBED_MODEL="fake"))
    seconds = time.perf_counter() - t0
    peak_mib = int(r.stderr.rsplit("PEAK_KIB", 1)[1].split()[0]) / 1024
    print(f"50 MB line: {seconds:.1f} s, peak RSS {peak_mib:.0f} MiB")
    assert r.returncode == 1
    assert f"{f}:5: abstract is {size:,} characters (limit 50,000); record skipped" in r.stderr
    assert "blank line between abstracts" in r.stderr
    assert "1 added" in r.stdout  # the good paragraph before it is stored
    assert peak_mib < 1500
    intact(data, extra=1)


# -- records --------------------------------------------------------------------------------

def test_jsonl_with_one_broken_line(data, tmp_path):
    f = tmp_path / "p.jsonl"
    f.write_text(json.dumps({"id": "j1", "abstract": "Good record one on retrieval."}) + "\n"
                 + '{"id": "j2", "abstract": "unterminated\n'
                 + json.dumps({"id": "j3", "abstract": "Good record three on ranking."}) + "\n")
    r = ingest(data, f)
    assert r.exit_code == 1
    assert f"{f}:2: invalid JSON (Unterminated string" in r.stderr and "fix or delete this line" in r.stderr
    assert "2 added" in r.stdout
    intact(data, extra=2)


def test_json_that_is_not_a_list(data, tmp_path):
    f = tmp_path / "obj.json"
    f.write_text(json.dumps({"title": "x", "count": 3}))
    g = tmp_path / "num.json"
    g.write_text("42")
    r = ingest(data, f, g)
    assert r.exit_code == 1
    assert f"{f}:1: JSON must be an array of paper records" in r.stderr and "wrap the records in [ ... ]" in r.stderr
    assert f"{g}:1: JSON must be an array" in r.stderr and "a JSON int" in r.stderr
    intact(data)


def test_json_array_with_a_non_record(data, tmp_path):
    f = tmp_path / "arr.json"
    f.write_text('[\n {"id": "a1", "abstract": "An abstract on robotics."},\n "oops"\n]')
    r = ingest(data, f)
    assert r.exit_code == 1 and f"{f}:3: record 2 is not a JSON object" in r.stderr and "1 added" in r.stdout
    intact(data, extra=1)


def test_csv_missing_abstract_column(data, tmp_path):
    f = tmp_path / "p.csv"
    f.write_text("id,title,summary\nc1,Some title,Some summary\n")
    r = ingest(data, f)
    assert r.exit_code == 1
    assert f"{f}:1: CSV has no 'abstract' column (columns: id, title, summary)" in r.stderr
    assert "add a header row" in r.stderr
    intact(data)


def test_csv_with_quoted_newlines(data, tmp_path):
    f = tmp_path / "q.csv"
    f.write_text('id,title,abstract,authors\nc1,"Quoted, title","First line of abstract.\nSecond line of it.",'
                 '"Ann Lee; Bo Chan"\n')
    r = ingest(data, f)
    assert r.exit_code == 0 and "1 added" in r.stdout, r.output
    hits = json.loads(cli("search", "second line abstract", "--json", "--author", "bo chan", "--data-dir", data).stdout)
    assert [h["paper_id"] for h in hits] == ["c1"] and hits[0]["title"] == "Quoted, title"
    intact(data, extra=1)


def test_records_empty_abstract_missing_title_authors_forms_year_text(data, tmp_path):
    f = tmp_path / "r.jsonl"
    rows = [
        {"id": "e1", "title": "Empty abstract", "abstract": "   "},
        {"id": "e2", "abstract": "No title here: a study of kernel ridge regression at scale."},
        {"id": "e3", "title": "String authors", "authors": "Ann Lee, Bo Chan", "abstract": "Authors given as text."},
        {"id": "e4", "title": "List authors", "authors": ["Cy Dee"], "abstract": "Authors given as a list.",
         "year": "2024"},
        {"id": "e5", "title": "Year as words", "abstract": "A year that is not a number.", "year": "soon"},
    ]
    f.write_text("".join(json.dumps(r) + "\n" for r in rows))
    r = ingest(data, f)
    assert r.exit_code == 1  # the unreadable year is reported
    assert f"{f}:5: year 'soon' is not a number; stored without a year" in r.stderr
    assert "4 added" in r.stdout and "1 skipped without abstract" in r.stdout
    hits = json.loads(cli("search", "kernel ridge regression", "--json", "--k", "1", "--data-dir", data).stdout)
    assert hits[0]["paper_id"] == "e2" and hits[0]["title"].startswith("No title here")  # fallback title
    by_author = json.loads(cli("search", "authors given", "--json", "--author", "bo chan", "--data-dir", data).stdout)
    assert [h["paper_id"] for h in by_author] == ["e3"]
    by_year = json.loads(cli("search", "authors given", "--json", "--year", "2024", "--data-dir", data).stdout)
    assert [h["paper_id"] for h in by_year] == ["e4"]
    intact(data, extra=4)


def test_duplicate_ids_with_different_content(data, tmp_path):
    f = tmp_path / "d.jsonl"
    f.write_text(json.dumps({"id": "dup", "abstract": "First version about owls."}) + "\n"
                 + json.dumps({"id": "dup", "abstract": "Second version about penguins."}) + "\n")
    r = ingest(data, f)
    assert r.exit_code == 1
    assert f"{f}:2: duplicate id 'dup' with different content (first seen at {f}:1); keeping this later record" in r.stderr
    hits = json.loads(cli("search", "penguins", "--json", "--k", "1", "--data-dir", data).stdout)
    assert hits[0]["paper_id"] == "dup"
    intact(data, extra=1)


def test_truncated_gz(data, tmp_path):
    f = tmp_path / "cut.jsonl.gz"
    payload = gzip.compress("".join(json.dumps({"id": f"z{i}", "abstract": f"Abstract {i} on zebras."}) + "\n"
                                    for i in range(500)).encode())
    f.write_bytes(payload[: len(payload) // 2])
    r = ingest(data, f)
    assert r.exit_code == 1
    assert f"{f}: the .gz archive is truncated or corrupt" in r.stderr and "re-download or re-compress" in r.stderr
    intact(data)  # nothing half-read from it was stored


def test_directory_with_good_and_bad_files(data, tmp_path):
    d = tmp_path / "mixed"
    (d / "sub").mkdir(parents=True)
    (d / "good.jsonl").write_text(json.dumps({"id": "g1", "abstract": "A good abstract on bandits."}) + "\n")
    (d / "sub" / "good.csv").write_text("id,abstract\ng2,Another good abstract on auctions.\n")
    (d / "sub" / "bad.json").write_text("{not json")
    (d / "blob.txt").write_bytes(b"\x00\x01\x02" * 100)
    (d / "notes.md").write_text("ignored: not a paper-list format")
    r = ingest(data, d)
    assert r.exit_code == 1
    assert f"{d / 'sub' / 'bad.json'}:1: invalid JSON" in r.stderr
    assert f"{d / 'blob.txt'}: looks like a binary file" in r.stderr
    assert "4 files" in r.stdout and "2 added" in r.stdout and "2 problems" in r.stdout
    intact(data, extra=2)


def test_metadata_pointing_to_a_missing_position(data, tmp_path):
    d = tmp_path / "list"
    d.mkdir()
    (d / "mine.txt").write_text("Header\n\nFirst abstract on owls.\n\nSecond abstract on larks.\n")
    (d / "meta.jsonl").write_text(json.dumps({"source": "mine.txt", "position": 1, "title": "Owls"}) + "\n"
                                  + json.dumps({"source": "mine.txt", "position": 99, "title": "Ghost"}) + "\n")
    r = ingest(data, d)
    assert r.exit_code == 1
    assert (f"{d / 'meta.jsonl'}:2: metadata points to mine.txt position 99, but that file has 2 abstracts; "
            "row ignored") in r.stderr
    hits = json.loads(cli("search", "owls", "--json", "--k", "1", "--data-dir", data).stdout)
    assert hits[0]["title"] == "Owls"
    intact(data, extra=2)


def test_missing_path(data, tmp_path):
    r = ingest(data, tmp_path / "nope.jsonl")
    assert r.exit_code == 1 and f"{tmp_path / 'nope.jsonl'}: no such file or directory; check the path" in r.stderr
    intact(data)


def test_bad_input_never_changes_stored_papers(data, tmp_path):
    """A broken copy of the seed list (same file name) must not overwrite the stored papers."""
    f = tmp_path / "000_a7ebabe1402f1cf3.txt"
    f.write_bytes((SEEDS / "000_a7ebabe1402f1cf3.txt").read_bytes()[:300] + b"\xff\xfe broken")
    before = intact(data)
    r = ingest(data, f)
    assert r.exit_code == 1 and "not valid utf-8" in r.stderr
    after = intact(data)
    assert after["chunks"] == before["chunks"]


# -- questions ------------------------------------------------------------------------------

def test_empty_question_real_exit_code(data):
    r = run("ask", "   ", "--data-dir", data)
    assert r.returncode == 2
    assert "error: the question is empty; ask something like" in r.stderr and "Traceback" not in r.stderr
    r = cli("search", "", "--data-dir", data)
    assert r.exit_code == 2 and "the question is empty" in r.stderr
    intact(data)


def test_100kb_question_is_truncated_with_a_note(data):
    question = ("Which papers reduce mixture of experts inference latency on memory-constrained devices? " * 1200)[:100_000]
    r = cli("ask", question, "--json", "--data-dir", data)
    assert r.exit_code == 0
    out = json.loads(r.stdout)
    assert any("truncated" in n for n in out["notes"])
    assert len(out["standalone_question"]) <= 2000
    intact(data)


def test_emoji_only_question_abstains(data):
    r = cli("ask", "🤖🔥🎉", "--json", "--data-dir", data)
    assert r.exit_code == 0
    out = json.loads(r.stdout)
    assert out["abstained"] and out["citations"] == []
    assert "no searchable words" in out["answer"]
    r = cli("ask", "🤖🔥🎉", "--data-dir", data)
    assert r.exit_code == 0 and "no searchable words" in r.stdout


def test_unknown_venue_filter(data):
    r = cli("ask", "Which papers address MoE latency?", "--venue", "NoSuchConf", "--json", "--data-dir", data)
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["abstained"] and out["citations"] == [] and "no paper" in out["answer"].lower()
    r = cli("search", "MoE latency", "--venue", "NoSuchConf", "--data-dir", data)
    assert r.exit_code == 0 and "no papers found" in r.stdout
    # The same question without the filter is answered: the filter, not the data, emptied it.
    out = json.loads(cli("ask", "Which papers address MoE latency?", "--json", "--data-dir", data).stdout)
    assert out["citations"]
