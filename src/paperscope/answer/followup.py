"""Does a question point back at the previous answer ("What are its two key innovations?")?

A follow-up is answered from the previous answer's papers first (the Assistant restricts the
candidates to them and falls back to the whole library when none fits); one that names papers
by their place in that answer ("Who wrote the second one?", "Compare [1] and [3]") is answered
from those papers (`by_place`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from paperscope.records import Answer, Citation
from paperscope.relevance.similar import asks_others
from paperscope.text.analyzer import STOPWORDS, raw_terms
from paperscope.text.superlatives import most_of

_PRONOUNS = {"it", "its", "they", "them", "their", "theirs"}  # name a paper of the previous answer
_DEMONSTRATIVES = {"this", "that", "these", "those", "such"}  # also relative pronouns: only in short questions
_REFERRING = ("the paper", "the papers", "that paper", "this paper", "those papers", "these papers", "the method",
              "that method", "this method", "the model", "the models", "the authors", "the approach", "this work",
              "that work", "the same", "above", "previous", "mentioned", "the ones", "only ones",
              # Parts of the paper just named: "Is the code available?", "Can you give me the link?"
              "the code", "the link", "the url", "the pdf", "the main contribution", "the contributions",
              "the main limitation", "the limitations", "the baselines", "the main idea", "the key idea")
# A request to go on about the answer: "Tell me more.", "More details?", "Can you elaborate?"
_MORE = re.compile(r"\b(?:tell|show|give)\s+(?:me|us)\s+more\b(?!\s+(?:about|on)\s+(?!(?:it|this|that|them|these|those)\b))"
                   r"|^\W*(?:(?:and|ok(?:ay)?|so|please)\W+)?(?:more\s+(?:details?|info(?:rmation)?|on\s+(?:it|that|this))"
                   r"|go\s+on|details?\s+please)\b|\belaborate\b", re.I)  # not "Tell me more about diffusion models"

# The same in Chinese (jieba-free: these are whole words or unambiguous prefixes): 它/其 (it, its; not
# 其他 "other", 其中 "among"), 该论文/这篇 (this paper), 上述 (the above), 作者 (the authors), 代码 (the
# code), 局限 (limitation), 再详细说说/展开讲讲 (tell me more).
_ZH_REFERRING = re.compile(r"它|其(?![他它中余实次])|他们|她们|该(?:论文|文章|方法|模型|工作|研究|框架|算法)"
                           r"|[这那](?:篇|项|些论文|个方法|个模型)|上述|上面(?:的|提到)|前面(?:的|提到)|刚才|作者|代码|链接|网址|局限|不足之处|详细|展开|多说|再说|还有呢")


def is_follow_up(question: str) -> bool:
    """Does the question point back at the previous answer ("What are its two key innovations?",
    "According to that paper, how much ...", "Is the code available?", "Tell me more."); a bare
    "that" only in a short question ("that" is also a relative pronoun: "work that replaces attention")."""
    words = raw_terms(question)
    content = [w for w in words if w not in STOPWORDS]
    lowered = f" {' '.join(words)} "  # words only: "Who are the authors?" ends in "authors?", not "authors "
    if any(w in _PRONOUNS for w in words) or any(f" {p} " in lowered for p in _REFERRING) or _MORE.search(question):
        return True
    if _ZH_REFERRING.search(question) or pointed(question) or narrows(question) or most_of(question) is not None or (
            asks_others(question)):  # "Any others?"
        return True
    return any(w in _DEMONSTRATIVES for w in words) and len(content) <= 4


# Which paper of the previous answer a follow-up names by its place: "Who wrote the second one?",
# "the last paper", "paper 3", "#2", "[2]", "the latter"; "第二篇", "第2篇论文". Not "the first paper
# to propose X" (a question about the field's history, not a pointer).
_ORDINALS = {w: i for i, w in enumerate("first second third fourth fifth sixth seventh eighth ninth tenth".split(), 1)}
_ORDINALS |= {f"{i}{s}": i for i, s in zip(range(1, 11), "st nd rd th th th th th th th".split())}
_ORDINALS |= {"last": -1, "former": 1, "latter": -1}
_NOUNS = r"(?:one|paper|article|work|study|result|entry|item|citation|reference|source)"
_ORDINAL = re.compile(rf"\bthe\s+({'|'.join(_ORDINALS)})(?:\s+{_NOUNS}\b|(?=\s*(?:[?.!,;:]|$)|\s+(?:and|or|vs)\b))"
                      r"(?!\s+(?:to|that|which|who|ever|about|in|of|for)\b|\s+on\s+(?!the\s+list))", re.I)
_NUMBERED = re.compile(rf"(?:\b{_NOUNS}|\bnumber|\bno\.|#)\s*\[?(\d{{1,2}})\]?(?![\w%]|\.\d)|\[(\d{{1,2}})\]", re.I)
_ZH_NUMBERS = {c: i for i, c in enumerate("一二三四五六七八九十", 1)}
_ZH_ORDINAL = re.compile(r"第\s*([一二三四五六七八九十]|\d{1,2})\s*(?:篇|个|项|条)|最后一(?:篇|个|项|条)")


def pointed(question: str) -> list[int]:
    """The places (1-based; -1 = the last) of the previous answer's papers that `question` names
    by their place ("Compare the first and the third one"), in the question's order; [] if none."""
    found = [(m.start(), _ORDINALS[m.group(1).lower()]) for m in _ORDINAL.finditer(question)]
    found += [(m.start(), int(m.group(1) or m.group(2))) for m in _NUMBERED.finditer(question)]
    found += [(m.start(), -1 if m.group(1) is None else _ZH_NUMBERS.get(m.group(1)) or int(m.group(1)))
              for m in _ZH_ORDINAL.finditer(question)]
    return list(dict.fromkeys(place for _, place in sorted(found)))


