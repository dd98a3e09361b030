"""The seed paper-list `.txt`: a header line, then one abstract per blank-line-separated
paragraph; its metadata JSONL (`source` + `position`) joins titles and authors onto them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from paperscope.ingest.readers.common import Issue, IssueSink
from paperscope.ingest.readers.structured import iter_records

# (source file name, position) -> (metadata record, metadata file, line)
Metadata = dict[tuple[str, int], tuple[dict[str, Any], str, int | None]]

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


def read_metadata(path: Path, text: str, meta: Metadata, issues: IssueSink) -> None:
    for line, rec, err in iter_records(path, text):
        if rec is None:
            issues.append(Issue(str(path), line, err or "unreadable row"))
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
