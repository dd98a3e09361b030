"""Per-(question, candidate paper) features of the relevance model.

Cheap on purpose (~0.2 ms a paper): `find_all` scores hundreds of candidates per question, so
nothing here embeds paper text at query time. Signals:
- dense: cosine of the question, of its topic without scaffolding, and of each alternative group
  to the paper's best chunk (stored vectors);
- lexical: IDF-weighted coverage of the question's groups in the whole paper, its title and
  keywords, its best sentence and its opening; phrase matches; the heaviest group it misses; how
  many sentences mention the main topic; acronyms count both ways ("MoE" ~ "mixture of experts");
- soft: coverage through corpus term associations (a paper on "quantization" partly covers
  "compress"), and the weakest group's best association;
- retrieval: BM25 score (per unit of the question's IDF), BM25 / dense / fused ranks;
- relative: each of the above against the best candidate of the same question;
- the question's kind and size.
`FEATURES` is the model's input order; the model file records it and refuses another.
"""

from __future__ import annotations

import functools
import math
import os
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from paperscope.records import Paper
from paperscope.relevance.lexicon import thesaurus
from paperscope.relevance.question import Question
from paperscope.relevance.sentences import paper_key, paper_sentences
from paperscope.text.acronyms import Acronyms, own_markers
from paperscope.text.analyzer import _stemmer, raw_terms

FEATURES = (
    "cos_doc", "cos_topic", "grp_min", "grp_mean",
    "cov", "cov_title", "cov_sent", "cov_head", "phrase", "miss_max", "n_mention",
    "soft", "soft_title", "soft_min",
    "bm25", "bm25_rel", "cos_rel", "cov_rel", "rank", "b_rank", "d_rank",
    "kind_factoid", "kind_list", "n_groups",
)
RANK_CAP = 101  # ranks past the usual candidate depth all read the same
# The largest library the model was fitted on (relevance_train: list and title questions at 20,000).
FITTED_LIBRARY = 20_000
Vector = npt.NDArray[np.float32]


def rank_scale(papers: int) -> float:
    """How a rank in a library of `papers` reads to the model. In a larger library than it was
    fitted on, a topic holds proportionally more papers and fills more ranks: at 85,864 papers
    the 44 papers on "machine unlearning" reach down to rank ~200, and read unscaled, every one
    past rank 100 looked like a tail paper at 20,000 (list recall .75 at 20,000, .11 at 85,864)."""
    return 1.0 if papers <= FITTED_LIBRARY else FITTED_LIBRARY / papers


def stems(text: str) -> list[str]:
    out: list[str] = _stemmer().stemWords(raw_terms(text))
    return out


# Adjectives made from a name ("Bayesian", "Gaussian", "Markovian", "Euclidean") stem apart from
# the name ("bayes" -> "bay"): a question on "PAC-Bayes bounds" read "PAC-Bayesian Bounds" as
# missing its main word. Both now also read as the name's concept. Short words ("median",
# "asian") are left alone; longer everyday ones ("physician" -> "physic") already shared their
# 7-character prefix with the noun.
_EPONYM = ("ian", "ean")
# Other word families Snowball leaves apart ("privacy"/"private", "registration"/"register",
# "detector"/"detect", "recognition"/"recognize", "explanation"/"explain"): stems that share their
# first 5+ letters, differ only in a tail of at most 3, and that the corpus uses alike (term
# association >= 0.75, `lexicon.thesaurus`; 0.70 let in "converge"/"convex").
_FAMILY_PREFIX, _FAMILY_TAIL, _FAMILY_ASSOCIATION = 5, 3, 0.75


@functools.lru_cache(maxsize=4096)
def _name_concept(stem: str) -> str:
    return str(_stemmer().stemWord(stem[:-3]))[:7]


@functools.cache
def word_families() -> dict[str, str]:
    """Stem -> its family's concept (the shortest member's), for the stems in a family (see above)."""
    index, vecs = thesaurus()
    buckets: dict[str, list[str]] = {}
    for stem in sorted(index):
        if len(stem) >= _FAMILY_PREFIX and stem.isalpha():
            buckets.setdefault(stem[:_FAMILY_PREFIX], []).append(stem)
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    for members in buckets.values():
        if len(members) < 2:
            continue
        rows = vecs[[index[m] for m in members]]
        sims = rows @ rows.T
        for i, a in enumerate(members):
            for j in range(i + 1, len(members)):
                b = members[j]
                if a[:7] == b[:7] or sims[i, j] < _FAMILY_ASSOCIATION:
                    continue
                common = len(os.path.commonprefix([a, b]))
                if len(a) - common <= _FAMILY_TAIL and len(b) - common <= _FAMILY_TAIL:
                    parent[root(a)] = root(b)
    groups: dict[str, list[str]] = {}
    for stem in parent:
        groups.setdefault(root(stem), []).append(stem)
    out: dict[str, str] = {}
    for r, members in groups.items():
        members.append(r)
        key = min(members, key=lambda m: (len(m), m))[:7]
        out.update({m: key for m in members})
    return out


