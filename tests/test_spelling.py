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
    assert reading("Olson", {}, 38) is None  # capitalised: a name, read only with typing slips
    assert reading("humid", {}, 38) is None  # an English word: no spelling slip
    assert reading("spitting", _df("splitting"), 38) is None  # English, though no abstract uses it
    assert reading("murine", {}, 38) is None  # nor "marine"
    assert reading("collusion", {}, 38) is None  # abstracts write it so ("collision" is common)
    assert corrected("GAPrompt and Llama3 on mixtrue", df, 38)[1] == [("mixtrue", "mixture")]


def test_a_slip_the_library_cannot_place_is_read_as_abstracts_write_it():
    """Too rare in this library (or absent): the word abstracts commonly write, so the answer
    says which word no paper covers; not a rare one."""
    assert reading("mixtrue", _df("mixture", n=1), 38000) == "mixture"
    assert reading("recommneders", {}, 38) is None  # "recommenders": 9 abstracts, too rare to guess
    assert reading("recommneders", _df("recommenders"), 38) == "recommenders"  # the library's word


def test_spelling_slips_are_read_to_common_words():
    """A vowel for another, a doubled letter, a dropped one: to a word abstracts commonly use."""
    assert reading("latancy", {}, 38) == "latency"
    assert reading("sevral", {}, 38) == "several"
    assert reading("seperate", {}, 38) == "separate"
    # "adress": a few abstracts make the same slip (its stem is known), "address" is 1,000x as common.
    assert reading("adress", {}, 38) == "address"
    assert reading("adress", _df("adress", n=200), 38) is None  # a library that writes it so knows it
    # A short word only as a function word: "Wich papers study X?" abstained on "Wich".
    assert corrected("Wich papres study latancy? waht about teh rest", {}, 38)[0] == (
        "Which papers study latency? what about the rest")
    assert [reading(w, {}, 38) for w in ("gan", "vit", "rnn", "sota")] == [None] * 4  # known or no slip
    # A sentence's first word is capitalised as such, not as a name.
    assert corrected("Latancy of MoE models? Seperate papers.", {}, 38)[0] == "Latency of MoE models? Separate papers."
    assert corrected("What about Latancy?", {}, 38)[0] == "What about Latancy?"  # inside: maybe a name


def test_a_misspelt_question_is_answered_as_meant(seeded):
    slipped = seeded.ask("Which papers address mixtrue of experts latency?")
    meant = seeded.ask("Which papers address mixture of experts latency?")
    assert not slipped.abstained
    assert [c.paper_id for c in slipped.citations] == [c.paper_id for c in meant.citations]
    assert "read \u201cmixtrue\u201d as \u201cmixture\u201d" in slipped.notes
    slips = seeded.ask("which papers adress moe latancy")
    meant = seeded.ask("Which papers address MoE latency?")
    assert slips.citations and [c.paper_id for c in slips.citations] == [c.paper_id for c in meant.citations]


def test_the_other_spelling_is_read_as_the_library_writes_it():
    """British/American: both are real words, so no typing slip; the library's usual one is read."""
    us = _df("quantization", "behavior", "center", "defense", "catalog", "generalize")
    assert reading("quantisation", us, 38) == "quantization"
    assert reading("Behaviour", us, 38) == "Behavior"
    assert reading("centre", us, 38) == "center"
    assert reading("defence", us, 38) == "defense"
    assert reading("catalogue", us, 38) == "catalog"
    assert reading("generalise", us, 38) == "generalize"
    assert reading("quantization", us, 38) is None  # as the library writes it
    uk = _df("quantisation", "behaviour")
    assert reading("quantization", uk, 38) == "quantisation"
    assert reading("behavior", uk, 38) == "behaviour"
    mixed = {**_df("quantization", n=3), **_df("quantisation", n=2)}
    assert reading("quantisation", mixed, 38) is None  # both in use: as asked
    assert reading("analyses", _df("analyzes"), 38) is None  # the noun "analyses" is no spelling
    # Neither spelling in the library: as most abstracts write it (the background corpus).
    assert reading("optimisation", {}, 38) == "optimization"


def test_a_british_spelled_question_is_answered_as_the_american_one(seeded):
    british = seeded.ask("Find me work on quantisation of LLM weights")
    american = seeded.ask("Find me work on quantization of LLM weights")
    assert not british.abstained, british.text
    assert [c.paper_id for c in british.citations] == [c.paper_id for c in american.citations]
    assert "read \u201cquantisation\u201d as \u201cquantization\u201d" in british.notes
