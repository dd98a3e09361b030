"""Records and answers as pydantic models: JSON round trips without a hand-written inverse, the
LLM's JSON schema generated from the model its reply is parsed into, and authors kept once."""

from __future__ import annotations

import json

from paperscope import Answer, Citation, Hit, NearestPaper, Paper
from paperscope.answer.reply import DraftReply, answer_schema, parse_reply
from paperscope.records import Evidence

DOUBLED = ["P. Newman", "D. Cole", "K. Ho", "P. Newman", "D. Cole", "K. Ho"]


def _answer() -> Answer:
    c = Citation(paper_id="p1", title="T", authors=["A", "B"], url="https://x/1", source="f.txt", position=3,
                 quote="A sentence.", score=1.23456, marker=1, venue="ICML", year=2025)
    return Answer(text="Claim [1].", citations=[c], backend="extractive", question="q?", standalone_question="q?",
                  evidence_ids=["p1", "p2"], notes=["a note"], nearest=[NearestPaper(paper_id="p2", title="U")],
                  timings={"total_s": 0.123456789})


def test_answer_json_shape_and_round_trip():
    d = _answer().model_dump(mode="json")
    assert list(d) == ["answer", "abstained", "backend", "citations", "nearest", "related", "question",
                       "standalone_question", "evidence_ids", "notes", "timings", "outside"]
    assert d["answer"] == "Claim [1]." and d["timings"] == {"total_s": 0.1235}
    assert set(d["citations"][0]) == {"paper_id", "title", "authors", "url", "source", "position", "quote", "score",
                                      "marker", "venue", "year"}
    back = Answer.model_validate(json.loads(json.dumps(d)))
    assert back.model_dump(mode="json") == d and back.citations[0].year == 2025 and back.evidence_ids == ["p1", "p2"]


def test_ui_api_history_is_rebuilt_with_model_validate(fake_assistant):
    first = fake_assistant.ask("Which paper proposes test-time training layers?")
    returned = first.model_dump(mode="json")  # what the UI's `ask` endpoint hands to a client
    rebuilt = Answer.model_validate(returned)
    assert rebuilt.citations == first.citations and rebuilt.question == first.question
    follow = fake_assistant.ask("How large were the models evaluated?",
                                history=[("Which paper proposes test-time training layers?", rebuilt)])
    direct = fake_assistant.ask("How large were the models evaluated?",
                                history=[("Which paper proposes test-time training layers?", first)])
    assert follow.model_dump(exclude={"timings"}) == direct.model_dump(exclude={"timings"})


def test_hit_dump_leaves_the_paper_out():
    p = Paper(paper_id="p", abstract="x.")
    d = Hit(paper_id="p", title="t", score=0.5, paper=p).model_dump(mode="json")
    assert "paper" not in d and d["bm25_rank"] is None


def test_paper_json_round_trip_and_stable_hash():
    p = Paper(paper_id="a:1", abstract="Abs.", title="T", authors=["X"], year=2024, source="a", position=1)
    assert Paper.model_validate_json(p.model_dump_json()) == p
    # The hash of a paper is what main computed (json of its fields): stored libraries stay current.
    assert p.content_hash() == "6c68ac1041d4116d"


def test_authors_are_kept_once_in_order():
    p = Paper(paper_id="x", abstract="a.", authors=DOUBLED)
    assert p.authors == ["P. Newman", "D. Cole", "K. Ho"]
    assert Paper(paper_id="y", abstract="a.", authors=["Ann  Lee", "ann lee", " ", "Bo"]).authors == ["Ann  Lee", "Bo"]
    assert Paper(paper_id="x", abstract="a.", authors=DOUBLED[:3]).content_hash() == p.content_hash()


def test_et_al_counts_each_author_once():
    from paperscope.ui.render import authors_line

    many = [f"Author {i}" for i in range(8)]
    paper = Paper(paper_id="x", abstract="a.", authors=many + many)
    assert authors_line(paper.authors) == ", ".join(many[:6]) + " et al. (8 authors)"


def test_llm_schema_is_generated_from_the_reply_model():
    ev = [Evidence(3, Paper(paper_id="a", abstract="x."), 1.0, []), Evidence(5, Paper(paper_id="b", abstract="y."), 0.5, [])]
    schema = answer_schema(ev)
    assert schema == {
        "type": "object", "additionalProperties": False, "required": ["answer", "citations"],
        "properties": {
            "answer": {"type": "string"},
            "citations": {"type": "array", "maxItems": 2, "items": {
                "type": "object", "additionalProperties": False, "required": ["marker", "quote"],
                "properties": {"marker": {"type": "integer", "enum": [3, 5]}, "quote": {"type": "string"}}}},
        },
    }
    assert set(DraftReply.model_json_schema()["properties"]) == set(schema["properties"])
    reply = {"answer": "It works [3].", "citations": [{"marker": 3, "quote": "x."}, {"marker": "x"}, "junk"]}
    assert parse_reply(json.dumps(reply)).quotes == {3: "x."}
