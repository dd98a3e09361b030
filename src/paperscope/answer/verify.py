"""Citation verification: code, not the model, decides what counts as a citation.

Given a drafted answer with `[n]` markers and the numbered evidence it was written from:
- a marker that names no provided paper is removed;
- each remaining marker's claim (the answer sentence around it) must share content terms
  with some sentence of that paper's abstract; that sentence becomes the citation's `quote`
  (a drafter-supplied quote is accepted only if it is verbatim in the abstract);
- unsupported markers are removed; surviving markers are renumbered 1..m in reading order.
Every removal is a typed `Removal` (marker and cause); `removal_notes` renders them for the
answer's notes. The caller replaces an answer left with no valid citation by the extractive one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum

from paperscope.answer.markers import MARKER, TRAILING_MARKERS, marker_numbers
from paperscope.records import Citation, Evidence
from paperscope.text.analyzer import terms
from paperscope.text.sentences import sentence_spans

_WS = re.compile(r"\s+")
# A claim is supported by a sentence sharing >= 2 informative terms with it, or >= 1 term
# that makes up at least half of a short claim ("Oracle-MoE cuts latency [1]").
# Quotations in an answer are verbatim abstract text: a "[7]" inside one is the paper's own
# text (or an injection attempt), never a citation marker.
_QUOTED = re.compile(r"“[^”\n]*”|\"[^\"\n]*\"")
MIN_SHARED_TERMS = 2
MIN_CLAIM_SHARE = 0.5


class RemovalCause(Enum):
    UNKNOWN_SOURCE = "no such paper was provided"
    UNSUPPORTED = "the claim is not supported by that abstract"


@dataclass(frozen=True)
class Removal:
    """One citation marker taken out of a drafted answer, and why."""

    marker: int
    cause: RemovalCause


def removal_notes(removals: list[Removal]) -> list[str]:
    """One note per cause, listing its markers in order: "removed citations [9], [12]: why"."""
    by_cause: dict[RemovalCause, list[str]] = {}
    for r in removals:
        by_cause.setdefault(r.cause, []).append(f"[{r.marker}]")
    lines = []
    for cause, markers in by_cause.items():
        more = f" (+{len(markers) - 10} more)" if len(markers) > 10 else ""
        word = "citation" if len(markers) == 1 else "citations"
        lines.append(f"removed {word} {', '.join(markers[:10])}{more}: {cause.value}")
    return lines


@dataclass
class Verified:
    text: str
    citations: list[Citation]
    removals: list[Removal] = field(default_factory=list)
    dropped: int = 0
    kept: int = 0

    @property
    def notes(self) -> list[str]:
        return removal_notes(self.removals)


def _norm(text: str) -> str:
    return _WS.sub(" ", text).strip().strip('"“”').strip()


def find_verbatim(quote: str, abstract: str) -> str | None:
    """The abstract sentence that contains `quote` verbatim (whitespace-insensitive), if any."""
    q = _norm(quote).rstrip(".")
    if len(q) < 12:
        return None
    for s, e in sentence_spans(abstract):
        if q in _norm(abstract[s:e]):
            return abstract[s:e]
    return None


def best_supporting_sentence(claim: str, ev: Evidence) -> tuple[str, int, float]:
    """(sentence, shared content terms, share of the claim's terms) best matching a claim."""
    p = ev.paper
    # Words that name the paper restated in the claim do not show the claim is supported: its
    # title, and the authors, venue and year an answer line gives ("(C. Liu and C. Chiu, ICRA
    # 2017)", "(J. Qian et al., NAACL 2021)"). Left in, those were all that remained of a line
    # whose quote uses only title words ("This study presents a soft robotic gripper ..." for
    # "... a soft robotic gripper ..."), and no sentence shares author names: the paper was
    # dropped from its own list.
    named = set(terms(" ".join([p.display_title, *p.authors, "et al", p.venue, str(p.year or "")])))
    claim_terms = set(terms(claim)) - {"[", "]"}
    informative = claim_terms - named or claim_terms
    best = (ev.best_sentence, 0, 0.0)
    rank = {s: i for i, (s, _) in enumerate(ev.sentences)}
    for sent, _score in ev.sentences:
        shared = len(informative & set(terms(sent)))
        share = shared / max(len(informative), 1)
        if (shared, -rank[sent]) > (best[1], -rank.get(best[0], 99)):
            best = (sent, shared, share)
    return best


def _claim_spans(text: str) -> list[tuple[int, int]]:
    """Sentences of the answer, never crossing a line break (list items are claims)."""
    spans: list[tuple[int, int]] = []
    offset = 0
    for line in text.split("\n"):
        spans.extend((offset + s, offset + e) for s, e in sentence_spans(line))
        offset += len(line) + 1
    return spans or [(0, len(text))]


def _markers(text: str, start: int, end: int, quoted: list[tuple[int, int]]) -> Iterator[re.Match[str]]:
    """Citation markers in text[start:end], leaving out those inside a quotation."""
    for m in MARKER.finditer(text, start, end):
        if not any(s <= m.start() < e for s, e in quoted):
            yield m


def verify(text: str, evidence: list[Evidence], quotes: dict[int, str] | None = None,
           strict_support: bool = True) -> Verified:
    """Check every marker in `text` against `evidence`; see the module docstring."""
    by_marker = {ev.marker: ev for ev in evidence}
    quotes = quotes or {}
    # "claim. [1]" -> "claim [1]." so a marker stays with the sentence it follows (never
    # inside a quotation, which must stay verbatim).
    quoted = [(m.start(), m.end()) for m in _QUOTED.finditer(text)]
    text = TRAILING_MARKERS.sub(lambda m: m.group(0) if any(s <= m.start() < e for s, e in quoted)
                         else " " + m.group(3).strip() + m.group(1), text)
    quoted = [(m.start(), m.end()) for m in _QUOTED.finditer(text)]
    removals: list[Removal] = []
    dropped = 0
    decisions: dict[tuple[int, int], str | None] = {}  # (claim start, marker) -> quote or None
    for cs, ce in _claim_spans(text):
        claim = MARKER.sub(" ", text[cs:ce])
        for m in _markers(text, cs, ce, quoted):
            for n in marker_numbers(m):
                key = (cs, n)
                if key in decisions:
                    continue
                ev = by_marker.get(n)
                if ev is None:
                    decisions[key] = None
                    removals.append(Removal(n, RemovalCause.UNKNOWN_SOURCE))
                    continue
                quote = None
                if n in quotes:
                    quote = find_verbatim(quotes[n], ev.paper.abstract)
                sent, shared, share = best_supporting_sentence(claim, ev)
                if quote is None:
                    quote = sent
                supported = (shared >= MIN_SHARED_TERMS or (shared >= 1 and share >= MIN_CLAIM_SHARE)
                             or not strict_support)
                if not supported:
                    decisions[key] = None
                    removals.append(Removal(n, RemovalCause.UNSUPPORTED))
                    continue
                decisions[key] = quote

    # Rewrite markers: drop rejected ones, renumber kept ones in reading order.
    renumber: dict[int, int] = {}
    citations: list[Citation] = []
    pieces: list[str] = []
    last = 0
    for cs, ce in _claim_spans(text):
        for m in _markers(text, cs, ce, quoted):
            pieces.append(text[last:m.start()])
            kept: list[int] = []
            for n in marker_numbers(m):
                quote = decisions.get((cs, n))
                if quote is None:
                    dropped += 1
                    continue
                if n not in renumber:
                    renumber[n] = len(renumber) + 1
                    ev = by_marker[n]
                    p = ev.paper
                    citations.append(Citation(
                        paper_id=p.paper_id, title=p.display_title, authors=p.authors, url=p.url,
                        source=p.source, position=p.position, quote=quote, score=ev.support,
                        marker=renumber[n], venue=p.venue, year=p.year))
                if renumber[n] not in kept:
                    kept.append(renumber[n])
            pieces.append("".join(f"[{k}]" for k in kept))
            last = m.end()
    pieces.append(text[last:])
    out = re.sub(r"[ \t]+([.,;:])", r"\1", "".join(pieces))
    out = re.sub(r"[ \t]{2,}", " ", out).strip()
    return Verified(text=out, citations=citations, removals=removals, dropped=dropped, kept=len(citations))
