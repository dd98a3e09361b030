"""What a question asks of its papers beyond their topic, read from its wording (`asks` reads them
once); each is answered from the same relevance decision as any answer (`answer.shape`).

- A count: "How many papers are about graph neural networks?", "the number of papers on X",
  "有多少篇论文研究图神经网络？". The count is of every paper in the library that addresses the topic
  (`find_all`), not of the ones an answer shows (an answer showed 15 and said "15 papers in the
  corpus address this" where the library held 125). Not "How many models were trained ...?": that
  asks a paper's detail.
- Recency: "What are the latest papers on event cameras?", "most recent work on X", "recent
  papers on X", "Which is the newest paper on X?", "最新的论文": the papers that address the topic,
  newest first (`newest_first`); the singular ("the newest paper", "最新的一篇") asks for the newest
  year's papers only. Papers are dated by year, the one date the catalogues give.
- A number of papers: "Give me three papers on X", "Top 3 papers on X?", "推荐三篇..." (`asked_number`).
- Who works on a topic: "Who works on X?", "Which authors ...?", "Who has written the most papers on
  X?", "Who are the authors of the papers on X?", "谁在研究X？" (`asks_who`).
- The papers on a topic by venue or by year: "Which venues publish most on X?", "How has research
  on X evolved over the years?" (`text.tallies.tallied`); about them as a group: "What datasets do
  the MoE papers use?" (`text.tallies.grouped`: the papers on MoE, each quote answering the question).
- An exclusion: "Which papers on large language models do not use reinforcement learning?", "X
  but not Y", "X, excluding Y", "X except Y", "不使用Y的X论文": the topic is X, and papers that use
  Y are left out (`excluded`). Not "X that do not need / require / rely on Y": that asks for a
  property papers state ("data-free": `text.absence`). "without Y" and "rather than Y" stay part of the topic:
  papers say it themselves ("fairness without demographics").
- A named paper's record: "Who wrote NestQuant?", "Which venue published SLiM?" (`asks_record`).
- The paper with the most of a figure: "Which paper reports the largest speedup for X?" (`ranked`,
  `text.superlatives`): every paper on X, by the figure each reports. A pick among an answer's
  papers ("Which one is the fastest?") is a follow-up (`text.superlatives.most_of`).

All are read conservatively: a recency word inside a topic ("latest-iterate", "the most recent
observation") is not next to a paper word; a number after a preposition ("trained on 3 papers'
worth of data") is the papers' detail; the topic words themselves are read by `relevance`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from paperscope.text.superlatives import BEST_MATCH, Most, ranked
from paperscope.text.tallies import PAPERS, grouped, most_used, tallied
from paperscope.text.zh import has_cjk, to_english_query

_GENRE = r"(?:papers?|works?|studies|study|articles?|publications?|research|approaches|methods|advances|results)"
_COUNT = re.compile(rf"\bhow\s+many\s+(?:of\s+the\s+)?(?:[\w-]+\s+){{0,3}}?{PAPERS}\b|"
                    rf"\b(?:the\s+)?number\s+of\s+(?:[\w-]+\s+){{0,2}}?{PAPERS}\b|"
                    rf"\bcount\s+(?:the\s+)?(?:[\w-]+\s+){{0,2}}?{PAPERS}\b|"
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


# An order asked for after the topic: "List papers about RL, sorted by year.", "..., newest first", "in
# chronological order", "按年份排序". Read as topic words, "sorted" was what no paper covered and the list abstained.
_END = r"(?=\s*[?.!]*\s*$)"
_SORTED = re.compile(
    r"(?:(?:[,;]\s*|\s+)(?:sorted|ordered|listed|arranged)\s+(?:by|in\s+order\s+of)\s+|[,;]\s*(?:by|in\s+order\s+of)\s+)"
    r"(?:publication\s+)?(?:year|date)(?:\s+of\s+publication)?(?:\s*,?\s*(?P<asc>oldest|earliest)\s+first"
    rf"|\s*,?\s*(?:newest|latest|most\s+recent)\s+first|\s+\(?(?P<asc2>ascending)\)?|\s+\(?descending\)?)?{_END}"
    rf"|[,;]?\s*(?:newest|latest|most\s+recent)\s+first{_END}|[,;]?\s*(?P<asc3>oldest|earliest)\s+first{_END}"
    rf"|[,;]?\s*in\s+(?P<rev>reverse\s+)?(?P<chrono>chronological)\s+order{_END}"
    r"|[，,]?\s*按(?:发表)?(?:年份|时间|日期)(?P<zasc>从旧到新|从早到晚|升序)?(?:从新到旧|降序)?排(?:序|列)", re.I)


def sorted_by_year(question: str) -> tuple[str, str] | None:
    """(the question without its order clause, "newest" or "oldest") when it asks for the papers in order of
    year (see above), else None; chronological order is oldest first, "reverse chronological" newest first."""
    m = _SORTED.search(question)
    if m is None or m.start() == 0:
        return None
    oldest = bool(m.group("asc") or m.group("asc2") or m.group("asc3") or m.group("zasc")
                  or (m.group("chrono") and not m.group("rev")))
    rest = (question[:m.start()].rstrip(" ,;，") + question[m.end():]).strip()
    mark = "？" if has_cjk(rest) else "?"
    return (rest if rest.endswith(("?", ".", "!", "？", "。")) else rest + mark), "oldest" if oldest else "newest"


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


# Chinese: "不使用Y的X论文", "X论文没有使用Y", "不基于Y", "排除Y": glossed word by word, 没有使用 read
# "haven't hasn't doesn't exist" and the question cited Y's papers or abstained. Not 有没有用 ("is
# there any using", the usual way to ask), 除了 ... 之外 ("besides"), 不用 / 不需要 / 无需 (a property,
# as "do not need" in English: "不用热图，而是 ..."): over the 291 Chinese benchmark questions those
# read 31 questions as exclusions, all wrongly.
_ZH_EXCLUDED = re.compile(r"(?:(?<!有)没有|不|未)(?:使用|用到|采用|基于|涉及|是关于)了?"
                          r"(?P<y>[^，。？?！!、的]+?)(?=的|[，。？?！!]|$)"
                          r"|排除(?:了|掉)?(?P<z>[^，。？?！!、的]+?)(?=的|[，。？?！!]|$)")


class Exclusion(NamedTuple):
    question: str  # what to score: the question without the clause
    thing: str  # Y, as asked: papers that use it are left out
    english: str  # Y in English (a Chinese Y glossed), what papers are read for


def excluded(question: str) -> Exclusion | None:
    """How `question` excludes something, or None. Whether the question to score still names a
    topic is the caller's to check ("Which methods do not use labels?": the clause is the topic)."""
    z = _ZH_EXCLUDED.search(question)
    if z is not None:
        thing = (z.group("y") or z.group("z")).strip()
        after = question[z.end():]
        after = after[1:] if after.startswith("的") else after  # the clause's own 的 ("不使用Y的X")
        rest = re.sub(r"的(?=[？?。！!]|$)", "", (question[:z.start()] + after).strip()).strip()
        return Exclusion(rest, thing, to_english_query(thing)) if rest and thing else None
    m = _EXCLUDED.search(question)
    if m is None or len(m.group("y").split()) > 6 or _CLAIMED.search(question[:m.start()]) \
            or _PROPERTY.search(m.group(0)[:-len(m.group("y"))]):
        return None
    rest = _DANGLING.sub("", question[:m.start()] + question[m.end():]).strip()
    thing = m.group("y").strip()
    return Exclusion(rest if rest.endswith(("?", ".", "!")) else rest + "?", thing, thing)


