"""The local catalog: a SQLite table of stored papers plus the BM25 snapshot over them.

Both are *derived* from Chroma (the source of truth) and live beside it in the data dir,
named after the collection. They exist because the hot path wants, without a network round
trip: paper records by id, metadata filters over all papers (venue, year, author), and
lexical search. `Catalog.in_sync(chunks, generation)` compares the chunk count and the
collection's generation stamp; when they differ (another machine ingested into the same
Chroma server, or an ingest was killed between writing Chroma and updating us)
`rebuild_from(store)` reloads.

Consistency for concurrent readers: the lexical index is one immutable `Bm25Snapshot`,
replaced by a single assignment, and `rebuild_from` replaces every row in one SQLite
transaction, so a reader sees the old library or the new one, never a half-built one.
A question pins `snapshot()` once; papers outside it (written by an ingest still running)
are not part of that question's library.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

from paperscope.index import multilingual
from paperscope.index.bm25 import Bm25Snapshot
from paperscope.index.multilingual import LibraryVectors
from paperscope.records import Paper, normalize_venue

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
_UPSERT = ("INSERT INTO papers(paper_id, hash, n_chunks, venue, year, authors, json) VALUES (?,?,?,?,?,?,?) "
           "ON CONFLICT(paper_id) DO UPDATE SET hash=excluded.hash, n_chunks=excluded.n_chunks, "
           "venue=excluded.venue, year=excluded.year, authors=excluded.authors, json=excluded.json")

# The staged rows in their order (which is the BM25 index order); a repeated id keeps its first place.
_UPSERT_STAGED = ("INSERT INTO papers(paper_id, hash, n_chunks, venue, year, authors, json) "
                  "SELECT paper_id, hash, n_chunks, venue, year, authors, json FROM temp.staging WHERE true "
                  "ORDER BY rowid ON CONFLICT(paper_id) DO UPDATE SET hash=excluded.hash, "
                  "n_chunks=excluded.n_chunks, venue=excluded.venue, year=excluded.year, "
                  "authors=excluded.authors, json=excluded.json")

StoredPaper = tuple[Paper, str, int]  # (paper, content hash, number of chunks)
_Row = tuple[str, str, int, str, int | None, str, str]
_FilterColumns = tuple[dict[str, int], npt.NDArray[np.object_], npt.NDArray[np.int32], list[str], list[str]]


class PaperSource(Protocol):
    """What `rebuild_from` reads: the vector store's stored papers and its generation."""

    def iter_papers(self) -> Iterator[StoredPaper]: ...
    def generation(self) -> str: ...


def _row(paper: Paper, content_hash: str, n_chunks: int) -> _Row:
    return (paper.paper_id, content_hash, n_chunks, normalize_venue(paper.venue), paper.year,
            "\n".join(a.lower() for a in paper.authors), paper.model_dump_json())


