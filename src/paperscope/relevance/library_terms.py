"""The library's own name for a topic a question describes in other words.

A list question often names its topic differently from the papers: "crowd density estimation"
for papers titled "... Crowd Counting", "posterior sampling for bandits" for "Thompson
Sampling", "surgical manipulators built from nested, precurved elastic tubes" for "concentric
tube robots". The relevance model reads coverage of the question's words, so it rejects those
papers, though the dense retriever ranks them first. Their titles share the name: a title
phrase of 2-3 words that at least `MIN_TITLES` of the `NEAREST` densest-ranked candidates carry,
that adds a word the question lacks, and, among those, the one fewest candidate titles carry
(the most specific: "Point Cloud Registration", not "Point Cloud"); none when a phrase of the
question's own words is commoner there (the question already names the topic).

Scope: titles only (authors name topics there), English phrases (a Chinese question is read
through its English gloss). `find_all` asks the phrase as a second question and decides whether
to trust it (`gather.Gatherer.scored_all`); nothing here judges relevance.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from paperscope.records import Hit
from paperscope.relevance.features import concepts_of, stems
from paperscope.relevance.question import Question
from paperscope.text.analyzer import _ASCII_WORD

NEAREST = 10  # the dense retriever's top papers whose titles are read
MIN_TITLES = 3  # of them, how many must carry the phrase: one or two titles name a paper, not a topic
# Phrases stay within a stretch of words joined by spaces and hyphens ("Peg-in-Hole Insertion"),
# never across ":", ",", "(" and the like ("Learning: Crowd" is no phrase).
_STRETCH = re.compile(r"[A-Za-z0-9]+(?:[\s-]+[A-Za-z0-9]+)*")
# A phrase neither starts nor ends with one of these ("Learning for", "of Robots").
_EDGE = frozenset("a an the of for and or in on with to via by from using based towards toward into at as its "
                  "their is are we our how what when why new".split())


def title_phrases(title: str) -> dict[tuple[str, ...], str]:
    """Stemmed 2- and 3-word phrases of a title -> their words as written (hyphens kept:
    "Mixture-of-Experts" is the phrase mixtur~of~expert, written as in the title)."""
    out: dict[tuple[str, ...], str] = {}
    for stretch in _STRETCH.finditer(title):
        text = stretch.group(0)
        words = list(_ASCII_WORD.finditer(text))
        stemmed = stems(text)  # one stem per word: `stems` tokenizes with the same `_ASCII_WORD`
        for n in (2, 3):
            for i in range(len(words) - n + 1):
                span = words[i:i + n]
                if span[0].group(0).lower() in _EDGE or span[-1].group(0).lower() in _EDGE:
                    continue
                out.setdefault(tuple(stemmed[i:i + n]), text[span[0].start():span[-1].end()])
    return out


def library_phrases(q: Question, hits: Sequence[Hit]) -> list[str]:
    """The title phrases that may name `q`'s topic in this library, most specific first (see the
    module doc); `hits`: the question's candidates, with their papers and dense ranks."""
    nearest = sorted((h for h in hits if h.dense_rank and h.paper is not None), key=lambda h: h.dense_rank or 0)
    count: Counter[tuple[str, ...]] = Counter()
    written: dict[tuple[str, ...], str] = {}
    for h in nearest[:NEAREST]:
        assert h.paper is not None
        for key, text in title_phrases(h.paper.title).items():
            count[key] += 1
            written.setdefault(key, text)
    asked = set().union(*(concepts_of(g) for g, _ in q.groups)) if q.groups else set()
    shared = [k for k, n in count.items() if n >= MIN_TITLES]
    options = [k for k in shared if concepts_of(list(k)) - asked]
    # How many of all candidates carry each option: the broad phrase ("Point Cloud") is in many
    # titles around the topic, the topic's own name ("Point Cloud Registration") in fewer.
    carried: Counter[tuple[str, ...]] = Counter()
    wanted = set(options)
    for h in hits:
        if h.paper is not None:
            carried.update(wanted & title_phrases(h.paper.title).keys())
    ranked = sorted(options, key=lambda k: (carried[k], -len(k), -count[k], written[k]))
    # The nearest titles' commonest phrase is the question's own words: the question already
    # names the topic as the library does (a glossed Chinese question on "scene graph" otherwise
    # took "Saliency Detection" from the titles its stray gloss "saliency" brought near). Then
    # there is no name; otherwise the options as common as the question's own words follow the
    # most specific one.
    own = max((count[k] for k in shared if k not in options), default=0)
    if not ranked or own > count[ranked[0]]:
        return []
    kept: list[tuple[str, ...]] = []
    for k in ranked:
        # A part of a kept phrase that the same titles carry ("Cloud Registration" after "Point
        # Cloud Registration") names nothing new; a broader one ("Point Cloud") may.
        if count[k] >= own and not any(carried[k] == carried[j] and _inside(k, j) for j in kept):
            kept.append(k)
    return [written[k] for k in kept]


def _inside(part: tuple[str, ...], whole: tuple[str, ...]) -> bool:
    return any(whole[i:i + len(part)] == part for i in range(len(whole) - len(part) + 1))
