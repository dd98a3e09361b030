"""Corpus statistics shipped with the relevance model (built by `paperscope.bench.relevance_data`).

Each file is loaded once, on first use: scaffold ratios (research-activity verbs), background
document frequencies (IDF for small libraries), the words abstracts use (typing slips), term
associations (soft coverage), sentence position tendencies (quote choice) and the two-word
phrases titles use (named research terms).
"""

from __future__ import annotations

import functools
import gzip
import json
import math
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np
import numpy.typing as npt

DATA = Path(__file__).resolve().parent / "data"


@functools.cache
def scaffold_ratio() -> dict[str, float]:
    raw: dict[str, float] = json.loads((DATA / "scaffold.json").read_text())
    return raw


@functools.cache
def _background() -> tuple[int, dict[str, int]]:
    with gzip.open(DATA / "background_df.json.gz", "rt", encoding="utf-8") as fh:
        raw = json.load(fh)
    return int(raw["n"]), dict(raw["df"])


def background_df() -> dict[str, int]:
    """Analyzer term -> how many of the background corpus's abstracts use it."""
    return _background()[1]


def idf(stems: Iterable[str], library_df: Mapping[str, int], library_n: int) -> dict[str, float]:
    """BM25-style IDF over the library and the background corpus together: a 38-paper library
    has no reliable statistics of its own, a large one dominates its own figures."""
    bg_n, bg_df = _background()
    n = library_n + bg_n
    out = {}
    for s in stems:
        d = library_df.get(s, 0) + bg_df.get(s, 0)
        out[s] = math.log((n - d + 0.5) / (d + 0.5) + 1.0)
    return out


@functools.cache
def word_df() -> dict[str, int]:
    """Lower-case word (five letters or more) -> how many background abstracts use it (>= 3)."""
    with gzip.open(DATA / "words.txt.gz", "rt", encoding="utf-8") as fh:
        return {w: int(c) for w, c in (line.rstrip("\n").split("\t") for line in fh)}


@functools.cache
def title_phrases() -> frozenset[str]:
    """Adjacent concept pairs ("machin translat", "differenti privaci": `features.base_concept` of
    adjacent title stems) that at least two titles of the background corpus use: the phrases that
    name research topics, as against a question's own wording ("walk next", "plausib room")."""
    with gzip.open(DATA / "title_phrases.txt.gz", "rt", encoding="utf-8") as fh:
        return frozenset(line.rstrip("\n") for line in fh if line.strip())


@functools.cache
def common_phrases() -> frozenset[str]:
    """Concept pairs that over 5% of the background abstracts use ("neural network", "real
    world"): the field's common ground, left out of `title_phrases` (`relevance_data`)."""
    text = (DATA / "common_phrases.txt").read_text(encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line.strip())


@functools.cache
def thesaurus() -> tuple[dict[str, int], npt.NDArray[np.float32]]:
    with np.load(DATA / "thesaurus.npz") as d:
        vocab = [str(s) for s in d["vocab"]]
        vecs = d["vecs"].astype(np.float32)
    return {s: i for i, s in enumerate(vocab)}, vecs


@functools.cache
def position_tendency() -> dict[str, float]:
    raw: dict[str, float] = json.loads((DATA / "position.json").read_text())
    return raw
