"""What a question is going to get, decided before any text is drafted: a `Plan`.

A plan either cites (`cited` is non-empty) or abstains for a typed `AbstainReason`; the
abstention text is rendered from the reason (`abstention_text`), never parsed back from notes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from paperscope.answer.extractive import where
from paperscope.records import Evidence


class AbstainReason(Enum):
    EMPTY_LIBRARY = "the library is empty"
    NO_SEARCHABLE_WORDS = "the question has no searchable words"
    NO_MATCH_FOR_FILTERS = "no papers match the filters"
    NO_SUPPORTING_PAPER = "no paper supports an answer"


@dataclass
class Plan:
    question: str  # as asked (at most MAX_QUESTION_CHARS)
    standalone: str  # what is answered: the question, or a follow-up made standalone
    evidence: list[Evidence] = field(default_factory=list)  # candidates, best support first
    cited: list[Evidence] = field(default_factory=list)  # chosen to cite; empty when abstaining
    related: list[Evidence] = field(default_factory=list)  # weaker matches, shown apart (never cited)
    uncovered: list[str] = field(default_factory=list)  # parts of the question no candidate covers
    partial: bool = False  # each part is covered somewhere, but no paper addresses them together
    abstain: AbstainReason | None = None
    detail: str = ""  # what the reason refers to (the filters asked for, what to ingest)
    notes: list[str] = field(default_factory=list)

    @property
    def nearest(self) -> list[Evidence]:
        """Shown when abstaining: the closest papers, as weaker matches."""
        return self.related or self.evidence[:3]


RELATED_HEAD = "Related, but weaker matches"


def related_text(related: list[Evidence]) -> str:
    """The weaker matches of an answer, apart from its citations."""
    names = "\n".join(f"- {ev.paper.display_title}{where(ev)}" for ev in related)
    return f"{RELATED_HEAD} (not cited):\n{names}"


def abstention_text(plan: Plan) -> str:
    if plan.abstain is AbstainReason.NO_SEARCHABLE_WORDS:
        text = "The question has no searchable words, so no paper can be matched to it."
    elif plan.abstain is AbstainReason.EMPTY_LIBRARY:
        text = f"The library is empty: {plan.detail}."
    elif plan.abstain is AbstainReason.NO_MATCH_FOR_FILTERS:
        text = f"No paper matches the filters: {plan.detail}."
    elif plan.uncovered:
        text = f"No paper in the corpus addresses this question: none covers {_listing(plan.uncovered)}."
    elif plan.partial:
        text = ("No paper in the corpus addresses this question: its parts appear in different papers, "
                "but no paper covers them together.")
    else:
        text = "No paper in the corpus addresses this question."
    if plan.nearest and plan.abstain is AbstainReason.NO_SUPPORTING_PAPER:
        names = "\n".join(f"- {ev.paper.display_title}{where(ev)}" for ev in plan.nearest)
        text += f"\nThe nearest papers are weaker matches:\n{names}"
    return text


def _listing(parts: list[str]) -> str:
    quoted = [f"\u201c{p}\u201d" for p in parts]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]