# Mentions a paper makes of a thing it does without: "without reinforcement learning", "no
# calibration data", "instead of attention", "RL-free", "GPS-denied", "eliminating the need for labels".
_NEGATED = re.compile(r"\b(?:without|no|not|non|never|instead\s+of|rather\s+than|free\s+of|(?:eliminat|obviat|avoid|remov)\w*"
                      r"(?:\s+the\s+need\s+for)?)\s+(?:[\w-]+[ \t]+){0,3}[\w-]+|\b[\w-]+-(?:free|denied|less)\b", re.I)


def affirmed(text: str) -> str:
    """`text` without the mentions it negates (what a paper says it does not use)."""
    return _NEGATED.sub(" ", text)


# "Give me three papers on X", "Top 3 papers on X?", "Show me 5 papers about X", "the three best
# papers on X", "推荐三篇关于X的论文": that many papers, best first. Read as topic words, "three"
# and "3" made "Top 3 papers on diffusion policies?" abstain and "Show me 5 papers ..." cite one.
_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
            "ten": 10, "a couple of": 2, "a few": 3, "一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6,
            "七": 7, "八": 8, "九": 9, "十": 10}
_N = r"(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|a\s+couple\s+of|a\s+few)"
_KIND = rf"(?:{PAPERS}|references|readings)"
_ASKED = re.compile(rf"(?:\b(?:the\s+)?(?:top|best)\s+{_N}\s+(?=(?:[\w-]+\s+){{0,2}}{_KIND}\b)|"
                    rf"\b{_N}\s+(?:(?:best|top|good|key|important|relevant|recent|representative|must-read|seminal|"
                    rf"influential)\s+){{0,2}}(?={_KIND}\b))\s*|"
                    r"(?P<zn>\d{1,2}|[一两二三四五六七八九十])\s*篇", re.I)


