"""Storage and indexes: `embed` (the Embedder protocol and the MiniLM embedders), `minilm`
(the model files and its fused int8 graph), `store` (chunks and vectors in Chroma), `catalog`
(paper records in SQLite) and `bm25` (the lexical index, swapped as one immutable snapshot).
"""
