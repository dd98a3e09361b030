"""What the relevance model reads for a question: candidates gathered from the retrievers (and
the cross-lingual path), their chunk vectors, and the model's probabilities (a question joining
alternatives with "or" asked once per alternative too, `disjuncts`); for `find_all`, gathered
deep, twice for an acronym question, and deeper only for a large topic.

Leaves out: deciding what to cite (`relevance.decision`) and quoting (`Relevance.quote`).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from paperscope.crosslingual import CrossLingual
from paperscope.index.bm25 import Bm25Snapshot
from paperscope.index.catalog import Catalog
from paperscope.index.embed import Embedder
from paperscope.index.store import ChromaStore
from paperscope.records import Answer, Evidence, Hit
from paperscope.relevance import Relevance, Scored, in_order
from paperscope.relevance.contribution import GATHER, asked, genre
from paperscope.relevance.decision import MAX_RELATED
from paperscope.relevance.disjuncts import disjuncts
from paperscope.relevance.features import QuestionVectors
from paperscope.relevance.library_terms import library_phrases
from paperscope.relevance.question import Question
from paperscope.relevance.similar import (
    SIMILAR_FLOOR,
    asks_other_on,
    asks_others,
    asks_similar,
    closeness,
    named,
    refers_back,
)
from paperscope.retrieve import Filters, Retriever
from paperscope.settings import Settings
from paperscope.text.acronyms import acronyms_in
from paperscope.text.zh import chinese

FilterArg = Filters | Mapping[str, Any] | None

GUARANTEED_PER_RETRIEVER = 10  # each retriever's top papers always reach the relevance model
# find_all reads this far down each retriever's list (and BM25's for the query's variants). At
# 85,864 abstracts the union of BM25 and dense top 1,000 plus the variants held 99.4% of the
# papers of 28 title-labelled topics (paperscope bench --sections listall; README "Measured").
FIND_ALL_DEPTH = 1000
FIND_ALL_FIRST_DEPTH = 250  # read first; all FIND_ALL_DEPTH only for a large topic (see `scored_all`)
# The library's name for a topic (`Gatherer._named`): it may add papers among the question's
# NAMED_NEAR densest-ranked, once NAMED_AGREE of the papers the name lists are among them.
NAMED_NEAR = 100
NAMED_AGREE = 0.5
# ... and when the name itself is not far from the question (cosine of their vectors): near papers
# of a misread question share a name too (a Chinese question on scene graphs glossed into
# saliency). Low, because a described topic is far from its name in MiniLM space ("natural
# language interfaces to relational databases" / "Text-to-SQL" 0.45, "robots inserting a part
# into a tight-tolerance hole" / "Peg-in-hole" 0.33) and the agreement above is the real check:
# 0.5 -> 0.3 took list-all paraphrases 0.123 / 0.254 -> 0.182 / 0.293 and Chinese 0.718 / 0.761
# -> 0.749 / 0.748 at 20,000 papers, direct phrasings 0.820 / 0.833 -> 0.820 / 0.831 (chosen there).
NAMED_SIMILAR = 0.3
NAMED_TRIES = 3  # phrases tried, most specific first, for one close enough
# Only in a library where the nearest NAMED_NEAR papers are a small part (5% at most): in a
# smaller one every paper is "near" and agreement means nothing (over the 38 seeds, "Mixture of
# Experts" would list every MoE paper for a question on MoE latency).
NAMED_MIN_LIBRARY = 20 * NAMED_NEAR
# A question asking for a contribution kind ("Which papers are mainly theoretical?") judges this
# many papers that use the kind's words most (BM25), besides its own candidates.
CONTRIBUTION_DEPTH = 300
SIMILAR_POOL = 60  # candidates a reference paper's title gathers for `Gatherer.similar`
SIMILAR_MAX = 10  # papers cited as like it, the nearest first


@dataclass(frozen=True)
class Candidates:
    question: Question
    vectors: QuestionVectors
    hits: list[Hit]
    chunk_vectors: dict[str, npt.NDArray[np.float32]]


@dataclass(frozen=True)
class Like:
    """Papers like a reference paper (`Gatherer.similar`)."""

    scored: Scored
    cited: list[Evidence]
    related: list[Evidence]
    about: str  # the reference titles, quoted; for `others`, the previous question
    others: bool = False  # "Any others?": the previous question's papers its answer did not show
    asked: bool = False  # "Any other papers on X?": X's papers the previous answer did not show

    @property
    def standalone(self) -> str:
        return f"{self.about} (other papers than the previous answer's)" if self.others else f"papers similar to {self.about}"

    @property
    def note(self) -> str:
        if self.others:
            return ("papers on this question, leaving out those the previous answer cited" if self.asked
                    else "more papers on the previous question, leaving out those it cited")
        return f"papers like {self.about}, nearest by their abstracts"


class Gatherer:
    """The candidates of one library's questions (the Assistant holds one)."""

    def __init__(self, settings: Settings, store: ChromaStore, catalog: Catalog, embedder: Embedder,
                 retriever: Retriever, relevance: Relevance, crosslingual: CrossLingual) -> None:
        self.settings, self.store, self.catalog, self.embedder = settings, store, catalog, embedder
        self.retriever, self.relevance, self.crosslingual = retriever, relevance, crosslingual

    def candidates(self, question: str, snapshot: Bm25Snapshot, filters: FilterArg = None, k: int | None = None,
                   restrict: set[str] | None = None, exclude: set[str] | None = None, deep: bool = False,
                   depth: int | None = None) -> Candidates:
        """What the relevance model reads for `question`: the analysed question and its vectors, the
        hits (the best `k` fused, default `PAPERSCOPE_ANSWER_CONTEXT_PAPERS`, plus each retriever's
        top 10) and their stored chunk vectors. `deep` (find_all): every paper in either
        retriever's top `depth` (default `FIND_ALL_DEPTH`), and BM25's for the acronym/expansion
        variants."""
        english, analysis, qvec, hits = self.search(question, snapshot, filters, k, restrict, exclude, deep, depth)
        q = self.relevance.analyze(analysis, snapshot)
        chunks = {pid: n for pid, (_, n) in self.catalog.hashes([h.paper_id for h in hits]).items()}
        known = acronyms_in(english)
        vectors = self.relevance.vectors(q, qvec, lambda text: snapshot.acronyms.spell_out(text, known))
        return Candidates(q, vectors, hits, self.store.paper_vectors(chunks))

    def search(self, question: str, snapshot: Bm25Snapshot, filters: FilterArg, k: int | None = None,
                restrict: set[str] | None = None, exclude: set[str] | None = None, deep: bool = False,
                depth: int | None = None) -> tuple[str, str, npt.NDArray[np.float32], list[Hit]]:
        """The retrieval half of `candidates`: the question in English, its text for analysis,
        its vector and the hits."""
        deep_depth = depth or FIND_ALL_DEPTH
        depth = deep_depth if deep else max(self.settings.retrieve.candidates, k or 0)
        english, analysis, extra = self.crosslingual.query(question, snapshot, depth)
        qvec = self.embedder.embed([snapshot.acronyms.spell_out(english)])[0]
        if deep:
            hits = self.retriever.search(english, k=2 * deep_depth, filters=filters, restrict=restrict, vector=qvec,
                                         snapshot=snapshot, exclude=exclude, depth=deep_depth, variants=True,
                                         extra=extra)
        else:
            hits = self.retriever.search(english, k=k or self.settings.answer.context_papers, filters=filters,
                                         restrict=restrict, vector=qvec, snapshot=snapshot,
                                         each=GUARANTEED_PER_RETRIEVER, exclude=exclude, extra=extra)
        return english, analysis, qvec, hits

    def scored(self, question: str, snapshot: Bm25Snapshot, filters: FilterArg = None, k: int | None = None,
               restrict: set[str] | None = None, exclude: set[str] | None = None, deep: bool = False,
               depth: int | None = None) -> Scored:
        """`candidates`, each with the relevance model's probability, most likely first. A question
        that writes out an expansion the library defines is also asked with its acronym, each paper
        at its better probability: a paper that writes only "LLMs" scored 0.01 for "Which papers
        deal with large language models?" (BM25, phrases and sentence mentions see the expansion
        alone), 0.42 asked as "... with LLMs". The mirror of `scored_all`'s spelled-out question."""
        c = self.candidates(question, snapshot, filters, k, restrict, exclude, deep, depth)
        kind = asked(c.question, question)
        if kind is not None:
            return self._by_contribution(kind, c, snapshot, filters, restrict, exclude, CONTRIBUTION_DEPTH)
        g = genre(question)
        if g is not None:
            topic = self.scored(g.topic, snapshot, filters, k, restrict, exclude, deep, depth)
            return self._of_genre(g.kind, topic, self.relevance.score(
                topic.question, topic.vectors, c.hits, snapshot, c.chunk_vectors))
        scored = self._score(c, None, snapshot)
        for wording, stem in self._wordings(question, c.question, [snapshot.acronyms.abbreviated(question)]):
            scored = scored.merged(self._score(
                self.candidates(wording, snapshot, filters, k, restrict, exclude, deep, depth), stem, snapshot))
        return scored

    def _wordings(self, question: str, q: Question, forms: list[str | None]) -> list[tuple[str, tuple[str, ...] | None]]:
        """(wording, the stems its papers must use, or None) of `question`'s other forms (`forms`:
        its acronym forms) and each "or" alternative (`disjuncts`; not in Chinese)."""
        out: list[tuple[str, tuple[str, ...] | None]] = [(f, None) for f in forms if f is not None]
        return out + ([] if chinese(question) else list(disjuncts(q)))

    def _score(self, c: Candidates, stems: tuple[str, ...] | None, snapshot: Bm25Snapshot, topic: bool = False) -> Scored:
        """`c` scored; an "or" wording's only for the papers that use its words (`stems`)."""
        s = self.relevance.score(c.question, c.vectors, c.hits, snapshot, c.chunk_vectors, topic=topic)
        return s if stems is None else self.relevance.holding(s, stems, snapshot)

    def _by_contribution(self, kind: str, c: Candidates, snapshot: Bm25Snapshot, filters: FilterArg,
                         restrict: set[str] | None, exclude: set[str] | None, depth: int) -> Scored:
        """A question that asks for a contribution kind (`relevance.contribution`): the papers
        whose own words make that kind likely (BM25 for its vocabulary, `depth` deep, plus the
        question's candidates), each judged on it."""
        hits = self.retriever.search(GATHER[kind], k=depth, filters=filters, restrict=restrict, snapshot=snapshot,
                                     exclude=exclude, depth=depth, vector=c.vectors.question)
        papers = {h.paper_id: h.paper for h in [*c.hits, *hits] if h.paper is not None}
        return self.relevance.by_contribution(kind, c.question, c.vectors, list(papers.values()))

    def scored_all(self, question: str, snapshot: Bm25Snapshot, filters: FilterArg = None) -> Scored:
        """find_all's candidates, scored. An acronym question is also asked with its acronyms
        spelled out, each paper kept at its better probability: papers that write only
        "visual-inertial odometry" rank low for "VIO" (BM25 and sentence mentions see the acronym
        alone); one with an expansion the library defines, also with its acronym (`scored`). Each
        retriever is read `FIND_ALL_FIRST_DEPTH` deep, and `FIND_ALL_DEPTH` deep when
        a paper the list would name sits in the lower half of that (a large topic): at 20,000
        papers 758 of 766 listed papers came from a retriever's top 100 while the 1,000-deep pool
        of ~1,700 papers cost most of the time. Last, the topic's name in the library's titles
        (`library_terms`) may add papers (`_named`)."""
        spelled = snapshot.acronyms.spelled(question)
        short = snapshot.acronyms.abbreviated(question)
        depth = FIND_ALL_FIRST_DEPTH
        first = self.candidates(question, snapshot, filters, deep=True, depth=depth)
        kind = asked(first.question, question)
        if kind is not None:
            return self._by_contribution(kind, first, snapshot, filters, None, None, FIND_ALL_DEPTH)
        g = genre(question)
        if g is not None:
            topic = self.scored_all(g.topic, snapshot, filters)
            return self._of_genre(g.kind, topic, self.relevance.score(
                topic.question, topic.vectors, first.hits, snapshot, first.chunk_vectors, topic=True))
        wordings = self._wordings(question, first.question, [question, spelled, short])
        while True:
            found = [(first if q == question and depth == FIND_ALL_FIRST_DEPTH
                      else self.candidates(q, snapshot, filters, deep=True, depth=depth), stem) for q, stem in wordings]
            merged = functools.reduce(Scored.merged, (self._score(c, stem, snapshot, topic=True) for c, stem in found))
            if depth >= FIND_ALL_DEPTH:
                break
            listed = self._listed(merged)
            # Each listed paper at its best rank over the wordings: one that a wording ranks high
            # is within reach, however low another wording ranks it.
            best: dict[str, int] = {}
            for c, _ in found:
                for h in c.hits:
                    if h.paper_id in listed and (h.bm25_rank or h.dense_rank):
                        r = min(r for r in (h.bm25_rank, h.dense_rank) if r is not None)
                        best[h.paper_id] = min(r, best.get(h.paper_id, r))
            if max(best.values(), default=0) <= depth // 2:
                break
            depth = FIND_ALL_DEPTH
        merged = self.relevance.names_rule(self.relevance.whole_topic(merged, snapshot), snapshot)
        return self._named(merged, found[0][0], snapshot, filters)

    def _of_genre(self, kind: str, topic: Scored, asked_hits: Scored) -> Scored:
        """A question asking for a genre with a topic ("Any surveys on reinforcement learning?",
        `contribution.genre`): its topic's candidates and those of the question as asked, all
        judged on the topic alone, and only the genre's papers cited. The question as asked finds
        the genre's papers on a broad topic, which rank far below the topic's other papers ("A
        Short Survey" of curriculum learning for deep RL among 20,000 papers)."""
        merged = topic.merged(asked_hits)
        merged.named = topic.named
        return self.relevance.of_genre(merged, kind)

    def _listed(self, scored: Scored) -> set[str]:
        """The papers `find_all` would list (its decision, without the quotes)."""
        reach = min(self.relevance.thresholds()[0], self.relevance.list_threshold())
        return {ev.paper.paper_id for ev in scored.evidence if ev.support >= reach}

    def _named(self, scored: Scored, asked: Candidates, snapshot: Bm25Snapshot, filters: FilterArg) -> Scored:
        """`scored` plus the papers the library's name for the topic finds among the question's
        own `NAMED_NEAR` nearest papers. The name ("Crowd Counting" for "List everything about
        crowd density estimation"), when close to the question (`NAMED_SIMILAR`), is asked as its
        own question, and trusted only when at least `NAMED_AGREE` of the papers it lists are
        among those nearest: a name that lists papers far from the question names another topic
        ("urban environments" for a question on mapping among moving people, "Large Language
        Models" for one on memory footprint)."""
        if len(snapshot) < NAMED_MIN_LIBRARY:
            return scored
        # Of the NAMED_TRIES most specific phrases, the nearest to the question: the nearest
        # titles' most specific shared phrase may name a part of the topic ("Density Map" for
        # crowd density estimation, cosine 0.36) while the next names the topic ("Crowd Counting").
        options = library_phrases(asked.question, asked.hits)[:NAMED_TRIES]
        sims = [float(v @ asked.vectors.question) for v in (self.embedder.embed(options) if options else [])]
        close = [(sim, -i) for i, sim in enumerate(sims) if sim >= NAMED_SIMILAR]
        if not close:
            return scored
        phrase = options[-max(close)[1]]
        c = self.candidates(f"Which papers are about {phrase}?", snapshot, filters, deep=True, depth=NAMED_NEAR)
        named = self.relevance.names_rule(
            self.relevance.score(c.question, c.vectors, c.hits, snapshot, c.chunk_vectors, topic=True), snapshot)
        cite = self.relevance.thresholds()[0]
        listed = self._listed(named) if any(ev.support >= cite for ev in named.evidence) else set()
        near = {h.paper_id for h in asked.hits if h.dense_rank is not None and h.dense_rank <= NAMED_NEAR}
        if not listed or len(listed & near) < NAMED_AGREE * len(listed):
            return scored
        kept = [ev for ev in named.evidence if ev.paper.paper_id in near]
        out = scored.merged(Scored(scored.question, scored.vectors, kept))
        out.named = phrase
        return out

    def similar(self, question: str, snapshot: Bm25Snapshot, filters: FilterArg, last: Answer | None,
                limit: int) -> Like | None:
        """Papers like the one the question names ("Find papers similar to SLiM"), or, when it
        refers back ("Any similar papers?"), like the previous answer's papers (`last`),
        nearest first (support: the cosine, `relevance.similar`); those from `SIMILAR_FLOOR` up
        cited (`SIMILAR_MAX` at most), the next `MAX_RELATED` shown apart. After an answer, "Any
        others?" is `others`. None when the question asks for no such thing or names no paper."""
        previous = [c.paper_id for c in last.citations] if last is not None else []
        if last is not None and previous and asks_others(question):
            return self.others(last, snapshot, filters, limit)
        if last is not None and previous and asks_other_on(question):  # "Any other papers on X?"
            return self.others(last, snapshot, filters, limit, question)
        if not asks_similar(question):
            return None
        hits = self.search(question, snapshot, filters)[3]  # the named paper is among them; no vectors needed
        refs = named(question, {h.paper_id: h.paper.display_title for h in hits if h.paper is not None})
        refs = refs or (list(previous) if refers_back(question) else [])
        if not refs:
            return None
        titles = [p.display_title for p in self.catalog.papers(refs).values()]
        c = self.candidates(" ".join(titles), snapshot, filters, k=SIMILAR_POOL, exclude=set(refs))
        own = self.store.paper_vectors({pid: n for pid, (_, n) in self.catalog.hashes(refs).items()})
        close = closeness(list(own.values()), c.chunk_vectors)
        evidence = in_order(Evidence(0, h.paper, round(close[h.paper_id], 4), []) for h in c.hits
                            if h.paper is not None and h.paper_id in close and h.paper_id not in refs)
        cited = [ev for ev in evidence if ev.support >= SIMILAR_FLOOR][:min(limit, SIMILAR_MAX)]
        related = [ev for ev in evidence if ev not in cited][:MAX_RELATED]
        scored = Scored(c.question, c.vectors, evidence)
        self.relevance.quote(scored, cited + related, snapshot)  # the sentences nearest the reference's title
        return Like(scored, cited, related, "; ".join(f"\u201c{t}\u201d" for t in titles))

    def others(self, last: Answer, snapshot: Bm25Snapshot, filters: FilterArg, limit: int,
               asked: str | None = None) -> Like | None:
        """"Any others?" after `last`: its question read as `find_all` reads it (every paper on
        it), citing those at the cite threshold that `last` did not cite, best first, and showing
        the next ones apart; none cited when `last` showed every such paper. Before, "Any
        others?" had no words of its own and abstained, naming unrelated papers. `asked` ("Any
        other papers on X?"): that question instead, the same way; None when it cites no other
        paper and none of `last`'s addresses it either (then nothing was left out: it is answered
        as any question, saying which part no paper covers)."""
        earlier = asked or last.standalone_question or last.question
        shown = {c.paper_id for c in last.citations}
        scored = self.scored_all(earlier, snapshot, filters)
        cite, _ = self.relevance.thresholds()
        rest = [ev for ev in scored.evidence if ev.paper.paper_id not in shown]
        cited = [ev for ev in rest if ev.support >= cite][:limit]
        if asked is not None and not cited and not any(ev.support >= cite and ev.paper.paper_id in shown
                                                       for ev in scored.evidence):
            return None
        related = [ev for ev in rest if ev.support < cite][:MAX_RELATED]
        self.relevance.quote(scored, cited + related, snapshot)
        return Like(scored, cited, related, earlier, others=True, asked=asked is not None)

    def outside(self, question: str, snapshot: Bm25Snapshot, filters: Filters, show: int) -> tuple[list[Evidence], int, str]:
        """For a question whose filters leave no paper that addresses it: the papers that address it
        without them (`find_all`'s decision; the best `show`), how many, and the filters in words.
        Over 20,000 papers, "Which papers on NeRF were published at CVPR?" said "none covers “NeRF”"
        and named two CVPR papers on adversarial attacks as the nearest, while 32 NeRF papers came
        from other venues."""
        cited = self._every(question, snapshot, None)
        one = min(self.catalog.allowed(filters.venue, None, None, None), default=None) if filters.venue else None
        venue = [p.venue for p in self.catalog.papers([one]).values()] if one else []  # as the papers write it
        return cited[:show], len(cited), filters.described(venue, chinese(question))

    def elsewhere(self, question: str, snapshot: Bm25Snapshot, filters: FilterArg, show: int,
                  besides: set[str]) -> tuple[list[Evidence], int]:
        """For a follow-up that picks among the previous papers by a topic none of them is on ("Which of
        them use quantization?" after two papers on LLM inference): the other papers of the library
        (within the filters) on that topic (`find_all`'s decision; the best `show`), and how many.
        Before, the answer said only that none of the previous papers does, while NestQuant and SLiM
        quantize LLMs."""
        cited = [ev for ev in self._every(question, snapshot, filters) if ev.paper.paper_id not in besides]
        return cited[:show], len(cited)

    def _every(self, question: str, snapshot: Bm25Snapshot, filters: FilterArg) -> list[Evidence]:
        """Every paper `find_all` would cite for `question` (none when it abstains)."""
        decision = self.relevance.decide(self.scored_all(question, snapshot, filters), snapshot, None, every=True)
        return [] if decision.abstain else decision.cited
