"""Typing slips in a question are read as the library word they were meant to be; real words
of other fields are not "corrected" (`relevance.spelling`)."""

from __future__ import annotations

from paperscope.relevance.spelling import corrected, reading
from paperscope.text.analyzer import _stemmer


def _df(*words: str, n: int = 5) -> dict[str, int]:
    return {_stemmer().stemWord(w): n for w in words}


def test_slips_are_read_as_the_library_word():
    df = _df("mixture", "experts", "latency", "transformers", "relational")
    assert reading("mixtrue", df, 38) == "mixture"  # two letters swapped
    assert reading("transfomers", df, 38) == "transformers"  # a letter dropped
    assert reading("Reational", df, 38) == "Relational"  # capitalised as asked
    text, fixes = corrected("Which papers study mixtrue of experts latency?", df, 38)
    assert text == "Which papers study mixture of experts latency?" and fixes == [("mixtrue", "mixture")]


def test_known_and_foreign_words_stay_as_asked():
    df = _df("varies", "float", "action", "mixture")
    assert reading("mixture", df, 38) is None  # the library's own word
    assert reading("ovaries", df, 38) is None  # a first letter dropped is no slip
    assert reading("folate", df, 38) is None  # "floate" shares a stem with "float" but is no word
    assert reading("actin", df, 38) is None  # too short for a dropped or added letter
    assert reading("jailbreak", {}, 38) is None  # the background corpus knows it: a real term
    assert reading("mixtrue", _df("mixture", n=1), 38000) is None  # too rare in this library
    assert corrected("GAPrompt and Llama3 on mixtrue", df, 38)[1] == [("mixtrue", "mixture")]


def test_a_misspelt_question_is_answered_as_meant(seeded):
    slipped = seeded.ask("Which papers address mixtrue of experts latency?")
    meant = seeded.ask("Which papers address mixture of experts latency?")
    assert not slipped.abstained
    assert [c.paper_id for c in slipped.citations] == [c.paper_id for c in meant.citations]
    assert "read \u201cmixtrue\u201d as \u201cmixture\u201d" in slipped.notes
