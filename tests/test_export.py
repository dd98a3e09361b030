"""paperscope.answer.export: BibTeX read back by bibtexparser v2 and pybtex, CSV by the csv module,
JSON by json; items as plain dicts and as `Citation`s, and a whole `Answer` in every format."""

from __future__ import annotations

import csv
import io
import json
import random
from typing import Any

import bibtexparser
import numpy as np
import pytest
from bibtexparser import middlewares as mw
from pybtex.database import parse_string as pybtex_parse
from pybtex.richtext import Text

from paperscope import Answer, Citation, Hit
from paperscope.answer import export

ITEMS: list[dict[str, Any]] = [
    {"title": "NeRF: Representing Scenes as Neural Radiance Fields for View Synthesis",
     "authors": ["Ben Mildenhall", "Pratul P. Srinivasan", "Matthew Tancik"], "venue": "ECCV", "year": 2020,
     "url": "https://example.org/nerf?id=1&x=50%25_a#top", "quote": "We achieve 50% fewer artifacts & more.",
     "paper_id": "eccv-1", "score": 0.91, "marker": 1},
    {"title": "{BERT} Meets R&D: 100% of $5 Budgets, #1 Tips, snake_case, x^2 and ~approx \\ backslash",
     "authors": ["Jürgen Müller", "Åsa Ångström", "Zoë O'Brien"], "venue": "ACL", "year": 2021,
     "url": "https://example.org/a b{c}", "quote": "Special: {braces} & 10% \"quoted\", line\nbreak.",
     "paper_id": "acl-2"},
    {"title": "中文标题 with Chinese Authors", "authors": ["张伟", "李娜", "Wei Zhang"], "venue": "COLING",
     "year": 2022, "url": "", "quote": "", "paper_id": "coling-3"},
    {"title": "Missing Year and Venue", "authors": "Alice Smith; Bob Jones", "venue": "", "year": None,
     "url": "https://example.org/m", "quote": "q", "paper_id": "x-4"},
    # Two papers that collide on smith2020learning, listed in reverse paper_id order.
    {"title": "Learning to Walk", "authors": ["Alice Smith"], "venue": "ICRA", "year": 2020, "paper_id": "p-9"},
    {"title": "Learning to Run", "authors": ["Alice Smith", "Carol Lee"], "venue": "IROS", "year": 2020, "paper_id": "p-1"},
    {"title": "Thompson Sampling Achieves $\\tilde{O}(\\sqrt{T})$ Regret, Costs $5 and $10",
     "authors": ["Smith and Wesson Research Group", "Doe, John"], "venue": "COLT", "year": "2019",
     "url": "https://example.org/ts", "paper_id": "colt-7"},
    {"title": "Unbalanced } brace { here }", "authors": ["Ng"], "venue": "NeurIPS", "year": 2018, "paper_id": "nips-8"},
]


def as_citation(item: dict[str, Any], marker: int = 0) -> Citation:
    """The same paper as paperscope's Citation (authors a list, year an int, defaults filled)."""
    r = export.normalize(item)
    return Citation(paper_id=r["paper_id"], title=r["title"], authors=r["authors"], url=r["url"], source="f.txt",
                    position=None, quote=r["quote"], score=r["score"] if r["score"] is not None else 0.0,
                    marker=marker, venue=r["venue"], year=r["year"])


@pytest.fixture(params=["dict", "citation"])
def items(request: pytest.FixtureRequest) -> list[Any]:
    if request.param == "dict":
        return ITEMS
    return [as_citation(i, marker=n) for n, i in enumerate(ITEMS, 1)]


def parse_decoded(text: str) -> Any:
    return bibtexparser.parse_string(text, append_middleware=[
        mw.LatexDecodingMiddleware(keep_math_mode=True), mw.SeparateCoAuthors(), mw.SplitNameParts()])


def fields(entry: Any) -> dict[str, Any]:
    return {f.key: f.value for f in entry.fields}


def pylatexenc_text(value: str) -> str:
    # pylatexenc renders \textasciicircum as U+02C6 and drops case-protection braces
    return str(value).replace("\u02c6", "^")


