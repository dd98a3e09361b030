"""The answer contract shared by every answerer, the CLI, the UI and the eval harness."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from paperscope.records import Paper


@dataclass
class Citation:
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

    def as_dict(self) -> dict:
        return asdict(self)


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


@dataclass
class Answer:
    text: str
    citations: list[Citation] = field(default_factory=list)
    abstained: bool = False
    backend: str = "extractive"
    question: str = ""
    standalone_question: str = ""
    nearest: list[dict] = field(default_factory=list)  # for abstentions: titles, not citations
    evidence_ids: list[str] = field(default_factory=list)  # papers considered, best support first
    notes: list[str] = field(default_factory=list)  # e.g. "2 unsupported citation markers removed"
    timings: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {
            "answer": self.text,
            "abstained": self.abstained,
            "backend": self.backend,
            "citations": [c.as_dict() for c in self.citations],
            "nearest": self.nearest,
            "standalone_question": self.standalone_question,
            "notes": self.notes,
            "timings": {k: round(v, 4) for k, v in self.timings.items()},
        }