def base_concept(stem: str) -> str:
    """The one concept a word stands for in a phrase: its word family's, an adjective of a name as
    the name ("bayesian" -> "bay", "euclidean" -> "euclid"), else its 7-character prefix."""
    family = word_families().get(stem)
    if family is not None:
        return family
    return _name_concept(stem) if len(stem) >= 7 and stem.endswith(_EPONYM) else stem[:7]


def concepts_of(stem_list: Iterable[str]) -> set[str]:
    """Every concept the stems count as: each one's prefix and, for an adjective of a name, the
    name's concept too (a paper saying "Bayesian" covers a question's "Bayes" and "Bayesian"), and
    its word family's (a paper saying "private" covers "privacy")."""
    stem_list = list(stem_list)
    families = word_families()
    out = {s[:7] for s in stem_list}
    out.update(_name_concept(s) for s in stem_list if len(s) >= 7 and s.endswith(_EPONYM))
    out.update(families[s] for s in stem_list if s in families)
    return out


def phrase_pairs(seq: list[str]) -> set[str]:
    """"a b" for concepts next to each other (or one apart): the phrases a text uses."""
    return {f"{a} {b}" for a, b in zip(seq, seq[1:])} | {f"{a} {b}" for a, b in zip(seq, seq[2:])}


class PaperText:
    """A paper's words as the features need them, computed once per paper version."""

    __slots__ = ("sentences", "title", "title_seq", "all", "head", "sent_sets", "seq", "pairs", "th_all", "th_title")

    def __init__(self, paper: Paper) -> None:
        title_kw = f"{paper.title} {' '.join(paper.keywords)}"
        self.sentences = paper_sentences(paper)
        title_stems = stems(title_kw)
        sent_stems = [stems(s) for s in self.sentences]
        # Acronyms the paper spells out itself are marked in every set (`Acronyms.covers`).
        own = own_markers(paper.abstract)
        self.title = concepts_of(title_stems) | own
        self.sent_sets = [concepts_of(x) | own for x in sent_stems]
        self.all = self.title.union(*self.sent_sets)
        self.head = self.title.union(*self.sent_sets[:2])
        self.title_seq = [base_concept(s) for s in title_stems]
        self.seq = self.title_seq + [base_concept(s) for x in sent_stems for s in x]  # phrases
        self.pairs = phrase_pairs(self.seq)
        index, _ = thesaurus()
        all_stems = set(title_stems).union(*[set(x) for x in sent_stems])
        self.th_all = np.array(sorted({index[s] for s in all_stems if s in index}), dtype=np.int64)
        self.th_title = np.array(sorted({index[s] for s in title_stems if s in index}), dtype=np.int64)


class TextCache:
    """LRU of `PaperText` by paper id and content hash (the same papers come back)."""

    def __init__(self, size: int = 20000) -> None:
        self.size = size
        self._data: OrderedDict[str, PaperText] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, paper: Paper) -> PaperText:
        key = paper_key(paper)
        with self._lock:
            found = self._data.get(key)
            if found is not None:
                self._data.move_to_end(key)
                return found
        made = PaperText(paper)
        with self._lock:
            self._data[key] = made
            while len(self._data) > self.size:
                self._data.popitem(last=False)
        return made


@dataclass(frozen=True)
class QuestionVectors:
    question: Vector
    topic: Vector
    groups: tuple[Vector, ...]  # one per question group, in `Question.groups` order


@dataclass(frozen=True)
class Retrieval:
    """How the retrievers ranked a candidate (1-based; None: not in that list). `scale` < 1 reads
    the ranks of a library larger than any the model was fitted on as that library's ranks
    would be (see `rank_scale`)."""

    bm25_score: float = 0.0
    bm25_rank: int | None = None
    dense_rank: int | None = None
    fused_rank: int | None = None
    scale: float = 1.0
    # No rank reads deeper than this (`TITLE_RANK` for a titled paper, a retriever's missing rank
    # included: "ranked at most TITLE_RANK" is what the title says, whoever found the paper).
    best: float = float(RANK_CAP)


def covered_groups(q: Question, found: set[str]) -> list[bool]:
    """Which groups an already-expanded concept set covers (a group: any of its alternatives
    with every stem present): the reference `Cover` is tested against, and what an abstention
    reads to say which parts no candidate covers."""
    return [any(all(not concepts_of([s]).isdisjoint(found) for s in alt) for alt in q.options(i))
            for i in range(len(q.groups))]