def asked_number(question: str) -> tuple[str, int] | None:
    """(the question without the number, how many papers it asks for), or None."""
    m = _ASKED.search(question)
    if m is None or re.search(r"\b(?:on|of|in|from|than|over|across|with|by|to)\s*$", question[:m.start()], re.I):
        return None  # "trained on 3 papers' worth of data": a detail, not how many to show
    word = re.sub(r"\s+", " ", (m.group(1) or m.group(2) or m.group("zn") or "").lower())
    n = int(word) if word.isdigit() else _NUMBERS.get(word)
    if not n or n > 50:
        return None
    rest = question[:m.start()] + ("" if m.group("zn") else " ") + question[m.end():]
    return re.sub(r"\s{2,}", " ", rest).strip(), n


# "Who works on event cameras?", "Which authors publish on X?", "Who are the leading researchers
# in X?", "谁在研究X？": the papers, and the authors with most of them. Not "Who wrote it?" or "Who
# are the authors of SLiM?" (one paper's authors).
_WHO = re.compile(r"^\s*(?:who\s+(?:(?:else\s+)?(?:works|is\s+working|are\s+working|has\s+worked|have\s+worked|worked|"
                  r"publishes|published|writes|researches|studies)\b(?!\s+(?:it|this|that|them)\b)|"
                  r"(?:wrote|has\s+written|have\s+written|has\s+published|have\s+published)\b(?=\s+(?:the\s+)?(?:most|more|many|"
                  r"several|papers|works|articles))|"
                  r"are\s+the\s+(?:authors|researchers)\s+(?=of\s+(?:the\s+)?(?:papers|works|articles)\s+(?:on|about|in)\b|"
                  r"of\s+the\s+[^?]+?\s+(?:papers|works|articles)\b)|"
                  r"are\s+the\s+(?:main|leading|key|top|most\s+active|most\s+prolific|prominent)\s+(?:authors|researchers|"
                  r"people|groups|names))|which\s+(?:authors|researchers|groups|labs|people)\b)|谁在(?:研究|做)|"
                  r"哪些(?:作者|学者|研究者|团队|课题组)", re.I)


