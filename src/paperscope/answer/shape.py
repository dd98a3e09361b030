"""An answer's papers as the question asks to see them, once relevance has decided which papers
address it: newest first ("the latest papers on X"), a number of them ("three papers on X"), or
with the authors who wrote most of them ("Who works on X?"), counted by venue or year ("Which
venues publish most on X?"); and what is said after the answer
about that (`Plan.remarks`).

The papers come from the same decision as any answer: those that reach the cite threshold
(`find_all` lists further down; ordered by year or counted by author, one doubtful paper would
count as much as a sure one: "spiked covariance" came first for spiking networks).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from paperscope.answer.figures import by_figure
from paperscope.answer.plan import authors_text, figures_text, more_text, newest_text, reported_text, tally_text
from paperscope.records import Evidence
from paperscope.relevance.decision import Decision, newest_first
from paperscope.text.superlatives import YEAR, Most


def shaped(decision: Decision, cite: float, limit: int, order: str | None = None, who: bool = False,
           chinese: bool = False, most: Most | None = None, tally: str | None = None) -> tuple[Decision, list[str], list[str]]:
    """`decision` (every paper that addresses the question, `find_all`'s list) as the question asks
    to see it, what is said first (the authors or the tally the question asks for) and the remarks that say
    how it was shown. `order`: `text.asks.recency`; `who`: `text.asks.asks_who`;
    `tally`: `text.tallies.tallied`, counted by venue or year; `most`: `text.superlatives.ranked`, the papers
    that report the measure by their figures (`answer.figures`;
    the others when none does). Their quotes are set after ranking (`answer.figures.quoting_figures`)."""
    if decision.abstain:
        return decision, [], []
    sure = [ev for ev in decision.cited if ev.support >= cite] or decision.cited[:1]
    if most is not None:
        picked = by_figure(sure, most)
        measure = most.name
        remarks = [] if most.measure == YEAR else [reported_text(len(picked.cited), len(sure), measure, chinese)]
        if picked.cited:
            remarks += figures_text(measure, picked.larger_first, picked.ordered, min(limit, len(picked.cited)), [], chinese,
                                    by_year=most.measure == YEAR)
        shown = picked.cited or sure
        return Decision(shown[:limit], related=decision.related, more=len(shown) > limit), [], remarks
    if order is not None:
        remarks = [newest_text(sure, order == "one", chinese, oldest=order == "oldest")]
        cut = newest_first(sure, limit, order == "one", oldest=order == "oldest")
    else:
        cut = Decision(sure[:limit], more=len(sure) > limit)
        remarks = [more_text(chinese)] if cut.more else []
    lead = ([authors_text(top_authors(sure), len(sure), chinese)] if who else []) + \
        ([tally_text(sure, tally, chinese)] if tally else [])
    return replace(cut, related=decision.related), lead, remarks


def top_authors(papers: list[Evidence], most: int = 5) -> list[tuple[str, int]]:
    """The authors with most of `papers` (at least two), most first; ties in first-seen order
    (the better paper's authors first)."""
    counts = Counter(a.strip() for ev in papers for a in dict.fromkeys(ev.paper.authors) if a.strip())
    return [(a, n) for a, n in counts.most_common() if n >= 2][:most]