class Cover:
    """Which of a question's groups a paper's concept set covers, acronyms both ways: the same as
    `covered_groups(q, acronyms.expand(found))`, with the acronym rules looked up once per question
    (expanding every sentence set of ~1,700 deep candidates was a third of find_all's time)."""

    def __init__(self, q: Question, acronyms: Acronyms) -> None:
        concepts = [concepts_of(g) for g, _ in q.groups]
        rules = {c: acronyms.rule(c) for cs in concepts for c in sorted(cs)}
        # A group is covered by any of its alternatives; an alternative by all of its stems; a
        # stem by any of its concepts (`Question.options`: each stem alone unless a bracket restated a phrase).
        self.groups = [[[[(c, rules[c]) for c in sorted(concepts_of([s]))] for s in sorted(alt)] for alt in q.options(i)]
                       for i in range(len(q.groups))]
        self.weights = [w for _, w in q.groups]
        # The main topic: the concepts of the groups weighing at least half the heaviest one.
        heaviest = max(self.weights, default=0.0)
        self.main: set[str] = set().union(*[cs for cs, w in zip(concepts, self.weights) if w >= 0.5 * heaviest])

    def hits(self, found: set[str]) -> list[bool]:
        return [any(all(any(Acronyms.covers(c, rule, found) for c, rule in stem) for stem in alt) for alt in g)
                for g in self.groups]

    def weighted(self, hits: list[bool]) -> float:
        """The question's IDF weight of the covered groups."""
        return sum(w for w, hit in zip(self.weights, hits) if hit)

    def share(self, found: set[str]) -> float:
        return self.weighted(self.hits(found))


# A paper names the question's topic where one place holds its heaviest part and this share of
# its weight.
NAMES_SHARE = 0.6


def names_topic(cover: Cover, text: PaperText) -> bool:
    """Whether `text` names the question's topic where a paper states what it is about: its title
    and keywords, or one of its first two sentences, or two later sentences, each holding the
    question's heaviest part and `NAMES_SHARE` of its weight. A single later mention is in
    passing ("... baselines such as Thompson sampling"): the line the training labels draw
    (`relevance_items.topic_labels`: on topic when in the title or central to the abstract, a
    single passing mention unlabelled). Not every word: "Scene Graph Generation by Iterative
    Message Passing" names the topic of "Which papers generate scene graphs from images?", and
    "Unlearning ..." that of "machine unlearning". On relevance_train's held-out deep list
    questions, list precision (central papers) .757 -> .844 at recall .775 -> .772 (list threshold
    .30); .75 of the weight and no heaviest part gave .858 there, but dropped papers titled with
    the topic's main word alone (list-all benchmark: "Which papers address machine unlearning?"
    recall .88 -> .38)."""
    total = sum(cover.weights)
    if total <= 0:
        return True
    heavy = max(range(len(cover.weights)), key=lambda i: cover.weights[i])

    def names(found: set[str]) -> bool:
        hits = cover.hits(found)
        return hits[heavy] and cover.weighted(hits) >= NAMES_SHARE * total - 1e-9

    if names(text.title) or any(names(s) for s in text.sent_sets[:2]):
        return True
    return sum(1 for s in text.sent_sets[2:] if names(s)) >= 2


# find_all: a paper whose title (with its keywords) states the question's topic is read as if the
# retrievers ranked it at most TITLE_RANK. In a topic of 65 papers ("exoskeleton robots", 20,000
# papers) the titled papers fill ranks 1-80, and the model, fitted where few papers answer a
# question, read rank 60 as a tail paper: "Hip exoskeleton for gait assistance" scored 0.07.
# "States the topic": the title covers TITLE_TOPIC of the question's weight, and every phrase of
# the question whose words are both in the title stands together there (at most one word apart).
TITLE_TOPIC = 0.8
TITLE_RANK = 3


def states_topic(q: Question, cover: Cover, text: PaperText) -> bool:
    """Whether `text`'s title and keywords state the question's topic (see TITLE_TOPIC)."""
    if not q.groups or cover.weighted(cover.hits(text.title)) < TITLE_TOPIC:
        return False
    seq = text.title_seq
    present = set(seq)
    together = set(zip(seq, seq[1:])) | set(zip(seq, seq[2:]))
    for a, b in q.phrases:
        pair = (base_concept(a), base_concept(b))
        if pair[0] in present and pair[1] in present and pair not in together:
            return False
    return True


