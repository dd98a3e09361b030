"""Superlatives that ask for a paper by a figure it reports, read from a question's wording.

- A pick after an answer: "Which one is the fastest?", "Which of them reports the largest
  speedup?", "Which paper has the lowest perplexity?", "哪个最快？" (`most_of`): the previous
  answer's papers by the figure each reports (`answer.figures`); "Which of them is the most
  recent?" by year.
- The same asked first, over the library: "Which paper reports the largest speedup for LLM
  inference?", "哪个目标检测模型最快？" (`ranked`): every paper on the topic that remains ("LLM
  inference"), by its figure (`answer.shape`). Recency questions ("the most recent paper on X")
  are read before (`text.asks.recency`).
Not a superlative inside a topic ("Which papers study the largest graphs?"), nor one with nothing
to measure ("What is the best paper on diffusion models?").
"""

from __future__ import annotations

import re
from typing import NamedTuple

from paperscope.text.analyzer import STOPWORDS, raw_terms
from paperscope.text.zh import has_cjk, to_english_query

# "Which one is the fastest?", "Which of them reports the largest speedup?", "Which paper has the
# lowest perplexity?", "哪个最快？", "其中哪篇的加速比最大？": after an answer, a superlative picks among
# its papers by the figure each reports (`answer.figures`). Read only as a pick, a question that
# opens with which/what (哪), so "the largest graphs" inside a topic stays part of the topic.
_UP = "largest|biggest|highest|greatest|fastest|quickest|most|best|strongest|longest|newest|latest"
_DOWN = "smallest|lowest|fewest|least|cheapest|shortest|oldest|earliest"
_NOT_MEASURE = (r"(?:papers?|ones?|methods?|models?|approach(?:es)?|works?|algorithms?|techniques?|systems?|frameworks?|"
                r"of|in|on|among|and|or|for|to|with|at)\b")
_SUPERLATIVE = re.compile(rf"\b(?P<sup>{_UP}|{_DOWN})\b(?:\s+(?!{_NOT_MEASURE})(?P<measure>[A-Za-z][\w-]*))?", re.I)
_PICK = re.compile(r"^\W*(?:(?:and|so|ok(?:ay)?|then)\W+)?(?:which|what)\s+(?:one|paper|method|model|approach|work|study|"
                   r"of\s+(?:them|these|those|the\s+\w+)|is|has|gets|achieves|reports|gives|shows|does)\b", re.I)
_ZH_MOST = {"快": "fastest", "大": "largest", "高": "highest", "多": "most", "好": "best", "强": "strongest",
            "长": "longest", "小": "smallest", "低": "lowest", "少": "fewest", "便宜": "cheapest", "短": "shortest",
            "新": "newest", "早": "earliest"}
# Recency picks ("Which of them is the most recent?", "the oldest one", "哪篇最新？") order by year.
YEAR = ("year",)
_BY_YEAR = {"newest", "latest", "oldest", "earliest"}
_ZH_PICK = re.compile(r"哪(?:个|篇|一个|一篇|项|种|些)[^，,。？?]*?"
                      r"(?:的(?P<measure>[\u4e00-\u9fff]{1,4}?|[A-Za-z][A-Za-z0-9@-]{0,11}))?"  # 的加速比, 的MAE
                      r"最(?P<sup>便宜|重要|相关|有影响力?|有代表性|经典|著名|知名|[快大高多好强长小低少短新早])")
# Judgements (`_JUDGED`) asked in Chinese: the best match, saying so.
_ZH_JUDGED = frozenset("重要 相关 有影响 有影响力 有代表性 经典 著名 知名".split())
# What "fastest" and "cheapest" are measured in when the question names no measure.
_FAST = ("speed", "speedup", "faster", "accelerat", "throughput", "latency")
_SPEED = ("speed", "accelerat", "throughput")
_IMPLIED = {"fastest": _FAST, "quickest": _FAST,
            "cheapest": ("cost", "cheaper"), "longest": ("long", "length"), "shortest": ("short", "length")}
# "best" of a measure that should be low is its lowest ("the best perplexity").
_LOWER_IS_BETTER = ("latenc", "error", "perplex", "loss", "cost", "memor", "time", "regret", "overhead", "footprint")


# A pick names its papers ("of them", "among these") or carries at most two words of its own
# ("Which one reports the largest speedup on WikiText?"); "What is the largest Hits@1 improvement
# reported by the framework that matches entities across knowledge graphs?" asks about a paper of its own.
_AMONG = re.compile(r"\b(?:of|among|between)\s+(?:them|these|those|the\s+(?:above|papers|ones))\b", re.I)
_ZH_AMONG = re.compile(r"其中|它们|这些|那些|上述|以上")
_ZH_SHORT = 16
_PICK_WORDS = frozenset("which what one ones paper papers method model approach work study is has have gets get achieves "
                        "achieve reports report gives give shows show does do".split())


