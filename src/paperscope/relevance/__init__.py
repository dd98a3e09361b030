"""Relevance: which candidate papers address a question, how sure, and which sentence shows it.

The Assistant talks to this package through `Relevance` only:
- `Relevance.score(question, vectors, hits, corpus, chunk_vectors)` -> evidence, most likely first:
  per candidate, the learned model's probability that the paper addresses the question
  (`features` -> `model`, trees fitted by `paperscope.bench.relevance_train`);
- `Relevance.quote(evidence, ...)` ranks the sentences of the papers that will be shown
  (`quotes`: the sentence holding the answer, or the finding);
- `Relevance.decide(evidence, ...)` -> what to cite, what to show apart as related, or abstain
  with the parts of the question no candidate covers (`decision`); a paper using neither word of
  a research term the question names is not cited (`Relevance.missing_term`).
`ask` and `find_all` share all three: one notion of relevance.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

import numpy as np
import numpy.typing as npt

from paperscope.index.embed import Embedder
from paperscope.records import Evidence, Hit, Paper
from paperscope.relevance.contribution import CLAIMS, judge, support
from paperscope.relevance.decision import Decision, decide
from paperscope.relevance.features import (
    RANK_CAP,
    TITLE_RANK,
    Cover,
    QuestionVectors,
    Retrieval,
    TextCache,
    add_relative,
    base_concept,
    candidate_features,
    concepts_of,
    covered_groups,
    matrix,
    names_topic,
    phrase_pairs,
    rank_scale,
    states_topic,
    stems,
)
from paperscope.relevance.lexicon import common_phrases, title_phrases
from paperscope.relevance.lexicon import idf as library_idf
from paperscope.relevance.model import RelevanceModel, load
from paperscope.relevance.question import Question, analyze
from paperscope.relevance.quotes import check, first_rules, ranked, sentence_features
from paperscope.relevance.sentences import SentenceCache
from paperscope.settings import AnswerSettings
from paperscope.text.acronyms import Acronyms
from paperscope.text.asks import affirmed

__all__ = ["CorpusStats", "Decision", "Question", "Relevance", "Scored"]


# find_all's whole-topic rule (`Relevance.whole_topic`).
WHOLE_MIN = 3
WHOLE_MISSING = 0.3
# find_all's named-topic rule (`Relevance.names_rule`): applies once this many candidates name the topic.
NAMES_MIN = 3
# The missing-term rule (`Relevance.missing_term`): a named term of the question weighing this share.
TERM_MISSING = 0.4


def _common_ground(a: str, b: str) -> bool:
    """Two adjacent question stems are a phrase of the field's common ground ("neural network")."""
    return f"{base_concept(a)} {base_concept(b)}" in common_phrases()


class CorpusStats(Protocol):
    """Statistics of the library a question is answered from (a `Bm25Snapshot` is one)."""

    @property
    def acronyms(self) -> Acronyms: ...

    @property
    def stem_df(self) -> dict[str, int]: ...

    def __len__(self) -> int: ...


def in_order(evidence: Iterable[Evidence]) -> list[Evidence]:
    """`evidence` most likely first, markers renumbered 1.. in that order."""
    out = sorted(evidence, key=lambda ev: -ev.support)
    for marker, ev in enumerate(out, 1):
        ev.marker = marker
    return out


@dataclass
class Scored:
    """A question's candidates as the model saw them."""

    question: Question
    vectors: QuestionVectors
    evidence: list[Evidence]  # most likely first; `support` is the probability
    named: str | None = None  # the library's name for the topic, when it added papers (find_all)
    contribution: str | None = None  # the contribution kind asked for (`contribution.asked`); quotes chosen
    preset: bool = False  # papers listed by metadata alone (`Listings.in_scope`); quotes chosen
    held_for: str | None = None  # the genre asked with the topic, when papers on it were held back (`of_genre`)
    genre: str | None = None  # the genre asked with the topic (`of_genre`): quotes show it first
    lead: list[str] = field(default_factory=list)  # said before a listing by metadata (`Listings.not_using`)

    def merged(self, other: Scored) -> Scored:
        """This question's candidates together with another wording's (the same question with its
        acronyms spelled out): each paper at its higher probability, most likely first; the
        question and vectors stay this one's (quotes answer the question as asked)."""
        best: dict[str, Evidence] = {}
        for ev in [*self.evidence, *other.evidence]:
            pid = ev.paper.paper_id
            if pid not in best or ev.support > best[pid].support:
                best[pid] = ev
        return Scored(self.question, self.vectors, in_order(best.values()), contribution=self.contribution,
                      held_for=self.held_for or other.held_for, genre=self.genre or other.genre)


