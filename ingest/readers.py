"""Readers: paper-list files -> `Paper` records, with problems reported by file and line.

Formats: the seed paper-list `.txt` (a header line, then one abstract per blank-line-separated
paragraph), JSONL, a JSON array of records, CSV with a header row, `.gz` of any of these, and
directories (recursive). A JSONL whose records carry `source` + `position` and no abstract is a
*metadata file*: it enriches title-less abstracts of the same ingest (title, authors, ...).

Policy (documented in the README): a problem with one record (bad JSON line, no abstract)
skips that record; a problem with a whole file (unreadable, binary, unknown format, truncated
.gz, not UTF-8) skips that file. Each is reported as an `Issue` naming file and line. Readers
never touch the store, so nothing already ingested can be harmed by bad input.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from paperscope.records import Paper

KNOWN = (".txt", ".jsonl", ".ndjson", ".json", ".csv")
FIELDS = ("id", "title", "authors", "abstract", "venue", "year", "url", "keywords", "tldr", "status")


@dataclass
class Issue:
    path: str
    line: int | None
    message: str
    skipped: str = "record"  # "record" or "file"

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"


@dataclass
class ReadResult:
    papers: list[tuple[Paper, str]] = field(default_factory=list)  # (paper, "file:line")
    issues: list[Issue] = field(default_factory=list)
    files: int = 0
    no_abstract: int = 0


class FileProblem(Exception):
    """A whole file cannot be read; carries the line where that was found, if any."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


def format_of(path: Path) -> str | None:
    name = path.name.lower()
    if name.endswith(".gz"):
        name = name[:-3]
    for suffix in KNOWN:
        if name.endswith(suffix):
            return "jsonl" if suffix == ".ndjson" else suffix[1:]
    return None


def discover(paths: list[Path]) -> tuple[list[Path], list[Issue]]:
    """Expand directories recursively (sorted, hidden files skipped); check that paths exist."""
    files: list[Path] = []
    issues: list[Issue] = []
    for path in paths:
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                if child.is_file() and not any(p.startswith(".") for p in child.relative_to(path).parts):
                    if format_of(child):
                        files.append(child)
        elif path.is_file():
            files.append(path)
        else:
            issues.append(Issue(str(path), None, "no such file or directory; check the path", "file"))
    return files, issues