def _phrase_share(q: Question, seq: list[str]) -> float:
    if not q.phrases:
        return 0.0
    pairs = set(zip(seq, seq[1:])) | set(zip(seq, seq[2:]))  # one word may sit between
    return sum(1 for a, b in q.phrases if (base_concept(a), base_concept(b)) in pairs) / len(q.phrases)


def _soft(q: Question, hits: list[bool], ids: npt.NDArray[np.int64]) -> tuple[float, float]:
    """(weighted soft coverage, weakest group's best association); a present group (`hits`) counts 1."""
    if not q.groups:
        return 0.0, 0.0
    index, vecs = thesaurus()
    paper = vecs[ids] if len(ids) else None
    total, weakest = 0.0, 1.0
    for i, ((g, w), hit) in enumerate(zip(q.groups, hits)):
        best = 1.0
        alternatives = q.restated(i)
        if not hit and alternatives and paper is not None:
            # A restated phrase ("event cameras (dynamic vision sensors)"): each alternative is as
            # near as its weakest word; any one word's own presence ("rare events") is not the
            # phrase (read as a flat group, a diffusion paper scored 0.55 for event cameras).
            def near(stem: str) -> float:
                return max(0.0, float((paper @ vecs[index[stem]]).max())) if stem in index else 0.0

            best = max(min(near(s) for s in alt) for alt in alternatives)
        elif not hit:
            rows = [index[s] for s in g if s in index]
            best = max(0.0, float((paper @ vecs[rows].T).max())) if (rows and paper is not None) else 0.0
        total += w * best
        weakest = min(weakest, best)
    return total, weakest


def candidate_features(q: Question, qv: QuestionVectors, text: PaperText, chunk_vectors: Vector,
                       retrieval: Retrieval, cover: Cover, idf_mass: float) -> dict[str, float]:
    """The features of one candidate, before `add_relative`; `cover` is `Cover(q, acronyms)`."""
    cos = chunk_vectors @ qv.question if len(chunk_vectors) else np.zeros(1, np.float32)
    grp = [float((chunk_vectors @ g).max()) if len(chunk_vectors) else 0.0 for g in qv.groups]
    weights = [w for _, w in q.groups]
    hits = cover.hits(text.all)
    missing = [w for w, hit in zip(weights, hits) if not hit]
    mention = sum(1 for ss in text.sent_sets if ss & cover.main) / max(len(text.sent_sets), 1) if q.groups else 0.0
    title_hits = cover.hits(text.title)
    soft, soft_min = _soft(q, hits, text.th_all)
    soft_title, _ = _soft(q, title_hits, text.th_title)

    def rank(r: int | None) -> float:
        return math.log(min(max(1.0, r * retrieval.scale) if r else RANK_CAP, RANK_CAP, retrieval.best))

    return {
        "cos_doc": float(cos.max()),
        "cos_topic": float((chunk_vectors @ qv.topic).max()) if len(chunk_vectors) else 0.0,
        "grp_min": min(grp) if grp else 0.0,
        "grp_mean": float(sum(x * w for x, w in zip(grp, weights))),
        "cov": cover.weighted(hits),
        "cov_title": cover.weighted(title_hits),
        "cov_sent": max((cover.share(s) for s in text.sent_sets), default=0.0),
        "cov_head": cover.share(text.head),
        "phrase": _phrase_share(q, text.seq),
        "miss_max": max(missing, default=0.0),
        "n_mention": mention,
        "soft": soft, "soft_title": soft_title, "soft_min": soft_min,
        "bm25_raw": retrieval.bm25_score,
        "bm25": retrieval.bm25_score / (idf_mass or 1.0),
        "rank": rank(retrieval.fused_rank), "b_rank": rank(retrieval.bm25_rank), "d_rank": rank(retrieval.dense_rank),
        "kind_factoid": float(q.kind == "factoid"), "kind_list": float(q.kind == "list"),
        "n_groups": float(len(q.groups)),
    }


def add_relative(rows: list[dict[str, float]]) -> None:
    """Features against the best candidate of the same question (in place)."""
    if not rows:
        return
    best_cos = max(r["cos_doc"] for r in rows)
    best_cov = max(r["cov"] for r in rows)
    best_bm = max(r["bm25_raw"] for r in rows) or 1.0
    for r in rows:
        r["cos_rel"] = r["cos_doc"] - best_cos
        r["cov_rel"] = r["cov"] - best_cov
        r["bm25_rel"] = r["bm25_raw"] / best_bm


def matrix(rows: Sequence[dict[str, float]]) -> npt.NDArray[np.float64]:
    return np.array([[r[f] for f in FEATURES] for r in rows], dtype=np.float64).reshape(len(rows), len(FEATURES))
