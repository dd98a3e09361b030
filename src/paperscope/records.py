"""The `Paper` record and its id rules.

A paper's id is the record's own `id` when it has one, else `<source file name>:<position>`
(1-based abstract index in that file, header excluded), e.g. `004_1ed39a575c500c91.txt:10`.
Both are stable across re-ingests; `content_hash` tells whether a stored copy is current.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field

_WS = re.compile(r"\s+")


def normalize_venue(venue: str | None) -> str:
    """Key used for venue filters: case- and space-insensitive ('ICML ', 'icml' -> 'icml')."""
    return _WS.sub(" ", (venue or "").strip()).lower()


def fallback_title(abstract: str, words: int = 12) -> str:
    """A readable stand-in when a record has no title: the abstract's first words."""
    parts = abstract.split()
    head = " ".join(parts[:words])
    return head + (" …" if len(parts) > words else "")


@dataclass
class Paper:
    paper_id: str
    abstract: str
    title: str = ""
    authors: list[str] = field(default_factory=list)
    venue: str = ""
    year: int | None = None
    url: str = ""
    keywords: list[str] = field(default_factory=list)
    tldr: str = ""
    status: str = ""
    source: str = ""
    position: int | None = None

    @property
    def display_title(self) -> str:
        return self.title or fallback_title(self.abstract)

    def content_hash(self) -> str:
        """Hash of the paper's content; a change means 'replace the old copy'. For records with
        their own id, where the record sits (file, line) is not content: moving it is no change."""
        data = asdict(self)
        if self.paper_id != f"{self.source}:{self.position}":
            data.pop("source")
            data.pop("position")
        payload = json.dumps(data, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]

    def index_text(self) -> str:
        """Text that retrieval sees: title, keywords and abstract (tldr is left out on purpose:
        it is the query of the known-item benchmark)."""
        parts = [self.title, "; ".join(self.keywords), self.abstract]
        return "\n".join(p for p in parts if p)

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)

    @classmethod
    def from_json(cls, raw: str) -> "Paper":
        return cls(**json.loads(raw))
