"""The answerer contract: how an answer is drafted from numbered evidence.

An answerer subclasses `Answerer` and implements `draft(question, evidence) -> Draft` (text
with `[n]` markers naming `Evidence.marker`s, and optionally a quote per marker). The base
class gives every answerer the rest of the contract, so callers never probe for methods:
- `stream_draft` yields the draft as text pieces and returns the `Draft` (default: the whole
  `draft` at once; `streams` says whether an answerer really streams);
- `rewrite` turns a follow-up into a standalone question (default: None, no opinion);
- `sources` picks which evidence the drafter sees (default: the papers chosen to cite).
Whatever an answerer writes, `answer.verify` decides which citations stand.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass, field

from paperscope.records import Answer, Evidence, TextPiece

History = Sequence[tuple[str, Answer]]


@dataclass(frozen=True)
class Draft:
    text: str
    quotes: dict[int, str] = field(default_factory=dict)  # marker -> quote the drafter claims


class Answerer:
    name: str = "answerer"
    streams: bool = False  # True when stream_draft yields text as it is generated

    def draft(self, question: str, evidence: list[Evidence]) -> Draft:
        raise NotImplementedError

    def stream_draft(self, question: str, evidence: list[Evidence]) -> Generator[str, None, Draft]:
        draft = self.draft(question, evidence)
        yield draft.text
        return draft

    def rewrite(self, question: str, history: History) -> str | None:
        """A standalone version of a follow-up question, or None to keep the heuristic one."""
        return None

    def sources(self, cited: list[Evidence], evidence: list[Evidence]) -> list[Evidence]:
        """The evidence shown to the drafter (only these papers can be cited)."""
        return cited


def draft_pieces(draft: Generator[str, None, Draft]) -> Generator[TextPiece, None, Draft]:
    """An answerer's text pieces as events; returns its Draft."""
    while True:
        try:
            piece = next(draft)
        except StopIteration as stop:
            result: Draft = stop.value
            return result
        yield TextPiece(piece)
