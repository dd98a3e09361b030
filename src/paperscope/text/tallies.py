"""Questions for the papers on a topic counted by venue or by year (`tallied`):

- by venue: "Which venues publish most on crowd counting?", "Where are papers on NeRF published?",
  "At which conferences do papers on event cameras appear?", "关于神经辐射场的论文发表在哪些会议上？";
- by year: "How has research on NeRF evolved over the years?", "How many papers on event cameras
  per year?", "In which years were papers on X published?", "X 的研究趋势", "X 的论文每年有多少？".

Before, their venue and year words were read as the topic: "Which venues publish most on crowd
counting?" cited one paper of 15; "Where are papers on NeRF published?" read as the record of the
paper named "NeRF". The topic is what follows "papers on" (or "publish most on"); a question with
no such frame ("Which papers study time series over the years?") is not a tally: "over the years"
may be its content. One paper's record ("Which venue published Oracle-MoE?") is `asks_record`'s.
A question about the papers on a topic as a group ("What datasets are used in the quantization
papers?", "How do the MoE papers differ?", "What do the papers on event cameras propose?") is
answered as a question for the papers on the topic, each quoting what the question asks
(`grouped`); before, its attribute words ("datasets", "differ") were part of the topic, and it cited
one quantization paper of two.
Leaves out: counting by author (`text.asks.asks_who`).
"""

from __future__ import annotations

import re

_PAPER = r"(?:papers?|works?|research|studies|publications?|literature|articles?)"
_VENUES = re.compile(r"^\W*(?:(?:at|in|from)\s+)?(?:which|what)\s+(?:venues|conferences|journals|workshops)\b|"
                     rf"^\W*where\s+(?:are|were|do|did|have|has|is)\b(?=.*\b{_PAPER}\b)(?=.*\b(?:published|appear(?:ed)?|"
                     r"presented)\b)", re.I)
_VENUES_ZH = re.compile(r"(?:主要)?(?:发表|收录)?(?:在|于)?哪些(?:会议|期刊|刊物)(?:上)?(?:发表|收录)?了?(?:最多)?的?|"
                        r"(?:主要)?(?:发表|收录)(?:在|于)?哪(?:里|儿)")
_YEARS = re.compile(r"\b(?:per|each|every|by)\s+year\b|\byear\s+(?:by|over)\s+year\b|\bover\s+(?:the\s+)?(?:years|time)\b|"
                    rf"^\W*(?:in\s+)?(?:which|what)\s+years\b|^\W*when\s+(?:were|was|did|have|has)\b(?=.*\b{_PAPER}\b)|"
                    rf"\btrends?\s+(?:of|in)\s+(?:the\s+)?{_PAPER}|\b(?:research|publication)\s+trends?\b", re.I)
_YEARS_ZH = re.compile(r"每年|逐年|历年|各年|按年份?|哪些年|哪几年|(?:发展|研究)?趋势|随时间")
_RESEARCH = re.compile(rf"\b(?:{_PAPER}|interest|topic|field)\b", re.I)
# The topic: after "papers on", or before "papers by year", or what the venue / year words leave.
_TOPIC = re.compile(rf"\b{_PAPER}\s+(?:trends?\s+)?(?:on|about|in|regarding|into|related\s+to|concerning|dealing\s+with|"
                    r"for)\s+(?P<t>.+)", re.I)
_TOPIC_BEFORE = re.compile(rf"^\W*(?:(?:show|list|give)\s+(?:me\s+)?)?(?:the\s+)?(?P<t>.+?)\s+{_PAPER}\s+"
                           r"(?:by|per|each|every)\s+year\b", re.I)
_TAIL = re.compile(r"\s+(?:(?:been|first|mostly|most\s+often|usually|typically)\s+)*(?:published|presented|appear(?:ed|s)?|"
                   r"changed|evolved|grown|developed|increased|decreased|declined|shifted|come\s+out|came\s+out|from|"
                   r"(?:per|each|every|by)\s+year|over\s+(?:the\s+)?(?:years|time)|year\s+by\s+year|the\s+most|most)\b.*$", re.I)
