from paperscope.answer.verify import Removal, RemovalCause, find_verbatim, verify
from paperscope.records import Evidence, Paper

ABSTRACT = ("Mixture-of-Experts models are slow on edge devices. We propose Oracle routing that cuts "
            "inference latency by 2x on memory-constrained phones. Experiments cover four LLMs.")


def _evidence():
    p1 = Paper(paper_id="a:1", abstract=ABSTRACT, title="Oracle-MoE", authors=["A. Author"])
    p2 = Paper(paper_id="b:2", abstract="We study protein folding with diffusion models. It works well.",
               title="Folding")
    return [
        Evidence(1, p1, 1.2, [(s, 1.0) for s in [
            "We propose Oracle routing that cuts inference latency by 2x on memory-constrained phones.",
            "Mixture-of-Experts models are slow on edge devices.", "Experiments cover four LLMs."]]),
        Evidence(2, p2, 0.5, [("We study protein folding with diffusion models.", 0.5), ("It works well.", 0.1)]),
    ]


def test_supported_claim_keeps_citation_with_verbatim_quote():
    out = verify("Oracle routing cuts inference latency on memory-constrained phones [1].", _evidence())
    assert len(out.citations) == 1
    c = out.citations[0]
    assert c.paper_id == "a:1" and c.quote in ABSTRACT and "latency" in c.quote
    assert out.text.endswith("[1].")


def test_hallucinated_marker_is_removed_and_reported():
    out = verify("Oracle routing cuts inference latency [1]. Quantum gravity is solved [9].", _evidence())
    assert [c.paper_id for c in out.citations] == ["a:1"]
    assert "[9]" not in out.text
    assert out.removals == [Removal(9, RemovalCause.UNKNOWN_SOURCE)]
    assert out.notes == ["removed citation [9]: no such paper was provided"]


def test_unsupported_claim_loses_its_citation():
    out = verify("Protein folding needs quantum annealers on GPUs [1].", _evidence())
    assert out.citations == [] and "[1]" not in out.text


def test_markers_are_renumbered_in_reading_order():
    out = verify("Protein folding with diffusion models works [2]. Oracle routing cuts latency on phones [1].",
                 _evidence())
    assert [c.paper_id for c in out.citations] == ["b:2", "a:1"]
    assert "[1]" in out.text.split(".")[0] and [c.marker for c in out.citations] == [1, 2]


def test_drafter_quote_accepted_only_if_verbatim():
    ev = _evidence()
    ok = verify("Latency drops on phones [1].", ev, {1: "cuts inference latency by 2x on memory-constrained phones"})
    assert ok.citations[0].quote.startswith("We propose Oracle routing")
    forged = verify("Latency drops on phones [1].", ev, {1: "latency drops by 10x on all phones"})
    assert forged.citations[0].quote in ABSTRACT  # replaced by a real sentence
    assert find_verbatim("latency drops by 10x on all phones", ABSTRACT) is None


def test_marker_after_sentence_end_binds_to_previous_sentence():
    out = verify("Oracle routing cuts inference latency on phones. [1] Protein folding uses diffusion. [2]", _evidence())
    assert [c.paper_id for c in out.citations] == ["a:1", "b:2"]


def test_list_line_whose_quote_restates_the_title_keeps_its_citation():
    # The line names the paper (title, authors, venue, year) and quotes a sentence made of title
    # words only: the quote, not the names, is what the abstract supports.
    abstract = ("This study presents a soft robotic gripper for grasping irregular objects. "
                "The design maximises mechanical advantage.")
    paper = Paper(paper_id="c:3", abstract=abstract, title="Optimal design of a soft robotic gripper for grasping "
                  "irregular objects", authors=["Chih-Hsing Liu", "Chen-Hua Chiu"], venue="ICRA", year=2017)
    quote = "This study presents a soft robotic gripper for grasping irregular objects."
    ev = [Evidence(1, paper, 0.9, [(quote, 1.0), ("The design maximises mechanical advantage.", 0.2)])]
    line = f"- {paper.title} (Chih-Hsing Liu and Chen-Hua Chiu, ICRA 2017): \u201c{quote}\u201d [1]"
    out = verify(line, ev, {1: quote})
    assert [c.paper_id for c in out.citations] == ["c:3"] and out.citations[0].quote == quote
    more = line.replace("Chih-Hsing Liu and Chen-Hua Chiu", "Chih-Hsing Liu et al.")
    assert [c.paper_id for c in verify(more, ev, {1: quote}).citations] == ["c:3"]
    # Names alone still support nothing.
    assert verify("Liu and Chiu, ICRA 2017 [1].", ev).citations == []
