"""Chunks are exactly what the embedder sees: whole sentences that fit its window together with
the title, counted in its own word pieces (real MiniLM tokenizer), so no word of an abstract is
cut off before dense search; only a sentence too long for the window alone is."""

from __future__ import annotations

import pytest

from conftest import SHARED
from paperscope.index.embed import make_embedder
from paperscope.ingest.chunking import Chunker, embed_text, window_chunks
from paperscope.records import Paper
from paperscope.settings import ChunkSettings, EmbedSettings
from paperscope.text.sentences import sentences

CORPUS = SHARED / "corpora" / "conference_abstracts.jsonl.gz"


@pytest.fixture(scope="module")
def embedder():
    return make_embedder(EmbedSettings())


def _papers(n: int) -> list[Paper]:
    if CORPUS.exists():
        from paperscope.bench.corpus import sample

        return [Paper(paper_id=r["id"], abstract=r["abstract"], title=r.get("title") or "") for r in sample(CORPUS, n)]
    text = " ".join(f"Sentence {i} describes a sparse routing method for mixture-of-experts inference on phones."
                    for i in range(40))
    return [Paper(paper_id=f"p{i}", abstract=text, title=f"A title {i}" * (i % 3)) for i in range(n)]


def test_every_chunk_fits_the_embedder_window(embedder):
    papers = _papers(400)
    chunks = window_chunks(papers, embedder)
    lengths = embedder.count_tokens([embed_text(c) for c in chunks])
    for chunk, n in zip(chunks, lengths):
        if n > embedder.window:  # only a single sentence longer than the window may exceed it
            assert len(sentences(chunk.text)) == 1, (n, chunk.text[:200])
    by_paper: dict[str, list[str]] = {}
    for c in chunks:
        by_paper.setdefault(c.paper.paper_id, []).append(c.text)
        assert c.n_chunks == len([x for x in chunks if x.paper.paper_id == c.paper.paper_id])
    for p in papers:  # nothing is lost or reordered: the chunks are the abstract's sentences
        assert sentences(" ".join(by_paper[p.paper_id])) == (sentences(p.abstract) or [p.abstract])
    # Greedy: a chunk could not have taken the next sentence of its paper.
    for a, b in zip(chunks, chunks[1:]):
        if a.paper is b.paper:
            first_next = sentences(b.text)[0]
            grown = embed_text(a) + " " + first_next
            assert embedder.count_tokens([grown])[0] > embedder.window


def test_the_embedder_reads_every_word_of_a_chunk(embedder):
    """The embedding of a chunk equals the embedding of the same text with room to spare."""
    import numpy as np

    from paperscope.index.embed import OnnxMiniLM

    if not isinstance(embedder, OnnxMiniLM) or not embedder.fused:
        pytest.skip("needs the fused int8 graph")
    roomy = OnnxMiniLM(EmbedSettings(max_tokens=512))
    chunks = [c for c in window_chunks(_papers(30), embedder) if len(sentences(c.text)) > 1][:20]
    texts = [embed_text(c) for c in chunks]
    assert np.array_equal(embedder.embed(texts), roomy.embed(texts))


def test_collections_chunked_by_tokens_keep_their_names():
    from paperscope.settings import Settings

    assert Settings(chunk=ChunkSettings(by="tokens")).collection_name() == "papers_e3a369dd79"  # as before
    assert Settings(chunk=ChunkSettings(by="window")).collection_name() != "papers_e3a369dd79"


def test_tokens_mode_keeps_the_previous_chunking(embedder):
    long = Paper(paper_id="x", title="T", abstract=" ".join(f"Sentence {i} has some words in it." for i in range(80)))
    by_tokens = Chunker(ChunkSettings(by="tokens", tokens=256), embedder)([long])
    by_window = Chunker(ChunkSettings(by="window"), embedder)([long])
    assert len(by_tokens) == 3 and len(by_window) > len(by_tokens)
    assert embedder.count_tokens([embed_text(by_tokens[0])])[0] > embedder.window  # its tail was never embedded
