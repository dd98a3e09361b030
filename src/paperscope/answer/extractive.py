"""The offline default answerer: the best-supporting sentences, each followed by its marker.

No model writes anything: the answer is composed from verbatim abstract sentences, so it is
as trustworthy as retrieval, works on any machine, and is the fallback whenever a generated
answer fails verification.
"""

from __future__ import annotations

from paperscope.answer.base import Answerer, Draft
from paperscope.records import Evidence


def short_authors(authors: list[str]) -> str:
    if not authors:
        return ""
    return authors[0] + (" et al." if len(authors) > 2 else (f" and {authors[1]}" if len(authors) == 2 else ""))


def where(ev: Evidence) -> str:
    """ " (First Author et al., ICML 2025)" for a paper, or "" when nothing is known."""
    venue = " ".join(x for x in (ev.paper.venue, str(ev.paper.year or "")) if x)
    bits = [b for b in (short_authors(ev.paper.authors), venue) if b]
    return f" ({', '.join(bits)})" if bits else ""


class ExtractiveAnswerer(Answerer):
    name = "extractive"

    def draft(self, question: str, evidence: list[Evidence]) -> Draft:
        """The answer text with [n] markers, quoting the best sentence of each paper to cite."""
        lead = "One paper in the corpus addresses this:" if len(evidence) == 1 else \
            f"{len(evidence)} papers in the corpus address this:"
        lines = [lead]
        quotes: dict[int, str] = {}
        for ev in evidence:
            quote = ev.best_sentence
            quotes[ev.marker] = quote
            lines.append(f"- {ev.paper.display_title}{where(ev)}: \u201c{quote}\u201d [{ev.marker}]")
        return Draft("\n".join(lines), quotes)