# What follows "who" / "which authors" before the topic: "have the most papers on", "work on".
_WHO_FILLER = re.compile(r"^(?:\s+(?:have|has|had|wrote|written|write|published|publish|work|works|worked|working|are|is|"
                         r"been|the|most|more|many|papers?|publications?|on|in|about|with|regarding|of|to|mostly|actively|"
                         r"active|do|does|research|study|studies))*\s+", re.I)


def asks_who(question: str) -> str | None:
    """When `question` asks who works on a topic (not who wrote one paper): the question to score
    ("Which papers are about X?": "authors" and "most" are no topic words), else None."""
    m = _WHO.search(question)
    if m is None:
        return None
    if has_cjk(m.group(0)):
        return question  # Chinese: 谁在研究 / 哪些作者 are scaffolding already (`text.zh`)
    topic = _WHO_FILLER.sub("", " " + question[m.end():], count=1).strip()
    return f"Which papers are about {topic}" if topic.strip(" ?.!") else None


# A question about a named paper's record, not its content: "Who wrote NestQuant?", "Who are the
# authors of SLiM?", "Where was LocMoE published?", "Which venue published Oracle-MoE?", "What's the
# link to GAPrompt?", "Which paper introduced NeRF?" (the paper named NeRF, not the 30 that use it),
# "SLiM 的作者是谁？", "NestQuant 发表在哪里？", "NeRF 是哪篇论文提出的？". Its words ("wrote", "authors",
# "published") are in no abstract: each abstained, even over the 38 seeds that hold the paper.
_RECORD = re.compile(r"^\s*(?:(?:and\s+)?who\s+(?:wrote|authored|co-?authored|is\s+the\s+(?:first\s+|last\s+)?author\s+of|"
                     r"are\s+the\s+(?:authors|co-?authors)\s+of)\b|"
                     r"which\s+(?:authors|people|researchers)\s+(?:wrote|authored)\b|"
                     r"(?:where|when|in\s+which\s+(?:venue|conference|year)|at\s+which\s+(?:venue|conference)|which\s+(?:venue|"
                     r"conference)|what\s+(?:venue|conference))\b[^?]*\b(?:published|appear(?:ed)?|presented|accepted|"
                     r"come\s+out|publish)\b|"
                     r"what(?:'s|\s+is)\s+the\s+(?:link|url|doi)\s+(?:to|for|of)\b|"
                     r"(?:which|what)\s+(?:paper|work|article|study)\s+(?:first\s+)?(?:introduced|proposed|presented|invented|"
                     r"coined|came\s+up\s+with)\b|who\s+(?:first\s+)?(?:introduced|proposed|invented|came\s+up\s+with)\b|"
                     r"(?:the\s+)?original\s+[\w-]+\s+paper\b)|"
                     r"的作者|是谁写的|谁写的|发表在哪|发表于哪|在哪(?:个|里)?(?:会议|期刊)?发表|哪个会议|"
                     r"(?:是|由)?哪篇论文(?:最早)?提出", re.I)


def asks_record(question: str) -> bool:
    """Whether `question` asks who wrote a paper, where or when it was published, or its link (not
    who wrote or where appeared the papers on a topic: `asks_who`, `tallied`)."""
    return bool(_RECORD.search(question)) and asks_who(question) is None and tallied(question) is None


@dataclass(frozen=True)
class Asks:
    """What a question asks of its papers beyond their topic, read once (`asks`)."""

    question: str  # what to score: without the number asked for; "Who works on X?" as "Which papers are about X?"
    number: int | None = None  # `asked_number`: "three papers on X"
    order: str | None = None  # `recency` or `sorted_by_year`: "newest" / "oldest" first, "one": the newest year's
    who: bool = False  # `asks_who`: the authors of most of them
    exclusion: Exclusion | None = None  # `excluded`: papers that use Y left out
    most: Most | None = None  # `ranked`: the topic's papers by a figure ("the largest speedup")
    tally: str | None = None  # `tallied`: "venue" or "year", the papers counted by it
    focus: str | None = None  # `grouped`: what each paper's quote answers ("What datasets do the MoE papers use?")
    origin: str | None = None  # `origin`: "Which paper introduced X?" when no paper is named X: X
    judged: str | None = None  # "the most cited paper on X": "cited", a judgement the library does not hold

    @property
    def deep(self) -> bool:
        """Every paper on the topic is read: ordered by year or a figure, or counted by author, venue or year."""
        return bool(self.order or self.who or self.most or self.tally)

    @property
    def every(self) -> bool:
        """Every paper from the cite threshold is decided on, then shaped (`answer.shape`)."""
        return self.deep or self.number is not None


