"""The offline default answerer: the best-supporting sentences, each followed by its marker.

No model writes anything: the answer is composed from verbatim abstract sentences, so it is
as trustworthy as retrieval, works on any machine, and is the fallback whenever a generated
answer fails verification.
"""

from __future__ import annotations

import re

from paperscope.answer.base import Answerer, Draft
from paperscope.records import Evidence
from paperscope.text.zh import chinese


def short_authors(authors: list[str]) -> str:
    if not authors:
        return ""
    return authors[0] + (" et al." if len(authors) > 2 else (f" and {authors[1]}" if len(authors) == 2 else ""))


# "Who wrote it?", "Who are the authors?", "作者是谁？": every author, not "First Author et al.".
ASKS_AUTHORS = re.compile(r"\b(?:who\s+(?:wrote|authored|are\s+the\s+authors)|authors?|authored|written\s+by)\b|作者", re.I)


def where(ev: Evidence, every_author: bool = False) -> str:
    """ " (First Author et al., ICML 2025)" for a paper (every author when asked), or "" when
    nothing is known."""
    venue = " ".join(x for x in (ev.paper.venue, str(ev.paper.year or "")) if x)
    authors = ", ".join(ev.paper.authors) if every_author else short_authors(ev.paper.authors)
    bits = [b for b in (authors, venue) if b]
    return f" ({', '.join(bits)})" if bits else ""


class ExtractiveAnswerer(Answerer):
    name = "extractive"

    def draft(self, question: str, evidence: list[Evidence]) -> Draft:
        """The answer text with [n] markers, quoting the best sentence of each paper to cite."""
        if chinese(question):  # the framing in the question's language; quotes stay verbatim
            lead = f"语料库中有 {len(evidence)} 篇论文与此相关："
        else:
            lead = "One paper in the corpus addresses this:" if len(evidence) == 1 else \
                f"{len(evidence)} papers in the corpus address this:"
        lines = [lead]
        quotes: dict[int, str] = {}
        every_author = bool(ASKS_AUTHORS.search(question))
        for ev in evidence:
            quotes[ev.marker] = ev.best_sentence
            lines.append(paper_line(ev, every_author))
        return Draft("\n".join(lines), quotes)


def paper_line(ev: Evidence, every_author: bool = False) -> str:
    """One listed paper: title, authors and venue, its quote, its marker."""
    return f"- {ev.paper.display_title}{where(ev, every_author)}: \u201c{ev.best_sentence}\u201d [{ev.marker}]"


def list_heading(cited: list[Evidence], groups: int = 6, chinese: bool = False, named: str | None = None,
                 by_year: bool = False, order: str | None = None) -> str:
    """"N papers in the library address this", with an overview by venue and year (`by_year`: by
    year alone, in order, for "How many papers on X per year?"); `named`: the library's own name for
    the topic, which the list was also gathered by (said, so a reader sees why papers that do not
    use the question's words are listed); `order`: "newest" / "oldest" when listed by year, not best first."""
    counts: dict[str, int] = {}
    for ev in cited:
        key = (str(ev.paper.year or "?") if by_year else
               " ".join(x for x in (ev.paper.venue, str(ev.paper.year or "")) if x) or "no venue given")
        counts[key] = counts.get(key, 0) + 1
    top = sorted(counts.items()) if by_year else sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    groups = len(top) if by_year else groups
    shown = ", ".join(f"{name} ({n})" for name, n in top[:groups])
    if chinese:
        more = f"，另有 {len(top) - groups} 个会议" if len(top) > groups else ""
        also = f"（也按最相近论文标题中的名称“{named}”查找）" if named else ""
        way = f"按发表年份排序，最{'新' if order == 'newest' else '早'}的在前" if order else "按匹配程度排序"
        return f"库中有 {len(cited)} 篇论文与此相关{also}，{way}。{'按年份' if by_year else '按会议'}：{shown}{more}。"
    more = f", {len(top) - groups} more venues" if len(top) > groups else ""
    noun = "paper in the library addresses" if len(cited) == 1 else "papers in the library address"
    also = f" (also searched as \u201c{named}\u201d, the name the nearest papers' titles give it)" if named else ""
    way = f"{order} first by publication year" if order else "best match first"
    return f"{len(cited)} {noun} this{also}, {way}. {'By year' if by_year else 'By venue'}: {shown}{more}."