_LEAD = re.compile(r"^\W*(?:(?:at|in|from)\s+)?(?:which|what)\s+(?:venues|conferences|journals|workshops|years)\s+"
                   r"(?:(?:publish(?:es|ed)?|have|has|had|do|did|are|were|is|feature|features|host|hosts|accept|accepted|"
                   r"contain|contains|hold|holds)\s+)?(?:(?:the\s+)?(?:most|more|many|several|a\s+lot\s+of)\s+)?"
                   rf"(?:{_PAPER}\s+)?(?:on|about|in|regarding|for|of)?\s*", re.I)
_CJK = re.compile(r"[\u4e00-\u9fff]")


def tallied(question: str) -> tuple[str, str] | None:
    """(the question to score, "venue" or "year") when `question` asks for the papers on a topic
    counted by venue or by year, else None."""
    if _CJK.search(question):
        zh = _VENUES_ZH.search(question) or _YEARS_ZH.search(question)
        if zh is None:
            return None
        rest = (question[:zh.start()] + question[zh.end():]).strip()
        return (rest, "venue" if zh.re is _VENUES_ZH else "year") if _CJK.search(rest) else None
    venue = _VENUES.search(question)
    year = _YEARS.search(question) if venue is None else None
    if venue is None and (year is None or not _RESEARCH.search(question)):
        return None
    m = _TOPIC.search(question) or _TOPIC_BEFORE.search(question)
    if m is not None:
        topic = m.group("t")
    else:
        topic = _LEAD.sub("", question, count=1)
        if topic == question:  # "Which papers study time series over the years?": "over the years" may be content
            return None
        topic = _YEARS.sub(" ", topic)
    topic = _TAIL.sub("", topic.strip(" ?.!")).strip(" ?.!,")
    topic = re.sub(rf"\s+{_PAPER}$", "", topic, flags=re.I)
    return (f"Which papers are about {topic}?", "venue" if venue else "year") if topic else None


PAPERS = r"(?:papers|works|studies|articles|publications)"  # a word for papers, plural
# Not a topic before "papers": which papers, not what about ("the two papers", "the cited papers").
_NOT_TOPIC = (r"(?:previous|above|cited|listed|same|other|first|second|third|last|two|three|four|five|several|many|few|"
              r"following|such|recent|newest|latest|best|top|most|relevant|remaining|retrieved|selected|the|all|of|proposed|"
              r"existing|different|new|various|baseline|our|their|its|prior|previous|current|main|other)")
_GROUP = re.compile(rf"\b(?:the|these|those|all(?:\s+(?:the|of\s+the))?)\s+(?!{_NOT_TOPIC}\b)(?P<t>[A-Za-z0-9][\w\-/ ]*?)"
                    rf"\s+(?:{PAPERS}|methods|approaches|techniques)\b|\b(?:the|these|those|all(?:\s+(?:the|of\s+the))?)\s+{PAPERS}\s+"
                    r"(?:on|about|regarding)\s+(?P<t2>[^?.,;]+)", re.I)
# The question's verb after a topic that follows "papers on" ("the papers on quantization evaluate").
_GROUP_VERB = re.compile(r"\s+(?:use|used|uses|evaluate|evaluated|compare|differ|propose|proposed|report|reported|address|"
                         r"tackle|share|have|has|achieve|measure|consider|study|solve|rely|assume|claim|find|found|show|"
                         r"introduce|train|test|benchmark|mention|do|did|focus|target|cover)\b.*$", re.I)
# Asking for papers (a list question, "Which of the X papers ..." a pick among them): no group.
_ASKS_PAPERS = re.compile(r"^\W*(?:(?:which|what|are\s+there|is\s+there|any)\s+(?:me\s+)?(?:all\s+)?"
                          rf"(?:the\s+)?{PAPERS}\b|(?:which|what)\s+(?:one|ones|of)\b|(?:please\s+)?(?:list|show|find|"
                          r"give|recommend|suggest|get|fetch|name)\b)", re.I)
# A kind of paper, not a topic ("List the position papers", "the survey papers": `relevance.contribution`).
_GENRES = re.compile(r"^(?:position|survey|review|benchmark|dataset|theory|theoretical|empirical|tutorial|workshop|short|"
                     r"long|oral|spotlight|poster|best|award[- ]winning|seminal|classic|influential|key|important)$", re.I)


