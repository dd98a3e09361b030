"""The offline default answerer: the best-supporting sentences, each followed by its marker.

No model writes anything: the answer is composed from verbatim abstract sentences, so it is
as trustworthy as retrieval, works on any machine, and is the fallback whenever a generated
answer fails verification.
"""

from __future__ import annotations

from paperscope.answer.types import Evidence


def _authors(authors: list[str]) -> str:
    if not authors:
        return ""
    return authors[0] + (" et al." if len(authors) > 2 else (f" and {authors[1]}" if len(authors) == 2 else ""))


def _where(ev: Evidence) -> str:
    bits = [b for b in (_authors(ev.paper.authors), " ".join(x for x in (ev.paper.venue, str(ev.paper.year or "")) if x)) if b]
    return f" ({', '.join(bits)})" if bits else ""


class ExtractiveAnswerer:
    name = "extractive"

    def draft(self, question: str, cited: list[Evidence]) -> tuple[str, dict[int, str]]:
        """(answer text with [n] markers, {marker: quote}) for the papers chosen to cite."""
        if len(cited) == 1:
            ev = cited[0]
            lead = "One paper in the corpus addresses this:"
        else:
            lead = f"{len(cited)} papers in the corpus address this:"
        lines = [lead]
        quotes: dict[int, str] = {}
        for ev in cited:
            quote = ev.best_sentence
            quotes[ev.marker] = quote
            lines.append(f"- {ev.paper.display_title}{_where(ev)}: \u201c{quote}\u201d [{ev.marker}]")
        return "\n".join(lines), quotes


def abstention_text(question: str, nearest: list[Evidence], reason: str | None = None) -> str:
    text = reason or "No paper in the corpus addresses this question."
    if nearest:
        names = "\n".join(f"- {ev.paper.display_title}{_where(ev)}" for ev in nearest)
        text += f"\nThe nearest papers (not matches) are:\n{names}"
    return text
