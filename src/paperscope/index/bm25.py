"""The lexical index as one immutable snapshot: BM25 over every paper's `index_text()`, the
paper ids in index order, document frequencies of concepts (for IDF coverage) and the
corpus-learned acronyms, all of one library generation.

A question pins one snapshot and uses it for BM25, IDF and acronyms, so an answer never mixes
two builds; a rebuild makes a new snapshot and the catalog swaps it in with one assignment.
On disk each generation has its own directory (`<collection>.bm25.<generation>`), written
under a temporary name and renamed when complete: readers in other processes see the old
generation's files or the new one's, never a half-written or missing index.
Leaves out: incremental updates (a rebuild of 85,864 abstracts takes ~40 s).
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from paperscope.text.acronyms import Acronyms, written_acronyms
from paperscope.text.analyzer import adjacent_joins, concept, terms

if TYPE_CHECKING:
    import bm25s

# Part of each snapshot's directory name; bumped when what a snapshot holds changes, so an older
# build is never loaded (2: hyphen compounds in the analyzer, stem_df; 3: acronyms spelled by word prefixes;
# 4: acronyms keep their expansions as written, for spelling out in questions; 5: an acronym's plural
# is the acronym, "LLMs" -> llm, `analyzer.fold`; 6: the background corpus's acronyms that the library writes
# without defining, `Acronyms.with_background`).
LAYOUT = 6


@dataclass(frozen=True)
class Bm25Snapshot:
    generation: str
    ids: tuple[str, ...] = ()
    bm25: bm25s.BM25 | None = None
    df: dict[str, int] = field(default_factory=dict)
    acronyms: Acronyms = field(default_factory=Acronyms)
    positions: dict[str, int] = field(default_factory=dict)
    stem_df: dict[str, int] = field(default_factory=dict)  # documents per analyzer term (relevance IDF)

    def __post_init__(self) -> None:
        if not self.positions and self.ids:
            object.__setattr__(self, "positions", {pid: i for i, pid in enumerate(self.ids)})

    def __len__(self) -> int:
        return len(self.ids)

    def __contains__(self, paper_id: object) -> bool:
        return paper_id in self.positions

    # -- building and storing -----------------------------------------------------------------
    @classmethod
    def build(cls, generation: str, ids: Sequence[str], texts: Sequence[str], show_progress: bool = False) -> Bm25Snapshot:
        import bm25s

        corpus = [terms(t) or ["<empty>"] for t in texts]
        # Tiny corpora define few acronyms twice; one definition is enough there.
        acronyms = Acronyms.learn(texts, min_count=1 if len(texts) < 1000 else 2)
        bm25 = None
        if corpus:
            bm25 = bm25s.BM25(k1=1.2, b=0.75)
            bm25.index(corpus, show_progress=show_progress)
        df: dict[str, int] = {}
        stem_df: dict[str, int] = {}
        for doc in corpus:
            for t in set(doc):
                stem_df[t] = stem_df.get(t, 0) + 1
            for c in {concept(t) for t in doc}:
                df[c] = df.get(c, 0) + 1
        acronyms = acronyms.with_background(written_acronyms(texts))  # saved with the snapshot: load reads it as built
        return cls(generation, tuple(ids), bm25, df, acronyms, stem_df=stem_df)

    def save(self, prefix: Path) -> None:
        """Write `<prefix>.<generation>` (complete or not at all), then remove older generations."""
        final = _generation_dir(prefix, self.generation)
        tmp = prefix.parent / f".{prefix.name}.tmp-{os.getpid()}-{threading.get_ident()}"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        try:
            if self.bm25 is not None:
                self.bm25.save(str(tmp), show_progress=False)
            (tmp / "ids.json").write_text(json.dumps({"generation": self.generation, "ids": list(self.ids)}))
            (tmp / "df.json").write_text(json.dumps(self.df))
            (tmp / "stem_df.json").write_text(json.dumps(self.stem_df))
            (tmp / "acronyms.json").write_text(json.dumps({a: sorted(e) for a, e in self.acronyms.table.items()}))
            (tmp / "acronym_surface.json").write_text(json.dumps(self.acronyms.surface))
            (tmp / "acronym_background.json").write_text(json.dumps(sorted(self.acronyms.background)))
            if final.exists():  # built twice (another process, same generation): keep the first
                shutil.rmtree(tmp, ignore_errors=True)
            else:
                tmp.rename(final)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        for old in [prefix, *prefix.parent.glob(f"{prefix.name}.*")]:  # (prefix itself: the pre-0.2 layout)
            if old != final and old.is_dir():
                shutil.rmtree(old, ignore_errors=True)

    @classmethod
    def load(cls, prefix: Path, generation: str) -> Bm25Snapshot | None:
        """The saved snapshot of `generation`, or None when there is none (or it vanished)."""
        import bm25s

        folder = _generation_dir(prefix, generation)
        try:
            meta = json.loads((folder / "ids.json").read_text())
            if meta.get("generation") != generation:
                return None
            ids = tuple(meta["ids"])
            df_path, acr_path = folder / "df.json", folder / "acronyms.json"
            df = json.loads(df_path.read_text()) if df_path.exists() else {}
            stem_path = folder / "stem_df.json"
            stem_df = json.loads(stem_path.read_text()) if stem_path.exists() else {}
            surface_path, background_path = folder / "acronym_surface.json", folder / "acronym_background.json"
            acronyms = Acronyms(json.loads(acr_path.read_text()) if acr_path.exists() else {},
                                json.loads(surface_path.read_text()) if surface_path.exists() else {},
                                json.loads(background_path.read_text()) if background_path.exists() else ())
            bm25 = bm25s.BM25.load(str(folder), mmap=False, show_progress=False) if ids else None
        except (OSError, ValueError, KeyError):
            return None  # not built yet, or removed by a newer generation while we read it
        return cls(generation, ids, bm25, df, acronyms, stem_df=stem_df)

    # -- reading ------------------------------------------------------------------------------
    def idf(self, concepts: set[str]) -> dict[str, float]:
        """BM25-style inverse document frequency of each concept (see text.analyzer.concept)."""
        n = len(self.ids)
        return {c: float(np.log((n - self.df.get(c, 0) + 0.5) / (self.df.get(c, 0) + 0.5) + 1.0)) for c in concepts}

    def variants(self, query: str) -> list[str]:
        """Index terms for the query's acronym <-> expansion variants learned from this library:
        "MoE" adds the terms of "mixture of experts", and "mixture of experts" adds "moe"."""
        if self.bm25 is None or not self.acronyms.table:
            return []
        found = {concept(t) for t in terms(query)}
        extra = self.acronyms.expand(found) - found
        return sorted({t for c in extra for t in self._by_concept.get(c, ())})

    @functools.cached_property
    def _by_concept(self) -> dict[str, list[str]]:
        """Index terms by concept (their 7-character prefix), built on first use."""
        out: dict[str, list[str]] = {}
        for t in self.bm25.vocab_dict if self.bm25 is not None else ():
            out.setdefault(concept(t), []).append(t)
        return out

    def search(self, query: str, n: int, allowed: set[str] | None = None,
               extra_terms: Sequence[str] = ()) -> list[tuple[str, float]]:
        """(paper_id, BM25 score) best first; only papers in `allowed` when given."""
        if self.bm25 is None:
            return []
        vocab: dict[str, Any] = self.bm25.vocab_dict
        q = [t for t in [*terms(query), *adjacent_joins(query), *extra_terms] if t in vocab]
        if not q:
            return []
        scores = self.bm25.get_scores(q)
        if allowed is not None:
            keep = np.zeros(len(scores), dtype=bool)
            for pid in allowed:
                i = self.positions.get(pid)
                if i is not None:
                    keep[i] = True
            scores = np.where(keep, scores, 0.0)
        n = min(n, len(scores))
        top = np.argpartition(-scores, n - 1)[:n]
        top = top[np.argsort(-scores[top])]
        return [(self.ids[i], float(scores[i])) for i in top if scores[i] > 0]


def _generation_dir(prefix: Path, generation: str) -> Path:
    return prefix.parent / f"{prefix.name}.{generation or 'empty'}.v{LAYOUT}"
