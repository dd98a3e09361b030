"""One answer path: `stream()` yields typed events and `ask()` is its last one; a `Plan` carries
a typed `AbstainReason`; verification reports typed removals; answerers share one base class."""

from __future__ import annotations

import pytest

from paperscope import Answer, TextPiece
from paperscope.answer.base import Answerer, Draft
from paperscope.answer.plan import AbstainReason
from paperscope.answer.verify import Removal, RemovalCause, removal_notes

QUESTION = "Which papers address MoE latency?"


def test_ask_is_the_last_event_of_stream(fake_assistant):
    events = list(fake_assistant.stream(QUESTION))
    assert all(isinstance(e, TextPiece) for e in events[:-1]) and isinstance(events[-1], Answer)
    assert events[:-1], "the extractive draft is a text piece too"
    final, asked = events[-1], fake_assistant.ask(QUESTION)
    assert final.model_dump(exclude={"timings"}) == asked.model_dump(exclude={"timings"})
    assert set(asked.timings) == {"retrieve_s", "answer_s", "total_s"}


@pytest.mark.parametrize("question, filters, reason", [
    ("🤖🚀", None, AbstainReason.NO_SEARCHABLE_WORDS),
    (QUESTION, {"venue": "NeurIPS"}, AbstainReason.NO_MATCH_FOR_FILTERS),
    ("Are there papers about recommender systems?", None, AbstainReason.NO_SUPPORTING_PAPER),
])
def test_plan_abstains_for_a_typed_reason(fake_assistant, question, filters, reason):
    plan = fake_assistant.plan(question, filters=filters)
    assert plan.abstain is reason and plan.cited == []
    answer = fake_assistant.ask(question, filters=filters)
    assert answer.abstained and answer.backend == "abstain" and answer.notes == []
    expected_start = {AbstainReason.NO_SEARCHABLE_WORDS: "The question has no searchable words",
                      AbstainReason.NO_MATCH_FOR_FILTERS: "No paper matches the filters: venue='NeurIPS'",
                      AbstainReason.NO_SUPPORTING_PAPER: "No paper in the corpus addresses this question"}[reason]
    assert answer.text.startswith(expected_start)


def test_empty_library_plan(tmp_path):
    from paperscope import Assistant, Settings
    from paperscope.settings import EmbedSettings

    a = Assistant.open(tmp_path / "empty", settings=Settings(embed=EmbedSettings(model="fake")))
    plan = a.plan(QUESTION)
    assert plan.abstain is AbstainReason.EMPTY_LIBRARY and "nothing is ingested" in plan.detail
    assert a.ask(QUESTION).text.startswith("The library is empty: nothing is ingested")


def test_plan_cites_what_relevance_decides(fake_assistant):
    plan = fake_assistant.plan(QUESTION, max_citations=2)
    assert plan.abstain is None and 1 <= len(plan.cited) <= 2
    assert [ev.marker for ev in plan.evidence] == list(range(1, len(plan.evidence) + 1))
    assert plan.cited == plan.evidence[: len(plan.cited)]


class _Minimal(Answerer):
    """Implements only `draft`: the base class supplies streaming, rewrite and sources."""

    name = "minimal"

    def draft(self, question, evidence):
        ev = evidence[0]
        return Draft(f"{ev.best_sentence} [{ev.marker}]")


def test_an_answerer_needs_only_draft(fake_assistant):
    fake_assistant.answerer = _Minimal()
    assert fake_assistant.answerer.rewrite("it?", []) is None and not fake_assistant.answerer.streams
    *pieces, answer = fake_assistant.stream(QUESTION)
    assert len(pieces) == 1 and pieces[0].text.endswith("[1]")  # the draft, before verification moved the marker
    cited_part = answer.text.split("\n\n")[0]  # related papers, if any, follow apart
    assert answer.backend == "minimal" and cited_part.endswith("[1].") and len(answer.citations) == 1


class _Broken(Answerer):
    name = "broken"
    streams = True

    def draft(self, question, evidence):
        raise RuntimeError("model crashed")

    def stream_draft(self, question, evidence):
        yield "Half an answer"
        raise RuntimeError("model crashed mid-stream")


@pytest.mark.parametrize("live", [False, True])
def test_failing_answerer_falls_back_in_both_modes(fake_assistant, live):
    fake_assistant.answerer = _Broken()
    *pieces, answer = fake_assistant.stream(QUESTION, live=live)
    assert answer.backend == "extractive (fallback from broken)" and answer.citations
    assert any("broken backend failed (RuntimeError" in n for n in answer.notes)
    assert [p.text for p in pieces] == (["Half an answer"] if live else [])


def test_removals_are_typed_and_rendered_once_per_cause():
    removals = [Removal(9, RemovalCause.UNKNOWN_SOURCE), Removal(2, RemovalCause.UNSUPPORTED),
                Removal(12, RemovalCause.UNKNOWN_SOURCE)]
    assert removal_notes(removals) == ["removed citations [9], [12]: no such paper was provided",
                                       "removed citation [2]: the claim is not supported by that abstract"]
    many = [Removal(n, RemovalCause.UNSUPPORTED) for n in range(1, 13)]
    assert removal_notes(many)[0].endswith("[10] (+2 more): the claim is not supported by that abstract")