def _own_words(question: str, m: re.Match[str]) -> list[str]:
    """The words of a pick question besides the pick, the superlative and its measure."""
    taken = {m.group("sup").lower(), (m.group("measure") or "").lower()}
    return [w for w in raw_terms(question) if w not in STOPWORDS and w not in _PICK_WORDS and w not in taken]


class Most(NamedTuple):
    """A pick by a figure: among the previous answer's papers (`most_of`) or a topic's (`ranked`)."""

    word: str  # the superlative as asked ("largest", "fastest")
    measure: tuple[str, ...]  # the words a figure stands next to ("speedup"); `YEAR`: the publication year
    larger: bool  # the largest figure first (else the smallest)
    units: tuple[str, ...] = ()  # units that measure it wherever they stand ("fps" is a speed)
    label: str = ""  # the measure as asked, when not its first English word ("困惑度")

    @property
    def name(self) -> str:
        """The measure as the answer names it ("speedup", "困惑度")."""
        return self.label or (self.measure[0] if self.measure else self.word)


def most_of(question: str) -> Most | None:
    """The superlative pick a follow-up asks for ("Which one reports the largest speedup?"), or None."""
    zh = _ZH_PICK.search(question) if has_cjk(question) else None
    if zh and len(question) > _ZH_SHORT and not _ZH_AMONG.search(question):  # a question of its own topic
        return None
    if zh and zh.group("sup") in _ZH_JUDGED:  # "哪个最重要？": the best match (`BEST_MATCH`)
        return Most("most", BEST_MATCH, True, label=zh.group("sup"))
    if zh:
        word = _ZH_MOST[zh.group("sup")]
        gloss = to_english_query(zh.group("measure") or "").split()
        # the head glosses ("加速比": speedup, acceleration)
        named = [w.lower() for w in gloss if w.isalpha() and w.isascii()][:2]
        most = _most(word, named)
        return most._replace(label=zh.group("measure") or _ZH_LABEL.get(zh.group("sup"), "")) if most else None
    m = _SUPERLATIVE.search(question) if _PICK.search(question) else None
    if m is None or (not _AMONG.search(question) and len(_own_words(question, m)) > 2):
        return None
    return _most(m.group("sup").lower(), [m.group("measure").lower()] if m.group("measure") else [])


# Judgements no abstract states as a figure: "the most relevant / influential / cited / promising
# paper". Asked with a topic, it is answered as a question on the topic alone, best match first, saying
# that the library holds no such judgement (`text.asks`: `Asks.judged`; before, "Which is the most cited
# paper on NeRF?" cited one NeRF paper as if it were; "most similar to X" is `relevance.similar`'s); after
# an answer ("Which one is most relevant?"), by its best
# match (`BEST_MATCH`), saying so. Read as a measure, it quoted "No figure for “relevant”".
BEST_MATCH = ("match",)
_JUDGED = frozenset("relevant related similar important influential cited popular promising interesting useful "
                    "impactful impact novel theoretical practical recommended notable significant famous known "
                    "representative comprehensive general common seminal suitable appropriate readable".split())


def _most(word: str, named: list[str]) -> Most | None:
    """The pick by superlative `word` of the measure `named` (or the one `word` implies), or None."""
    if named[:1] and named[0] in _JUDGED:
        return Most(word, BEST_MATCH, True, label=named[0])
    larger = word in _UP.split("|")
    if word in _BY_YEAR or (word == "most" and named[:1] == ["recent"]):
        return Most(word, YEAR, larger)
    measure = tuple(named) + _IMPLIED.get(word, ())
    if measure[:1] and measure[0].startswith(_SPEED):  # "the largest speedup": "latency by 1.8x", "155 fps"
        measure = tuple(dict.fromkeys(measure + _FAST))
    if not measure:  # "What is the best paper on diffusion models?" picks nothing by a figure
        return None
    if word == "best" and any(w.startswith(_LOWER_IS_BETTER) for w in named):
        larger = False
    return Most(word, measure, larger, ("fps", "hz") if _FAST[0] in measure else ())  # "30 fps", "runs at 20 Hz"


# Asked first, over the whole library: "Which paper reports the largest speedup for LLM inference?",
# "What is the fastest method for sparse model inference?", "Which pruning method gives the lowest
# perplexity on LLaMA?": the papers on what remains ("LLM inference"), by each one's figure. Read
# only as a pick: one paper or method asked for, the superlative after a verb that reports it ("is",
# "has", "reports", "achieves"), a measure; "Which paper studies the largest eigenvalue ...?" and
# "Which papers train the largest models?" keep theirs as topic words.
_ONE_ASKED = re.compile(r"^\W*(?:which|what)\b(?!\s+(?:[\w-]+\s+)?(?:papers|works|methods|models|approaches|studies|"
                        r"ones|are)\b)", re.I)
_REPORTS = (r"(?:is|was|has|had|reports?|reported|achieves?|achieved|gets?|gives?|shows?|obtains?|attains?|yields?|"
            r"delivers?|offers?|provides?|reaches|proposes?|presents?|introduces?)")