# ---------------------------------------------------------------------------- BibTeX
def test_bibtex_parses_with_bibtexparser_and_round_trips(items: list[Any]) -> None:
    bib = export.to_bibtex(items)
    raw = bibtexparser.parse_string(bib)
    assert not raw.failed_blocks
    assert len(raw.entries) == len(items)
    decoded = parse_decoded(bib)
    assert not decoded.failed_blocks
    by_key = {e.key: e for e in decoded.entries}
    keys = export.citation_keys(items)
    assert list(by_key) == keys
    for key, item in zip(keys, items):
        f = fields(by_key[key])
        norm = export.normalize(item)
        if "Unbalanced" not in norm["title"]:  # \textbraceleft{} is unknown to pylatexenc
            assert pylatexenc_text(f["title"]) == norm["title"]
        if not any(" and " in a for a in norm["authors"]):
            # LatexDecodingMiddleware drops the braces that keep "X and Y Group" one name before
            # SeparateCoAuthors runs (BibTeX and pybtex keep it whole: see test_bibtex_parses_with_pybtex).
            assert len(f["author"]) == len(norm["authors"])
        if norm["venue"]:
            assert by_key[key].entry_type == "inproceedings" and f["booktitle"] == norm["venue"]
        else:
            assert by_key[key].entry_type == "misc" and "booktitle" not in f
        assert ("year" in f) == (norm["year"] is not None)
        if norm["year"] is not None:
            assert f["year"] == str(norm["year"])
        if norm["quote"] and "{" not in norm["quote"]:
            assert f["annote"] == norm["quote"]
    # Author names survive: umlauts and Chinese as UTF-8, "Last, First" and "X and Y" kept whole
    names = fields(by_key["muller2021bert"])["author"]
    assert [n.last for n in names] == [["Müller"], ["Ångström"], ["O'Brien"]]
    assert [n.first for n in names] == [["Jürgen"], ["Åsa"], ["Zoë"]]
    assert [n.last for n in fields(by_key["chinese2022"])["author"]][:2] == [["张伟"], ["李娜"]]
    raw_ts = fields({e.key: e for e in raw.entries}["smith2019thompson"])
    assert raw_ts["author"] == "{Smith and Wesson Research Group} and Doe, John"


def test_bibtex_url_is_raw_and_brace_safe(items: list[Any]) -> None:
    raw = bibtexparser.parse_string(export.to_bibtex(items))
    urls = {e.key: fields(e)["url"] for e in raw.entries if "url" in fields(e)}
    assert urls["mildenhall2020nerf"] == "https://example.org/nerf?id=1&x=50%25_a#top"
    assert urls["muller2021bert"] == "https://example.org/a%20b%7Bc%7D"
    assert "chinese2022" not in urls  # an empty url writes no field


def test_bibtex_parses_with_pybtex(items: list[Any]) -> None:
    bib = export.to_bibtex(items)
    db = pybtex_parse(bib, "bibtex")
    assert list(db.entries) == export.citation_keys(items)
    nerf = db.entries["mildenhall2020nerf"]
    assert nerf.type == "inproceedings"
    assert [p.last_names for p in nerf.persons["author"]] == [["Mildenhall"], ["Srinivasan"], ["Tancik"]]
    assert Text.from_latex(nerf.fields["title"]).render_as("text") == ITEMS[0]["title"]
    assert Text.from_latex(nerf.fields["annote"]).render_as("text") == ITEMS[0]["quote"]
    special = db.entries["muller2021bert"]
    assert [p.last_names for p in special.persons["author"]] == [["Müller"], ["Ångström"], ["O'Brien"]]
    assert [p.first_names for p in special.persons["author"]] == [["Jürgen"], ["Åsa"], ["Zoë"]]
    assert Text.from_latex(special.fields["booktitle"]).render_as("text") == "ACL"
    chinese = db.entries["chinese2022"]
    assert [p.last_names for p in chinese.persons["author"]] == [["张伟"], ["李娜"], ["Zhang"]]
    assert Text.from_latex(chinese.fields["title"]).render_as("text") == ITEMS[2]["title"]
    ts = db.entries["smith2019thompson"]
    people = ts.persons["author"]
    assert len(people) == 2  # "Smith and Wesson Research Group" is one (braced) name
    assert people[0].last_names == ["{Smith and Wesson Research Group}"]
    assert people[1].last_names == ["Doe"] and people[1].first_names == ["John"]
    assert "$\\tilde{O}(\\sqrt{T})$" in ts.fields["title"] and "\\$5" in ts.fields["title"]
    assert ts.fields["year"] == "2019"
    misc = db.entries["smithmissing"]
    assert misc.type == "misc" and "year" not in misc.fields and "booktitle" not in misc.fields
    assert [p.last_names for p in misc.persons["author"]] == [["Smith"], ["Jones"]]
    for entry in db.entries.values():  # every field value has balanced braces in BibTeX's sense
        for value in entry.fields.values():
            assert export._braces_balanced(value)


