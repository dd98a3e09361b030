"""`Assistant.as_retriever` inside a real LlamaIndex `RetrieverQueryEngine` (llama_index.core's
MockLLM, which echoes its prompt: deterministic, no network): the nodes are papers with their
metadata and best sentence, and the LLM is given them."""

from __future__ import annotations

from llama_index.core.llms import MockLLM
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.retrievers import BaseRetriever

QUESTION = "Which papers address MoE latency?"
ORACLE = "000_a7ebabe1402f1cf3.txt:5"


def test_retriever_in_a_query_engine(fake_assistant):
    retriever = fake_assistant.as_retriever(k=4)
    assert isinstance(retriever, BaseRetriever)
    engine = RetrieverQueryEngine.from_args(retriever, llm=MockLLM())
    response = engine.query(QUESTION)
    nodes = response.source_nodes
    assert len(nodes) == 4
    assert nodes[0].node.metadata["paper_id"] == ORACLE  # the paper `ask` cites first
    ask = fake_assistant.ask(QUESTION)
    assert ask.citations[0].paper_id == ORACLE
    scores = [n.score for n in nodes]
    assert scores == sorted(scores, reverse=True)
    papers = fake_assistant.catalog.papers([n.node.metadata["paper_id"] for n in nodes])
    for n in nodes:
        meta = n.node.metadata
        assert set(meta) >= {"paper_id", "title", "authors", "venue", "year", "url", "best_sentence"}
        paper = papers[meta["paper_id"]]
        assert meta["title"] == paper.display_title and meta["authors"] == paper.authors and meta["url"] == paper.url
        assert meta["venue"] == paper.venue and meta["year"] == paper.year
        assert meta["best_sentence"] in paper.abstract
        assert paper.abstract in n.node.get_content()
    # The LLM saw the sources (MockLLM answers with its prompt): titles and best sentences, no ids.
    text = str(response)
    assert nodes[0].node.metadata["title"] in text and nodes[0].node.metadata["best_sentence"] in text
    assert "paper_id" not in text
    assert ask.citations[0].quote == nodes[0].node.metadata["best_sentence"]


def test_retriever_honours_filters_and_k(fake_assistant):
    nodes = fake_assistant.as_retriever(k=2, filters={"year": 1999}).retrieve(QUESTION)
    assert nodes == []
    nodes = fake_assistant.as_retriever(k=20).retrieve("mixture of experts")
    assert len(nodes) == 20 and len({n.node.node_id for n in nodes}) == 20