def read_text(path: Path, encoding: str = "utf-8") -> str:
    """Whole file as text: gz transparently, BOM stripped, CRLF/CR normalised to LF."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise FileProblem(f"cannot read file ({exc.strerror or exc}); check its permissions") from exc
    if path.name.lower().endswith(".gz"):
        try:
            raw = gzip.decompress(raw)
        except (EOFError, OSError, zlib.error) as exc:
            raise FileProblem(f"the .gz archive is truncated or corrupt ({exc}); re-download or re-compress it") from exc
    if b"\x00" in raw[:8192]:
        raise FileProblem("looks like a binary file, not a paper list; pass .txt, .jsonl, .json or .csv files")
    try:
        text = raw.decode("utf-8-sig") if encoding.lower().replace("_", "-") in ("utf-8", "utf8") else raw.decode(encoding)
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise FileProblem(
            f"not valid UTF-8 (byte 0x{raw[exc.start]:02x}); re-save the file as UTF-8 or pass "
            f"--encoding latin-1", line,
        ) from exc
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _authors(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, list):
        return [str(a).strip() for a in value if str(a).strip()]
    text = str(value)
    sep = ";" if ";" in text else ("," if "," in text else None)
    parts = text.split(sep) if sep else [text]
    return [p.strip() for p in parts if p.strip()]


def _year(value, where: str, issues: list[Issue], path: str, line: int | None) -> int | None:
    if value in (None, ""):
        return None
    try:
        return int(str(value).strip()[:4])
    except ValueError:
        issues.append(Issue(path, line, f"year {value!r} is not a number; stored without a year"))
        return None


def record_to_paper(rec: dict, source: str, position: int, path: str, line: int | None,
                    issues: list[Issue]) -> Paper | None:
    """A JSON/CSV record as a Paper; None (with an issue) when it has no abstract."""
    abstract = str(rec.get("abstract") or "").strip()
    if not abstract:
        return None
    keywords = rec.get("keywords") or []
    if isinstance(keywords, str):
        keywords = [k.strip() for k in keywords.split(";" if ";" in keywords else ",") if k.strip()]
    rid = rec.get("id")
    return Paper(
        paper_id=str(rid).strip() if rid not in (None, "") else f"{source}:{position}",
        abstract=abstract,
        title=str(rec.get("title") or "").strip(),
        authors=_authors(rec.get("authors")),
        venue=str(rec.get("venue") or "").strip(),
        year=_year(rec.get("year"), "", issues, path, line),
        url=str(rec.get("url") or "").strip(),
        keywords=[str(k) for k in keywords],
        tldr=str(rec.get("tldr") or "").strip(),
        status=str(rec.get("status") or "").strip(),
        source=source,
        position=position,
    )


def iter_records(path: Path, text: str) -> Iterator[tuple[int | None, dict | None, str | None]]:
    """(line, record, error) for JSONL / JSON / CSV files."""
    fmt = format_of(path)
    if fmt == "jsonl":
        for n, line in enumerate(text.split("\n"), 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                yield n, None, f"invalid JSON ({exc.msg}); fix or delete this line"
                continue
            if not isinstance(rec, dict):
                yield n, None, "a JSONL line must be one JSON object"
                continue
            yield n, rec, None
    elif fmt == "json":
        try:
            data = json.loads(text) if text.strip() else []
        except json.JSONDecodeError as exc:
            raise FileProblem(f"invalid JSON ({exc.msg}); the file must hold a JSON array of records", exc.lineno) from exc
        if isinstance(data, dict) and len(data) == 1 and isinstance(next(iter(data.values())), list):
            data = next(iter(data.values()))  # {"papers": [...]} is common enough to accept
        if not isinstance(data, list):
            raise FileProblem("JSON must be an array of paper records (objects with an 'abstract')")
        for i, rec in enumerate(data, 1):
            if isinstance(rec, dict):
                yield i, rec, None
            else:
                yield i, None, f"record {i} is not a JSON object"
    elif fmt == "csv":
        reader = csv.DictReader(io.StringIO(text))
        header = [h.strip().lower() for h in (reader.fieldnames or [])]
        if "abstract" not in header:
            raise FileProblem(f"CSV has no 'abstract' column (columns: {', '.join(header) or 'none'}); "
                              f"add a header row with at least 'abstract' and 'title'", 1)
        reader.fieldnames = header
        for rec in reader:
            yield reader.line_num, {k: v for k, v in rec.items() if k}, None


def is_metadata_file(path: Path, text: str) -> bool:
    if format_of(path) != "jsonl":
        return False
    for line in text.split("\n"):
        if line.strip():
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                return False
            return isinstance(rec, dict) and "source" in rec and "position" in rec and "abstract" not in rec
    return False


def split_paper_list(text: str) -> tuple[str | None, list[tuple[int, str]]]:
    """(header, [(line, paragraph)]) of the seed paper-list format."""
    paragraphs: list[tuple[int, str]] = []
    buf: list[str] = []
    start = 0
    for n, line in enumerate(text.split("\n"), 1):
        if line.strip():
            if not buf:
                start = n
            buf.append(line.strip())
        elif buf:
            paragraphs.append((start, " ".join(buf)))
            buf = []
    if buf:
        paragraphs.append((start, " ".join(buf)))
    header = None
    # A first paragraph that is one short line without a final period is the list's header.
    if paragraphs:
        first = paragraphs[0][1]
        if len(first) < 200 and "\n" not in first and not first.rstrip().endswith("."):
            header = first
            paragraphs = paragraphs[1:]
    return header, paragraphs


def read_paths(paths: list[Path], encoding: str = "utf-8") -> ReadResult:
    """Read every file under `paths`; join metadata files onto title-less abstracts."""
    result = ReadResult()
    files, issues = discover(paths)
    result.issues.extend(issues)
    texts: dict[Path, str] = {}
    meta: dict[tuple[str, int], tuple[dict, str, int]] = {}
    for path in files:
        result.files += 1
        if format_of(path) is None:
            result.issues.append(Issue(str(path), None, "unknown format; use .txt, .jsonl, .json or .csv (optionally .gz)", "file"))
            continue
        try:
            text = read_text(path, encoding)
        except FileProblem as exc:
            result.issues.append(Issue(str(path), exc.line, str(exc), "file"))
            continue
        if is_metadata_file(path, text):
            for line, rec, err in iter_records(path, text):
                if err:
                    result.issues.append(Issue(str(path), line, err))
                    continue
                try:
                    key = (str(rec["source"]), int(rec["position"]))
                except (TypeError, ValueError):
                    result.issues.append(Issue(str(path), line, "metadata 'position' must be an integer"))
                    continue
                meta[key] = (rec, str(path), line)
        else:
            texts[path] = text

    used: set[tuple[str, int]] = set()
    positions: dict[str, int] = {}
    for path, text in texts.items():
        fmt = format_of(path)
        source = path.name[:-3] if path.name.lower().endswith(".gz") else path.name
        if fmt == "txt":
            _, paragraphs = split_paper_list(text)
            if not paragraphs:
                result.issues.append(Issue(str(path), None, "no abstracts found (empty file or header only)", "file"))
            positions[source] = len(paragraphs)
            for pos, (line, para) in enumerate(paragraphs, 1):
                rec = {"abstract": para}
                if (source, pos) in meta:
                    extra, _, _ = meta[(source, pos)]
                    used.add((source, pos))
                    rec.update({k: v for k, v in extra.items() if k in FIELDS and k != "abstract"})
                paper = record_to_paper(rec, source, pos, str(path), line, result.issues)
                if paper:
                    result.papers.append((paper, f"{path}:{line}"))
        else:
            try:
                n_before = len(result.papers)
                for pos, (line, rec, err) in enumerate(iter_records(path, text), 1):
                    if err:
                        result.issues.append(Issue(str(path), line, err))
                        continue
                    paper = record_to_paper(rec, source, pos, str(path), line, result.issues)
                    if paper is None:
                        result.no_abstract += 1
                        continue
                    result.papers.append((paper, f"{path}:{line}"))
                if len(result.papers) == n_before and not any(i.path == str(path) for i in result.issues) and not result.no_abstract:
                    result.issues.append(Issue(str(path), None, "no records found (empty file)", "file"))
            except FileProblem as exc:
                result.issues.append(Issue(str(path), exc.line, str(exc), "file"))
            except csv.Error as exc:
                result.issues.append(Issue(str(path), None, f"malformed CSV ({exc}); check quoting", "file"))

    for key, (rec, mpath, line) in meta.items():
        if key not in used and key[0] in positions:
            result.issues.append(Issue(mpath, line, f"metadata points to {key[0]} position {key[1]}, "
                                       f"but that file has {positions[key[0]]} abstracts; row ignored"))
    return result
