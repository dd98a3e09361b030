"""Readers: paper-list files -> `Paper` records, with problems reported by file and line.

Formats: the seed paper-list `.txt` (a header line, then one abstract per blank-line-separated
paragraph), JSONL, a JSON array of records (or `{"papers": [...]}`), CSV with a header row,
`.gz` of any of these, and directories (recursive; hidden files and files of other formats in
a directory are passed over silently, a named file of an unknown format is a problem). A
JSONL whose records carry `source` + `position` and no abstract is a *metadata file*: it
enriches title-less abstracts of the same ingest (title, authors, venue, year, url, ...).

Policy for bad input. Every problem is an `Issue` naming file and line (1-based; for a JSON
array, the line where the record starts) and saying what to do; the CLI prints each one and
exits 1, after storing the good records.
- A problem with one record skips that record: invalid JSON line, a record that is not an
  object, a field over the size limits (abstract > MAX_ABSTRACT_CHARS, title >
  MAX_TITLE_CHARS, any other text field > MAX_FIELD_CHARS; such a record is almost always a
  mis-split file, so it is skipped, never truncated into a fake abstract). A record without
  an abstract is skipped silently and only counted (`no_abstract`): title-only lists such as
  the accepted-papers file are normal input, not errors. A non-numeric or implausible year
  is reported and the paper is stored without a year.
- A problem with a whole file skips that file: unreadable, binary, not decodable in the
  given encoding (the message suggests `--encoding`), a truncated or corrupt `.gz`, a file
  over MAX_FILE_BYTES (uncompressed), JSON that is not an array of records, a CSV without an
  `abstract` column, an empty file.
- An unknown `--encoding` name stops the whole ingest (ValueError -> CLI exit 2) before
  anything is read.
- At most MAX_ISSUES_PER_FILE record problems are listed per file; the rest are counted in
  one closing issue so a broken million-line file cannot flood the terminal.
Ids: a record's own `id`, else `<file name>:<position>` (records.py). Two files with the same
name in different directories therefore share fallback ids; the pipeline reports the clash
as a duplicate id with different content.
Readers never touch the store, so nothing already ingested can be harmed by bad input.
Leaves out: streaming of huge files (a file is read whole, bounded by MAX_FILE_BYTES).
"""

from __future__ import annotations

import codecs
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

# Abstracts are rarely over 3,000 characters (the shared 85,864-abstract corpus's longest is
# 16,262); 50,000 keeps every real one while a mis-split file (one "abstract" of megabytes,
# which would make a multi-megabyte chunk and metadata row) is refused.
MAX_ABSTRACT_CHARS = 50_000
MAX_TITLE_CHARS = 1_000
MAX_FIELD_CHARS = 50_000
MAX_FILE_BYTES = 2 * 1024**3  # uncompressed; files are read whole
MAX_ISSUES_PER_FILE = 20
YEAR_RANGE = (1800, 2200)

# The csv module refuses fields over 128 KiB with a vague "field larger than field limit";
# lift that so an over-long abstract gets the precise size message below instead.
csv.field_size_limit(2**31 - 1)


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


def check_encoding(encoding: str) -> str:
    """The codec's canonical name; ValueError (a usage error) for an unknown one."""
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        raise ValueError(f"unknown encoding {encoding!r}; use a Python codec name such as "
                         f"utf-8, latin-1, cp1252 or utf-16") from None


def discover(paths: list[Path]) -> tuple[list[Path], list[Issue]]:
    """Expand directories recursively (sorted, hidden files skipped); check that paths exist.
    A file reached twice (named and inside a named directory) is read once."""
    files: list[Path] = []
    issues: list[Issue] = []
    seen: set[Path] = set()

    def add(p: Path) -> None:
        key = p.resolve()
        if key not in seen:
            seen.add(key)
            files.append(p)

    for path in paths:
        if path.is_dir():
            found = 0
            for child in sorted(path.rglob("*")):
                if child.is_file() and not any(p.startswith(".") for p in child.relative_to(path).parts):
                    if format_of(child):
                        found += 1
                        add(child)
            if not found:
                issues.append(Issue(str(path), None, "no paper-list files in this directory (looked for .txt, "
                                    ".jsonl, .json, .csv, optionally .gz, in all subdirectories)", "file"))
        elif path.is_file():
            add(path)
        elif path.exists():
            issues.append(Issue(str(path), None, "not a regular file or directory; pass paper-list files", "file"))
        else:
            issues.append(Issue(str(path), None, "no such file or directory; check the path", "file"))
    return files, issues


