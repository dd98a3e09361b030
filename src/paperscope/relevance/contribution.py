"""Questions that ask for a kind of contribution rather than a topic, and which papers make it.

"Which papers are mainly theoretical, with proofs as the main contribution?", "Which papers
propose a new dataset or benchmark?", "Which papers say they release their code?" name no
topic: their words ("theoretical", "benchmark", "code") occur in passing in most abstracts, so
topical relevance (coverage, cosine) cannot tell the papers that make the contribution from
those that only mention it. Over the sixteen hand-labelled libraries such questions cited 29 of
their 158 gold papers.

- `asked(question)`: the kind a question asks for, only when nothing else is asked (no topic
  word beyond the kind's own vocabulary); "Which papers give theoretical guarantees for
  federated learning?" stays a topical question.
- `judge(kind, sentences)`: how sure a paper makes that contribution, and the sentence that
  says so (the quote; the dataset, code and genre rules are `claims`'):
  - theory: a logistic model over how often an abstract uses 80 style words ("prove", "regret",
    "bound" against "experiments", "state-of-the-art", "simulation"), fitted on COLT/ALT
    abstracts against applied venues' (`paperscope.bench.contribution_train`; no question
    label is used); the quote is the sentence with the most theory words;
  - dataset: a sentence where a contribution verb ("we introduce", "release", "collect") takes a
    resource noun ("dataset", "benchmark", "corpus") as its object, not as the place something
    is evaluated ("... outperforms baselines on three benchmarks");
  - code: a sentence saying code, models or data are (or will be) released or available;
  - position and survey, the paper's genre: its title ("Position: ...", "...: A Survey") or its
    own words ("This position paper argues", "In this survey, we"). "position" otherwise reads as
    a topic word: over the seeds "Which of these are position papers?" cited the positional-
    encoding paper and none of the three "Position:" papers.
- `genre(question)`: a genre asked together with a topic ("Is there a survey of graph neural
  networks?"): the topic is answered as any question and only the genre's papers are cited
  (`Relevance.of_genre`).
- empirical: the theory model's complement, asked as "empirical rather than theoretical",
  "Which papers are mainly empirical?" (the theory kind's "rather than" read the negated
  "theoretical" as asked, and cited the theory papers).
Leaves out: theory, empirical, dataset and code kinds combined with a topic.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from paperscope.relevance.claims import OWN, SURVEY_NOUN, Judgement, judge_code, judge_dataset, judge_genre
from paperscope.relevance.framing import OVERVIEW_REQUEST
from paperscope.relevance.question import Question
from paperscope.text.analyzer import STOPWORDS, _stemmer, raw_terms

KINDS = ("empirical", "theory", "dataset", "code", "position", "survey")
GENRES = ("position", "survey")  # kinds a paper is as a whole (`genre`), asked alone or with a topic
# What a paper of each kind claims, as an abstention names it ("none covers ...").
CLAIMS = {"theory": "a mainly theoretical contribution (proofs, bounds, guarantees)",
          "empirical": "a mainly empirical contribution (experiments, systems, benchmarks) rather than theory",
          "dataset": "a new dataset or benchmark of its own", "code": "released code, models or data",
          "position": "a position paper (arguing a stance rather than presenting a method or result)",
          "survey": "a survey or review of the literature"}
MODEL_FILE = Path(__file__).resolve().parent / "data" / "contribution.json"

# Words of each kind's request, stemmed: a question made only of these (and the question genre)
# asks for the kind alone.
_KIND_WORDS = {
    "empirical": """empirical empirically experimental experiments experiment evaluation evaluations study studies
        applied practical system systems result results contribution contributions core central purely mostly
        chiefly primarily mainly largely rather""",
    "theory": """theory theoretical theoretically theorem theorems proof proofs prove proving provable
        bound bounds guarantee guarantees formal formally analysis analyses rigorous mathematical
        contribution contributions core central purely mostly chiefly primarily mainly largely
        rather empirical experimental experiments system systems result results""",
    "dataset": """dataset datasets data set sets benchmark benchmarks corpus corpora database databases
        testbed testbeds resource resources environment environments suite suites new novel
        newly propose proposes proposed release releases released contribute contributes introduce
        introduces present presents create creates build builds construct constructs collect
        collects curate curates put out publish publishes annotated evaluation evaluating
        evaluate framework frameworks model models contribution""",
    "code": """code codes source implementation implementations software release releases released
        open opensource publicly public available share shares publish publishes model models
        trained weights checkpoints data say says provide provides make makes""",
    "position": """position positions paper papers piece pieces statement statements article articles essay essays
        opinion opinions perspective perspectives viewpoint viewpoints stance stances standpoint argue argues
        arguing argument arguments take takes rather than new method methods result results present presenting""",
    "survey": """survey surveys surveying review reviews reviewing literature systematic overview overviews
        tutorial tutorials primer primers paper papers article articles comprehensive recent existing field""",
}
_KIND_STEMS = {k: frozenset(_stemmer().stemWords(v.split())) for k, v in _KIND_WORDS.items()}

# A survey's adjectives, and the nouns after "survey"/"review" that make it a topic ("survey data").
_ADJ = "recent|good|short|brief|comprehensive|general|systematic|literature"
_NOT_GENRE = ("(data|responses?|sampling|respondents?|methodology|weights?|questions?|process|scores?|ratings?|texts?|"
              "generation|mining|sites?|summari[sz]ation|helpfulness)")
# What makes a question ask for the kind (beyond using only its words).
_ASKS = {
    "theory": re.compile(r"\b(theoretical|theory|theorems?|proofs?|provabl[ey])\b", re.I),
    "dataset": re.compile(r"\b(datasets?|data sets?|benchmarks?|corpus|corpora|databases?|testbeds?)\b", re.I),
    "code": re.compile(r"\b(code|source code|implementations?)\b", re.I),
    "position": re.compile(r"\b(position|opinion|perspective|viewpoint) (papers?|pieces?|statements?|articles?|essays?)\b"
                           r"|\b(argue|argues|arguing) (for )?a (position|stance)\b|\btakes? a (position|stance)\b", re.I),
    # The genre as what is asked for ("a survey of", "any surveys", "papers that review"), not
    # the word as a topic ("survey data", "peer review", "product reviews").
    "survey": re.compile(
        r"\b(surveys?|overviews?|tutorials?|primers?)\s+(papers?|articles?|on|of|about|covering)\b"
        r"|\breview (papers?|articles?|of)\b"
        r"|\b(literature|systematic|comprehensive) (reviews?|surveys?|overviews?)\b"
        r"|\b(are|is) (a |an )?(surveys?|reviews?|overviews?|tutorials?)\b"
        rf"|\b(a|an|any|some|which|what|the) ({_ADJ} )?(surveys?|overviews?|tutorials?)\b(?! {_NOT_GENRE}\b)"
        rf"|\b(a|an|any) ({_ADJ} )?reviews? (of|on|about|covering|papers?|articles?)\b"
        r"|\b(papers?|works?|articles?) (that |which )?(surveys?|reviews?|surveying|reviewing) (the )?"
        r"(literature|field|work|recent|existing|progress|advances|state|methods|approaches)\b", re.I),
}
_ASKS["empirical"] = re.compile(r"\b(empirical|empirically|experimental)\b", re.I)
# "empirical rather than theoretical", "not theory papers": the theory words are what is not asked.
_THEORY_NEGATED = re.compile(r"\b(rather than|instead of|not|other than|as opposed to|than|no|without)\s+(?:\w+\s+){0,2}?"
                             r"(theoretical|theory|theorems?|proofs?|provabl[ey])\b", re.I)
_THEORY_EMPHASIS = re.compile(r"\b(mainly|primarily|purely|mostly|chiefly|largely|main|core|central)\b"
                              r"|\brather than\b|\b(are|is) theoretical\b|\btheor(y|etical) (papers?|works?)\b", re.I)
_EMPIRICAL_PAPERS = re.compile(r"\b(are|is) (mostly |mainly |purely |primarily )?(empirical|experimental)\b"
                               r"|\b(empirical|experimental) (papers?|works?|contributions?)\b", re.I)
_NEW = re.compile(r"\b(new|novel|propose|proposes|release|releases|contribute|contributes|introduce|introduces|"
                  r"present|presents|create|creates|build|builds|construct|constructs|collect|collects|curate|"
                  r"put out|publish|publishes)\b", re.I)
_RELEASE = re.compile(r"\b(release|releases|released|open|publicly|public|available|share|shares|publish)", re.I)
# A genre's names in Chinese, longest first (`genre` removes the one a question uses).
_ZH_GENRE = {"position": r"立场论文|观点论文|立场文章|观点文章", "survey": r"文献综述|综述论文|综述|调研论文|文献回顾"}
# The same requests in Chinese (checked on the question as written; its gloss is checked above).
_ASKS_ZH = {"theory": re.compile(r"理论|定理|证明"), "empirical": re.compile(r"实证|实验为主|以实验|经验研究"),
            "dataset": re.compile(r"数据集|基准|语料|数据库"),
            "code": re.compile(r"代码|源码|实现"), "position": re.compile(rf"{_ZH_GENRE['position']}|立场性"),
            "survey": re.compile(_ZH_GENRE["survey"])}
_THEORY_EMPHASIS_ZH = re.compile(r"主要|为主|核心|纯|理论性|理论工作|理论论文|而非")
_NEW_ZH = re.compile(r"新|提出|发布|构建|贡献|公开")
_RELEASE_ZH = re.compile(r"公开|开源|发布|提供|放出")

_TOKEN = re.compile(r"[a-z]+(?:-[a-z]+)*")


def asked(q: Question, asked_as: str | None = None) -> str | None:
    """The contribution kind the question asks for, when it asks for nothing else. `asked_as`:
    the question as the user wrote it, when `q` is its English gloss (a Chinese question); a
    glossed word's alternatives count as the kind's word when one of them is ("新的" -> "new or
    newly or meso-")."""
    original = asked_as or q.text
    glossed = original != q.text
    for kind in KINDS:
        vocabulary = _KIND_STEMS[kind]
        if (not q.groups and kind not in GENRES) or any(
                vocabulary.isdisjoint(g) if glossed else not g <= vocabulary for g, _ in q.groups):
            continue  # a genre's own words may all be question words ("Any literature reviews?")
        if not (_ASKS[kind].search(q.text) or _ASKS_ZH[kind].search(original)):
            continue
        if kind == "survey" and (_QUESTIONNAIRE.search(q.text) or OVERVIEW_REQUEST.search(q.text)):
            continue
        theory_said = _ASKS["theory"].search(q.text) is not None
        if kind == "empirical" and (theory_said and not _THEORY_NEGATED.search(q.text)
                                    or not (_THEORY_EMPHASIS.search(q.text) or _THEORY_EMPHASIS_ZH.search(original)
                                            or _EMPIRICAL_PAPERS.search(q.text))):
            continue  # "theoretical and empirical", "Which papers run empirical studies of X?"
        if kind == "theory" and (not (_THEORY_EMPHASIS.search(q.text) or _THEORY_EMPHASIS_ZH.search(original))
                                 or _THEORY_NEGATED.search(q.text)):
            continue  # "Which papers use theory?" is not a question about the papers' kind
        if kind == "dataset" and not (_NEW.search(q.text) or _NEW_ZH.search(original)):
            continue  # "Which papers evaluate on benchmarks?" asks about use, not contribution
        if kind == "code" and not (_RELEASE.search(q.text) or _RELEASE_ZH.search(original)):
            continue
        return kind
    return None


@functools.lru_cache(maxsize=1)
def _theory_model() -> tuple[dict[str, int], npt.NDArray[np.float64], float]:
    data = json.loads(MODEL_FILE.read_text())
    stems = data["stems"]
    return {s: i for i, s in enumerate(stems)}, np.array(data["weights"], np.float64), float(data["cite_at"])


def cue_stems() -> list[str]:
    """The style words the theory model reads (stems; hyphenated ones whole)."""
    words = THEORY_CUES.split()
    plain = [w for w in words if "-" not in w]
    return sorted(set(_stemmer().stemWords(plain)) | {w for w in words if "-" in w})


# Style words of theory and of empirical work; topic words are left out on purpose (a model over
# every word learns that COLT writes about bandits, and would call every bandit paper theory).
THEORY_CUES = """prove proof proofs theorem lemma bound bounds lower upper tight tightness guarantee guarantees
provable provably minimax optimal optimality rate rates complexity polynomial hardness np regret convergence
converges characterize characterization theoretical theory theoretically formal formally establish analysis
analyze asymptotic nonasymptotic sufficient necessary exponential logarithmic conjecture assumption assumptions
infinite finite dimension consistency consistent estimator impossibility identifiability statistical
learnability learnable pac vc sample oracle experiments experiment experimental empirical empirically dataset
datasets benchmark benchmarks outperforms outperform state-of-the-art evaluate evaluation evaluations simulation
simulations code real-world accuracy demonstrate demonstrates implementation implement baselines baseline
extensive comprehensive achieves achieve improves improvement framework system novel effective effectiveness
practical applications application user study ablation performance significantly"""


def _cue_counts(text: str, index: dict[str, int]) -> tuple[npt.NDArray[np.float64], int]:
    """How often `text` uses each style word, and its number of words."""
    words = _TOKEN.findall(text.lower())
    counts = np.zeros(len(index))
    stemmer = _stemmer()
    for w in words:
        if w in index:
            counts[index[w]] += 1
            continue
        for part in w.split("-"):
            i = index.get(stemmer.stemWord(part))
            if i is not None:
                counts[i] += 1
    return counts, len(words)


def _features(counts: npt.NDArray[np.float64], words: int) -> npt.NDArray[np.float64]:
    return np.append(np.log1p(counts * 100.0 / max(words, 1)), 1.0)


def theory_features(text: str, index: dict[str, int]) -> npt.NDArray[np.float64]:
    """log(1 + uses per 100 words) of each style word, and a constant 1 (the model's bias)."""
    return _features(*_cue_counts(text, index))


def _theory(sentences: Sequence[str], empirical: bool = False) -> Judgement:
    """The theory model's judgement; `empirical`: its complement (the paper is not mainly theory),
    quoting the sentence with the most empirical weight."""
    index, weights, _ = _theory_model()
    if empirical:
        weights = -weights
    # Each sentence read once: the abstract's counts are its sentences' (no word spans two).
    each = [_cue_counts(s, index) for s in sentences]
    whole = sum((c for c, _ in each), np.zeros(len(index)))
    z = float(_features(whole, sum(n for _, n in each)) @ weights)
    p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
    # The quote: the sentence that carries the most theory weight (a result, not the setting).
    best, best_score = None, 0.0
    positive = np.clip(weights[:-1], 0.0, None)
    for i, (s, (counts, n)) in enumerate(zip(sentences, each)):
        score = float(_features(counts, n)[:-1] @ positive) * (2.0 if OWN.search(s) else 1.0)
        if score > best_score:
            best, best_score = i, score
    return Judgement(p, best)


def judge(kind: str, title: str, sentences: Sequence[str]) -> Judgement:
    """How sure the paper (its title and abstract sentences) makes the `kind` contribution."""
    if kind == "theory":
        return _theory(sentences)
    if kind == "empirical":
        return _theory(sentences, empirical=True)
    if kind == "dataset":
        return judge_dataset(title, sentences)
    if kind == "code":
        return judge_code(sentences)
    if kind in GENRES:
        return judge_genre(kind, title, sentences)
    raise ValueError(f"unknown contribution kind {kind!r}; one of {', '.join(KINDS)}")


def support(j: Judgement, kind: str, cite: float) -> float:
    """The judgement on the relevance model's scale: a paper the kind's own threshold accepts
    reaches the cite threshold, and order is kept."""
    at = {"theory": _theory_model()[2], "empirical": 1.0 - _theory_model()[2]}.get(kind, 0.5)
    p = j.probability
    if p >= at:
        return cite + (p - at) / max(1.0 - at, 1e-9) * (1.0 - cite)
    return p / at * cite * 0.99


# BM25 query that gathers a large library's candidates for each kind (its papers use these words).
GATHER = {
    "empirical": "experiments outperforms state-of-the-art benchmarks datasets evaluation empirical results demonstrate",
    "theory": "prove theorem bound regret guarantee provably minimax lower upper optimal rate complexity",
    "dataset": "introduce new dataset benchmark corpus release collect annotated database",
    "code": "code available github release open-source implementation publicly",
    "position": "position paper argue argues stance perspective call",
    "survey": "survey review overview tutorial comprehensive literature taxonomy existing",
}


@dataclass(frozen=True)
class Genre:
    kind: str  # one of GENRES
    topic: str  # the question without the genre's words ("Is there work on graph neural networks?")


_GENRE_WORDS = {
    "position": re.compile(r"\b(?:position|opinion|perspective|viewpoint) (?:papers?|pieces?|statements?|articles?|essays?)\b",
                           re.I),
    "survey": re.compile(rf"\b(?:(?:that|which) )?(?:survey|review)(?:s|ing)? (?:the )?(?:literature|field|work|recent|"
                         rf"existing|progress|advances|state of the art)\b"
                         rf"|\b(?:(?:{_ADJ}) )?(?:{SURVEY_NOUN}s?|reviews)(?: (?:papers?|articles?))?\b", re.I)}
_GENRE_WORDS_ZH = {kind: re.compile(_ZH_GENRE[kind]) for kind in GENRES}
# A new dataset or benchmark asked with a topic: "Which papers propose benchmarks for NER?", "Which
# datasets exist for text-to-SQL?", "Are there datasets for sarcasm detection?", "有哪些文本转SQL的数据集？".
# Read as topic words, "benchmarks" and "datasets" cited the topic's papers that evaluate on one (15 NER
# papers over 20,000, the first "Experiments on three benchmarks show ...") or one paper (text-to-SQL,
# with BookSQL, "A Large Scale Text-to-SQL Dataset", shown as related). Not "What datasets are used for
# X?" (the datasets the papers use: `text.tallies.grouped`) nor "evaluate on benchmarks".
_DATA = r"(?:benchmark\s+datasets?|datasets?|data\s+sets?|benchmarks?|corpus|corpora|testbeds?)"
# The first form only after a question for papers ("Which (NER) papers propose ...", "Are there papers that
# release ...", "Do any papers introduce ...", "Has anyone built ..."), with a verb: not "How do LLMs perform on
# new benchmarks for math?", "Does NestQuant introduce a new benchmark?" (one paper's detail).
_MAKES = (r"propose|proposes|proposed|release|releases|released|introduce|introduces|introduced|present|presents|create|"
          r"creates|build|builds|built|construct|constructs|collect|collects|curate|curates|contribute|contributes|"
          r"publish|publishes")
_DATASET_HEAD = re.compile(r"^\W*(?:(?:which|what)\s+(?:[\w-]+\s+){0,3}?(?:papers?|works?|studies)|(?:are|is)\s+there\s+"
                           r"(?:any\s+)?(?:papers?|works?|studies)|(?:do|did)\s+(?:any|some)\s+(?:papers?|works?|studies)"
                           r"|has\s+anyone|have\s+any\s+(?:papers?|works?))\s+(?:that\s+|which\s+)?$", re.I)
_DATASET_ASKED = re.compile(
    rf"\b(?:{_MAKES})\s+(?:(?:a|an|the|any|new|novel|large[- ]scale|public(?:ly available)?|annotated|"
    rf"real[- ]world)\s+)*{_DATA}"
    rf"|^\W*(?:which|what)\s+(?:(?:new|public|large[- ]scale)\s+)?{_DATA}\s+(?:exist|are\s+there|are\s+available|"
    rf"(?:have|has)\s+been\s+(?:proposed|released|introduced|created|built|collected))\b"
    rf"|^\W*(?:are|is)\s+there\s+(?:any\s+|an?\s+)?(?:(?:new|public)\s+)?{_DATA}\s+(?:for|on|of|about|in)\b"
    r"(?!\s+which\b)", re.I)  # not "Is there a benchmark on which GPT-4 fails?"
_DATASET_ZH = re.compile(r"(?:提出|发布|构建|贡献|公开|新的?|有哪些|有没有)[^，,。？?]{0,20}?(?:数据集|基准|语料库?)"
                         r"(?=[吗呢]?[？?。]?$)")  # the thing asked for: not "...的公开基准，让没有大算力的人..."


# A survey someone runs or answers (a questionnaire), not a paper that surveys a field.
_QUESTIONNAIRE = re.compile(r"\b(conduct\w*|run|runs|ran|administer\w*|carr\w* out|distribut\w*|launch\w*|answer\w*|"
                            r"complet\w*|fill\w*|respond\w*|participat\w*|online|household|national|user|web|"
                            r"opinion|census)\s+(a |an |the )?surveys?\b", re.I)


def genre(question: str) -> Genre | None:
    """The genre a question asks for together with a topic ("Is there a survey of graph neural
    networks?", "Which position papers discuss AI agents?"), with the question reworded without
    it; None when it asks for none (a question asking for the genre alone is `asked`'s)."""
    for kind in GENRES:
        if kind == "survey" and (_QUESTIONNAIRE.search(question) or OVERVIEW_REQUEST.search(question)):
            continue
        if _ASKS[kind].search(question):
            topic = _GENRE_WORDS[kind].sub("work", question, count=1)
        elif _ASKS_ZH[kind].search(question):
            topic = _GENRE_WORDS_ZH[kind].sub("论文", question, count=1)
        else:
            continue
        return Genre(kind, topic) if topic != question else None
    m = _DATASET_ASKED.search(question)
    if m is not None and m.start() > 0 and not _DATASET_HEAD.match(question[:m.start()]):
        m = None  # a verb form not after a question for papers
    if m is not None and not re.match(r"\s*(?:[,;]|(?:or|and)\b)", question[m.end():]):  # not "a dataset, or a toolset"
        after = re.sub(r"^\s*(?:for|on|of|about|in|covering)\s+", "", question[m.end():]).strip(" ?.!")
        before = re.sub(r"\s*\b(?:papers?|works?|studies)$", "", _PAPERS_ASKED.sub("", question[:m.start()]).strip())
        topic = " ".join(w for w in (before, after) if w)
        if not [w for w in raw_terms(topic) if w not in STOPWORDS]:
            return None  # "Which papers introduce a new dataset?" asks for the kind alone (`asked`)
        return Genre("dataset", f"Which papers are about {topic}?")
    m = _DATASET_ZH_BEFORE.search(question)
    if m is not None:  # "有哪些提出新数据集的命名实体识别论文？"
        return Genre("dataset", f"哪些论文研究{m.group('t')}？")
    m = _DATASET_ZH.search(question)
    if m is not None and not _USED_ZH.search(question):
        span = m.group(0)[:-len(_DATA_ZH.findall(m.group(0))[-1])]  # "有哪些文本转SQL的数据集" -> "...的论文"
        span = re.sub(r"^(?:(?:提出|发布|构建|贡献|公开)了?(?:新的?)?|(有哪些|有没有)(?:新的)?)", r"\1", span)  # not 新闻's 新
        return Genre("dataset", question.replace(m.group(0), span + "论文"))
    return None


_DATA_ZH = re.compile(r"数据集|基准|语料库?")
_DATASET_ZH_BEFORE = re.compile(r"(?:提出|发布|构建|贡献|公开)了?(?:新的?)?(?:数据集|基准|语料库?)的(?P<t>[^，,。？?]{2,20}?)"
                                r"(?:论文|工作|研究)")
_PAPERS_ASKED = re.compile(r"^\W*(?:(?:which|what)\s+(?:papers?|works?|studies)?|(?:are|is)\s+there\s+(?:any\s+)?"
                           r"(?:papers?|works?)?(?:\s+that)?|has\s+anyone|(?:do|did)\s+(?:any|some)\s+(?:papers?|works?|studies)"
                           r"|have\s+any\s+(?:papers?|works?))\s*", re.I)
# "它们用了哪些数据集", "有哪些常用的人群计数数据集": the datasets papers use, not new ones.
_USED_ZH = re.compile(r"用了|使用|采用|用到|评测|评估|测试|常用|主流|常见|流行|标准|经典")
