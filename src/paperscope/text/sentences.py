"""Sentence splitting: an abstract as (start, end) offsets, so every quote is an exact
substring of the stored abstract (what citation verification checks).

Leaves out: language detection and model-based segmentation.
"""

from __future__ import annotations

import re

# Abbreviations after which a period does not end a sentence in ML abstracts.
_ABBREV = {
    "e.g", "i.e", "et al", "etc", "vs", "fig", "figs", "eq", "eqs", "sec", "no", "cf", "resp",
    "approx", "dr", "prof", "mr", "ms", "st", "al", "ref", "refs", "tab", "appx", "viz",
}
_BOUNDARY = re.compile(r"(?<=[.!?])[\"')\]”’]*\s+(?=(?!\[\d{1,3}[\],\s])[\"'(\[*$\\]?[A-Z0-9$\\*(\[])|(?<=[。！？])")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Sentence (start, end) offsets into `text`; whitespace between sentences excluded."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        end = match.start()
        head = text[start:end].rstrip()
        last_word = re.search(r"([A-Za-z.]+)\.$", head)
        if last_word and last_word.group(1).lower().rstrip(".") in _ABBREV:
            continue  # "et al. Then" / "e.g. Foo": not a boundary
        if len(head.strip()) < 2:
            continue
        spans.append((start, start + len(head)))
        start = match.end()
    tail = text[start:].strip()
    if tail:
        lead = len(text[start:]) - len(text[start:].lstrip())
        spans.append((start + lead, start + lead + len(tail)))
    # Drop leading whitespace inside spans.
    out: list[tuple[int, int]] = []
    for s, e in spans:
        while s < e and text[s].isspace():
            s += 1
        if e > s:
            out.append((s, e))
    return out


def sentences(text: str) -> list[str]:
    return [text[s:e] for s, e in sentence_spans(text)]