def _read_bytes(path: Path) -> bytes:
    """File content (gz transparently), refusing more than MAX_FILE_BYTES."""
    try:
        if path.name.lower().endswith(".gz"):
            try:
                with gzip.open(path, "rb") as fh:
                    raw = fh.read(MAX_FILE_BYTES + 1)
            except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
                raise FileProblem(f"the .gz archive is truncated or corrupt ({exc}); "
                                  f"re-download or re-compress it") from exc
        else:
            with open(path, "rb") as fh:
                raw = fh.read(MAX_FILE_BYTES + 1)
    except FileProblem:
        raise
    except OSError as exc:
        raise FileProblem(f"cannot read file ({exc.strerror or exc}); check its permissions") from exc
    if len(raw) > MAX_FILE_BYTES:
        raise FileProblem(f"file is larger than {MAX_FILE_BYTES // 1024**2} MiB uncompressed; split it into smaller files")
    return raw


def _looks_binary(sample: bytes) -> bool:
    """NUL bytes, or many control characters that no text file has."""
    if b"\x00" in sample:
        return True
    if not sample:
        return False
    control = sum(1 for b in sample if b < 0x20 and b not in (0x09, 0x0A, 0x0C, 0x0D, 0x1B))
    return control / len(sample) > 0.05


def read_text(path: Path, encoding: str = "utf-8") -> str:
    """Whole file as text: gz transparently, BOM stripped, CRLF/CR normalised to LF."""
    codec = check_encoding(encoding)
    raw = _read_bytes(path)
    wide = codec.startswith(("utf-16", "utf-32"))
    if not wide and raw[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        raise FileProblem("the file is UTF-16 text; re-save it as UTF-8 or pass --encoding utf-16")
    if not wide and _looks_binary(raw[:8192]):
        raise FileProblem("looks like a binary file, not a paper list; pass .txt, .jsonl, .json or .csv files")
    try:
        text = raw.decode("utf-8-sig" if codec == "utf-8" else codec)
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        hint = ("re-save the file as UTF-8 or pass --encoding latin-1 (or cp1252)" if codec == "utf-8"
                else "pass the file's real encoding with --encoding")
        raise FileProblem(f"not valid {codec} (byte 0x{raw[exc.start]:02x}); {hint}", line) from exc
    if text.startswith("\ufeff"):  # a BOM under an explicit non-UTF-8 codec name
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _authors(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, list):
        return [str(a).strip() for a in value if str(a).strip()]
    text = str(value)
    if ";" in text:
        parts = text.split(";")
    elif "," in text:
        parts = text.split(",")
    else:
        parts = text.split(" and ")
    return [p.strip() for p in parts if p.strip()]


def _year(value, issues: list[Issue], path: str, line: int | None) -> int | None:
    if value in (None, ""):
        return None
    try:
        year = int(str(value).strip()[:4])
    except ValueError:
        issues.append(Issue(path, line, f"year {str(value)[:40]!r} is not a number; stored without a year"))
        return None
    if not YEAR_RANGE[0] <= year <= YEAR_RANGE[1]:
        issues.append(Issue(path, line, f"year {year} is implausible; stored without a year"))
        return None
    return year


def _text(value) -> str:
    return str(value if value is not None else "").strip()


def _oversize(rec: dict, abstract: str) -> str | None:
    """Why the record is too large to be a paper, if it is."""
    if len(abstract) > MAX_ABSTRACT_CHARS:
        return (f"abstract is {len(abstract):,} characters (limit {MAX_ABSTRACT_CHARS:,}); record skipped. "
                f"A paper-list .txt needs a blank line between abstracts; check the file's format")
    title = _text(rec.get("title"))
    if len(title) > MAX_TITLE_CHARS:
        return f"title is {len(title):,} characters (limit {MAX_TITLE_CHARS:,}); record skipped, check the file's columns"
    for key in ("tldr", "venue", "url", "status", "id", "authors", "keywords"):
        value = rec.get(key)
        size = len(value) if isinstance(value, str) else len(json.dumps(value, default=str)) if value else 0
        if size > MAX_FIELD_CHARS:
            return f"field {key!r} is {size:,} characters (limit {MAX_FIELD_CHARS:,}); record skipped"
    return None


def record_to_paper(rec: dict, source: str, position: int, path: str, line: int | None,
                    issues) -> Paper | None:
    """A JSON/CSV record as a Paper; None when it has no abstract (counted by the caller)
    or is over the size limits (reported in `issues`)."""
    abstract = _text(rec.get("abstract"))
    if not abstract:
        return None
    too_big = _oversize(rec, abstract)
    if too_big:
        issues.append(Issue(path, line, too_big))
        return None
    keywords = rec.get("keywords") or []
    if isinstance(keywords, str):
        keywords = [k.strip() for k in keywords.split(";" if ";" in keywords else ",") if k.strip()]
    elif not isinstance(keywords, list):
        keywords = [keywords]
    rid = rec.get("id")
    return Paper(
        paper_id=_text(rid) if _text(rid) else f"{source}:{position}",
        abstract=abstract,
        title=_text(rec.get("title")),
        authors=_authors(rec.get("authors")),
        venue=_text(rec.get("venue")),
        year=_year(rec.get("year"), issues, path, line),
        url=_text(rec.get("url")),
        keywords=[str(k) for k in keywords],
        tldr=_text(rec.get("tldr")),
        status=_text(rec.get("status")),
        source=source,
        position=position,
    )


def _json_array(text: str) -> Iterator[tuple[int, object]]:
    """(line where the element starts, element) for a top-level JSON array."""
    decoder = json.JSONDecoder()
    n = len(text)
    i = len(text) - len(text.lstrip())
    if text[i:i + 1] != "[":
        raise ValueError("not an array")
    i += 1
    line, counted = 1, 0

    def line_at(pos: int) -> int:
        nonlocal line, counted
        line += text.count("\n", counted, pos)
        counted = pos
        return line

    def skip_ws(pos: int) -> int:
        while pos < n and text[pos] in " \t\n\r":
            pos += 1
        return pos

    i = skip_ws(i)
    if text[i:i + 1] == "]":
        return
    while True:
        i = skip_ws(i)
        try:
            obj, end = decoder.raw_decode(text, i)
        except json.JSONDecodeError as exc:
            raise FileProblem(f"invalid JSON ({exc.msg}); the file must hold a JSON array of records",
                              exc.lineno) from exc
        yield line_at(i), obj
        i = skip_ws(end)
        if text[i:i + 1] == ",":
            i += 1
        elif text[i:i + 1] == "]":
            if text[i + 1:].strip():
                raise FileProblem("invalid JSON (extra data after the array); fix the file", line_at(i))
            return
        else:
            raise FileProblem("invalid JSON (expected ',' or ']'); the file must hold a JSON array of records",
                              line_at(min(i, n)))


def iter_records(path: Path, text: str) -> Iterator[tuple[int | None, dict | None, str | None]]:
    """(line, record, error) for JSONL / JSON / CSV files."""
    fmt = format_of(path)
    if fmt == "jsonl" and text.lstrip().startswith("["):
        fmt = "json"  # a pretty-printed JSON array saved as .jsonl: read it as what it is
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
                yield n, None, "a JSONL line must be one JSON object (a paper record); fix or delete this line"
                continue
            yield n, rec, None
    elif fmt == "json":
        if not text.strip():
            return
        stripped = text.lstrip()
        if stripped.startswith("["):
            items = _json_array(text)
        else:
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                if exc.msg == "Extra data" and stripped.startswith("{"):
                    raise FileProblem("holds one JSON object per line (JSON Lines); rename it to .jsonl",
                                      exc.lineno) from exc
                raise FileProblem(f"invalid JSON ({exc.msg}); the file must hold a JSON array of records",
                                  exc.lineno) from exc
            if isinstance(data, dict) and len(data) == 1 and isinstance(next(iter(data.values())), list):
                data = next(iter(data.values()))  # {"papers": [...]} is common enough to accept
            elif isinstance(data, dict) and "abstract" in data:
                data = [data]  # a single record
            if not isinstance(data, list):
                found = "an object without an 'abstract'" if isinstance(data, dict) else f"a JSON {type(data).__name__}"
                raise FileProblem(f"JSON must be an array of paper records (objects with an 'abstract'), "
                                  f"but the file holds {found}; wrap the records in [ ... ]", 1)
            items = ((None, rec) for rec in data)
        for i, (line, rec) in enumerate(items, 1):
            if isinstance(rec, dict):
                yield line, rec, None
            else:
                yield line, None, f"record {i} is not a JSON object (a paper record); fix or delete it"
    elif fmt == "csv":
        if not text.strip():
            return
        reader = csv.DictReader(io.StringIO(text))
        header = [(h or "").strip().lower() for h in (reader.fieldnames or [])]
        if "abstract" not in header:
            raise FileProblem(f"CSV has no 'abstract' column (columns: {', '.join(h for h in header if h) or 'none'}); "
                              f"add a header row with at least 'abstract' and 'title'", 1)
        reader.fieldnames = header
        start = reader.line_num + 1
        for rec in reader:
            # line_num is where the record ends; a quoted newline makes it span lines.
            yield start, {k: v for k, v in rec.items() if k}, None
            start = reader.line_num + 1


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
        if len(first) < 200 and not first.rstrip().endswith("."):
            header = first
            paragraphs = paragraphs[1:]
    return header, paragraphs


class _FileIssues:
    """Appends a file's record problems, listing at most MAX_ISSUES_PER_FILE of them."""

    def __init__(self, out: list[Issue], path: str):
        self.out, self.path, self.count = out, path, 0

    def append(self, issue: Issue) -> None:
        self.count += 1
        if self.count <= MAX_ISSUES_PER_FILE:
            self.out.append(issue)

    def close(self) -> None:
        if self.count > MAX_ISSUES_PER_FILE:
            self.out.append(Issue(self.path, None, f"{self.count - MAX_ISSUES_PER_FILE} more record problems "
                                  f"in this file not listed; fix the ones above and run again"))


def _read_metadata(path: Path, text: str, meta: dict, issues: _FileIssues) -> None:
    for line, rec, err in iter_records(path, text):
        if err:
            issues.append(Issue(str(path), line, err))
            continue
        try:
            key = (str(rec["source"]), int(rec["position"]))
        except (KeyError, TypeError, ValueError):
            issues.append(Issue(str(path), line, "metadata row needs 'source' and an integer 'position'; row ignored"))
            continue
        prev = meta.get(key)
        if prev is not None and prev[0] != rec:
            issues.append(Issue(str(path), line, f"second metadata row for {key[0]} position {key[1]} "
                                f"(first at {prev[1]}:{prev[2]}); keeping this later row"))
        meta[key] = (rec, str(path), line)


def read_paths(paths: list[Path], encoding: str = "utf-8") -> ReadResult:
    """Read every file under `paths`; join metadata files onto title-less abstracts."""
    check_encoding(encoding)  # an unknown codec is a usage error: stop before reading anything
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
            file_issues = _FileIssues(result.issues, str(path))
            _read_metadata(path, text, meta, file_issues)
            file_issues.close()
        else:
            texts[path] = text

    used: set[tuple[str, int]] = set()
    positions: dict[str, int] = {}
    txt_sources: dict[str, Path] = {}
    for path, text in texts.items():
        fmt = format_of(path)
        source = path.name[:-3] if path.name.lower().endswith(".gz") else path.name
        file_issues = _FileIssues(result.issues, str(path))
        if fmt == "txt" and source in txt_sources:
            # Paper-list ids are "<file name>:<position>": a second file of that name would
            # overwrite the first one's papers.
            result.issues.append(Issue(str(path), None, f"has the same file name as {txt_sources[source]}, so "
                                       f"their paper ids ({source}:<position>) would collide; file skipped, "
                                       f"rename one of them", "file"))
            continue
        if fmt == "txt":
            txt_sources[source] = path
            _, paragraphs = split_paper_list(text)
            if not paragraphs:
                result.issues.append(Issue(str(path), None, "no abstracts found (empty file or header only); "
                                           "a paper list is a header line, a blank line, then abstracts "
                                           "separated by blank lines", "file"))
            positions[source] = len(paragraphs)
            for pos, (line, para) in enumerate(paragraphs, 1):
                rec = {"abstract": para}
                if (source, pos) in meta:
                    extra, _, _ = meta[(source, pos)]
                    used.add((source, pos))
                    rec.update({k: v for k, v in extra.items() if k in FIELDS and k != "abstract"})
                paper = record_to_paper(rec, source, pos, str(path), line, file_issues)
                if paper:
                    result.papers.append((paper, f"{path}:{line}"))
        else:
            n_papers, n_seen, no_abstract = len(result.papers), 0, result.no_abstract
            try:
                for pos, (line, rec, err) in enumerate(iter_records(path, text), 1):
                    n_seen += 1
                    if err:
                        file_issues.append(Issue(str(path), line, err))
                        continue
                    paper = record_to_paper(rec, source, pos, str(path), line, file_issues)
                    if paper is None:
                        if not _text(rec.get("abstract")):
                            result.no_abstract += 1
                        continue
                    result.papers.append((paper, f"{path}:{line}"))
            except FileProblem as exc:
                # Records read before the problem are dropped too: the file is skipped whole.
                del result.papers[n_papers:]
                result.no_abstract = no_abstract
                result.issues.append(Issue(str(path), exc.line, str(exc), "file"))
                continue
            except csv.Error as exc:
                del result.papers[n_papers:]
                result.no_abstract = no_abstract
                result.issues.append(Issue(str(path), None, f"malformed CSV ({exc}); check its quoting", "file"))
                continue
            if n_seen == 0:
                result.issues.append(Issue(str(path), None, "no records found (empty file)", "file"))
        file_issues.close()

    for key, (rec, mpath, line) in meta.items():
        if key not in used and key[0] in positions:
            result.issues.append(Issue(mpath, line, f"metadata points to {key[0]} position {key[1]}, "
                                       f"but that file has {positions[key[0]]} abstracts; row ignored"))
    return result
