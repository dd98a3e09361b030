"""The accepted input formats: one list, used by the readers, the CLI and the UI.

A paper-list file is `.txt` (the seed format: a header, then one abstract per paragraph),
`.jsonl` / `.ndjson` (one record per line), `.json` (an array of records) or `.csv` (a header
row), each optionally gzip-compressed (`.gz`), or a directory of such files.
"""

from __future__ import annotations

from pathlib import Path

# suffix -> format family (the reader that handles it)
FORMATS: dict[str, str] = {".txt": "txt", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "json", ".csv": "csv"}
COMPRESSED = ".gz"
SUFFIXES: tuple[str, ...] = (*FORMATS, COMPRESSED)  # every suffix an upload may end with


def format_of(path: Path | str) -> str | None:
    """The format family of a file name ("papers.jsonl.gz" -> "jsonl"), or None."""
    name = Path(path).name.lower()
    if name.endswith(COMPRESSED):
        name = name[: -len(COMPRESSED)]
    for suffix, fmt in FORMATS.items():
        if name.endswith(suffix):
            return fmt
    return None


def describe() -> str:
    """".txt, .jsonl, .ndjson, .json or .csv (optionally .gz)", for messages and help texts."""
    names = list(FORMATS)
    return f"{', '.join(names[:-1])} or {names[-1]} (optionally {COMPRESSED})"