class Catalog:
    def __init__(self, directory: Path, collection: str) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.dir = directory
        self.collection = collection
        self.path = directory / f"{collection}.sqlite"
        self._local = threading.local()
        self._write_lock = threading.Lock()
        self._index_lock = threading.Lock()  # one load or build of the BM25 snapshot at a time
        with self._conn() as db:
            db.executescript(_SCHEMA)
        self._snapshot: Bm25Snapshot | None = None
        self._xling_lock = threading.Lock()  # one load or build of the cross-lingual index at a time
        self._xling: LibraryVectors | None = None
        self._filters_cache: _FilterColumns | None = None

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=30)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            self._local.conn = conn
        return conn

    # -- state ----------------------------------------------------------------------------
    def get_state(self, key: str, default: str = "") -> str:
        row = self._conn().execute("SELECT value FROM state WHERE key=?", (key,)).fetchone()
        return str(row[0]) if row else default

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
    def put(self, items: Iterable[StoredPaper]) -> None:
        rows = [_row(p, h, n) for p, h, n in items]
        with self._write_lock, self._conn() as db:
            db.executemany(_UPSERT, rows)
        self._filters_cache = None

    def rebuild_from(self, store: PaperSource) -> None:
        """Replace the catalog with what Chroma holds (one transaction), then rebuild BM25."""
        generation = store.generation()
        with self._write_lock:
            db = self._conn()
            # Stage the rows in a connection-private table (no other reader sees it), then swap
            # them in with one short transaction.
            db.execute("CREATE TEMP TABLE IF NOT EXISTS staging (paper_id TEXT, hash TEXT, n_chunks INTEGER, "
                       "venue TEXT, year INTEGER, authors TEXT, json TEXT)")
            with db:
                db.execute("DELETE FROM temp.staging")
            batch: list[_Row] = []
            for paper, content_hash, n_chunks in store.iter_papers():
                batch.append(_row(paper, content_hash, n_chunks))
                if len(batch) >= 5000:
                    with db:
                        db.executemany("INSERT INTO temp.staging VALUES (?,?,?,?,?,?,?)", batch)
                    batch = []
            with db:  # one transaction: the old rows go and the new ones arrive together
                db.executemany("INSERT INTO temp.staging VALUES (?,?,?,?,?,?,?)", batch)
                db.execute("DELETE FROM papers")
                db.execute(_UPSERT_STAGED)
            with db:
                db.execute("DELETE FROM temp.staging")
        self._filters_cache = None
        self.build_bm25(generation)

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
                out[pid] = Paper.model_validate_json(raw)
        return out

    def records(self, paper_ids: Sequence[str]) -> list[tuple[str, str, int | None, list[str]]]:
        """(paper id, venue as written, year, authors as written) of each of `paper_ids` the catalog holds,
        read without building the whole paper records (a question about all 85,864 papers' authors)."""
        out: list[tuple[str, str, int | None, list[str]]] = []
        db = self._conn()
        for start in range(0, len(paper_ids), 500):
            part = list(paper_ids[start:start + 500])
            marks = ",".join("?" * len(part))
            for pid, venue, year, authors in db.execute(
                    "SELECT paper_id, json_extract(json, '$.venue'), year, json_extract(json, '$.authors') "
                    f"FROM papers WHERE paper_id IN ({marks})", part):
                out.append((pid, venue or "", year, json.loads(authors) if authors else []))
        return out

    def venues(self) -> list[tuple[str, int]]:
        return [(v, n) for v, n in self._conn().execute(
            "SELECT venue, COUNT(*) FROM papers GROUP BY venue ORDER BY COUNT(*) DESC")]

    def years(self) -> list[int]:
        return [y for (y,) in self._conn().execute("SELECT DISTINCT year FROM papers WHERE year IS NOT NULL ORDER BY year")]

    def _filter_columns(self) -> _FilterColumns:
        cached = self._filters_cache
        if cached is None:
            rows = self._conn().execute("SELECT paper_id, venue, COALESCE(year, -1), authors FROM papers").fetchall()
            ids = [r[0] for r in rows]
            cached = self._filters_cache = (
                {pid: i for i, pid in enumerate(ids)},
                np.array([r[1] for r in rows], dtype=object),
                np.array([r[2] for r in rows], dtype=np.int32),
                [r[3] for r in rows],
                ids,
            )
        return cached

    def venue_names(self) -> set[str]:
        """The (normalised) venues the papers list, read from the filter columns, not a query."""
        return set(self._filter_columns()[1].tolist())

    def has_author(self, name: str) -> bool:
        """Whether some paper lists an author whose name contains `name` (case-insensitive)."""
        needle = name.strip().lower()
        return bool(needle) and any(needle in a for a in self._filter_columns()[3])

    def allowed(self, venue: str | None = None, year: int | None = None, author: str | None = None,
                years: tuple[int, int] | None = None) -> set[str]:
        """Paper ids matching every given filter (author: case-insensitive substring; `years`: an
        inclusive range)."""
        _, venues, paper_years, authors, ids = self._filter_columns()
        mask = np.ones(len(ids), dtype=bool)
        if venue:
            mask &= venues == normalize_venue(venue)
        if year is not None:
            mask &= paper_years == int(year)
        if years is not None:
            mask &= (paper_years >= int(years[0])) & (paper_years <= int(years[1]))
        if author:
            needle = author.strip().lower()
            mask &= np.array([needle in a for a in authors], dtype=bool)
        return {ids[i] for i in np.flatnonzero(mask)}

    def titled(self, words: Sequence[str]) -> set[str]:
        """Ids of the papers whose title holds every one of `words` (case-insensitive, as written:
        "scaling" also in "Upscaling")."""
        if not words:
            return set()
        where = " AND ".join(["lower(json_extract(json, '$.title')) LIKE ? ESCAPE '\\'"] * len(words))
        like = ["%" + w.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%" for w in words]
        return {row[0] for row in self._conn().execute(f"SELECT paper_id FROM papers WHERE {where}", like)}

    # -- BM25 -----------------------------------------------------------------------------
    def _bm25_prefix(self) -> Path:
        return self.dir / f"{self.collection}.bm25"

    def build_bm25(self, generation: str, show_progress: bool = False) -> Bm25Snapshot:
        """Build the snapshot of the catalog as it is now, save it, then swap it in."""
        with self._index_lock:
            rows = self._conn().execute("SELECT paper_id, json FROM papers ORDER BY row").fetchall()
            snap = Bm25Snapshot.build(generation, [pid for pid, _ in rows],
                                      [Paper.model_validate_json(raw).index_text() for _, raw in rows], show_progress)
            snap.save(self._bm25_prefix())
            self.set_state("generation", generation)
            self._snapshot = snap
            return snap

    def snapshot(self) -> Bm25Snapshot:
        """The lexical index of the current generation: one immutable object, replaced whole.
        Loaded from disk (or built, when missing) the first time a generation is asked for."""
        gen = self.get_state("generation")
        snap = self._snapshot
        if snap is not None and snap.generation == gen:
            return snap
        with self._index_lock:
            for _ in range(3):  # the saved files may be replaced by a newer generation meanwhile
                snap = self._snapshot
                if snap is not None and snap.generation == gen:
                    return snap
                loaded = Bm25Snapshot.load(self._bm25_prefix(), gen)
                if loaded is not None:
                    self._snapshot = loaded
                    return loaded
                newer = self.get_state("generation")
                if newer == gen:
                    break
                gen = newer
        return self.build_bm25(gen)

    # -- cross-lingual index ------------------------------------------------------------------
    def paper_texts(self) -> list[tuple[str, str, list[str]]]:
        """(paper_id, title, keywords) of every paper, in catalog order."""
        rows = self._conn().execute("SELECT json FROM papers ORDER BY row").fetchall()
        papers = [Paper.model_validate_json(raw) for (raw,) in rows]
        return [(p.paper_id, p.display_title, p.keywords) for p in papers]

    def build_multilingual(self, generation: str, ahead: multilingual.Ahead | None = None) -> LibraryVectors:
        """Embed titles and the phrase lexicon for `generation` (paperscope.index.multilingual)."""
        with self._xling_lock:
            self._xling = multilingual.build(self.dir, self.collection, generation, self.paper_texts(), ahead=ahead)
            return self._xling

    def multilingual_ahead(self, incoming: Sequence[Paper]) -> multilingual.Ahead:
        """Start embedding, in the background, what the cross-lingual index will need once
        `incoming` is stored (see `multilingual.Ahead`)."""
        rows = {pid: (pid, title, kws) for pid, title, kws in self.paper_texts()}
        rows.update((p.paper_id, (p.paper_id, p.display_title, p.keywords)) for p in incoming)
        return multilingual.Ahead(self.dir, self.collection, list(rows.values()))

    def multilingual(self, generation: str) -> LibraryVectors:
        """The cross-lingual index of `generation`: in memory, from disk, or built now."""
        found = self._xling
        if found is not None and found.generation == generation:
            return found
        with self._xling_lock:
            found = self._xling
            if found is None or found.generation != generation:
                found = multilingual.load(self.dir, self.collection, generation)
            if found is not None:
                self._xling = found
                return found
        return self.build_multilingual(generation)

    def bm25_search(self, query: str, n: int, allowed: set[str] | None = None) -> list[tuple[str, float]]:
        """(paper_id, BM25 score) best first, over the current snapshot."""
        return self.snapshot().search(query, n, allowed)
