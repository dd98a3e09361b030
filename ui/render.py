"""HTML for the chat: an answer with [n] markers linked to its citation cards, or an abstention;
and, for the "List all papers" mode, the list's heading and its table rows.

Everything that comes from data (abstracts, titles, authors, answer text, URLs) is
HTML-escaped here, because abstracts are untrusted input: a planted `<script>` must show as
text. The output never contains a blank line, so Gradio's markdown pass treats it as one raw
HTML block and leaves `*`, `_` and `$` in abstracts alone. Left out: any retrieval or answer
logic (this module only formats an `Answer` it is given).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import quote, urlparse

from paperscope.answer.markers import MARKER
from paperscope.answer.plan import RELATED_HEAD
from paperscope.records import Answer, Citation, NearestPaper

CONTEXT_CHARS = 220  # abstract text kept on each side of the quote in a card's excerpt
# The list table: column headers and Gradio Dataframe datatypes. Only the link is markdown (a
# clickable link); every other cell is plain text, so titles and quotes cannot add markup.
LIST_HEADERS = ["Title", "Authors", "Venue", "Year", "Quote", "Link"]
LIST_TYPES = ["str", "str", "str", "number", "str", "markdown"]
URL_SAFE = ":/?#@!$&'*+,;=%~-._"  # kept as is in a table link; anything else is %-encoded


def esc(text: str | None) -> str:
    return html.escape(text or "", quote=True)


def safe_url(url: str | None) -> str:
    """The URL if it is http(s), else "" (a `javascript:` link in a record must not be clickable)."""
    url = (url or "").strip()
    return url if urlparse(url).scheme in ("http", "https") else ""


def _lines(text: str) -> str:
    """Escaped text with line breaks kept (as <br>, or a list for "- " lines); no raw newline."""
    out: list[str] = []
    items: list[str] = []
    for line in text.splitlines():
        if line.startswith(("- ", "* ")):
            items.append(f"<li>{esc(line[2:])}</li>")
            continue
        if items:
            out.append(f'<ul class="ps-list">{"".join(items)}</ul>')
            items = []
        out.append(esc(line) + "<br>")
    if items:
        out.append(f'<ul class="ps-list">{"".join(items)}</ul>')
    return "".join(out).removesuffix("<br>")


def link_markers(escaped: str, anchors: dict[int, str]) -> str:
    """Turn [n] (and [n, m]) in already-escaped text into links to the cards in `anchors`."""

    def one(n: str) -> str:
        anchor = anchors.get(int(n))
        return f'<a class="ps-ref" href="#{anchor}">{n}</a>' if anchor else n

    def repl(m: re.Match[str]) -> str:
        nums = [s.strip() for s in m.group(1).split(",")]
        if not any(int(n) in anchors for n in nums):
            return m.group(0)
        return "[" + ", ".join(one(n) for n in nums) + "]"

    return MARKER.sub(repl, escaped)


def locate(abstract: str, quote: str) -> tuple[int, int] | None:
    """Span of the quote in the abstract; tolerant of whitespace differences only."""
    quote = quote.strip()
    if not quote:
        return None
    start = abstract.find(quote)
    if start >= 0:
        return start, start + len(quote)
    words = quote.split()
    m = re.search(r"\s+".join(re.escape(w) for w in words), abstract)
    return (m.start(), m.end()) if m else None


def _cut_left(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    tail = text[-limit:]
    return "\u2026" + tail[tail.find(" ") + 1:] if " " in tail else "\u2026" + tail


def _cut_right(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    head = text[:limit]
    return (head[: head.rfind(" ")] if " " in head else head) + "\u2026"


def highlighted(abstract: str, quote: str, context: int | None = None) -> str:
    """Escaped abstract (or an excerpt of `context` chars each side) with the quote in <mark>."""
    span = locate(abstract, quote)
    if span is None:
        # Not found verbatim (should not happen: quotes are verified): show it apart, marked.
        return f"<mark>{esc(quote)}</mark>" + (f'<span class="ps-sep"> \u2014 </span>{esc(abstract)}' if context is None else "")
    before, inner, after = abstract[: span[0]], abstract[span[0]: span[1]], abstract[span[1]:]
    if context is not None:
        before, after = _cut_left(before, context), _cut_right(after, context)
    return f"{esc(before)}<mark>{esc(inner)}</mark>{esc(after)}"


def authors_line(authors: list[str], most: int = 6) -> str:
    if len(authors) <= most:
        return ", ".join(authors)
    return ", ".join(authors[:most]) + f" et al. ({len(authors)} authors)"


def card(citation: Citation, abstract: str, anchor: str) -> str:
    url = safe_url(citation.url)
    title = esc(citation.title)
    title_html = (f'<a class="ps-title" href="{esc(url)}" target="_blank" rel="noopener noreferrer">{title}</a>'
                  if url else f'<span class="ps-title">{title}</span>')
    venue = " ".join(x for x in (citation.venue or "", str(citation.year or "")) if x)
    meta = " \u00b7 ".join(esc(x) for x in (authors_line(citation.authors), venue) if x)
    parts = [
        f'<div class="ps-card" id="{anchor}">',
        f'<div class="ps-card-head"><span class="ps-badge">{citation.marker}</span>{title_html}</div>',
        f'<div class="ps-meta">{meta}</div>' if meta else "",
    ]
    if abstract:
        parts.append(f'<div class="ps-excerpt">{highlighted(abstract, citation.quote, CONTEXT_CHARS)}</div>')
        parts.append('<details class="ps-full"><summary>Full abstract</summary>'
                     f'<div class="ps-abstract">{highlighted(abstract, citation.quote)}</div></details>')
    else:
        parts.append(f'<div class="ps-excerpt"><mark>{esc(citation.quote)}</mark></div>')
    parts.append("</div>")
    return "".join(parts)


def _footer(answer: Answer) -> str:
    bits = [esc(answer.backend)]
    total = (answer.timings or {}).get("total_s")
    if total is not None:
        bits.append(f"{total:.1f} s")
    notes = "".join(f'<div class="ps-note">{esc(n)}</div>' for n in answer.notes)
    sep = " \u00b7 "
    return f'<div class="ps-foot">{sep.join(bits)}</div>{notes}'


def _paper_list(papers: list[NearestPaper]) -> str:
    items = []
    for near in papers:
        url = safe_url(near.url)
        title = esc(near.title or near.paper_id)
        items.append(f'<li><a href="{esc(url)}" target="_blank" rel="noopener noreferrer">{title}</a></li>'
                     if url else f"<li>{title}</li>")
    return "".join(items)


def abstention(answer: Answer) -> str:
    lines = (answer.text or "").splitlines()
    headline = lines[0] if lines else "No paper in the library covers this question."
    items = _paper_list(answer.nearest)
    # Papers outside the filters or the previous answer that address the question (the headline says
    # which): matches, not weaker ones.
    head = "These address it:" if answer.outside else "Nearest papers (weaker matches):"
    nearest = (f'<div class="ps-near-head">{head}</div><ul class="ps-near">{items}</ul>'
               if items else "".join(f"<div>{esc(line)}</div>" for line in lines[1:]))
    return (f'<div class="ps-answer ps-abstain"><div class="ps-abstain-head">{esc(headline)}</div>'
            f"{nearest}{_footer(answer)}</div>")


def _related(answer: Answer) -> str:
    if not answer.related:
        return ""
    return (f'<div class="ps-near-head">{esc(RELATED_HEAD)} (not cited):</div>'
            f'<ul class="ps-near ps-related">{_paper_list(answer.related)}</ul>')


def answer_html(answer: Answer, turn: int, abstract_of: Callable[[str], str]) -> str:
    """The whole assistant message: text with linked markers, then one card per citation."""
    if answer.abstained:
        return abstention(answer)
    anchors = {c.marker: f"ps-{turn}-{c.marker}" for c in answer.citations}
    body = answer.text.split(RELATED_HEAD)[0].rstrip() if answer.related else answer.text
    text = link_markers(_lines(body), anchors)
    cards = "".join(card(c, abstract_of(c.paper_id), anchors[c.marker]) for c in answer.citations)
    label = f"Sources ({len(answer.citations)})" if answer.citations else ""
    related = _related(answer)
    return (f'<div class="ps-answer"><div class="ps-text">{text}</div>'
            + (f'<div class="ps-cards-head">{label}</div><div class="ps-cards">{cards}</div>' if cards else "")
            + f"{related}{_footer(answer)}</div>")


def pending_html(text: str) -> str:
    """A partial (streaming) answer: plain escaped text, citations not yet verified."""
    body = _lines(text) if text else '<span class="ps-dim">Searching the library\u2026</span>'
    return f'<div class="ps-answer ps-pending"><div class="ps-text">{body}</div></div>'


def error_html(message: str) -> str:
    return f'<div class="ps-answer ps-error">{esc(message)}</div>'


# -- "List all papers" mode ---------------------------------------------------------------------
def link_cell(url: str | None) -> str:
    """A markdown link (text: the host) for a table cell, or "". Spaces, parentheses and angle
    brackets are %-encoded, so a record's URL cannot end the link early and add markup."""
    url = safe_url(url)
    if not url:
        return ""
    host = re.sub(r"[^a-z0-9.-]", "", urlparse(url).hostname or "") or "link"
    return f"[{host}]({quote(url, safe=URL_SAFE)})"


