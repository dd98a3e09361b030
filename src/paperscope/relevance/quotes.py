"""Which sentence of a cited paper to quote: the one that answers the question.

Each sentence is described by (`SENTENCE_FEATURES`): its cosine to the question (and its gap
and rank among the paper's sentences), how much of the question it covers, and how much of the
question's *focus* (question words rare within this abstract: in "How much of the training
time do tensor-product layers take?" about FlashTP, "training time" is rare in the abstract and
"tensor-product" is everywhere), its position, whether it carries a number or a name the
question does not (and whether the question asks for a quantity), its length, and whether its
words lean to the results part of abstracts (`lexicon.position_tendency`), and how much of what
the question asks *beyond the paper's title* it covers, exactly and by term association (a
factoid names its paper with the title's words; the answer holds the other ones), and, for "how
many X", whether a number stands before X. For factoid questions the number/name/focus terms get
their own weights. Research verbs count here ("What hardware was
it demonstrated on?": "demonstrated" finds the answer), unlike in relevance, where they are
scaffolding (`question.analyze(..., scaffolding=False)`). A logistic ranker over these was fitted
on SciFact rationale sentences (findings, not background) and on the sentences holding factoid
answers (`paperscope.bench.relevance_train`). Two rules over the ranker: for "how many X" the
sentences that count X come first (`counted_first`); for "which papers ..." the sentences holding
every question word the title lacks (`asked_first`); those for answers that are names (datasets,
methods, models) are `name_quotes`'.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from paperscope.relevance.features import concepts_of, stems
from paperscope.relevance.lexicon import position_tendency, thesaurus
from paperscope.relevance.model import QuoteRanker
from paperscope.relevance.name_quotes import ahead as _ahead
from paperscope.relevance.name_quotes import datasets_first, names_first
from paperscope.relevance.question import Question, compared_names, contentness
from paperscope.text.analyzer import _stemmer
from paperscope.text.zh import PROBLEM_CUES

SENTENCE_FEATURES = ("s_cos", "s_cos_gap", "s_cos_rank", "s_cov", "s_focus", "s_pos", "s_first", "s_last", "s_num",
                     "s_len", "s_tend", "s_caps", "s_fact_num", "s_fact_focus", "s_fact_caps", "s_asks_num",
                     "s_rest", "s_fact_rest", "s_num_near", "s_soft_rest")
# Questions whose answer is a quantity: the sentence holding it has a number the question lacks.
_ASKS_NUMBER = re.compile(r"\b(how (many|much|large|big|long|fast|often|small|far)|by how much|what (percentage|fraction|"
                          r"proportion|share|ratio)|to what (extent|level))|多少|几|多大|多长|多快|多高|多久|比例|倍", re.I)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_NAME = re.compile(r"\b[A-Z][A-Za-z0-9]*(?:[-][A-Za-z0-9]+)*\b")
_TOKEN = re.compile(r"[A-Za-z0-9]+(?:[.,%][0-9]+)*%?")
_NEAR = 3  # tokens between a number and the question word it quantifies ("cut hallucination by 40%")
_HOW_MANY = re.compile(r"\bhow many ((?:[A-Za-z][A-Za-z-]*\s+){0,1}[A-Za-z][A-Za-z-]*)", re.I)


def asks_number(question: str) -> bool:
    """Is the answer to `question` a quantity ("how large", "by how much", 多大, 多少倍)?"""
    return bool(_ASKS_NUMBER.search(question))


def states_number(sentence: str, question: str) -> bool:
    """Does `sentence` hold a number `question` lacks?"""
    return bool(set(_NUMBER.findall(sentence)) - set(_NUMBER.findall(question)))


def _counted(q: Question) -> set[str]:
    """The concepts a "how many X" question counts (X), or none."""
    how_many = _HOW_MANY.search(q.text)
    return concepts_of(stems(how_many.group(1))) if how_many else set()


def _number_near(sent: str, q_numbers: set[str], concepts: set[str], counted: set[str], whole: bool = False) -> float:
    """1 when a number the question lacks stands by what is asked: for "how many X", a number
    followed within two words by X ("How many models were trained?" -> "training 63 models", not
    "model parameters from 80M to 1B"); for other quantities, within `_NEAR` tokens of a question
    word. The sentence states a quantity *of* what is asked, not just any number. `whole`: only
    whole numbers count ("63", "1,000"; not the size "1B")."""
    tokens = _TOKEN.findall(sent)
    numbers = [i for i, t in enumerate(tokens) if t[0].isdigit() and t.rstrip("%") not in q_numbers
               and (not whole or t.replace(",", "").isdigit())]
    if not numbers:
        return 0.0
    if counted:
        return float(any(concepts_of(stems(" ".join(tokens[i + 1:i + 3]))) & counted for i in numbers))
    words = [bool(concepts_of(stems(t)) & concepts) if not t[0].isdigit() else False for t in tokens]
    return float(any(any(words[max(0, i - _NEAR):i + _NEAR + 1]) for i in numbers))


def sentence_features(q: Question, qvec: npt.NDArray[np.float32], sentences: Sequence[str],
                      vectors: npt.NDArray[np.float32], rows: Sequence[int] | None = None,
                      title: str = "") -> npt.NDArray[np.float64]:
    """(len(rows), len(SENTENCE_FEATURES)) for one paper: the features of the sentences `rows`
    (default all), whose vectors `vectors` holds in that order; positions and how specific each
    question word is to a sentence are read over all of the paper's sentences. `title` is the
    paper's: question words it holds name the paper, the others (`s_rest`) ask about it ("What
    hardware was attention-level speculation demonstrated on?" about "Attention-Level
    Speculation": the answer covers "hardware"/"demonstrated", not "attention")."""
    n = len(sentences)
    rows = range(n) if rows is None else rows
    cos = vectors[:len(rows)] @ qvec if len(rows) else np.zeros(0, np.float32)
    order = np.argsort(-cos)
    rank = np.empty(len(rows), np.int64)
    rank[order] = np.arange(len(rows))
    sent_stems = [stems(s) for s in sentences]  # each sentence stemmed once: sets, lean and soft below
    sets = [concepts_of(st) for st in sent_stems]
    members = [concepts_of(g) for g, _ in q.groups]  # each group's concepts, once per question
    spec: dict[frozenset[str], float] = {}
    for (g, _), concepts in zip(q.groups, members):
        in_paper = sum(1 for ss in sets if ss & concepts)
        spec[g] = math.log((n + 1) / (in_paper + 0.5))
    z = sum(w * spec[g] for g, w in q.groups) or 1.0
    tend = position_tendency()
    q_numbers = set(_NUMBER.findall(q.text))
    q_words = {w.lower() for w in re.findall(r"[A-Za-z0-9-]+", q.text)}
    factoid = 1.0 if q.kind == "factoid" else 0.0
    quantity = 1.0 if asks_number(q.text) else 0.0
    in_title = concepts_of(stems(title))
    rest = [not (concepts & in_title) for concepts in members]
    z_rest = sum(w * spec[g] for (g, w), r in zip(q.groups, rest) if r)
    q_concepts = set().union(*members) if members else set()
    index, assoc = thesaurus()
    # Each question group's association vectors (groups outside the thesaurus: none).
    group_vecs = [assoc[[index[x] for x in g if x in index]] for g, _ in q.groups]
    counted = _counted(q)
    out = []
    for j, i in enumerate(rows):
        sent, ss = sentences[i], sets[i]
        hit = [bool(ss & concepts) for concepts in members]
        cov = sum(w for (g, w), h in zip(q.groups, hit) if h)
        focus = sum(w * spec[g] for (g, w), h in zip(q.groups, hit) if h) / z
        number = 1.0 if set(_NUMBER.findall(sent)) - q_numbers else 0.0
        names = [m.group(0) for m in _NAME.finditer(sent) if m.start() > 0 and m.group(0).lower() not in q_words]
        caps = math.log1p(len(names))
        lean = [tend.get(s, 0.0) for s in sent_stems[i]]
        # No question word outside the title: the title names everything asked, read as coverage.
        asked = (sum(w * spec[g] for (g, w), h, r in zip(q.groups, hit, rest) if h and r) / z_rest) if z_rest else focus
        near = _number_near(sent, q_numbers, q_concepts, counted) if quantity else 0.0
        # The same, softly: a missing group counts its best association to a sentence word
        # ("expensive" ~ "computationally intensive", "sampling" ~ "Monte Carlo").
        soft = asked
        if z_rest:
            ids = [index[x] for x in sent_stems[i] if x in index]
            sv = assoc[ids] if ids else None
            soft = sum(w * spec[g] * (1.0 if h else (max(0.0, float((sv @ gv.T).max()))
                                                     if sv is not None and len(gv) else 0.0))
                       for (g, w), h, r, gv in zip(q.groups, hit, rest, group_vecs) if r) / z_rest
        out.append([
            float(cos[j]), float(cos[j] - cos.max()), float(min(rank[j], 5)), cov, focus, i / max(n - 1, 1),
            float(i == 0), float(i == n - 1), number, math.log1p(len(sent.split())),
            float(np.mean(lean)) if lean else 0.0, caps, factoid * number, factoid * focus, factoid * caps,
            quantity * number, asked, factoid * asked, near, soft,
        ])
    return np.array(out, dtype=np.float64).reshape(len(rows), len(SENTENCE_FEATURES))