def by_place(answers: Sequence[Answer], question: str) -> list[Citation]:
    """The cited papers that `question` names by place (`pointed`) in the latest of the earlier
    `answers` that listed more than one (after "Who wrote the second one?" answered with one
    paper, "And the first one?" still means the list's); places past the end are ignored."""
    lists = [a for a in answers if len(a.citations) > 1] or list(answers)
    cites = lists[-1].citations if lists else []
    n = len(cites)
    if _only_scope(question):  # "Only the ones from 2023.", its year read as a filter
        return list(cites)
    return [cites[p - 1 if p > 0 else n + p] for p in pointed(question) if 0 < p <= n or -n <= p < 0]


# What is left of a follow-up that only filters the previous papers ("Only the ones from 2023.",
# "Which of them are from ICML?") once its venue, year or author is read (`text.scope`): all of them,
# whatever their score, as the asker chose them (re-scored, the 2024 deepfake papers fell short).
_ONLY_SCOPE = frozenset("only just the ones one those these them which of are were is was please show me keep list "
                        "give all and what".split())


def _only_scope(question: str) -> bool:
    words = raw_terms(question)
    return bool(words) and all(w in _ONLY_SCOPE for w in words)


def unpointed(question: str) -> str:
    """`question` with each place it names read as "it" ("What does [1] propose?" -> "What does it
    propose?"): what to quote is read from the rest, not from "[1]" or "second"."""
    return _NUMBERED.sub("it", _ORDINAL.sub("it", question))


# "Which of those use quantization?", "Do any of them study MoE?": a question that picks among the
# previous answer's papers by its own words (read with the earlier question, a paper on the earlier
# topic alone reached the cite threshold: "Scaling Inference-Efficient Language Models" for
# quantization after "Which papers deal with LLMs?").
_NARROWS = re.compile(r"^\W*(?:[\w']+\W+){0,2}?(?:which|what|any|some|all|none|each)\s+(?:ones|of\s+(?:those|these|them|"
                      r"the\s+(?:above|papers|ones)))\b"  # near the start; 其中哪些 / 这些论文中有没有 / 它们之中
                      r"|其中(?:有)?(?:哪|有没有|是否)|[这那]些(?:论文|文章|工作)?(?:中|里|之中|当中)"
                      r"|它们(?:中|之中|当中|里)", re.I)


# "Is the code available?", "Where can I find their code?", "Is there a GitHub repo?", "代码开源了吗？":
# which of the previous papers say so; an abstract that does not is no answer (NestQuant's was
# quoted for its perplexity).
_CODE = re.compile(r"\b(?:code|source\s+code|implementation|github|repo(?:sitory)?|open[-\s]?source[d]?)\b[^?]*\b(?:available|"
                   r"released?|public(?:ly)?|open|find|get|download|link|url)\b|\b(?:is|are)\s+(?:there\s+)?(?:any\s+)?"
                   r"(?:code|github|a\s+github\s+repo|a\s+repo(?:sitory)?)\b|\b(?:open[-\s]?sourced?|release[ds]?)\s+"
                   r"(?:the\s+|their\s+|its\s+)?code\b|\b(?:find|get|download|access|where\s+is|where\s+are)\s+(?:the\s+|"
                   r"their\s+|its\s+)?(?:source\s+)?(?:code|implementation|github|repo(?:sitory)?)\b"
                   r"|代码(?:是否|有没有)?(?:开源|公开|可用|在哪|链接|地址)|开源了|(?:有没有|有无|是否有)(?:开源)?代码",
                   re.I)  # not 代码生成 (code generation)