def list_rows(citations: list[Citation]) -> list[list[Any]]:
    """One table row per listed paper, in LIST_HEADERS order (the answer's order: best match first, or by year)."""
    return [[c.title, authors_line(c.authors), c.venue, c.year, c.quote, link_cell(c.url)] for c in citations]


def list_intro_html() -> str:
    return ('<div class="ps-answer ps-list-head"><div class="ps-text ps-dim">Every paper in the library that '
            "addresses your question, best match first, with a quote from each. Click a column header to sort; "
            "download the list as CSV (for spreadsheets) or BibTeX.</div></div>")


def list_head_html(answer: Answer) -> str:
    """The list's heading (count, overview by venue) or, when no paper addresses the question,
    the abstention with its nearest papers."""
    if answer.abstained:
        return abstention(answer)
    lines = (answer.text or "").splitlines()
    heading = lines[0] if lines else f"{len(answer.citations)} papers"
    return (f'<div class="ps-answer ps-list-head"><div class="ps-text">{esc(heading)}</div>'
            f"{_related(answer)}{_footer(answer)}</div>")


def list_pending_html(streamed: str) -> str:
    """While the list streams: its heading, and how many papers have their quote so far."""
    lines = streamed.splitlines()
    if not lines:
        return pending_html("")
    done = sum(line.startswith("- ") for line in lines)
    return pending_html(f"{lines[0]}\nChoosing a quote for each paper\u2026 {done} done")