_RANKED = re.compile(rf"\b{_REPORTS}\s+(?:the\s+)?(?=(?:{_UP}|{_DOWN})\b)"
                     r"|\b[a-z]+s\s+(?:the\s+)?(?=(?:fastest|quickest)\W*$)", re.I)  # "Which NeRF method renders the fastest?"
_FRAME = frozenset("which what is was are the a an one paper method model approach work study algorithm technique "
                   "system framework".split()) | frozenset(re.findall(r"[a-z]+", _REPORTS))
# "What is the largest Hits@1 improvement reported by the framework that ...?" asks one paper's figure.
_GIVEN = re.compile(r"\b(?:reported|achieved|obtained|attained|shown|claimed)\s+by\b|\b(?:in|of|by)\s+(?:the|this|that)\s+"
                    r"(?:paper|work|study|method|framework|approach)\b", re.I)
_LEADING = frozenset("for on in with of among across at".split())


class Ranked(NamedTuple):
    """A question over the library that asks for the paper with the most of a figure (`ranked`)."""

    question: str  # the topic, asked as a list: "Which papers are about LLM inference?"
    most: Most


def ranked(question: str) -> Ranked | None:
    """The topic and the pick of a superlative question over the whole library (see above), or None."""
    if has_cjk(question):
        return _zh_ranked(question)
    m = _RANKED.search(question) if _ONE_ASKED.search(question) else None
    sup = _SUPERLATIVE.match(question, m.end()) if m else None
    if m is None or sup is None or _GIVEN.search(question, sup.end()):
        return None
    word = sup.group("sup").lower()
    if word in _IMPLIED:  # "the fastest real-time object detector": what follows is the topic
        named, after = [], re.findall(r"[\w][\w.+-]*", question[sup.end("sup"):])
    else:
        named = [sup.group("measure").lower()] if sup.group("measure") else []
        after = re.findall(r"[\w][\w.+-]*", question[sup.end():])
    if named and after and after[0].isalpha() and after[0].lower() not in _LEADING | _FRAME | STOPWORDS:
        named.append(after.pop(0).lower())  # "the lowest memory footprint", "the lowest error rate"
    most = _most(word, named)
    before = re.findall(r"[\w][\w.+-]*", question[:m.start()])
    while before and before[0].lower() in _FRAME | _LEADING:
        before.pop(0)
    while before and before[-1].lower() in _FRAME:
        before.pop()
    while after and after[0].lower() in _FRAME | (set() if before else _LEADING):
        after.pop(0)
    if most and most.measure == BEST_MATCH and after[:1] and after[0].lower() in ("to", "for"):
        after.pop(0)  # "the most relevant to LLM compression": the topic is what it is relevant to
    topic = " ".join(before + after)
    if most is None or not [w for w in raw_terms(topic) if w not in STOPWORDS]:
        return None  # "Which one is the fastest?" has no topic: a pick among an answer's papers, if any
    return Ranked(f"Which papers are about {topic}?", most)  # BEST_MATCH: the topic's best matches (`asks`)


_ZH_LABEL = {"快": "速度", "便宜": "成本", "长": "长度", "短": "长度"}
_ZH_GENERIC = re.compile(r"^(?:论文|文章|工作|方法|模型|算法)")
_ZH_AROUND = re.compile(r"^(?:在|关于|针对|对于|对)|(?:上|中|里|方面|领域|的|论文|方法|模型|工作)$")


def _zh_ranked(question: str) -> Ranked | None:
    """`ranked` of a Chinese question: "哪篇论文在大语言模型推理上的加速比最大？", "哪个目标检测模型最快？"."""
    m = _ZH_PICK.search(question)
    if m is None or _ZH_AMONG.search(question):
        return None
    measure = m.group("measure") or ""
    if _ZH_GENERIC.match(measure):  # "哪篇关于扩散模型的论文最..." names no measure
        measure = ""
    if m.group("sup") in _ZH_JUDGED:  # "关于神经辐射场，哪篇论文最重要？": the topic's best matches
        most: Most | None = Most("most", BEST_MATCH, True, label=m.group("sup"))
    else:
        gloss = to_english_query(measure).split()
        most = _most(_ZH_MOST[m.group("sup")], [w.lower() for w in gloss if w.isalpha() and w.isascii()][:2])
        most = most._replace(label=measure or _ZH_LABEL.get(m.group("sup"), "")) if most else None
    inner = question[m.start() + 2:m.start("measure") - 1 if m.group("measure") else m.start("sup") - 1]
    inner = re.sub(r"^[篇个项种]?(?:论文|文章|工作)?", "", inner)
    topic = re.sub(r"[，,、\s]+$", "", question[:m.start()]) + inner
    while (cut := _ZH_AROUND.sub("", topic)) != topic:
        topic = cut
    if most is None or not has_cjk(topic) and not raw_terms(topic):
        return None
    return Ranked(f"哪些论文研究{topic}？", most)
