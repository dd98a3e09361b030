"""The one place that decides what an answer cites, what it shows apart, and why it abstains.

Given the candidates most likely first (probabilities from the relevance model):
- cite every paper whose probability reaches the cite threshold (at most `limit`; a factoid
  question asks about one paper, so it cites its best one); a list of every paper on the
  question (`find_all`) answers when `ask` would and then lists down to the list threshold;
- show the next ones down to the related threshold apart, as "related (weaker matches)",
  never as citations;
- abstain when no paper reaches the cite threshold, naming the parts of the question that no
  candidate covers (or, when each part is covered somewhere, that no paper covers them together).
A follow-up restricted to the previous answer's papers cites its best paper from the related
threshold up: the question names those papers ("it", "their models"); one that asks which of
them ("Which of those use quantization?") cites each from the cite threshold up.
The thresholds were measured on held-out questions (`paperscope.bench.relevance_train`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from paperscope.records import Evidence
from paperscope.relevance.features import base_concept, covered_groups
from paperscope.relevance.lexicon import title_phrases
from paperscope.relevance.question import Question, compared_names
from paperscope.text.analyzer import _stemmer

if TYPE_CHECKING:
    from paperscope.relevance import Scored

MAX_RELATED = 3
_EXPLAIN_DEPTH = 10  # candidates read for "which part of the question does no paper cover"


@dataclass(frozen=True)
class Decision:
    cited: list[Evidence] = field(default_factory=list)  # empty: abstain
    related: list[Evidence] = field(default_factory=list)  # weaker matches, shown apart
    uncovered: list[str] = field(default_factory=list)  # parts of the question no candidate covers
    partial: bool = False  # every part is covered by some paper, none covers them together
    more: bool = False  # more papers reached the cite threshold than `limit` let it cite

    @property
    def abstain(self) -> bool:
        return not self.cited


def phrases_of(q: Question, groups: list[frozenset[str]]) -> list[str]:
    """The question's own words for `groups`, adjacent ones kept together as they were written
    ("load-balancing", "robotic grasping"); alternatives as "symmetry/equivariance"."""
    if not groups:
        return []
    single = {next(iter(g)): g for g in groups if len(g) == 1}
    out: list[str] = []
    run: list[str] = []
    for word in q.order:
        stem = _stemmer().stemWord(word)
        if stem in single:
            run.append(word)
            single.pop(stem)
        elif run:
            out.append(_joined(q.text, run))
            run = []
    if run:
        out.append(_joined(q.text, run))
    out += [q.describe(g) for g in groups if len(g) > 1]
    return out


def _joined(text: str, words: list[str]) -> str:
    """Adjacent question words as written ("load-balancing" keeps its hyphen)."""
    pattern = r"[\s-]+(?:(?:of|the|a|an|for|in|on|to|with)[\s-]+)?".join(re.escape(w) for w in words)
    m = re.search(pattern, text, re.I)
    return m.group(0) if m else " ".join(words)


def compared(question: str, evidence: list[Evidence]) -> list[Evidence]:
    """The candidates a comparison question names (`question.compared_names`): each name that is
    exactly one candidate's title name (its title before the colon: "LocMoE: A Low-overhead MoE
    ..."). The relevance model reads each named paper as covering half the
    question (the other name is not in it) and abstained on "Compare LocMoE and Oracle-MoE"; a
    comparison is about exactly those papers (the ones the library holds)."""
    found: list[Evidence] = []
    for name in compared_names(question):
        owners = [ev for ev in evidence if ":" in ev.paper.display_title
                  and ev.paper.display_title.split(":")[0].strip().lower() == name]
        if len(owners) == 1 and owners[0] not in found:
            found.append(owners[0])
    return sorted(found, key=lambda ev: -ev.support)


def decide(scored: Scored, cite: float, related: float, limit: int | None, follow_up: bool = False,
           covered: Callable[[Evidence], set[str]] | None = None, every: bool = False,
           listing: float | None = None, picked: Sequence[str] = ()) -> Decision:
    """See the module docstring; `every` (find_all) lists every paper that reaches the cite
    threshold, whatever the question's kind, or, given `listing`, every paper from that
    threshold down once the best one reaches the cite threshold. `picked`: papers the asker
    named by place ("the second one"), cited in that order whatever their score."""
    evidence = scored.evidence
    if picked:  # the asker chose them, the model did not
        return Decision(sorted((ev for ev in evidence if ev.paper.paper_id in picked),
                               key=lambda ev: list(picked).index(ev.paper.paper_id)))
    if not evidence:
        return Decision()
    if follow_up:
        best = evidence[0]
        # "Which of those use quantization?" asks for each listed paper that does, not the best one.
        listed = [ev for ev in evidence if ev.support >= cite][:limit] if scored.question.kind == "list" else []
        return Decision(listed or [best]) if best.support >= related else Decision()
    # Whether to answer at all is decided as for `ask` (the best paper reaches `cite`); a list
    # then reaches further down: on list questions whose papers rank far down (held-out topics),
    # a lower threshold keeps precision and finds many more of them (relevance_train).
    reach = min(cite, listing) if every and listing is not None and evidence[0].support >= cite else cite
    cited = [ev for ev in evidence if ev.support >= reach]
    if scored.question.kind == "factoid" and not every:
        cited = cited[:1]
    named = compared(scored.question.text, evidence)
    if named:  # "Compare LocMoE and Oracle-MoE": each paper it names, whatever else it cites
        cited = named + [ev for ev in cited if ev not in named]
    more = limit is not None and len(cited) > limit
    if limit is not None:
        cited = cited[:limit]
    rest = [ev for ev in evidence if ev not in cited and ev.support >= related][:MAX_RELATED]
    if cited:
        return Decision(cited, rest, more=more)
    uncovered: list[str] = []
    partial = False
    if covered is not None and scored.question.groups:
        each = [covered(ev) for ev in evidence[:_EXPLAIN_DEPTH]]
        found: set[str] = set().union(*each)
        q = scored.question
        missing = [g for (g, _), hit in zip(q.groups, covered_groups(q, found)) if not hit]
        # A named term of the question ("flow matching") no candidate uses as a phrase is missing
        # as a whole, even when each word occurs somewhere on its own. Only a term: a verb and
        # its object side by side ("apply conformal prediction") are no phrase to look for.
        for a, b in q.phrases:
            pair = f"{base_concept(a)} {base_concept(b)}"
            if pair not in found and pair in title_phrases():
                missing += [g for g, _ in q.groups if (a in g or b in g) and len(g) == 1 and g not in missing]
        uncovered = phrases_of(q, missing)
        # "Its parts appear in different papers" only when no one paper has all of them: a paper
        # can use every word of the question and still not address it (scored under `cite`).
        whole = any(all(covered_groups(q, words)) for words in each)
        partial = not missing and not whole
    return Decision([], rest, uncovered, partial)


def newest_first(cited: list[Evidence], limit: int, newest_year_only: bool = False, oldest: bool = False) -> Decision:
    """`cited` (papers that address a question, best first) ordered newest first (`oldest`: oldest
    first), best first within a year, at most `limit`; `newest_year_only` ("Which is the newest paper
    on X?"): the papers of the newest year among them. Undated papers come last either way."""
    order = sorted(cited, key=lambda ev: (ev.paper.year is None, (ev.paper.year or 0) * (1 if oldest else -1)))
    if newest_year_only and order:
        order = [ev for ev in order if ev.paper.year == order[0].paper.year]
    return Decision(order[:limit], more=len(order) > limit)
