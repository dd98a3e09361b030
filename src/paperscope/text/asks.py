"""What a question asks of a list of papers beyond its topic: a count, or the newest first.

- A count: "How many papers are about graph neural networks?", "How many ICML papers study
  MoE?", "the number of papers on X", "有多少篇论文研究图神经网络？". The count is of every paper
  in the library that addresses the topic (`find_all`), not of the ones an answer shows (an
  answer showed 15 and said "15 papers in the corpus address this" where the library held 122).
  Not "How many models were trained ...?" or "how many parameters": that asks a paper's detail.
- Recency: "What are the latest papers on event cameras?", "most recent work on X", "recent
  papers on X", "Which is the newest paper on spiking neural networks?", "最新的论文",
  "近年来 ... 的论文": the papers that address the topic, newest first (`newest_first`); the
  singular ("the newest paper", "最新的一篇") asks for the newest year's papers only. Papers are
  dated by year, the one date the catalogues give.

- An exclusion: "Which papers on large language models do not use reinforcement learning?",
  "papers on quantization that don't require calibration data", "X but not Y", "X, excluding
  Y", "X except Y": the topic is X, and papers that use Y are left out (`excluded`). Not "X that
  do not need / require / rely on Y": that asks for a property papers state ("data-free"). Cited
  before were the LLM papers that do use RL: the clause's words counted as more topic. "without
  Y" and "rather than Y" stay part of the topic: papers say it themselves ("fairness without
  demographics", "trees rather than neural nets" compare with them).

Both are read conservatively: a recency word inside a topic ("latest-iterate", "the most recent
observation") is not next to a paper word, and the topic words themselves are read by
`relevance` (which already treats "recent", "latest" and "how many papers" as scaffolding).
"""

from __future__ import annotations

import re
from typing import NamedTuple

_GENRE = r"(?:papers?|works?|studies|study|articles?|publications?|research|approaches|methods|advances|results)"
_PAPERS = r"(?:papers|works|studies|articles|publications)"
_COUNT = re.compile(rf"\bhow\s+many\s+(?:of\s+the\s+)?(?:[\w-]+\s+){{0,3}}?{_PAPERS}\b|"
                    rf"\b(?:the\s+)?number\s+of\s+(?:[\w-]+\s+){{0,2}}?{_PAPERS}\b|"
                    rf"\bcount\s+(?:the\s+)?(?:[\w-]+\s+){{0,2}}?{_PAPERS}\b|"
                    r"(?:多少|几)\s*篇|有多少(?:项|个)?(?:论文|研究|工作|文章)|(?:论文|文章)(?:的)?(?:数量|数目|篇数)", re.I)
# A count of a paper's own things is a factoid: "How many papers did they compare against?" stays
# one paper's detail when it follows an answer (follow-ups are read before this).
_RECENT = r"(?:most\s+recent|latest|newest|recent|up-to-date)"
_RECENCY = re.compile(rf"\b{_RECENT}\s+(?:[\w-]+\s+){{0,3}}?{_GENRE}\b|"
                      rf"\b{_GENRE}\s+(?:[\w-]+\s+){{0,3}}?(?:published\s+)?(?:most\s+)?recently\b|"
                      rf"\b(?:newest|latest|most\s+recent)\b\s+(?:on|about|in|for)\b|"
                      r"最新|最近(?![邻点])|近期|近年|近几年", re.I)  # 最近邻: nearest neighbour
_ONE = re.compile(rf"\b(?:the|a)\s+{_RECENT}\s+(?:[\w-]+\s+){{0,3}}?(?:paper|work|study|article|publication)\b(?!s)|"
                  r"最新的?一篇|最近的?一篇", re.I)


def counts_papers(question: str) -> bool:
    """Whether `question` asks how many papers address something."""
    return bool(_COUNT.search(question))


def recency(question: str) -> str | None:
    """"newest" (papers newest first), "one" (the newest year's papers) or None."""
    if not _RECENCY.search(question):
        return None
    return "one" if _ONE.search(question) else "newest"


# "do not use Y", "that don't rely on Y", "but not Y", "excluding Y", "except (for) Y": the clause
# runs to the end of the sentence or to a comma / "and" / "but" that starts another part.
_NOT = (r"(?:do|does|did)(?:\s+not|n['\u2019]t)\s+(?:\w+ly\s+)?(?:use|rely\s+on|require|need|involve|employ|depend\s+on|"
        r"build\s+on|apply|make\s+use\s+of|leverage|include|consider)|not\s+(?:using|relying\s+on|based\s+on|requiring|"
        r"involving)|but\s+not|excluding|except(?:\s+for)?|not\s+about")
_EXCLUDED = re.compile(rf"[,\s]+(?:{_NOT})\s+(?:any\s+|the\s+)?(?:those\s+(?:that\s+use\s+)?)?"
                       rf"(?:(?:for|on|in|with|about|using)\s+)?(?P<y>[^?.!,;]+?)\s*"
                       rf"(?=$|[?.!,;]|\s+(?:and|but)\s)", re.I)
# "Which papers show that transformers do not need positional encodings?": a finding asked for.
_CLAIMED = re.compile(r"\b(?:show|find|found|prove|demonstrate|argue|claim|suggest|report|conclude)(?:s|ed)?\s+(?:that\s+)?",
                      re.I)
_DANGLING = re.compile(r"\s+(?:that|which|who)(?:\s+(?:are|is|were))?\s*(?=$|[?.!])|"
                       r"(?:(?<=\sthat)|(?<=\swhich)|(?<=\swho))\s+(?:and|but)\b", re.I)


# "do not need / require / rely on Y" asks for a property papers state ("data-free", "without
# calibration data", "GPS-denied", "without manual labels"): papers of that property say Y
# themselves, so none is left out for it; read as before, a topic. Scored as "... without Y", the
# image-classification question "... that do not require labels" cited multi-label papers: not kept.
_PROPERTY = re.compile(r"\b(?:need|require|rely|depend)\b", re.I)


class Exclusion(NamedTuple):
    question: str  # what to score: the question without the clause
    thing: str  # Y, as asked: papers that use it are left out


def excluded(question: str) -> Exclusion | None:
    """How `question` excludes something, or None. Whether the question to score still names a
    topic is the caller's to check ("Which methods do not use labels?": the clause is the topic)."""
    m = _EXCLUDED.search(question)
    if m is None or len(m.group("y").split()) > 6 or _CLAIMED.search(question[:m.start()]) \
            or _PROPERTY.search(m.group(0)[:-len(m.group("y"))]):
        return None
    rest = _DANGLING.sub("", question[:m.start()] + question[m.end():]).strip()
    return Exclusion(rest if rest.endswith(("?", ".", "!")) else rest + "?", m.group("y").strip())


# Mentions a paper makes of a thing it does without: "without reinforcement learning", "no
# calibration data", "instead of attention", "RL-free", "GPS-denied", "eliminating the need for labels".
_NEGATED = re.compile(r"\b(?:without|no|not|non|never|instead\s+of|rather\s+than|free\s+of|(?:eliminat|obviat|avoid|remov)\w*"
                      r"(?:\s+the\s+need\s+for)?)\s+(?:[\w-]+[ \t]+){0,3}[\w-]+|\b[\w-]+-(?:free|denied|less)\b", re.I)


def affirmed(text: str) -> str:
    """`text` without the mentions it negates (what a paper says it does not use)."""
    return _NEGATED.sub(" ", text)