# A question about every paper of the previous answer ("What datasets do they use?", "Who wrote them?",
# "Which venues are they from?", "When were they published?", "How accurate are they?", "Summarize them.",
# "它们用了哪些数据集？"): all of them, each quoting what is asked (`all_of_them`). Judged with the earlier
# question like any follow-up, one paper of 13 passed ("What datasets do they use?" after crowd counting).
# Not a question that picks among them ("Which of them ...?", "Do they use X?"), points at one ("the
# second one"), ranks them ("Which one is the fastest?") or asks for others.
_ALL_OF_THEM = re.compile(r"^\W*(?:(?:and|so|ok(?:ay)?)\W+)?(?:what|which|who|where|when|how|summari[sz]e|compare|contrast|"
                          r"describe|list)\b[^?]*\b(?:they|them|their|these\s+papers|those\s+papers)\b"
                          r"|^\W*(?:summari[sz]e|compare|contrast|describe)\s+(?:them|these|those|each\s+of\s+them)\b"
                          r"|(?:它们|这些论文|这几篇|他们)(?!(?:中|之中|当中|里))[^？?]*(?:什么|哪些|哪个|哪里|哪年|何时|怎样|如何|谁)",
                          re.I)
_THEIR_VENUES = re.compile(r"\b(?:venues?|conferences?|journals?)\b|\bwhere\b[^?]*\b(?:published|appear|presented)|"
                           r"哪些?(?:个)?(?:会议|期刊)|发表在哪", re.I)
_THEIR_YEARS = re.compile(r"\b(?:years?|when)\b[^?]*\b(?:published|appear|come\s+out|came\s+out|written)|\bwhich\s+years?\b|"
                          r"哪(?:一)?年|何时发表|什么时候发表", re.I)


def all_of_them(question: str) -> str | None:
    """For a question about every paper of the previous answer (see above): "venue" or "year" when it
    asks where or when they were published (counted that way), else "each"; None for any other."""
    if not _ALL_OF_THEM.search(question) or narrows(question) or pointed(question) or most_of(question) is not None \
            or asks_others(question):
        return None
    return "venue" if _THEIR_VENUES.search(question) else "year" if _THEIR_YEARS.search(question) else "each"


def narrows(question: str) -> bool:
    """Does the follow-up pick among the previous answer's papers ("Which of those ...?")? Then it
    is scored with its own words, and none of them fitting is the answer, not the whole library's."""
    return bool(_NARROWS.search(question) or _CODE.search(question)) or _only_scope(question)


def asks_code(question: str) -> bool:
    """Does the follow-up ask where the previous papers' code is ("Is the code available?")?"""
    return bool(_CODE.search(question))


# "Which of them report MAE?", "Do any of them report accuracy?", "其中哪些报告了MAE？": a measure the previous
# papers' abstracts give a figure for (`answer.figures.reporting_plan`).
_REPORTS = re.compile(r"\b(?:report|reports|give|gives|state|states|provide|provides)\s+(?:an?\s+|the\s+|their\s+|its\s+)?"
                      r"(?P<m>[A-Za-z][\w%@-]*(?:\s+[a-z][\w-]*)?)(?:\s+(?:figures?|numbers?|results?|scores?|values?))?"
                      r"\s*[?.]?\s*$|报告了?(?P<z>[A-Za-z][\w%@-]*)", re.I)


def reported_measure(question: str) -> str | None:
    """The measure a narrowing follow-up asks the previous papers to report a figure for, or None."""
    m = _REPORTS.search(question) if narrows(question) and not _CODE.search(question) else None
    if m is None:
        return None
    measure = re.sub(r"\s+(?:figures?|numbers?|results?|scores?|values?)$", "", (m.group("m") or m.group("z") or "").strip())
    return measure if measure and measure.lower() not in ("code", "results", "it", "them", "this") else None


def picks_by_topic(question: str) -> bool:
    """Does the follow-up pick among the previous papers by a topic of its own ("Which of them use
    quantization?", "And which ones use flow matching?")? When none of them fits, the library's papers
    on that topic are named (`Gatherer.elsewhere`); not for their code or a venue or year alone."""
    return bool(_NARROWS.search(question)) and not _CODE.search(question) and not _CODE_WORDS.search(question) \
        and not _only_scope(question)


# Their code, asked as a pick ("Which of them have code?", "Which ones are open source?", "其中哪些有代码？"): no
# topic for the rest of the library.
_CODE_WORDS = re.compile(r"\b(?:code(?!\s+generation)|github|repos?|repositor(?:y|ies)|open[-\s]?sourced?)\b|代码(?!生成)", re.I)


def scoring_text(question: str, earlier: str) -> str:
    """What a follow-up's candidates are scored with: the question with the earlier one (which of
    the previous papers "it" is), or alone when it picks among them (`narrows`)."""
    return question if narrows(question) else f"{question} {earlier}"
