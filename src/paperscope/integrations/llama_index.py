"""paperscope's retrieval as a LlamaIndex retriever: `Assistant.as_retriever(k=5)`.

    from llama_index.core.query_engine import RetrieverQueryEngine
    engine = RetrieverQueryEngine.from_args(assistant.as_retriever(k=5), llm=my_llm)
    response = engine.query("Which papers address MoE latency?")

Each node is one paper (not a chunk): its text is the title and abstract; its score is the
paper's support for the question (what `ask` ranks and cites by); its metadata carries
`paper_id`, `title`, `authors`, `venue`, `year`, `url`, `best_sentence` (the sentence `ask`
would quote) and `support`. The LLM sees title, authors, venue, year and best sentence as
node metadata; embedding-side metadata is not used (paperscope retrieves by itself).
Leaves out: async retrieval beyond LlamaIndex's default (it runs the sync path).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from paperscope.records import Evidence

Search = Callable[[str], list[Evidence]]  # question -> evidence, best support first
LLM_METADATA = ("title", "authors", "venue", "year", "best_sentence")


def evidence_node(ev: Evidence) -> NodeWithScore:
    p = ev.paper
    metadata: dict[str, Any] = {
        "paper_id": p.paper_id, "title": p.display_title, "authors": list(p.authors), "venue": p.venue,
        "year": p.year, "url": p.url, "best_sentence": ev.best_sentence, "support": ev.support,
    }
    node = TextNode(
        id_=p.paper_id, text=f"{p.display_title}\n{p.abstract}", metadata=metadata,
        excluded_llm_metadata_keys=[k for k in metadata if k not in LLM_METADATA],
        excluded_embed_metadata_keys=list(metadata),
    )
    return NodeWithScore(node=node, score=ev.support)


class PaperscopeRetriever(BaseRetriever):
    """The papers `search` returns for a query, as LlamaIndex nodes (see the module docstring)."""

    def __init__(self, search: Search, **kwargs: Any) -> None:
        self._search = search
        super().__init__(**kwargs)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return [evidence_node(ev) for ev in self._search(query_bundle.query_str)]
