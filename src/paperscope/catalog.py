"""The local catalog: a SQLite table of stored papers plus the BM25 index over them.

Both are *derived* from Chroma (the source of truth) and live beside it in the data dir,
named after the collection. They exist because the hot path wants, without a network round
trip: paper records by id, metadata filters over all papers (venue, year, author), and
lexical search. `Catalog.in_sync(store)` compares the chunk count and the collection's
generation stamp; when they differ (another machine ingested into the same Chroma server, or
an ingest was killed between writing Chroma and updating us) `rebuild_from(store)` reloads.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from paperscope.records import Paper, normalize_venue
from paperscope.text import Acronyms, concept, terms

_SCHEMA = """
CREATE TABLE IF NOT EXISTS papers (
    row INTEGER PRIMARY KEY AUTOINCREMENT,
    paper_id TEXT UNIQUE NOT NULL,
    hash TEXT NOT NULL,
    n_chunks INTEGER NOT NULL,
    venue TEXT NOT NULL,
    year INTEGER,
    authors TEXT NOT NULL,
    json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class Catalog:
    def __init__(self, directory: Path, collection: str):
        directory.mkdir(parents=True, exist_ok=True)
        self.dir = directory
        self.collection = collection
        self.path = directory / f"{collection}.sqlite"
        self._local = threading.local()
        self._lock = threading.Lock()
        with self._conn() as db:
            db.executescript(_SCHEMA)
        self._bm25 = None
        self._bm25_ids: list[str] = []
        self._bm25_pos: dict[str, int] = {}
        self._df: dict[str, int] = {}
        self._acronyms = Acronyms()
        self._bm25_gen: str | None = None
        self._filters_cache: tuple | None = None

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=30)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            self._local.conn = conn
        return conn

    # -- state ----------------------------------------------------------------------------
    def get_state(self, key: str, default: str = "") -> str:
        row = self._conn().execute("SELECT value FROM state WHERE key=?", (key,)).fetchone()
        return row[0] if row else default

    def set_state(self, key: str, value: str) -> None:
        with self._conn() as db:
            db.execute("INSERT OR REPLACE INTO state(key, value) VALUES (?, ?)", (key, value))

    def chunk_total(self) -> int:
        return int(self._conn().execute("SELECT COALESCE(SUM(n_chunks), 0) FROM papers").fetchone()[0])

    def paper_count(self) -> int:
        return int(self._conn().execute("SELECT COUNT(*) FROM papers").fetchone()[0])

    def in_sync(self, chunk_count: int, generation: str) -> bool:
        return self.chunk_total() == chunk_count and self.get_state("generation") == generation

    # -- writes ---------------------------------------------------------------------------
    def put(self, items: Iterable[tuple[Paper, str, int]]) -> None:
        rows = [
            (p.paper_id, h, n, normalize_venue(p.venue), p.year, "\n".join(a.lower() for a in p.authors), p.to_json())
            for p, h, n in items
        ]
        with self._lock, self._conn() as db:
            db.executemany(
                "INSERT INTO papers(paper_id, hash, n_chunks, venue, year, authors, json) VALUES (?,?,?,?,?,?,?) "
                "ON CONFLICT(paper_id) DO UPDATE SET hash=excluded.hash, n_chunks=excluded.n_chunks, "
                "venue=excluded.venue, year=excluded.year, authors=excluded.authors, json=excluded.json",
                rows,
            )
        self._filters_cache = None

    def rebuild_from(self, store) -> None:
        """Replace the catalog with what Chroma holds, then rebuild BM25."""
        with self._lock, self._conn() as db:
            db.execute("DELETE FROM papers")
        batch: list[tuple[Paper, str, int]] = []
        for item in store.iter_papers():
            batch.append(item)
            if len(batch) >= 5000:
                self.put(batch)
                batch = []
        self.put(batch)
        self.build_bm25(store.generation())

    # -- reads ----------------------------------------------------------------------------
    def hashes(self, paper_ids: Sequence[str]) -> dict[str, tuple[str, int]]:
        out: dict[str, tuple[str, int]] = {}
        db = self._conn()
        for start in range(0, len(paper_ids), 500):
            part = list(paper_ids[start:start + 500])
            marks = ",".join("?" * len(part))
            for pid, h, n in db.execute(f"SELECT paper_id, hash, n_chunks FROM papers WHERE paper_id IN ({marks})", part):
                out[pid] = (h, n)
        return out

    def papers(self, paper_ids: Sequence[str]) -> dict[str, Paper]:
        out: dict[str, Paper] = {}
        db = self._conn()
        for start in range(0, len(paper_ids), 500):
            part = list(paper_ids[start:start + 500])
            marks = ",".join("?" * len(part))
            for pid, raw in db.execute(f"SELECT paper_id, json FROM papers WHERE paper_id IN ({marks})", part):
                out[pid] = Paper.from_json(raw)
        return out

    def venues(self) -> list[tuple[str, int]]:
        return [(v, n) for v, n in self._conn().execute(
            "SELECT venue, COUNT(*) FROM papers GROUP BY venue ORDER BY COUNT(*) DESC")]

    def years(self) -> list[int]:
        return [y for (y,) in self._conn().execute("SELECT DISTINCT year FROM papers WHERE year IS NOT NULL ORDER BY year")]

    def _filter_columns(self):
        if self._filters_cache is None:
            rows = self._conn().execute("SELECT paper_id, venue, COALESCE(year, -1), authors FROM papers").fetchall()
            ids = [r[0] for r in rows]
            self._filters_cache = (
                {pid: i for i, pid in enumerate(ids)},
                np.array([r[1] for r in rows], dtype=object),
                np.array([r[2] for r in rows], dtype=np.int32),
                [r[3] for r in rows],
                ids,
            )
        return self._filters_cache

    def allowed(self, venue: str | None = None, year: int | None = None, author: str | None = None) -> set[str]:
        """Paper ids matching every given filter (author: case-insensitive substring)."""
        index, venues, years, authors, ids = self._filter_columns()
        mask = np.ones(len(ids), dtype=bool)
        if venue:
            mask &= venues == normalize_venue(venue)
        if year is not None:
            mask &= years == int(year)
        if author:
            needle = author.strip().lower()
            mask &= np.array([needle in a for a in authors], dtype=bool)
        return {ids[i] for i in np.flatnonzero(mask)}

    # -- BM25 -----------------------------------------------------------------------------
    def _bm25_dir(self) -> Path:
        return self.dir / f"{self.collection}.bm25"

    def build_bm25(self, generation: str, show_progress: bool = False) -> None:
        import bm25s

        rows = self._conn().execute("SELECT paper_id, json FROM papers ORDER BY row").fetchall()
        ids = [pid for pid, _ in rows]
        texts = [Paper.from_json(raw).index_text() for _, raw in rows]
        corpus = [terms(t) or ["<empty>"] for t in texts]
        # Tiny corpora define few acronyms twice; one definition is enough there.
        acronyms = Acronyms.learn(texts, min_count=1 if len(texts) < 1000 else 2)
        bm25 = bm25s.BM25(k1=1.2, b=0.75)
        if corpus:
            bm25.index(corpus, show_progress=show_progress)
        tmp = self.dir / f"{self.collection}.bm25.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        if corpus:
            bm25.save(str(tmp), show_progress=False)
        else:
            tmp.mkdir(parents=True)
        df: dict[str, int] = {}
        for doc in corpus:
            for c in {concept(t) for t in doc}:
                df[c] = df.get(c, 0) + 1
        (tmp / "ids.json").write_text(json.dumps({"generation": generation, "ids": ids}))
        (tmp / "df.json").write_text(json.dumps(df))
        (tmp / "acronyms.json").write_text(json.dumps({a: sorted(e) for a, e in acronyms.table.items()}))
        final = self._bm25_dir()
        # Swap in the new index: a crash leaves either the old or the new one, never a mix.
        old = self.dir / f"{self.collection}.bm25.old"
        shutil.rmtree(old, ignore_errors=True)
        if final.exists():
            final.rename(old)
        tmp.rename(final)
        shutil.rmtree(old, ignore_errors=True)
        self.set_state("generation", generation)
        self._bm25, self._bm25_ids, self._bm25_gen = (bm25 if corpus else None), ids, generation
        self._bm25_pos = {pid: i for i, pid in enumerate(ids)}
        self._df = df
        self._acronyms = acronyms

    def _load_bm25(self) -> None:
        import bm25s

        gen = self.get_state("generation")
        if self._bm25_gen == gen:
            return
        meta_path = self._bm25_dir() / "ids.json"
        if not meta_path.exists():
            self.build_bm25(gen)
            return
        meta = json.loads(meta_path.read_text())
        if meta["generation"] != gen:
            self.build_bm25(gen)
            return
        self._bm25_ids = meta["ids"]
        self._bm25_pos = {pid: i for i, pid in enumerate(self._bm25_ids)}
        df_path = self._bm25_dir() / "df.json"
        self._df = json.loads(df_path.read_text()) if df_path.exists() else {}
        acr_path = self._bm25_dir() / "acronyms.json"
        self._acronyms = Acronyms(json.loads(acr_path.read_text()) if acr_path.exists() else {})
        self._bm25 = bm25s.BM25.load(str(self._bm25_dir()), mmap=False, show_progress=False) if self._bm25_ids else None
        self._bm25_gen = gen

    def acronyms(self) -> Acronyms:
        with self._lock:
            self._load_bm25()
        return self._acronyms

    def idf(self, concepts) -> dict[str, float]:
        """BM25-style inverse document frequency of each concept (see text.concept)."""
        with self._lock:
            self._load_bm25()
        n = len(self._bm25_ids)
        return {c: float(np.log((n - self._df.get(c, 0) + 0.5) / (self._df.get(c, 0) + 0.5) + 1.0)) for c in concepts}

    def bm25_search(self, query: str, n: int, allowed: set[str] | None = None) -> list[tuple[str, float]]:
        """(paper_id, BM25 score) best first; only papers in `allowed` when given."""
        with self._lock:
            self._load_bm25()
        if self._bm25 is None:
            return []
        vocab = self._bm25.vocab_dict
        q = [t for t in terms(query) if t in vocab]
        if not q:
            return []
        scores = self._bm25.get_scores(q)
        if allowed is not None:
            keep = np.zeros(len(scores), dtype=bool)
            for pid in allowed:
                i = self._bm25_pos.get(pid)
                if i is not None:
                    keep[i] = True
            scores = np.where(keep, scores, 0.0)
        n = min(n, len(scores))
        top = np.argpartition(-scores, n - 1)[:n]
        top = top[np.argsort(-scores[top])]
        return [(self._bm25_ids[i], float(scores[i])) for i in top if scores[i] > 0]
