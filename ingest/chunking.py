"""Chunks: a paper's abstract cut into whole-sentence pieces, each embedded with its title.

`embed_text` is exactly what the embedder sees for a chunk ("<title>. <chunk text>").
Leaves out: overlapping windows (a chunk boundary is always a sentence boundary).
"""

from __future__ import annotations

import os
from collections.abc import Callable

from paperscope.index.store import Chunk
from paperscope.records import Paper
from paperscope.text.sentences import sentences


def token_counter() -> Callable[[str], int]:
    """Token counts of llama-index's tokenizer (tiktoken cl100k with `allowed_special="all"`),
    loaded from the BPE file llama-index ships, without importing llama_index.core (seconds)."""
    import importlib.util

    import tiktoken

    spec = importlib.util.find_spec("llama_index.core")
    locations = list(spec.submodule_search_locations or []) if spec else []
    cache = os.path.join(locations[0], "_static", "tiktoken_cache") if locations else None
    previous = os.environ.get("TIKTOKEN_CACHE_DIR")
    try:
        if previous is None and cache:
            os.environ["TIKTOKEN_CACHE_DIR"] = cache
        encode = tiktoken.encoding_for_model("gpt-3.5-turbo").encode
    finally:
        if previous is None:
            os.environ.pop("TIKTOKEN_CACHE_DIR", None)
    return lambda text: len(encode(text, allowed_special="all"))


def chunk_paper(paper: Paper, max_tokens: int, count_tokens: Callable[[str], int]) -> list[Chunk]:
    """Whole-sentence chunks of at most ~max_tokens (a longer sentence stands alone)."""
    content_hash = paper.content_hash()
    sents = sentences(paper.abstract) or [paper.abstract]
    groups: list[list[str]] = [[]]
    used = 0
    for sent in sents:
        n = count_tokens(sent)
        if groups[-1] and used + n > max_tokens:
            groups.append([])
            used = 0
        groups[-1].append(sent)
        used += n
    texts = [" ".join(g) for g in groups if g]
    return [Chunk(paper, i, len(texts), t, content_hash) for i, t in enumerate(texts)]


def embed_text(chunk: Chunk) -> str:
    """What the embedder sees for a chunk: the title gives every chunk its context."""
    title = chunk.paper.title
    return f"{title}. {chunk.text}" if title else chunk.text
