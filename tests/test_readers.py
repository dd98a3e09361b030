"""Readers alone (no store): every input format, the metadata join, id rules, limits, and the
file/line numbers that problems carry. Fast; no embedder."""

from __future__ import annotations

import csv
import gzip
import json
from pathlib import Path

import pytest

from conftest import SEEDS, SHARED
from paperscope.ingest import readers
from paperscope.ingest.readers import read_paths, read_text, split_paper_list

RECORDS = [
    {"id": "p1", "title": "Sparse Routing for Experts", "authors": ["Ada Lovelace", "Alan Turing"],
     "abstract": "We route tokens to sparse experts. Latency drops by half.", "venue": "ICML", "year": 2025,
     "url": "https://example.org/p1", "keywords": ["moe", "routing"], "tldr": "Faster MoE.", "status": "Poster"},
    {"id": "p2", "title": "Graph Diffusion", "authors": "Grace Hopper; Edsger Dijkstra",
     "abstract": "Diffusion models over graphs. We prove a bound.", "venue": "NeurIPS", "year": "2024",
     "url": "", "keywords": "graphs, diffusion", "tldr": "", "status": ""},
]


def _jsonl(path: Path, records) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _csv(path: Path, records) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=list(records[0]))
        w.writeheader()
        for r in records:
            w.writerow({k: (json.dumps(v) if isinstance(v, list) else v) if k != "authors" else
                        ("; ".join(v) if isinstance(v, list) else v) for k, v in r.items()})
    return path


def _check_two(result):
    assert not result.issues, [str(i) for i in result.issues]
    papers = {p.paper_id: p for p, _ in result.papers}
    assert set(papers) == {"p1", "p2"}
    assert papers["p1"].authors == ["Ada Lovelace", "Alan Turing"]
    assert papers["p2"].authors == ["Grace Hopper", "Edsger Dijkstra"]  # authors given as a string
    assert papers["p2"].year == 2024  # year given as text
    assert papers["p1"].venue == "ICML" and papers["p1"].title == "Sparse Routing for Experts"
    return papers


@pytest.mark.parametrize("fmt", ["jsonl", "json", "csv", "jsonl.gz", "json.gz", "csv.gz"])
def test_each_record_format(tmp_path, fmt):
    base = fmt.removesuffix(".gz")
    path = tmp_path / f"papers.{base}"
    if base == "jsonl":
        _jsonl(path, RECORDS)
    elif base == "json":
        path.write_text(json.dumps(RECORDS, indent=2))
    else:
        _csv(path, RECORDS)
    if fmt.endswith(".gz"):
        gz = tmp_path / f"papers.{fmt}"
        gz.write_bytes(gzip.compress(path.read_bytes()))
        path.unlink()
        path = gz
    result = read_paths([path])
    papers = _check_two(result)
    assert papers["p1"].source == f"papers.{base}"  # .gz is not part of the source name
    assert result.files == 1


def test_json_object_wrapping_a_list_and_single_record(tmp_path):
    (tmp_path / "a.json").write_text(json.dumps({"papers": RECORDS}))
    _check_two(read_paths([tmp_path / "a.json"]))
    (tmp_path / "b.json").write_text(json.dumps(RECORDS[0]))
    r = read_paths([tmp_path / "b.json"])
    assert [p.paper_id for p, _ in r.papers] == ["p1"] and not r.issues


def test_seed_paper_list_format_and_fallback_ids():
    text = read_text(SEEDS / "000_a7ebabe1402f1cf3.txt")
    header, paragraphs = split_paper_list(text)
    assert header == "ICML 2025 论文列表"
    assert len(paragraphs) == 19
    r = read_paths([SEEDS / "000_a7ebabe1402f1cf3.txt"])  # without the metadata file: no titles
    ids = [p.paper_id for p, _ in r.papers]
    assert ids[0] == "000_a7ebabe1402f1cf3.txt:1" and ids[-1] == "000_a7ebabe1402f1cf3.txt:19"
    assert all(p.title == "" for p, _ in r.papers)
    assert r.papers[0][1].endswith("000_a7ebabe1402f1cf3.txt:3")  # where: file:line of the paragraph


