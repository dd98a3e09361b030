"""JSON Lines, JSON arrays and CSV: records with their line numbers, and metadata files.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from paperscope.ingest.readers.common import FileProblem
from paperscope.ingest.readers.formats import format_of

# The csv module refuses fields over 128 KiB with a vague "field larger than field limit";
# lift that so an over-long abstract gets the precise size message below instead.
csv.field_size_limit(2**31 - 1)



def _json_array(text: str) -> Iterator[tuple[int | None, object]]:
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


Record = dict[str, Any]


def iter_records(path: Path, text: str) -> Iterator[tuple[int | None, Record | None, str | None]]:
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
        items: Iterable[tuple[int | None, object]]
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
        for i, (at, obj) in enumerate(items, 1):
            if isinstance(obj, dict):
                yield at, obj, None
            else:
                yield at, None, f"record {i} is not a JSON object (a paper record); fix or delete it"
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
        for row in reader:
            # line_num is where the record ends; a quoted newline makes it span lines.
            yield start, {k: v for k, v in row.items() if k}, None
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