class Relevance:
    def __init__(self, embedder: Embedder, settings: AnswerSettings, model: RelevanceModel | None = None) -> None:
        self.embedder = embedder
        self.settings = settings
        self._model = model
        self.sentences = SentenceCache(embedder)
        self.texts = TextCache()

    @property
    def model(self) -> RelevanceModel:
        if self._model is None:
            self._model = load()
        return self._model

    def thresholds(self) -> tuple[float, float]:
        """(cite, related) probabilities: the model's measured ones unless settings override them."""
        cite = self.settings.cite_threshold if self.settings.cite_threshold is not None else self.model.cite
        related = self.settings.related_threshold if self.settings.related_threshold is not None else self.model.related
        return cite, min(related, cite)

    def list_threshold(self) -> float:
        """Probability from which `find_all` lists a paper (once one reaches the cite threshold)."""
        if self.settings.list_threshold is not None:
            return self.settings.list_threshold
        return self.model.listing

    def whole_topic(self, scored: Scored, corpus: CorpusStats) -> Scored:
        """find_all: once at least `WHOLE_MIN` candidates cover every part of the question in their own words, a paper missing a
        part that alone weighs `WHOLE_MISSING` of the question or more is not listed (its probability is capped below the list
        threshold; it may still show as related). One heavy part, not the sum of the missing parts: a question that describes its
        topic in many light words ("translating natural language questions into SQL queries") is missed by the papers naming it
        ("Text-to-SQL ...") several words at a time (85,864 papers: recall 0.47 -> 0.50 there, list-all direct 0.778 -> 0.780).
        Topic mode reads ranks at the library's scale, which lifts every paper of the larger topic: over 85,864 papers "Which
        papers address MoE latency?" listed ten MoE papers that never mention latency (0.40 of the question's weight) at
        0.31-0.66. A question described in other words than the papers use (few candidates cover all of it) is left alone."""
        q = scored.question
        if len(q.groups) < 2:
            return scored
        cover = Cover(q, corpus.acronyms)
        hits = [cover.hits(self.texts.get(ev.paper).all) for ev in scored.evidence]
        if sum(1 for h in hits if all(h)) < WHOLE_MIN:
            return scored
        heaviest = [max((w for w, hit in zip(cover.weights, h) if not hit), default=0.0) for h in hits]
        return self._unlisted(scored, [m >= WHOLE_MISSING for m in heaviest])

    def holding(self, scored: Scored, stems: tuple[str, ...], corpus: CorpusStats) -> Scored:
        """`scored` without the papers that lack one of `stems` (acronyms both ways): an "or" wording's (`disjuncts`)."""
        q = replace(scored.question, groups=tuple((frozenset([s]), 1.0) for s in stems), alternatives=())
        cover = Cover(q, corpus.acronyms)
        return replace(scored, evidence=[ev for ev in scored.evidence if all(cover.hits(self.texts.get(ev.paper).all))])

    def names_rule(self, scored: Scored, corpus: CorpusStats) -> Scored:
        """find_all: a paper that names the question's topic only once in passing, not in its title
        or opening (`features.names_topic`), is not listed once `NAMES_MIN` listed candidates and
        the best one name it (probability capped below the list threshold; it may still show as
        related). The training labels leave such papers out (neither on nor off topic), so the
        model never learned them as negatives: on relevance_train's 450 held-out deep list
        questions they were 1 in 5 listed papers ("Hierarchical Bayesian Bandits" for "Which
        papers use Thompson sampling?"). There the rule took list precision (papers central to
        the topic) .757 -> .844 at recall .775 -> .772 (list threshold .30), and the list
        threshold chosen with it, .20, gives recall .840 at precision .817."""
        q = scored.question
        if not q.groups or not scored.evidence:
            return scored
        cite = self.thresholds()[0]
        reach = min(cite, self.list_threshold())
        cover = Cover(q, corpus.acronyms)
        flags = [ev.support < reach or names_topic(cover, self.texts.get(ev.paper)) for ev in scored.evidence]
        naming = [ev for ev, ok in zip(scored.evidence, flags) if ok and ev.support >= reach]
        if len(naming) < NAMES_MIN or naming[0].support < cite:
            return scored
        return self._unlisted(scored, [not ok for ok in flags])

    def without(self, scored: Scored, thing: str, corpus: CorpusStats) -> tuple[Scored, int]:
        """`scored` without the candidates that use `thing` ("LLM papers that do not use
        reinforcement learning"), and how many of those left out reached the cite threshold. A paper uses it when its title,
        keywords and abstract, less what they negate ("without RL", "RL-free"), cover each of its
        words (acronyms both ways) and, written out, its phrases as phrases. When `thing` has no
        topical word, nothing is left out."""
        q = self.analyze(thing, corpus)
        if not q.groups:
            return scored, 0
        cite, keep, dropped = self.thresholds()[0], [], 0
        for ev in scored.evidence:
            words = stems(affirmed(f"{ev.paper.title}. {' '.join(ev.paper.keywords)}. {ev.paper.abstract}"))
            raw, pairs = concepts_of(words), phrase_pairs([base_concept(w) for w in words])
            phrased = all(f"{base_concept(a)} {base_concept(b)}" in pairs for a, b in q.phrases)
            uses = all(covered_groups(q, raw)) and phrased or \
                not all(covered_groups(q, raw)) and all(covered_groups(q, corpus.acronyms.expand(raw)))
            if not uses:
                keep.append(ev)
            else:
                dropped += ev.support >= cite
        return replace(scored, evidence=keep), dropped

    def missing_term(self, scored: Scored, covered: Callable[[Evidence], set[str]]) -> Scored:
        """A paper that uses neither word of a research term the question names is not cited for
        it: capped just below the cite threshold, so it may still show as related, and an answer
        with no other paper abstains naming the term. A term is two adjacent topical words of the
        question that at least two titles of the background corpus use together
        (`lexicon.title_phrases`: "machine translation", "social media", "latent confounders"),
        weighing `TERM_MISSING` of the question or more. The model, fitted on a paper's share of
        the question's weight, cited Banyan ("low-resource settings", "under-represented
        languages") at 0.75 for "Any work on low-resource machine translation?"; a question's own
        wording ("where a pedestrian will walk next") is no term, and papers describe it in
        other words. Not for factoid questions (about one paper, found by its other words).
        `covered`: a paper's concepts, acronyms expanded (as `decide` reads them)."""
        q = scored.question
        if q.kind == "factoid" or not q.phrases:
            return scored
        weight = {next(iter(g)): w for g, w in q.groups if len(g) == 1}
        terms = [(a, b) for a, b in q.phrases if a in weight and b in weight and weight[a] + weight[b] >= TERM_MISSING
                 and f"{base_concept(a)} {base_concept(b)}" in title_phrases()]
        if not terms:
            return scored
        cite = self.thresholds()[0]

        def lacks(ev: Evidence) -> bool:
            found = covered(ev)
            return any(concepts_of([a]).isdisjoint(found) and concepts_of([b]).isdisjoint(found) for a, b in terms)

        cap = cite * 0.999
        return replace(scored, evidence=in_order(replace(ev, support=cap) if ev.support > cap and lacks(ev) else ev
                                                 for ev in scored.evidence))

    def of_genre(self, scored: Scored, kind: str) -> Scored:
        """`scored` (the topic of a question that also asks for a genre: "Is there a survey of
        graph neural networks?") with the papers not of that genre (`contribution.judge`) capped
        just below the cite and list thresholds: they may show as related, and with no paper of
        the genre on the topic the answer abstains naming the genre."""
        cap = min(self.thresholds()[0], self.list_threshold()) * 0.999  # out of `find_all`'s lists too

        def other(ev: Evidence) -> bool:
            return judge(kind, ev.paper.title, self.texts.get(ev.paper).sentences).probability < 0.5

        held = {ev.paper.paper_id for ev in scored.evidence if ev.support > cap and other(ev)}
        evidence = [replace(ev, support=cap) if ev.paper.paper_id in held else ev for ev in scored.evidence]
        return replace(scored, evidence=in_order(evidence), held_for=kind if held else scored.held_for, genre=kind)

    def _unlisted(self, scored: Scored, drop: Sequence[bool]) -> Scored:
        """`scored` with the papers `drop` marks capped just below the list threshold: find_all's
        rules keep them from the list, not from the related papers."""
        cap = min(self.thresholds()[0], self.list_threshold()) * 0.999
        return replace(scored, evidence=in_order(replace(ev, support=min(ev.support, cap)) if d else ev
                                                 for ev, d in zip(scored.evidence, drop)))

    def analyze(self, question: str, corpus: CorpusStats, scaffolding: bool = True) -> Question:
        df, n = corpus.stem_df, len(corpus)
        return analyze(question, lambda stems: library_idf(stems, df, n), scaffolding, _common_ground)

    def vectors(self, q: Question, question_vector: npt.NDArray[np.float32],
                spell: Callable[[str], str] | None = None) -> QuestionVectors:
        """The question's vector plus its topic's and each group's (one embedding call); `spell`
        rewrites each text first (the library's acronyms spelled out)."""
        groups = q.group_texts()
        texts = [q.topic or q.text, *groups]
        if spell is not None:
            texts = [spell(t) for t in texts]
        vecs = self.embedder.embed(texts)
        return QuestionVectors(question_vector, vecs[0], tuple(vecs[1:]))

    def rows(self, q: Question, qv: QuestionVectors, hits: Sequence[Hit], corpus: CorpusStats,
             chunk_vectors: Mapping[str, npt.NDArray[np.float32]], topic: bool = False) -> list[dict[str, float]]:
        """The model's input for each hit (in hit order; hits without a paper are skipped).
        `topic` (find_all): every paper on a topic is sought, and a topic holds more papers in a
        larger library, so ranks are read at the scale of the largest library the model was
        fitted on (`features.rank_scale`). Not for `ask`: the paper that answers a specific
        question ranks near the top in a library of any size (over the seeds plus 85,864
        papers, scaling there made `ask` quote the key fact of dev.jsonl .33 instead of .67).
        Also for `topic` only: a paper whose title states the topic reads as ranked at most
        `TITLE_RANK` (`features.states_topic`), however many papers share the topic."""
        scale = rank_scale(len(corpus)) if topic else 1.0
        idf_mass = sum(library_idf({s for g, _ in q.groups for s in g}, corpus.stem_df, len(corpus)).values())
        rows = []
        cover = Cover(q, corpus.acronyms)
        empty = np.zeros((0, len(qv.question)), np.float32)
        for rank, hit in enumerate(hits, 1):
            if hit.paper is None:
                continue
            text = self.texts.get(hit.paper)
            best = TITLE_RANK if topic and states_topic(q, cover, text) else RANK_CAP
            info = Retrieval(hit.bm25_score, hit.bm25_rank, hit.dense_rank, rank, scale, best)
            rows.append(candidate_features(q, qv, text, chunk_vectors.get(hit.paper_id, empty), info, cover, idf_mass))
        add_relative(rows)
        return rows

    def score(self, q: Question, qv: QuestionVectors, hits: Sequence[Hit], corpus: CorpusStats,
              chunk_vectors: Mapping[str, npt.NDArray[np.float32]], topic: bool = False) -> Scored:
        """Every hit's probability of addressing the question; evidence most likely first
        (`topic`: see `rows`)."""
        papers = [h.paper for h in hits if h.paper is not None]
        rows = self.rows(q, qv, hits, corpus, chunk_vectors, topic)
        probs = self.model.probability(matrix(rows)) if rows else np.zeros(0)
        evidence = [Evidence(0, p, round(float(pr), 4), []) for p, pr in zip(papers, probs)]
        evidence.sort(key=lambda ev: -ev.support)
        for marker, ev in enumerate(evidence, 1):
            ev.marker = marker
        return Scored(q, qv, evidence)

    def quote(self, scored: Scored, evidence: Sequence[Evidence], corpus: CorpusStats, focus: str | None = None,
              focus_vector: npt.NDArray[np.float32] | None = None, shortlist: int | None = None) -> None:
        """Rank the sentences of `evidence` (in place) for quoting. `focus` is what the quote must
        answer when it differs from what selected the papers (a follow-up's own words).
        `shortlist` (a long list): rank only each paper's that many sentences that cover most of
        the question's words (the others follow unranked); embedding every sentence of 150
        listed papers took most of a `find_all` (4 of 9.5 s at 85,864 papers)."""
        if not evidence or scored.preset or (scored.contribution is not None and focus is None):
            return  # a contribution kind's papers carry the sentence that shows it (`by_contribution`)
        q = self.analyze(focus or scored.question.text, corpus, scaffolding=False)
        qvec = focus_vector if focus_vector is not None else scored.vectors.question
        ranker = self.model.factoid_quotes if q.kind == "factoid" else self.model.quotes
        check(ranker)
        papers = [ev.paper for ev in evidence]
        if shortlist is None:
            got = self.sentences.get(papers)
            sentences = [sents for sents, _ in got]
            vectors = [vecs for _, vecs in got]
            rows: list[Sequence[int]] = [range(len(sents)) for sents in sentences]
        else:
            cover = Cover(q, corpus.acronyms)
            texts = [self.texts.get(p) for p in papers]
            sentences = [t.sentences for t in texts]
            rows = [sorted(sorted(range(len(t.sent_sets)), key=lambda i: -cover.share(t.sent_sets[i]))[:shortlist])
                    for t in texts]
            vectors = self.sentences.some(papers, rows)
        feats = [sentence_features(q, qvec, sents, vecs, r, p.title)
                 for sents, vecs, r, p in zip(sentences, vectors, rows, papers)]
        # One call for all papers: the ranker scores each sentence on its own, and one numpy pass
        # per tree instead of one per tree and paper (1.5 s for 115 papers).
        scores = ranker.score(np.vstack(feats)) if feats else np.zeros(0)
        start = 0
        for ev, sents, r, f in zip(evidence, sentences, rows, feats):
            own = first_rules(q, sents, r, ev.paper.title, scores[start:start + len(f)])
            ev.sentences = ranked(sents, own, r) if sents else []
            start += len(f)
            shows = judge(scored.genre, ev.paper.title, sents).sentence if scored.genre and focus is None else None
            if shows is not None:  # "Which papers propose benchmarks for NER?": the sentence that introduces it
                ev.sentences = [(sents[shows], 1.0)] + [x for x in ev.sentences if x[0] != sents[shows]]

    def by_contribution(self, kind: str, q: Question, qv: QuestionVectors, papers: Sequence[Paper]) -> Scored:
        """The papers judged on the contribution `kind` the question asks for (`contribution`),
        most likely first, each quoting the sentence that shows it."""
        cite = self.thresholds()[0]
        evidence = []
        for paper in papers:
            sentences = self.texts.get(paper).sentences
            j = judge(kind, paper.title, sentences)
            order = ([j.sentence] if j.sentence is not None else []) + [
                i for i in range(len(sentences)) if i != j.sentence]
            quoted = [(sentences[i], 1.0 if i == j.sentence else 0.0) for i in order]
            evidence.append(Evidence(0, paper, round(support(j, kind, cite), 4), quoted))
        evidence.sort(key=lambda ev: -ev.support)
        for marker, ev in enumerate(evidence, 1):
            ev.marker = marker
        # It asks which papers make the contribution, however it is worded ("Which of these papers
        # are primarily theoretical?" reads as a factoid question, which cites one paper).
        return Scored(replace(q, kind="list"), qv, evidence, contribution=kind)

    def decide(self, scored: Scored, corpus: CorpusStats, limit: int | None, follow_up: bool = False,
               every: bool = False, named: Sequence[str] = ()) -> Decision:
        """`decision.decide` with the measured thresholds; `named`: papers picked by place."""
        cite, related = self.thresholds()

        def covered(ev: Evidence) -> set[str]:
            text = self.texts.get(ev.paper)
            return corpus.acronyms.expand(text.all) | text.pairs

        if not follow_up and scored.contribution is None:
            scored = self.missing_term(scored, covered)
        decision = decide(scored, cite, related, limit, follow_up=follow_up, covered=covered, every=every,
                          listing=self.list_threshold(), picked=named)
        if decision.abstain and scored.contribution is not None:
            # What no paper covers is the contribution itself, not the question's words (which
            # most abstracts use in passing).
            return replace(decision, uncovered=[CLAIMS[scored.contribution]], partial=False)
        if decision.abstain and scored.held_for is not None:
            # Papers cover the topic (shown as related) but none is of the genre asked for.
            return replace(decision, uncovered=[CLAIMS[scored.held_for]], partial=False)
        return decision
