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

import csv
from pathlib import Path
from typing import Any

from paperscope.ingest.readers.common import (
    MAX_ABSTRACT_CHARS,
    MAX_FIELD_CHARS,
    MAX_FILE_BYTES,
    MAX_ISSUES_PER_FILE,
    MAX_TITLE_CHARS,
    FileIssues,
    FileProblem,
    Issue,
    ReadResult,
    check_encoding,
    discover,
    read_text,
)
from paperscope.ingest.readers.fields import FIELDS, record_to_paper, text_field
from paperscope.ingest.readers.formats import FORMATS, SUFFIXES, describe, format_of
from paperscope.ingest.readers.paper_list import Metadata, read_metadata, split_paper_list
from paperscope.ingest.readers.structured import is_metadata_file, iter_records

__all__ = ["FIELDS", "FORMATS", "MAX_ABSTRACT_CHARS", "MAX_FIELD_CHARS", "MAX_FILE_BYTES", "MAX_ISSUES_PER_FILE",
           "MAX_TITLE_CHARS", "SUFFIXES", "FileProblem", "Issue", "ReadResult", "describe", "format_of",
           "read_paths", "read_text", "split_paper_list"]


def read_paths(paths: list[Path], encoding: str = "utf-8") -> ReadResult:
    """Read every file under `paths`; join metadata files onto title-less abstracts."""
    check_encoding(encoding)  # an unknown codec is a usage error: stop before reading anything
    result = ReadResult()
    files, issues = discover(paths)
    result.issues.extend(issues)
    texts: dict[Path, str] = {}
    meta: Metadata = {}
    for path in files:
        result.files += 1
        if format_of(path) is None:
            result.issues.append(Issue(str(path), None, f"unknown format; use {describe()}", "file"))
            continue
        try:
            text = read_text(path, encoding)
        except FileProblem as exc:
            result.issues.append(Issue(str(path), exc.line, str(exc), "file"))
            continue
        if is_metadata_file(path, text):
            file_issues = FileIssues(result.issues, str(path))
            read_metadata(path, text, meta, file_issues)
            file_issues.close()
        else:
            texts[path] = text

    used: set[tuple[str, int]] = set()
    positions: dict[str, int] = {}
    txt_sources: dict[str, Path] = {}
    for path, text in texts.items():
        fmt = format_of(path)
        source = path.name[:-3] if path.name.lower().endswith(".gz") else path.name
        file_issues = FileIssues(result.issues, str(path))
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
                fields: dict[str, Any] = {"abstract": para}
                if (source, pos) in meta:
                    extra, _, _ = meta[(source, pos)]
                    used.add((source, pos))
                    fields.update({k: v for k, v in extra.items() if k in FIELDS and k != "abstract"})
                paper = record_to_paper(fields, source, pos, str(path), line, file_issues)
                if paper:
                    result.papers.append((paper, f"{path}:{line}"))
        else:
            n_papers, n_seen, no_abstract = len(result.papers), 0, result.no_abstract
            try:
                for pos, (at, rec, err) in enumerate(iter_records(path, text), 1):
                    n_seen += 1
                    if rec is None:
                        file_issues.append(Issue(str(path), at, err or "unreadable record"))
                        continue
                    paper = record_to_paper(rec, source, pos, str(path), at, file_issues)
                    if paper is None:
                        if not text_field(rec.get("abstract")):
                            result.no_abstract += 1
                        continue
                    result.papers.append((paper, f"{path}:{at}"))
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

    for key, (_, mpath, mline) in meta.items():
        if key not in used and key[0] in positions:
            result.issues.append(Issue(mpath, mline, f"metadata points to {key[0]} position {key[1]}, "
                                       f"but that file has {positions[key[0]]} abstracts; row ignored"))
    return result
