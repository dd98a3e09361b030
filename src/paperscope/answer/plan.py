"""What a question is going to get, decided before any text is drafted: a `Plan`.

A plan either cites (`cited` is non-empty) or abstains for a typed `AbstainReason`; the
abstention text is rendered from the reason (`abstention_text`), never parsed back from notes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from paperscope.answer.extractive import where
from paperscope.records import Evidence
from paperscope.text.zh import has_cjk


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


RELATED_HEAD_ZH = "相关但较弱的匹配"


def related_text(related: list[Evidence], chinese: bool = False) -> str:
    """The weaker matches of an answer, apart from its citations."""
    names = "\n".join(f"- {ev.paper.display_title}{where(ev)}" for ev in related)
    return f"{RELATED_HEAD_ZH}（未引用）：\n{names}" if chinese else f"{RELATED_HEAD} (not cited):\n{names}"


def abstention_text(plan: Plan) -> str:
    if has_cjk(plan.question):
        return _abstention_zh(plan)
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


def _abstention_zh(plan: Plan) -> str:
    """The abstention in Chinese (a Chinese question gets Chinese framing; titles stay English)."""
    if plan.abstain is AbstainReason.NO_SEARCHABLE_WORDS:
        text = "问题中没有可检索的词，无法匹配任何论文。"
    elif plan.abstain is AbstainReason.EMPTY_LIBRARY:
        text = f"文献库为空：{plan.detail}。"
    elif plan.abstain is AbstainReason.NO_MATCH_FOR_FILTERS:
        text = f"没有论文符合筛选条件：{plan.detail}。"
    elif plan.uncovered:
        text = f"语料库中没有论文回答这个问题：没有论文涉及{_listing(plan.uncovered).replace(' or ', '或')}。"
    elif plan.partial:
        text = "语料库中没有论文回答这个问题：问题的各部分出现在不同的论文中，但没有一篇同时涉及。"
    else:
        text = "语料库中没有论文回答这个问题。"
    if plan.nearest and plan.abstain is AbstainReason.NO_SUPPORTING_PAPER:
        names = "\n".join(f"- {ev.paper.display_title}{where(ev)}" for ev in plan.nearest)
        text += f"\n最接近的论文（较弱的匹配）：\n{names}"
    return text


def _listing(parts: list[str]) -> str:
    quoted = [f"\u201c{p}\u201d" for p in parts]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]
