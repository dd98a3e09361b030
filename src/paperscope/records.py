"""The data every layer shares: `Paper` (a stored record), `Hit` (a search result), `Citation`
and `Answer` (what `ask` returns), as pydantic models, plus `Evidence` (a scored candidate).

`model_dump()` / `model_validate()` are the only (de)serialisation: the JSON that `ask --json`
prints and the UI's `ask` endpoint returns is `Answer.model_dump(mode="json")`, and
`Answer.model_validate(that)` rebuilds the same Answer (the answer text is the "answer" key).

Ids: a paper's id is the record's own `id` when it has one, else `<source file name>:<position>`
(1-based abstract index in that file, header excluded), e.g. `004_1ed39a575c500c91.txt:10`.
Both are stable across re-ingests; `content_hash` tells whether a stored copy is current.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, field_serializer, field_validator

_WS = re.compile(r"\s+")


def normalize_venue(venue: str | None) -> str:
    """Key used for venue filters: case- and space-insensitive ('ICML ', 'icml' -> 'icml')."""
    return _WS.sub(" ", (venue or "").strip()).lower()


def fallback_title(abstract: str, words: int = 12) -> str:
    """A readable stand-in when a record has no title: the abstract's first words."""
    parts = abstract.split()
    head = " ".join(parts[:words])
    return head + (" …" if len(parts) > words else "")


def unique_authors(authors: list[str]) -> list[str]:
    """Each author once, in order (many sources list every author twice); blank names dropped.
    Two spellings that differ only in case or spacing are the same author (the first is kept)."""
    seen: set[str] = set()
    out: list[str] = []
    for name in authors:
        key = _WS.sub(" ", name).strip().casefold()
        if key and key not in seen:
            seen.add(key)
            out.append(name)
    return out


class Paper(BaseModel):
    """One paper record as stored (Chroma chunk 0 and the catalog hold `model_dump_json()`)."""

    paper_id: str
    abstract: str
    title: str = ""
    authors: list[str] = Field(default_factory=list)
    venue: str = ""
    year: int | None = None
    url: str = ""
    keywords: list[str] = Field(default_factory=list)
    tldr: str = ""
    status: str = ""
    source: str = ""
    position: int | None = None

    @field_validator("authors")
    @classmethod
    def _authors_once(cls, authors: list[str]) -> list[str]:
        return unique_authors(authors)

    @property
    def display_title(self) -> str:
        return self.title or fallback_title(self.abstract)

    def content_hash(self) -> str:
        """Hash of the paper's content; a change means 'replace the old copy'. For records with
        their own id, where the record sits (file, line) is not content: moving it is no change."""
        data = self.model_dump()
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


class Hit(BaseModel):
    """One paper found by `search`, with its fused score and its rank in each retriever."""

    paper_id: str
    title: str
    score: float
    authors: list[str] = Field(default_factory=list)
    venue: str = ""
    year: int | None = None
    url: str = ""
    source: str = ""
    position: int | None = None
    bm25_rank: int | None = None
    bm25_score: float = 0.0
    dense_rank: int | None = None
    dense_score: float = 0.0
    paper: Paper | None = Field(default=None, exclude=True, repr=False)


class Citation(BaseModel):
    """One cited paper. `quote` is a verbatim sentence of the paper's abstract (checked by code)."""

    paper_id: str
    title: str
    authors: list[str]
    url: str
    source: str
    position: int | None
    quote: str
    score: float
    marker: int = 0
    venue: str = ""
    year: int | None = None


class NearestPaper(BaseModel):
    """A paper named by an abstention: the closest match, explicitly not a citation."""

    paper_id: str
    title: str
    url: str = ""
    score: float = 0.0


class Answer(BaseModel):
    """What `ask` returns. Serialised with the answer text under "answer"."""

    model_config = ConfigDict(validate_by_name=True, validate_by_alias=True, serialize_by_alias=True)

    text: str = Field(alias="answer")
    abstained: bool = False
    backend: str = "extractive"
    citations: list[Citation] = Field(default_factory=list)
    nearest: list[NearestPaper] = Field(default_factory=list)  # for abstentions: titles, not citations
    related: list[NearestPaper] = Field(default_factory=list)  # weaker matches shown apart, not citations
    question: str = ""
    standalone_question: str = ""
    evidence_ids: list[str] = Field(default_factory=list)  # papers considered, best support first
    notes: list[str] = Field(default_factory=list)  # e.g. "removed citation [9]: no such paper was provided"
    timings: dict[str, float] = Field(default_factory=dict)
    # The abstention is within filters (or among the previous answer's papers), and `nearest` are papers
    # outside them that address the question.
    outside: bool = False

    @field_serializer("timings")
    def _rounded(self, timings: dict[str, float]) -> dict[str, float]:
        return {k: round(v, 4) for k, v in timings.items()}


@dataclass
class Evidence:
    """A candidate paper for an answer: its marker, its best sentences, and how well it supports."""

    marker: int
    paper: Paper
    support: float
    sentences: list[tuple[str, float]]  # (verbatim sentence, score), best first

    @property
    def best_sentence(self) -> str:
        return self.sentences[0][0] if self.sentences else self.paper.abstract


@dataclass(frozen=True)
class TextPiece:
    """A piece of the draft as the answerer produces it (not yet verified)."""

    text: str