def counted_first(q: Question, sentences: Sequence[str], rows: Sequence[int],
                  scores: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """For "how many X", the sentences that count X ("training 63 models": a whole number the
    question lacks, followed within two words by X) ahead of all others, in the ranker's order.
    The count is the answer, and a sentence without it cannot be one however much of the
    question it restates ("We perform extensive empirical studies to fit ... scaling laws"
    outscored "training 63 models" for "How many models were trained to fit the scaling laws?").
    A size is not a count ("the Morph-1B model"). Other questions: `scores` unchanged."""
    counted = _counted(q)
    if not counted or not len(scores):
        return scores
    q_numbers = set(_NUMBER.findall(q.text))
    counts = np.array([_number_near(sentences[i], q_numbers, set(), counted, whole=True) for i in rows])
    return _ahead(scores, counts)


# "What speedup does Attention-Level Speculation report?", "How much faster is it?": the answer is a
# factor ("decode latency by up to 1.65x", "3.2 times faster", "a 10-fold reduction"); the rankers
# quoted "... approximate up to 90% of self-attention", a number but no factor.
_ASKS_FACTOR = re.compile(r"\bspeed-?ups?\b|\bhow\s+(?:much|many\s+times)\s+(?:faster|quicker|slower|smaller|"
                          r"cheaper|larger)\b|\bcompression\s+(?:ratio|rate|factor)\b", re.I)
# A factor, not a size ("3×3 kernels", "a 3 x 3 grid").
_FACTOR = re.compile(r"\d(?:\.\d+)?(?:x|\s?×|\s?\$?\\times\$?)(?![A-Za-z0-9])(?!\s*\$?\d)"
                     r"|\b\d+(?:\.\d+)?[- ]?(?:fold|times)\b", re.I)


def factors_first(q: Question, sentences: Sequence[str], rows: Sequence[int],
                  scores: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """For a factoid asking for a speedup or another factor (`_ASKS_FACTOR`), the sentences that
    state a factor ahead of all others, in the ranker's order (when one does). Other questions:
    `scores` unchanged."""
    if q.kind != "factoid" or not len(scores) or not _ASKS_FACTOR.search(q.text):
        return scores
    factors = np.array([float(bool(_FACTOR.search(sentences[i]))) for i in rows])
    return _ahead(scores, factors) if factors.any() else scores


def asked_first(q: Question, sentences: Sequence[str], rows: Sequence[int], title: str,
                scores: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """For "which papers ..." questions, the sentences that hold every question word the paper's
    title lacks ahead of all others, in the ranker's order (when one does). Such a quote shows
    the paper addresses what was asked; the ranker, fitted on findings (SciFact) and factoid
    answers, quoted Oracle-MoE's "Theoretical analysis proves ... better expert activation
    consistencies" for "Which papers address MoE latency?" over its "... will yield intolerable
    inference latencies" (MoE is in the title; latency is what was asked about it).
    Other questions: `scores` unchanged."""
    if q.kind != "list" or not len(scores):
        return scores
    in_title = concepts_of(stems(title))
    # Research verbs count for quotes (`q` keeps them), but no sentence need say "deal": "Which papers deal
    # with privacy?" quoted FedATH's results sentence over the one about "preserving the local data privacy".
    stem = _stemmer().stemWord
    topical = {stem(w.lower()) for w in q.order if contentness(w.lower(), stem(w.lower())) >= 0.5}
    rest = [m for g, _ in q.groups if g & topical for m in [concepts_of(g)] if not (m & in_title)]
    if not rest:
        return scores
    holds = np.array([float(all(concepts_of(stems(sentences[i])) & m for m in rest)) for i in rows])
    if not holds.any():
        return scores
    return _ahead(scores, holds)


# "What is NestQuant?", "Summarize the GAPrompt paper", "What is the main contribution of
# Oracle-MoE?": what the paper is, not its best number. The request, then what is left of it.
_DEFINE = re.compile(r"^\s*(?:what\s+(?:is|are|does)|what'?s|summari[sz]e|describe|explain|tell\s+me\s+about|"
                     r"give\s+(?:me\s+)?an?\s+(?:overview|summary)\s+of)\s+(.*?)[\s?.!]*$", re.I)
# Asked for briefly ("Summarize NestQuant in one sentence.", "Describe Oracle-MoE briefly."): how briefly is no part
# of what is asked about. Requests only: "What is the position in a sentence?" asks about a position.
_BRIEFLY = re.compile(r"^\s*(?:(?:briefly|quickly|please)\s+)?(?:summari[sz]e|describe|explain|tell\s+me\s+about|"
                      r"give\s+(?:me\s+)?an?\s+(?:(?:short|brief|quick)\s+)?(?:overview|summary)\s+of)\s+(.*?)(?:\s+(?:in\s+(?:one|a|two|three|"
                      r"a\s+few|few|simple|plain)\s+(?:sentences?|lines?|words?|paragraphs?|terms)|briefly|in\s+brief|for\s+me|"
                      r"quickly))?[\s?.!]*$", re.I)
_CONTRIBUTION = re.compile(r"^(?:the\s+)?(?:main\s+|key\s+|core\s+)?(?:idea|contribution|point|gist)s?\s+of\s+", re.I)
_REQUEST = re.compile(r"^\s*(?:compare|contrast|summari[sz]e|describe|explain|tell\s+me|list|show)\b", re.I)
_VERSUS = re.compile(r"\b(?:vs\.?|versus)(?!\w)", re.I)
_FILLER = frozenset("the a an paper papers work method approach model do does about propose proposes".split())
_INTRODUCES = re.compile(r"\b(?:we|this\s+(?:paper|work|study)|here)\b[^.]*?\b(?:propos|introduc|present|develop|design|"
                         r"call|nam|term|offer|formulat)\w*", re.I)


# "How does NestQuant work?", "What does Oracle-MoE do?": what the method is, as "What is" asks
# (the factoid ranker quoted NestQuant's "Comparisons on bigger models ... confirm uniform superiority").
_HOW_IT_WORKS = re.compile(r"^\s*(?:how\s+(?:does|do|did)\s+(.*?)\s+(?:work|operate|function)|what\s+(?:does|do)\s+(.*?)\s+do)"
                           r"[\s?.!]*$", re.I)


def _defined(question: str) -> list[str]:
    """What a "what is it" question asks about (at most two words once the request and words
    such as "the paper" are gone: "NestQuant"), or [] for any other question."""
    works, m = _HOW_IT_WORKS.match(question), _BRIEFLY.match(question) or _DEFINE.match(question)
    asked = (works.group(1) or works.group(2)) if works else _CONTRIBUTION.sub("", m.group(1)) if m else ""
    left = [w for w in re.findall(r"[\w-]+", asked) if w.lower() not in _FILLER]
    return left if len(left) <= 2 else []


def asks_what_it_is(question: str) -> bool:
    """Whether `question` asks what a paper or its method is (see `introduced_first`); a Chinese
    one ("GAPrompt 是什么？") is read through its English analysis ("What is GAPrompt")."""
    return bool(_defined(question))


def introduced_first(q: Question, sentences: Sequence[str], rows: Sequence[int],
                     scores: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """For a question asking what a paper or its method is ("What is NestQuant?", "Summarize the
    GAPrompt paper", "What is the main contribution of Oracle-MoE?"; `_defined`), or comparing
    papers it names, the sentence that introduces it ("we propose ..."; the one naming what was
    asked, when one does) ahead of all others. The rankers, fitted on findings and factoid
    answers, quoted NestQuant's "Comparisons on bigger models ... confirm uniform superiority of
    NestQuant". Other questions: `scores` unchanged."""
    # A comparison: what each paper it names is; unless it asks for a quantity ("By how much does
    # WebAssembly reduce latency compared to GraphQL?" is answered by the number).
    # A statement ("ScPif1p binds less G-rich ssDNA compared to ...", a claim) is no request at all.
    asks = q.text.rstrip().endswith(("?", "？")) or bool(_REQUEST.match(q.text) or _VERSUS.search(q.text))
    names = compared_names(q.text) if asks and not asks_number(q.text) else []
    left = names or _defined(q.text)
    if not left or not len(scores):
        return scores
    intro = [bool(_INTRODUCES.search(sentences[i])) for i in rows]
    has = any if names else all
    naming = [ok and has(w.lower() in sentences[i].lower() for w in left) for ok, i in zip(intro, rows)]
    pick = naming if any(naming) else intro
    if not any(pick):
        return scores
    first = np.zeros(len(rows))
    first[pick.index(True)] = 1.0
    return _ahead(scores, first)


# "What problem does NestQuant solve?", "What is the motivation behind Banyan?", "Which challenges do
# the MoE papers address?", "Why did they propose Oracle-MoE?", "GAPrompt 解决了什么问题？": the
# problem the paper sets out from, which abstracts state before the method ("However, ... remains
# costly. We propose ..."). The rankers, fitted on findings, quoted NestQuant's "Comparisons on
# bigger models ... confirm uniform superiority" and Banyan's result for the motivation.
_ASKS_PROBLEM = re.compile(
    r"\b(?:what|which)\s+(?:\w+\s+)?(?:problems?|issues?|challenges?|gaps?|bottlenecks?|difficult(?:y|ies)|limitations?\s+of\s+"
    r"(?:prior|previous|existing))\b[^?]*\b(?:solv|address|tackl|target|overcom|fix|attack|aim|handl|mitigat|allevia|"
    r"focus|resolv|respond)|\bthe\s+motivation\s+(?:behind|for)\b|\bwhat\s+motivated\b|\bmotivates?\s+(?:the|this|their)\s+"
    r"(?:paper|work|study|method|approach|authors)\b|\bwhy\s+(?:did|do|does|was|were)\b[^?]*\b(?:propos|introduc|develop|"
    r"design|creat|build|built)", re.I)  # in Chinese: `text.zh.PROBLEM_CUES`
_PROBLEM = re.compile(
    r"\b(?:what|which)\s+(?:\w+\s+)?(?:problems?|issues?|challenges?|gaps?|bottlenecks?|difficult(?:y|ies)|limitations?\s+of\s+"
    r"(?:prior|previous|existing))\b[^?]*\b(?:solv|address|tackl|target|overcom|fix|attack|aim|handl|mitigat|allevia|"
    r"focus|resolv|respond)|\bmotivat(?:ion|es|ed|ing)\b|\bwhy\s+(?:did|do|does|was|were|is|are)\b[^?]*\b(?:propos|introduc|"
    r"develop|design|need|creat|build|built)|\bwhat\s+(?:problems?|challenges?|gaps?)\b|解决(?:了)?(?:什么|哪些)(?:问题|挑战)|"
    r"动机|针对(?:什么|哪些)问题|为什么(?:要)?提出", re.I)
_PROBLEM = re.compile(r"\b(?:however|but|yet|although|despite|challeng\w*|limit(?:ed|s|ation\w*)?|suffer\w*|lack\w*|fail\w*|"
                      r"remain\w*|bottleneck\w*|costly|expensive|prohibitive\w*|inefficien\w*|difficult\w*|hard|"
                      r"problem\w*|issues?|struggl\w*|hinder\w*|intolerable|unclear|poorly|degrad\w*|overhead|"
                      r"vulnerab\w*|scarce|little\s+is\s+known|neglect\w*|overlook\w*|unexplored|underexplored|"
                      r"open\s+question|bias(?:ed)?|unreliab\w*|restrict\w*|impractical)\b", re.I)


_WE = re.compile(r"\b(?:we|our|this\s+(?:paper|work|study))\b", re.I)


def asks_problem(question: str) -> bool:
    """Whether `question` asks what problem a paper sets out to solve, or why (see above)."""
    return bool(_ASKS_PROBLEM.search(question) or PROBLEM_CUES.search(question))


def introduction(sentences: Sequence[str], among: Sequence[int] | None = None) -> int | None:
    """The index of the sentence that introduces the paper's method ("We propose ..."), first of
    `among` (default: all), or None."""
    return next((i for i in (range(len(sentences)) if among is None else among) if _INTRODUCES.search(sentences[i])), None)


def rule_quoted(question: str) -> bool:
    """Whether a rule here picks `question`'s quote (what a paper is, the problem it sets out from):
    the cross-lingual sentence match for a Chinese factoid must not replace it."""
    return asks_what_it_is(question) or asks_problem(question)


def problem_first(q: Question, sentences: Sequence[str], rows: Sequence[int],
                  scores: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """For a question asking a paper's problem or motivation (`asks_problem`), the sentence that
    states it ahead of all others: the last one before the paper introduces its method ("we
    propose ...") that names a difficulty ("however", "remains", "costly", "lack") and is not the
    paper's own doing ("we ..."), else the first such sentence after it, else the one right before
    the introduction.
    Other questions: `scores` unchanged."""
    if not len(scores) or q.kind == "list" or not asks_problem(q.text):  # "Which papers discuss what motivates ...?"
        return scores
    at = {i: k for k, i in enumerate(rows)}
    found = introduction(sentences, sorted(at))
    intro = len(sentences) if found is None else found
    # The field's difficulty, not what the paper does about it ("We formalize this data mixing problem ...").
    hard = [i for i in sorted(at) if i != intro and _PROBLEM.search(sentences[i]) and not _WE.search(sentences[i])]
    before = [i for i in hard if i < intro]
    pick = before[-1] if before else hard[0] if hard else intro - 1 if intro - 1 in at and intro < len(sentences) else None
    if pick is None:
        return scores
    first = np.zeros(len(rows))
    first[at[pick]] = 1.0
    return _ahead(scores, first)


def first_rules(q: Question, sentences: Sequence[str], rows: Sequence[int], title: str,
                scores: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The ranker's `scores` with the rules that put a sentence first, in order: counts
    (`counted_first`), factors (`factors_first`), every asked word the title lacks (`asked_first`), the datasets it names
    (`datasets_first`), the methods or models it names (`names_first`), the introduction
    (`introduced_first`), the problem the paper sets out from (`problem_first`)."""
    scores = asked_first(q, sentences, rows, title, factors_first(q, sentences, rows, counted_first(q, sentences, rows, scores)))
    scores = names_first(q, sentences, rows, title, datasets_first(q, sentences, rows, title, scores))
    return problem_first(q, sentences, rows, introduced_first(q, sentences, rows, scores))


def ranked(sentences: Sequence[str], scores: npt.NDArray[np.float64],
           rows: Sequence[int] | None = None) -> list[tuple[str, float]]:
    """The paper's sentences, best quote first, with their scores; sentences outside `rows` (not
    scored) follow in abstract order, below every scored one."""
    rows = range(len(sentences)) if rows is None else rows
    order = np.argsort(-scores, kind="stable")
    out = [(sentences[rows[i]], round(float(scores[i]), 4)) for i in order]
    floor = round(float(scores.min()) - 1.0, 4) if len(scores) else 0.0
    picked = set(rows)
    return out + [(s, floor) for i, s in enumerate(sentences) if i not in picked]


def rank_sentences(ranker: QuoteRanker, q: Question, qvec: npt.NDArray[np.float32], sentences: Sequence[str],
                   vectors: npt.NDArray[np.float32], rows: Sequence[int] | None = None,
                   title: str = "") -> list[tuple[str, float]]:
    """The paper's sentences, best quote first, with their scores (see `ranked`)."""
    if not sentences:
        return []
    check(ranker)
    scores = ranker.score(sentence_features(q, qvec, sentences, vectors, rows, title))
    picked = range(len(sentences)) if rows is None else rows
    return ranked(sentences, first_rules(q, sentences, picked, title, scores), rows)


def check(ranker: QuoteRanker) -> None:
    if ranker.features != SENTENCE_FEATURES:
        raise ValueError("the quote ranker was trained on other sentence features; retrain the relevance model")