def test_special_characters_escaped() -> None:
    esc = export.latex_escape("50% R&D $5 #1 a_b x^2 ~ \\ {x}")
    assert esc == r"50\% R\&D \$5 \#1 a\_b x\textasciicircum{}2 \textasciitilde{} \textbackslash{} \{x\}"
    assert export.latex_escape("a } b") == r"a \textbraceright{} b"
    # inner capitals protected against style lowercasing, math kept and protected
    assert export.latex_escape("NeRF and LiDAR-Camera SLAM: a Study", protect_case=True) == \
        "{NeRF} and {LiDAR-Camera} {SLAM}: a Study"
    assert export.latex_escape("Rate $\\sqrt{T}$ for $5", protect_case=True) == "Rate {$\\sqrt{T}$} for \\$5"


def test_keys_stable_deduplicated_and_ascii(items: list[Any]) -> None:
    keys = export.citation_keys(items)
    assert len(set(keys)) == len(keys)
    assert keys[0] == "mildenhall2020nerf"
    assert keys[1] == "muller2021bert"               # umlaut folded, "{BERT}" -> bert
    assert keys[2] == "chinese2022"                   # Chinese first author: first title word + year
    assert keys[3] == "smithmissing"                  # no year: lastname + first word
    # collision: suffixes follow paper_id order (p-1 < p-9), not list order
    assert keys[4] == "smith2020learningb" and keys[5] == "smith2020learninga"
    assert all(k.isascii() and k.isalnum() for k in keys)
    shuffled = items[:]
    random.Random(3).shuffle(shuffled)
    ids = [export.normalize(i)["paper_id"] for i in shuffled]
    assert dict(zip(ids, export.citation_keys(shuffled))) == dict(zip((i["paper_id"] for i in ITEMS), keys))
    assert export.to_bibtex(items) == export.to_bibtex(items)


def test_dicts_and_citations_give_the_same_bibtex_and_csv() -> None:
    citations = [as_citation(i) for i in ITEMS]
    assert export.to_bibtex(citations) == export.to_bibtex(ITEMS)
    assert export.to_csv(citations) == export.to_csv(ITEMS)


def test_chinese_only_author_key() -> None:
    key = export.citation_keys([{"title": "A Study of Things", "authors": ["张伟"], "year": 2020}])[0]
    assert key == "study2020"


def test_suffixes_skip_taken_keys() -> None:
    items = [{"title": "B-splines", "authors": ["Lee"], "year": 2020, "paper_id": "1"},
             {"title": "Learning", "authors": ["Lee"], "year": 2020, "paper_id": "2"},
             {"title": "Learning", "authors": ["Lee"], "year": 2020, "paper_id": "3"},
             {"title": "Learninga x", "authors": ["Lee"], "year": 2020, "paper_id": "4"}]
    keys = export.citation_keys(items)
    assert len(set(keys)) == 4 and keys[3] == "lee2020learninga"
    assert keys[1:3] == ["lee2020learningb", "lee2020learningc"]


def test_no_quote_field_option() -> None:
    bib = export.to_bibtex(ITEMS[:1], quote_field=None)
    assert "annote" not in bib


def test_entry_text_cannot_break_out_of_its_field() -> None:
    evil = {"title": "Evil}, note={x}} @misc{injected, title={y", "authors": ["Eve"], "venue": "V", "year": 2020,
            "quote": "@inproceedings{fake, title = {z}}", "paper_id": "e"}
    bib = export.to_bibtex([evil, ITEMS[0]])
    raw = bibtexparser.parse_string(bib)
    assert not raw.failed_blocks and [e.key for e in raw.entries] == ["eve2020evil", "mildenhall2020nerf"]
    assert set(fields(raw.entries[0])) == {"title", "author", "booktitle", "year", "annote"}
    db = pybtex_parse(bib, "bibtex")
    assert list(db.entries) == ["eve2020evil", "mildenhall2020nerf"]


