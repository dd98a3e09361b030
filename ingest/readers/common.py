"""What every reader shares: problems (`Issue`, `FileProblem`), size limits, and reading a file
as text (gzip, BOMs, encodings, binary detection) or a directory as its paper-list files.
"""

from __future__ import annotations

import codecs
import gzip
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from paperscope.ingest.readers.formats import describe, format_of
from paperscope.records import Paper

# Abstracts are rarely over 3,000 characters (the shared 85,864-abstract corpus's longest is
# 16,262); 50,000 keeps every real one while a mis-split file (one "abstract" of megabytes,
# which would make a multi-megabyte chunk and metadata row) is refused.
MAX_ABSTRACT_CHARS = 50_000
MAX_TITLE_CHARS = 1_000
MAX_FIELD_CHARS = 50_000
MAX_FILE_BYTES = 2 * 1024**3  # uncompressed; files are read whole
MAX_ISSUES_PER_FILE = 20
YEAR_RANGE = (1800, 2200)


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

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


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
                issues.append(Issue(str(path), None, f"no paper-list files in this directory (looked for {describe()}, "
                                    "in all subdirectories)", "file"))
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
        raise FileProblem(f"looks like a binary file, not a paper list; pass {describe()} files")
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


class IssueSink(Protocol):
    def append(self, issue: Issue) -> None: ...


class FileIssues:
    """Appends a file's record problems, listing at most MAX_ISSUES_PER_FILE of them."""

    def __init__(self, out: list[Issue], path: str) -> None:
        self.out, self.path, self.count = out, path, 0

    def append(self, issue: Issue) -> None:
        self.count += 1
        if self.count <= MAX_ISSUES_PER_FILE:
            self.out.append(issue)

    def close(self) -> None:
        if self.count > MAX_ISSUES_PER_FILE:
            self.out.append(Issue(self.path, None, f"{self.count - MAX_ISSUES_PER_FILE} more record problems "
                                  f"in this file not listed; fix the ones above and run again"))