def test_seed_directory_joins_metadata_titles():
    r = read_paths([SEEDS])
    assert not r.issues and r.files == 3
    papers = {p.paper_id: p for p, _ in r.papers}
    assert len(papers) == 38
    oracle = papers["000_a7ebabe1402f1cf3.txt:5"]
    assert oracle.title.startswith("Oracle-MoE:")
    assert oracle.venue == "ICML" and oracle.year == 2025 and oracle.url.startswith("https://icml.cc/")
    assert oracle.authors and oracle.position == 5 and oracle.source == "000_a7ebabe1402f1cf3.txt"
    assert all(p.title for p in papers.values()), "every seed abstract gets its real title"
    meta = [json.loads(line) for line in (SEEDS / "icml2025_seed_metadata.jsonl").read_text().splitlines()]
    for row in meta:
        assert papers[f"{row['source']}:{row['position']}"].title == row["title"]


def test_accepted_papers_have_no_abstracts_and_are_counted():
    path = SHARED / "seeds" / "icml2025_accepted_papers.jsonl"
    if not path.exists():
        pytest.skip("shared seeds not mounted")
    r = read_paths([path])
    assert r.papers == [] and r.no_abstract == 3340 and not r.issues


def test_ids_stable_and_positions_ignore_blank_lines(tmp_path):
    recs = [{"title": "t1", "abstract": "First abstract here."}, {"title": "t2", "abstract": "Second one."}]
    p = tmp_path / "x.jsonl"
    p.write_text(json.dumps(recs[0]) + "\n\n\n" + json.dumps(recs[1]) + "\n")
    ids = [pp.paper_id for pp, _ in read_paths([p]).papers]
    assert ids == ["x.jsonl:1", "x.jsonl:2"]
    assert ids == [pp.paper_id for pp, _ in read_paths([p]).papers]


def test_crlf_and_bom_are_normalised(tmp_path):
    p = tmp_path / "crlf.txt"
    p.write_bytes(b"\xef\xbb\xbfMy list\r\n\r\nFirst abstract line one\r\nline two.\r\n\r\nSecond abstract.\r\n")
    r = read_paths([p])
    assert [pp.abstract for pp, _ in r.papers] == ["First abstract line one line two.", "Second abstract."]
    assert not r.issues


