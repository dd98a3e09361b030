"""Chunks: a paper's abstract cut into whole-sentence pieces, each embedded with its title.

`embed_text` is exactly what the embedder sees for a chunk ("<title>. <chunk text>").
Two ways to size them (PAPERSCOPE_CHUNK_BY):
- `tokens` (default): up to PAPERSCOPE_CHUNK_TOKENS tiktoken tokens (llama-index's tokenizer);
  the embedder then reads only the first PAPERSCOPE_EMBED_MAX_TOKENS word pieces of
  "<title>. <chunk>", so the tail of a long chunk never reaches dense search.
- `window`: a chunk is as many whole sentences as fit the embedder's window together with the
  title prefix, counted in the embedder's own word pieces (`Embedder.count_tokens`), so every
  word of a chunk reaches dense search. A sentence too long for the window alone stands alone
  (the embedder cuts it off). Better dense recall, ~2.4x the chunks (see settings.ChunkSettings).
Leaves out: overlapping windows (a chunk boundary is always a sentence boundary).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from paperscope.index.embed import Embedder
from paperscope.index.store import Chunk
from paperscope.records import Paper
from paperscope.settings import ChunkSettings
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


def _group(sents: list[str], counts: Sequence[int], budget: int) -> list[str]:
    """Consecutive sentences joined while their counts fit `budget` (one sentence at least)."""
    groups: list[list[str]] = [[]]
    used = 0
    for sent, n in zip(sents, counts):
        if groups[-1] and used + n > budget:
            groups.append([])
            used = 0
        groups[-1].append(sent)
        used += n
    return [" ".join(g) for g in groups if g]


def _chunks(paper: Paper, texts: list[str]) -> list[Chunk]:
    content_hash = paper.content_hash()
    return [Chunk(paper, i, len(texts), t, content_hash) for i, t in enumerate(texts)]


def title_prefix(paper: Paper) -> str:
    """What precedes every chunk of a paper in `embed_text` (the space after it is no word piece)."""
    return f"{paper.title}." if paper.title else ""


def embed_text(chunk: Chunk) -> str:
    """What the embedder sees for a chunk: the title gives every chunk its context."""
    prefix = title_prefix(chunk.paper)
    return f"{prefix} {chunk.text}" if prefix else chunk.text


def chunk_paper(paper: Paper, max_tokens: int, count_tokens: Callable[[str], int]) -> list[Chunk]:
    """`tokens` chunking: whole-sentence chunks of at most ~max_tokens (a longer sentence stands alone)."""
    sents = sentences(paper.abstract) or [paper.abstract]
    return _chunks(paper, _group(sents, [count_tokens(s) for s in sents], max_tokens))


def window_chunks(papers: Sequence[Paper], embedder: Embedder) -> list[Chunk]:
    """`window` chunking: each chunk is whole sentences that fit the embedder's window after the
    title prefix, in word pieces. Counts for all papers go to the tokenizer in one call."""
    per_paper = [sentences(p.abstract) or [p.abstract] for p in papers]
    texts = [t for p, sents in zip(papers, per_paper) for t in (title_prefix(p), *sents)]
    counts = embedder.count_tokens(texts)
    out: list[Chunk] = []
    at = 0
    for paper, sents in zip(papers, per_paper):
        prefix, own = counts[at], counts[at + 1: at + 1 + len(sents)]
        at += 1 + len(sents)
        out += _chunks(paper, _group(sents, own, embedder.window - prefix))
    return out


class Chunker:
    """Papers -> chunks, as the settings say (see the module docstring)."""

    def __init__(self, settings: ChunkSettings, embedder: Embedder) -> None:
        self.settings, self.embedder = settings, embedder
        self._count: Callable[[str], int] | None = token_counter() if settings.by == "tokens" else None

    def __call__(self, papers: Sequence[Paper]) -> list[Chunk]:
        if self._count is None:
            return window_chunks(papers, self.embedder)
        count = self._count
        return [c for p in papers for c in chunk_paper(p, self.settings.tokens, count)]