# "Which paper introduced X?", "Who proposed X?", "X 是哪篇论文提出的？" when no paper of the library is
# named X (`asks_record` answers those): the papers on X, said not to be its origin. Before,
# "Who proposed Thompson sampling?" cited "Racing Thompson" as if it had.
_ORIGIN = re.compile(r"^\s*(?:(?:which|what)\s+(?:paper|work|article|study)\s+(?:first\s+)?(?:introduced|proposed|presented|"
                     r"invented|coined|came\s+up\s+with)|who\s+(?:first\s+)?(?:introduced|proposed|invented|came\s+up\s+with))"
                     r"\s+(?:the\s+)?(?P<t>.+?)[\s?.!]*$|^\s*(?P<z>.+?)\s*(?:是|由)?哪篇论文(?:最早)?提出的?[\s？?。]*$", re.I)


def origin(question: str) -> str | None:
    """What a question asks the origin of ("Which paper introduced X?"), else None."""
    m = _ORIGIN.match(question)
    return (m.group("t") or m.group("z")).strip() if m else None


# "What does SLiM stand for?", "What is GAPrompt short for?", "the full name of X", "X 的全称是什么？", "X 是什么的
#缩写？": what X is (the title and the sentence that introduces it); "stand" was a topic word and it abstained.
_EXPANSION = re.compile(r"^\s*(?:what\s+(?:does|do|did)\s+(?P<a>.+?)\s+stands?\s+for|what\s+is\s+(?P<b>.+?)\s+short\s+for|"
                        r"what\s+is\s+the\s+(?:full\s+(?:name|form)|expansion|long\s+form)\s+of\s+(?P<c>.+?))[\s?.!]*$|"
                        r"^\s*(?P<z>.+?)\s*(?:的全称是什么|是什么的缩写|的全称|全称是什么)[\s？?。！]*$", re.I)


def spelled_out(question: str) -> str | None:
    """"What is X?" for a question asking what the acronym X stands for, else None."""
    m = _EXPANSION.match(question)
    if m is None:
        return None
    name = next(g for g in m.groups() if g)
    return f"{name}是什么？" if m.group("z") else f"What is {name}?"


def asks(question: str) -> Asks:
    """`question` read for a number of papers, recency, "who", a tally, a figure and an exclusion (see above)."""
    question = spelled_out(question) or question
    first = origin(question)
    question = f"Which papers are about {first}?" if first and not has_cjk(question) else question
    shown = asked_number(question)
    text, number = shown if shown else (question, None)
    sort = sorted_by_year(text)  # "..., sorted by year": the order, and the topic without it
    text = sort[0] if sort else text
    order, who = sort[1] if sort else recency(text), asks_who(text)
    text = who or text
    tally = tallied(text) if who is None else None
    text = tally[0] if tally else text
    # "the most recent paper on X" is a recency; "the most common dataset for X" asks about X's papers as a group
    pick = ranked(text) if not (order or who or tally or most_used(text)) else None
    text = pick.question if pick else text
    judged = pick.most.label or pick.most.word if pick and pick.most.measure == BEST_MATCH else None
    group = grouped(text) if not (order or who or tally or pick) else None
    return Asks(group or text, number, order, who is not None, excluded(group or text),
                pick.most if pick and not judged else None, tally=tally[1] if tally else None,
                focus=text if group else None, origin=first, judged=judged)