def test_directories_are_recursive_and_skip_hidden_and_unknown(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    _jsonl(tmp_path / "a" / "one.jsonl", RECORDS[:1])
    _jsonl(tmp_path / "a" / "b" / "two.jsonl", RECORDS[1:])
    _jsonl(tmp_path / "a" / ".hidden.jsonl", [{"id": "h", "abstract": "hidden"}])
    (tmp_path / "a" / "README.md").write_text("not a paper list")
    r = read_paths([tmp_path / "a"])
    assert sorted(p.paper_id for p, _ in r.papers) == ["p1", "p2"] and r.files == 2 and not r.issues
    # The same file reached twice (named and via its directory) is read once.
    r2 = read_paths([tmp_path / "a", tmp_path / "a" / "one.jsonl"])
    assert r2.files == 2 and len(r2.papers) == 2


def test_json_array_problems_name_the_line_of_the_record(tmp_path):
    p = tmp_path / "a.json"
    p.write_text('[\n  {"id": "ok", "abstract": "Fine abstract."},\n  42,\n  {"id": "ok2", "abstract": "More."}\n]\n')
    r = read_paths([p])
    assert [pp.paper_id for pp, _ in r.papers] == ["ok", "ok2"]
    assert [(i.line, i.skipped) for i in r.issues] == [(3, "record")]
    assert "not a JSON object" in r.issues[0].message


def test_truncated_json_array_skips_the_whole_file(tmp_path):
    p = tmp_path / "a.json"
    p.write_text('[\n {"id": "ok", "abstract": "Fine abstract."},\n {"id": "cut", "abst')
    r = read_paths([p])
    assert r.papers == []
    assert len(r.issues) == 1 and r.issues[0].skipped == "file" and r.issues[0].line == 3


def test_jsonl_given_as_json_gets_a_rename_hint(tmp_path):
    p = tmp_path / "lines.json"
    _jsonl(p, RECORDS)
    r = read_paths([p])
    assert r.papers == [] and "rename it to .jsonl" in r.issues[0].message and r.issues[0].line == 2


def test_pretty_json_array_saved_as_jsonl_is_read(tmp_path):
    p = tmp_path / "arr.jsonl"
    p.write_text(json.dumps(RECORDS, indent=2))
    _check_two(read_paths([p]))


def test_csv_quoted_newlines_report_the_starting_line(tmp_path):
    p = tmp_path / "q.csv"
    p.write_text('id,title,abstract\nq1,T1,"Line one of the abstract.\nLine two of it."\nq2,T2,x\nq3,T3,\n')
    r = read_paths([p])
    papers = {pp.paper_id: (pp, where) for pp, where in r.papers}
    assert papers["q1"][0].abstract == "Line one of the abstract.\nLine two of it."
    assert papers["q1"][1].endswith("q.csv:2") and papers["q2"][1].endswith("q.csv:4")
    assert r.no_abstract == 1  # q3 has an empty abstract


def test_limits_skip_an_oversized_record_with_its_line(tmp_path):
    p = tmp_path / "big.jsonl"
    huge = "word " * (readers.MAX_ABSTRACT_CHARS // 5 + 10)
    _jsonl(p, [RECORDS[0], {"id": "huge", "abstract": huge}, {"id": "t", "title": "x" * 5000, "abstract": "ok."}])
    r = read_paths([p])
    assert [pp.paper_id for pp, _ in r.papers] == ["p1"]
    assert [i.line for i in r.issues] == [2, 3]
    assert "limit" in r.issues[0].message and "title" in r.issues[1].message


def test_issue_flood_is_capped_per_file(tmp_path):
    p = tmp_path / "broken.jsonl"
    p.write_text("{not json\n" * 100 + json.dumps(RECORDS[0]) + "\n")
    r = read_paths([p])
    assert len(r.papers) == 1
    assert len(r.issues) == readers.MAX_ISSUES_PER_FILE + 1
    assert "80 more record problems" in r.issues[-1].message


def test_year_text_and_implausible_years(tmp_path):
    p = tmp_path / "y.jsonl"
    _jsonl(p, [{"id": "a", "abstract": "A.", "year": "twenty"}, {"id": "b", "abstract": "B.", "year": 20250},
               {"id": "c", "abstract": "C.", "year": "2023-06-01"}, {"id": "d", "abstract": "D.", "year": 1.5e3}])
    r = read_paths([p])
    years = {pp.paper_id: pp.year for pp, _ in r.papers}
    assert years == {"a": None, "b": 2025, "c": 2023, "d": None}
    assert [i.line for i in r.issues] == [1, 4]


def test_unknown_encoding_is_a_usage_error(tmp_path):
    p = _jsonl(tmp_path / "a.jsonl", RECORDS)
    with pytest.raises(ValueError, match="unknown encoding"):
        read_paths([p], encoding="klingon-8")


def test_utf16_needs_and_accepts_its_encoding(tmp_path):
    p = tmp_path / "w.txt"
    p.write_bytes("List\n\nAn abstract saved as UTF-16 text.\n".encode("utf-16"))
    r = read_paths([p])
    assert r.papers == [] and "--encoding utf-16" in r.issues[0].message
    r = read_paths([p], encoding="utf-16")
    assert [pp.abstract for pp, _ in r.papers] == ["An abstract saved as UTF-16 text."] and not r.issues


def test_metadata_duplicates_and_bad_positions_are_reported(tmp_path):
    (tmp_path / "l.txt").write_text("Header\n\nAbstract one.\n\nAbstract two.\n")
    _jsonl(tmp_path / "meta.jsonl", [
        {"source": "l.txt", "position": 1, "title": "One"},
        {"source": "l.txt", "position": 1, "title": "Uno"},
        {"source": "l.txt", "position": "x", "title": "Bad"},
        {"source": "l.txt", "position": 9, "title": "Missing"},
        {"source": "other.txt", "position": 1, "title": "Not in this ingest"},
    ])
    r = read_paths([tmp_path])
    titles = {p.paper_id: p.title for p, _ in r.papers}
    assert titles == {"l.txt:1": "Uno", "l.txt:2": ""}
    lines = sorted(i.line for i in r.issues)
    assert lines == [2, 3, 4]  # duplicate row, non-integer position, position 9 of a 2-abstract file


def test_directory_without_paper_lists_is_reported(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "paper.pdf").write_bytes(b"%PDF-1.7")
    r = read_paths([tmp_path / "docs"])
    assert r.papers == [] and r.files == 0
    assert len(r.issues) == 1 and "no paper-list files in this directory" in r.issues[0].message