# ---------------------------------------------------------------------------- CSV
def _read(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def test_csv_round_trip(items: list[Any]) -> None:
    text = export.to_csv(items)
    assert "\r\n" in text and not text.startswith("\ufeff")
    rows = _read(text)
    assert rows[0] == list(export.CSV_COLUMNS)
    assert len(rows) == len(items) + 1
    for row, item in zip(rows[1:], items):
        norm = export.normalize(item)
        assert row == [norm["title"], "; ".join(norm["authors"]), norm["venue"],
                       "" if norm["year"] is None else str(norm["year"]), norm["url"], norm["quote"], norm["paper_id"]]
    assert rows[1][0] == ITEMS[0]["title"] and rows[2][0] == ITEMS[1]["title"]
    assert rows[2][5] == "Special: {braces} & 10% \"quoted\", line\nbreak."
    assert rows[3][1] == "张伟; 李娜; Wei Zhang"
    assert rows[4][2:4] == ["", ""]  # missing venue and year: empty cells
    assert rows[7][3] == "2019"


def test_csv_bytes_bom_and_formula_guard(items: list[Any]) -> None:
    evil = {"title": "=HYPERLINK(\"http://evil\")", "authors": ["@mallory"], "venue": "-x", "year": 2020,
            "paper_id": "+1"}
    items = items + [evil if isinstance(items[0], dict) else as_citation(evil)]
    data = export.csv_bytes(items)
    assert data.startswith(b"\xef\xbb\xbf")
    rows = _read(data.decode("utf-8-sig"))
    assert rows[0] == list(export.CSV_COLUMNS)
    assert rows[-1][0] == "'=HYPERLINK(\"http://evil\")" and rows[-1][1] == "'@mallory"
    assert rows[-1][2] == "'-x" and rows[-1][6] == "'+1" and rows[-1][3] == "2020"
    assert rows[2][1] == "Jürgen Müller; Åsa Ångström; Zoë O'Brien"
    plain = _read(export.to_csv(items))
    assert plain[-1][0] == "=HYPERLINK(\"http://evil\")"
    assert export.csv_bytes(items, bom=False)[:5] == b"title"


# ---------------------------------------------------------------------------- text / JSON
def test_json_round_trip(items: list[Any]) -> None:
    data = json.loads(export.to_json(items))
    assert [d["paper_id"] for d in data] == [i["paper_id"] for i in ITEMS]
    assert [d["title"] for d in data] == [i["title"] for i in ITEMS]
    assert data[2]["authors"] == ["张伟", "李娜", "Wei Zhang"]
    assert data[3]["authors"] == ["Alice Smith", "Bob Jones"] and data[3]["year"] is None and data[3]["venue"] == ""
    assert data[6]["year"] == 2019
    assert data[0]["score"] == 0.91
    if isinstance(items[0], dict):
        assert "score" not in data[1] and "marker" not in data[1] and data[0]["marker"] == 1
    else:
        assert data[1]["score"] == 0.0 and [d["marker"] for d in data] == list(range(1, len(ITEMS) + 1))
    assert "张伟" in export.to_json(items)  # UTF-8, not \u escapes


def test_text(items: list[Any]) -> None:
    text = export.to_text(items[:2])
    assert text.startswith("2 papers\n")
    assert "[1] NeRF: Representing" in text and "[2] {BERT}" in text
    assert "ECCV 2020" in text and "\"We achieve 50% fewer artifacts & more.\"" in text
    assert "    Ben Mildenhall, Pratul P. Srinivasan, Matthew Tancik - ECCV 2020\n" in text


def test_render_dispatch_and_objects() -> None:
    class Obj:
        def __init__(self, **kw: Any) -> None:
            self.__dict__.update(kw)

    obj = Obj(title="T", authors=["A B"], venue="V", year=2020, url="", quote="", paper_id="1", marker=3)
    assert export.render([obj], "csv").splitlines()[1] == "T,A B,V,2020,,,1"
    assert "[3] T" in export.render([obj], "text")
    assert export.render([obj], "bibtex", quote_field=None).startswith("@inproceedings{b2020t,")
    with pytest.raises(ValueError, match="unknown export format 'xml'"):
        export.render([obj], "xml")
    # A search Hit has no quote or marker: it still exports.
    hit = Hit(paper_id="h1", title="Hit Paper", score=0.5, authors=["Ann Lee"], venue="ICML", year=2024)
    assert export.citation_keys([hit]) == ["lee2024hit"]
    assert "[1] Hit Paper" in export.render([hit], "text")


def test_unset_markers_and_odd_values() -> None:
    # Citation's default marker 0 means "not numbered": the list numbers by position.
    text = export.to_text([as_citation(ITEMS[4]), as_citation(ITEMS[5])])
    assert "[1] Learning to Walk" in text and "[2] Learning to Run" in text and "[0]" not in text
    # numpy numbers (from scoring code) and non-finite scores still make valid JSON
    item = {"title": "T", "authors": ["A"], "year": np.int64(2021), "score": np.float32(0.5), "paper_id": "n"}
    data = json.loads(export.to_json([item, {"title": "U", "score": float("nan"), "year": "n.d."}]))
    assert data[0]["year"] == 2021 and data[0]["score"] == 0.5
    assert data[1]["year"] is None and "score" not in data[1]


# ---------------------------------------------------------------------------- a whole Answer
def _answer() -> Answer:
    nerf, bert, chinese = (as_citation(ITEMS[i], marker=n) for n, i in ((1, 0), (2, 1), (3, 2)))
    return Answer(text="Radiance fields synthesise views [1]; budgets are discussed [2] and [3].",
                  question="Which papers cover view synthesis?", citations=[nerf, bert, chinese])


def test_export_answer_in_every_format() -> None:
    answer = _answer()
    out = {fmt: export.export_answer(answer, fmt) for fmt in export.FORMATS}
    assert set(out) == {"text", "json", "csv", "bibtex"}

    text = out["text"]
    assert text.startswith("Question: Which papers cover view synthesis?\n\nRadiance fields synthesise views [1];")
    refs = text.split("\n\nReferences\n\n", 1)[1]
    assert refs.startswith("[1] NeRF: Representing Scenes") and "\n[2] {BERT} Meets R&D" in refs
    assert "\n[3] 中文标题 with Chinese Authors\n    张伟, 李娜, Wei Zhang - COLING 2022\n" in refs
    assert text.endswith("\n") and not text.endswith("\n\n")

    data = json.loads(out["json"])
    assert data["answer"] == answer.text and data["question"] == answer.question and data["abstained"] is False
    assert [c["marker"] for c in data["citations"]] == [1, 2, 3]
    assert data["citations"][1]["authors"] == ["Jürgen Müller", "Åsa Ångström", "Zoë O'Brien"]
    assert data["citations"][0]["url"] == ITEMS[0]["url"]

    rows = _read(out["csv"])
    assert rows[0] == list(export.CSV_COLUMNS) and [r[6] for r in rows[1:]] == ["eccv-1", "acl-2", "coling-3"]
    assert rows[2][0] == ITEMS[1]["title"] and rows[3][1] == "张伟; 李娜; Wei Zhang"
    assert _read(export.csv_bytes(answer.citations).decode("utf-8-sig")) == rows

    keys = ["mildenhall2020nerf", "muller2021bert", "chinese2022"]
    raw = bibtexparser.parse_string(out["bibtex"])
    assert not raw.failed_blocks and [e.key for e in raw.entries] == keys
    decoded = {e.key: fields(e) for e in parse_decoded(out["bibtex"]).entries}
    assert pylatexenc_text(decoded["muller2021bert"]["title"]) == ITEMS[1]["title"]
    db = pybtex_parse(out["bibtex"], "bibtex")
    assert list(db.entries) == keys
    assert Text.from_latex(db.entries["chinese2022"].fields["title"]).render_as("text") == ITEMS[2]["title"]

    # The answer as the UI / `ask --json` ship it exports the same after a round trip.
    again = Answer.model_validate(json.loads(json.dumps(answer.model_dump(mode="json"))))
    assert {fmt: export.export_answer(again, fmt) for fmt in export.FORMATS} == out
    with pytest.raises(ValueError):
        export.export_answer(answer, "xml")


def test_export_answer_without_citations() -> None:
    answer = Answer(text="No paper in the library answers this.", abstained=True)
    assert export.export_answer(answer, "text") == "No paper in the library answers this.\n"
    assert json.loads(export.export_answer(answer, "json")) == {
        "question": "", "answer": "No paper in the library answers this.", "abstained": True, "citations": []}
    assert _read(export.export_answer(answer, "csv")) == [list(export.CSV_COLUMNS)]
    assert export.export_answer(answer, "bibtex") == ""
    assert not bibtexparser.parse_string("").entries