# "What benchmarks are used for text-to-SQL?", "Which metrics are commonly reported for crowd counting?", "What
# loss functions / sensors / architectures are used for X?": the papers on the topic, each quoting its benchmarks
# (one of 11 text-to-SQL papers was cited: "benchmarks" was a topic word; one of 15+ on metric learning for losses).
_USED_FOR = re.compile(r"^\W*(?:what|which)\s+(?:(?:evaluation\s+)?(?:datasets|benchmarks|metrics|baselines|corpora|simulators)|"
                       r"loss(?:\s+functions|es)|(?:network\s+)?architectures|backbones|sensors|features|optimizers|"
                       r"data\s+sets|test\s+sets)\s+(?:are|is|were|have\s+been)\s+(?:\w+ly\s+)?(?:used|employed|adopted|"
                       r"reported|considered|common|standard|popular)\s+(?:for|in|on|by|to\s+(?:evaluate|train))\s+"
                       r"(?P<t>[^?]+)", re.I)


# "What is the most common dataset for crowd counting?", "Which benchmarks are most widely used in NER?": which
# one the papers on the topic use most is for the reader to count from their quotes (as a judgement, "most
# common" was read as the best match: the papers on the topic, quoting their most topical sentence).
_THINGS = (r"(?:evaluation\s+)?(?:datasets?|benchmarks?|metrics?|baselines?|corpora|corpus|simulators?|loss(?:\s+functions?|es)?|"
           r"architectures?|backbones?|sensors?|optimizers?)")
_MOST_USED = re.compile(rf"^\W*(?:what|which)\s+(?:(?:is|are)\s+the\s+most\s+(?:common(?:ly\s+used)?|popular|widely[-\s]used|"
                        rf"frequently\s+used|used|standard)\s+{_THINGS}|{_THINGS}\s+(?:is|are)\s+(?:the\s+)?most\s+(?:common(?:ly)?"
                        rf"|popular|widely|frequently)?\s*(?:used|common|popular|standard)?)\s+(?:for|in|on)\s+"
                        r"(?P<t>[^?]+)", re.I)


# The same in Chinese: "人群计数最常用的数据集是什么？", "人群计数的论文都用了哪些数据集？".
_ZH_THINGS = r"(?:数据集|基准(?:数据集)?|评测指标|评价指标|指标|基线|损失函数)"
_ZH_MOST_USED = re.compile(rf"^(?:在|关于|对于)?(?P<t>[^，,。？?]{{2,20}}?)(?:领域|方面|任务|中|里)?的?(?:最|比较)?"
                           rf"(?:常用|主流|常见|流行)的?{_ZH_THINGS}")
_ZH_USED = re.compile(rf"^(?:在|关于|对于)?(?P<t>[^，,。？?]{{2,20}}?)的?(?:论文|方法|工作|研究)(?:都|一般|通常|主要)?"
                      rf"(?:用了|使用了?|采用了?|用到了?)(?:哪些|什么)的?{_ZH_THINGS}")


def most_used(question: str) -> bool:
    """Does the question ask which dataset (benchmark, metric ...) the papers on a topic use most?"""
    return bool(_MOST_USED.search(question) or _ZH_MOST_USED.search(question))


# "What is the most used benchmark in the library?", "What features are used in the model?": no topic.
_NO_TOPIC = re.compile(r"^(?:(?:this|the|our|my|your)\s+)?(?:library|corpus|collection|model|method|paper|approach|system|"
                       r"framework|work|them|it)$", re.I)


def grouped(question: str) -> str | None:
    """The question for the papers on the topic when `question` asks about the papers on a topic as
    a group (see above), else None."""
    zh = _ZH_MOST_USED.search(question) or _ZH_USED.search(question)
    if zh is not None:  # "人群计数的论文都用了哪些数据集？": the crowd counting papers, each quoting its datasets
        return f"哪些论文研究{zh.group('t')}？"
    m = _USED_FOR.search(question) or _MOST_USED.search(question) or _GROUP.search(question)
    if m is None or _ASKS_PAPERS.search(question):
        return None
    topic = _GROUP_VERB.sub("", (m.group("t") or m.groupdict().get("t2") or "").strip()).strip(" ?.!")
    topic = re.sub(r"^(?:the\s+)?(?:task\s+of\s+|problem\s+of\s+)?", "", topic, flags=re.I)
    topic = re.sub(rf"\s+(?:{PAPERS}|methods|approaches|techniques)$", "", topic, flags=re.I)
    if _GENRES.match(topic) or _NO_TOPIC.match(topic):
        return None
    return f"Which papers are about {topic}?" if topic else None
