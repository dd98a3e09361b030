"""Which papers a question limits itself to, read from its words: venue, year, author.

"ICML 2025 papers on quantization", "papers from 2019 about NeRF", "Which papers are by Sattar
Vakili?", "Vakili's work on kernel methods", "Sattar Vakili 的论文有哪些？": the venue, year and
author are filters on the papers' metadata, not topic words (as topic words, "2025" and
"Vakili" made every answer abstain: no abstract says them). `read_scope` returns the question
without them and the filters they name.

What counts, conservatively (a topic word must not become a filter):
- a venue: the name of a venue the library holds, before a year ("ICML 2025"), after "at" /
  "in" / "from" ("papers at NeurIPS"), or before "papers" ("CVPR papers", "ICML 有多少篇论文"); anywhere else it is
  a topic word ("Which papers are about AutoML?");
- a year (1950-2099): after "published in" or "papers from/in/of", next to a venue,
  before "papers"/"work", or written "2025年"; any other year stays in the question ("in the
  first 8 months of 2024" is what a paper reports);
- an author: capitalised words after "by" / "authored by" / "written by", or before "'s papers/work/research"
  or "的论文/工作/研究", a full name after "from" or before "wrote" / "published" ("did X write"), kept only
  when some paper of the library lists an author containing them (`has_author`); one word after "by" only
  when nothing but a preposition or the end follows ("by Vakili on kernels", not "by Newton iterations").
- a year range ("since 2020", "after 2019", "from 2020 or later", "before 2015", "between 2018 and 2020")
  where it scopes papers (`_year_range`); relative ranges count from this year ("in the last five years").
Leaves out: vague ones ("recent", "latest"), several venues or authors at once, lower-case names.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from datetime import date

_YEAR = r"(?:19[5-9]\d|20\d\d)"
_NAME = r"[A-Z][A-Za-z\u00C0-\u024F'\-.]*"
_NAMES = rf"{_NAME}(?:\s+{_NAME}){{0,3}}"
_BY = re.compile(rf"\b(?:(?:authored|written|published|co-authored)\s+)?by\s+({_NAMES})")
_POSSESSIVE = re.compile(rf"\b({_NAMES})(?:'s|’s)\s+(?=(?:papers?|work|works|research|publications?|articles?)\b)")
_ZH_POSSESSIVE = re.compile(rf"({_NAMES})\s*(?=的(?:论文|工作|研究|文章))")
# "Any papers from Jixian Zhou?", "Which papers did Semyon Savkin write?": a full name, the verb too.
_FROM = re.compile(rf"\bfrom\s+({_NAME}(?:\s+{_NAME}){{1,3}})(?=\s*(?:[?.!,;:]|$|(?:on|about|in|at|and)\b))")
_WROTE = re.compile(rf"\b({_NAME}(?:\s+{_NAME}){{1,3}})\s+(?:wrote|write|writes|authored|co-?authored|published|publish)\b")
_GENRE = r"(?:papers?|works?|publications?|articles?|research|studies)"
# The words that say a paper came out: "published", "came out", "appeared", "presented" ("Which papers
# on VIO came out before 2019?" kept "came out" as topic words and cited one paper of 11). Not
# "released": "the dataset released in 2019" is content.
_RELEASED = r"(?:published|presented|appeared|came\s+out|come\s+out)"
# "published in 2019", "papers from/in/of 2019"; not any "in 2024" or "from 2019" ("How many
# domains did it process in the first 8 months of 2024?" asks about a 2025 paper's content).
_YEAR_AFTER = re.compile(rf"(?:\b{_GENRE}\s+)?(?P<cut>(?:(?<=\s)(?:in|of)|\bfrom|\b{_RELEASED}\s+in)\s+(?:the\s+)?"
                         rf"(?:year\s+)?(?P<year>{_YEAR})\b(?!-))", re.I)
# "Which papers on graphs are from 2025?", "Only the ones from 2025", "those in 2023": the papers' year.
_PAPERS_ARE = re.compile(rf"\b(?:are|were|ones|those|these|them)\s+(?:{_RELEASED}\s+|written\s+)?$", re.I)
_CLAUSE_END = re.compile(r"\s*(?:$|[?.!,;]|(?:please|only|and|or)\b)", re.I)
_YEAR_BEFORE = re.compile(rf"(?<![\w-])({_YEAR})\s+(?={_GENRE}\b)", re.I)
_YEAR_ZH = re.compile(rf"({_YEAR})\s*年")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_IN_LIBRARY = re.compile(r"\s*\b(?:in|of|from)\s+(?:the|this|my|our)\s+(?:library|corpus|collection)\b"
                         r"(?!\s+(?:of|for|with)\b)", re.I)  # not "in the corpus of professional simplifications"
_PAPERS = re.compile(r"\s+(?:papers?|work|works|publications?|articles?)\b", re.I)
# "发表在CVPR上的论文", "CVPR上的工作", "在 ICML 发表的", "ICML 有多少篇论文？": a venue in a Chinese question for papers.
_ZH_AT = re.compile(r"(?:发表|收录)?[在于]\s*$")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_ZH_AFTER = re.compile(r"\s*(?:[上中](?:发表|收录)?的?|(?:发表|收录)的?|的(?=论文|文章|工作|研究)"
                       r"|(?=(?:有多少篇?|一共有|总共有|共有)?(?:论文|文章)))")
# What may follow a one-word author name: a preposition, a conjunction, punctuation or the end.
_ENDS_NAME = re.compile(r"\s*(?:$|[?.!,;:()]|(?:on|about|in|at|from|and|or|with|that|which|who|regarding|since|during)\b)")
# Prepositions left dangling once the scope's words are gone ("papers at  on MoE").
_DANGLING = re.compile(r"\b(?:at|in|from|of|during|by|authored by|written by)\s*(?=[?.!,;]|$)", re.I)


# Venues a question may name though the library holds none of their papers: named, they are a
# filter that matches nothing ("No paper matches the filters"), not a topic no abstract covers.
KNOWN_VENUES = frozenset("""
neurips nips icml iclr aistats colt uai alt acml jmlr tmlr cvpr iccv eccv wacv bmvc 3dv acl emnlp naacl eacl coling
conll colm tacl aaai ijcai kdd www sigir wsdm cikm recsys icra iros rss corl humanoids automl mlsys
""".split())


@dataclass(frozen=True)
class Scope:
    question: str  # without the words that named the scope
    venue: str | None = None
    year: int | None = None
    author: str | None = None
    said: list[str] = field(default_factory=list)  # the question's own words for each filter
    years: tuple[int, int] | None = None  # an inclusive range ("since 2020": 2020-9999)

    @property
    def empty(self) -> bool:
        return self.venue is None and self.year is None and self.author is None and self.years is None


def read_scope(question: str, venues: Collection[str], has_author: Callable[[str], bool]) -> Scope:
    """See the module docstring. `venues`: the library's venue names (any case); `has_author`:
    whether any paper of the library lists an author containing the given name."""
    known = {v.strip().lower(): v for v in venues if v and v.strip()}
    spans: list[tuple[int, int]] = []
    said: list[str] = []
    venue = year = author = None

    for pattern in (_BY, _POSSESSIVE, _ZH_POSSESSIVE, _FROM, _WROTE):
        for m in pattern.finditer(question):
            words = m.group(1).split()
            if pattern is _BY and len(words) == 1 and not _ENDS_NAME.match(question[m.end(1):]):
                continue
            name = " ".join(words).strip(".,'’")
            if len(name) >= 3 and has_author(name):
                author = name
                spans.append((m.start(), m.end()))
                said.append(m.group(0).strip())
                break
        if author is not None:
            break

    for m in _WORD.finditer(question):
        word = m.group(0)
        if word.lower() not in known or _inside(m.start(), spans):
            continue
        # "ICML 2025上" too: no \b before CJK; "published at ICRA in 2023": the year of that venue
        y = re.match(rf"\s*(?:in\s+)?['’]?({_YEAR})(?!\d)", question[m.end():])
        prep = re.search(rf"\b(?:at|in|from|{_RELEASED}\s+(?:at|in))\s+(?:the\s+)?$", question[:m.start()], re.I)
        at, zh_after = _ZH_AT.search(question[:m.start()]), _ZH_AFTER.match(question[m.end():])
        if not (y or prep or at or zh_after or _PAPERS.match(question[m.end():])):
            continue
        venue = word.lower()
        start, end = (at.start() if at else prep.start() if prep else m.start()), m.end()
        if y:
            year, end = int(y.group(1)), end + y.end()
        said.append(question[m.start():end].strip())
        place = _ZH_AFTER.match(question[end:]) if at or zh_after or _CJK.match(question[end:end + 1]) else None
        end += place.end() if place else 0  # "CVPR上发表的": the place words go with the venue
        spans.append((start, end))
        break

    years = None
    if year is None:
        years = _year_range(question, spans, said)
    if year is None and years is None:
        for pattern in (_YEAR_AFTER, _YEAR_BEFORE, _YEAR_ZH):
            for m in pattern.finditer(question):
                after = pattern is _YEAR_AFTER
                if after and m.start() == m.start("cut") and not re.match(_RELEASED, m.group("cut"), re.I) and not (
                        _PAPERS_ARE.search(question[:m.start()]) and _CLAUSE_END.match(question[m.end():])):
                    continue  # "in 2024", "data from 2019" without "papers" (or "are", "the ones") before: content
                which: str | int = "year" if after else 1
                if not _inside(m.start(which), spans):
                    year = int(m.group(which))
                    cut = m.start("cut") if after else m.start()
                    spans.append((cut, m.end()))
                    said.append(question[cut:m.end()].strip())
                    break
            if year is not None:
                break

    # "in the library" / "of this corpus" names where to look, not what about.
    spans += [(m.start(), m.end()) for m in _IN_LIBRARY.finditer(question)]
    if not spans:
        return Scope(question)
    out, last = [], 0
    for s, e in sorted(spans):
        out.append(question[last:s])
        last = max(last, e)
    out.append(question[last:])
    rest = re.sub(r"[(（]\s*[)）]", "", "".join(out))  # a bracket that held only the scope
    rest = re.sub(r"\s{2,}", " ", rest)
    rest = _DANGLING.sub("", rest)
    rest = re.sub(r"\s+([?.!,;])", r"\1", rest).strip()
    return Scope(rest, venue, year, author, said, years)


# A year range ("since 2020", "after 2019", "from 2020 or later", "before 2015", "between 2018 and
# 2020"), read only where it scopes papers: "published" right before it, or a word for papers earlier
# in the question ("Which papers since 2021 study event cameras?"); "How has accuracy improved
# since 2020?" keeps its year. It was a topic word no abstract has (the answer abstained), and "from
# 2020 or later" read as the single year 2020.
_FROM_ON = re.compile(rf"\b(?:since|from|after)\s+(?P<y>{_YEAR})\s*(?:,\s*)?(?:or|and)\s+(?:later|after|newer|onwards?)\b"
                      rf"|\b(?:from|starting(?:\s+in)?)\s+(?P<y2>{_YEAR})\s+(?:on|onwards?)\b|\bsince\s+(?P<y3>{_YEAR})\b", re.I)
_AFTER = re.compile(rf"\b(?:after|later\s+than)\s+(?P<y>{_YEAR})\b", re.I)
_UNTIL = re.compile(rf"\b(?:before|earlier\s+than|prior\s+to)\s+(?P<y>{_YEAR})\b|\b(?:until|up\s+to|through)\s+(?P<y2>{_YEAR})\b",
                    re.I)
_BETWEEN_YEARS = re.compile(rf"\bbetween\s+(?P<a>{_YEAR})\s+and\s+(?P<b>{_YEAR})\b|\bfrom\s+(?P<a2>{_YEAR})\s+(?:to|until)\s+"
                            rf"(?P<b2>{_YEAR})\b", re.I)
# Relative to this year: "in the last five years", "over the past 3 years", "from last year", "this
# year". The last N years reach back to this year minus N (a paper of December N years ago is
# within them), to this year; not "the last few years of climate data" (content).
_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
            "couple of": 2, "few": 3} | {c: i for i, c in enumerate("一二三四五六七八九十", 1)} | {"两": 2}
_RELATIVE = re.compile(r"\b(?:(?:in|from|over|during|within|of)\s+)?the\s+(?:last|past|previous)\s+(?P<n>\d{1,2}|two|three|four|"
                       r"five|six|seven|eight|nine|ten|couple\s+of|few)\s+years\b(?!\s+of\b)"
                       r"|\b(?:(?:in|from|of)\s+)?(?P<w>last|this)\s+year\b(?!\s+of\b)",
                       re.I)
# In Chinese: "近五年" / "最近三年" / "过去3年" (the last N years), "去年" (last year), "今年" (this year),
# in a question for papers (论文 / 文章 / 工作 / 研究 anywhere in it).
_RELATIVE_ZH = re.compile(r"(?:近|最近|过去|这)(?P<zn>[一二两三四五六七八九十]|\d{1,2})年(?:来|内|间|里)?|(?P<zw>去|今)年")
_ZH_PAPERS = re.compile(r"论文|文章|工作|研究")
_PUBLISHED = re.compile(rf"\b{_RELEASED}\s*$", re.I)  # right before the range
_PAPERS_BEFORE = re.compile(rf"\b{_GENRE}\b", re.I)


def _year_range(question: str, spans: list[tuple[int, int]], said: list[str]) -> tuple[int, int] | None:
    """The year range the question scopes its papers to (see `_FROM_ON`, `_RELATIVE`), its words
    added to `spans` and `said`; None when it names none."""
    zh = _RELATIVE_ZH.search(question) if _ZH_PAPERS.search(question) else None
    if zh is not None and not _inside(zh.start(), spans):
        spans.append((zh.start(), zh.end()))
        said.append(zh.group(0))
        return _counted_back(zh.group("zn"), zh.group("zw") == "去")
    for pattern in (_BETWEEN_YEARS, _FROM_ON, _AFTER, _UNTIL, _RELATIVE):
        for m in pattern.finditer(question):
            before = question[:m.start()]
            published = _PUBLISHED.search(before)
            if _inside(m.start(), spans) or not (published or _PAPERS_BEFORE.search(before)):
                continue
            got = {k: int(v) for k, v in m.groupdict().items() if v and v.isdigit()}
            if pattern is _BETWEEN_YEARS:
                lo, hi = got.get("a", got.get("a2", 0)), got.get("b", got.get("b2", 9999))
            elif pattern is _FROM_ON:
                lo, hi = next(iter(got.values())), 9999
            elif pattern is _AFTER:
                lo, hi = got["y"] + 1, 9999
            elif pattern is _RELATIVE:
                lo, hi = _counted_back(m.group("n"), (m.group("w") or "").lower() == "last")
            else:
                lo, hi = 0, (got["y"] - 1 if "y" in got else got["y2"])
            start = published.start() if published else m.start()
            spans.append((start, m.end()))
            said.append(question[start:m.end()].strip())
            return (lo, hi) if lo <= hi else None
    return None


def _counted_back(n: str | None, last: bool) -> tuple[int, int]:
    """The years of "the last `n` years" (digits, an English or a Chinese number word), or, without
    `n`, of last year (`last`) or this year."""
    now = this_year()
    if n is None:
        return (now - 1, now - 1) if last else (now, now)
    return now - (int(n) if n.isdigit() else _NUMBERS[" ".join(n.lower().split())]), now


def this_year() -> int:
    """The year relative ranges count from (today's)."""
    return date.today().year


def _inside(pos: int, spans: list[tuple[int, int]]) -> bool:
    return any(s <= pos < e for s, e in spans)


# "List all papers", "Show me every paper in the library", "What papers are in the corpus?",
# "列出所有论文": a question for the whole library (when it names no topic).
# "How many papers are there?" / "有多少篇论文？" (also what "How many papers are in the library?" is
# once its "in the library" is read): every paper counted (it abstained).
_EVERYTHING = re.compile(r"\b(?:all|every|each)\b[^?.!]*\bpapers?\b|\bpapers?\s+(?:are\s+)?(?:in|of)\s+(?:the|this|my)\s+"
                         r"(?:library|corpus|collection)\b|^\s*(?:list|show)\s+(?:me\s+)?(?:the\s+)?papers\b|所有(?:的)?论文|全部论文"
                         r"|^\s*how\s+many\s+(?:papers|works|articles|abstracts|publications)(?:\s+(?:are|is|do\s+(?:you|we|I)\s+"
                         r"have|(?:are\s+)?there|(?:are\s+)?here|in\s+total|overall|altogether|total))*\s*[?.!]*\s*$"
                         r"|^\s*(?:(?:库|文献库|语料库)(?:里|中)?)?(?:一共|总共)?有多少篇?论文[？?]?\s*$", re.I)
# The library itself, in words that would read as a topic ("published", "topics", "cover"): "What are the
# newest papers?", "Which paper was published most recently?" (newest first), "What topics does the library cover?".
_LIBRARY_ITSELF = re.compile(
    r"^\W*(?:what|which)\s+(?:(?:are|is|was|were)\s+)?(?:the\s+)?(?:newest|latest|most\s+recent)\s+(?:papers?|works?|"
    r"articles?)\s*[?.!]*\s*$|^\W*which\s+(?:papers?|works?)\s+(?:was|were|is|are)\s+(?:published\s+)?(?:the\s+)?"
    r"(?:most\s+recent(?:ly)?|latest|last)\s*[?.!]*\s*$|^\W*最新的?论文(?:有哪些|是哪篇)?[？?]?\s*$"
    r"|\bwhat\s+(?:topics|subjects|areas|fields|research)\s+(?:does|do)\s+(?:the|this|my)\s+(?:library|corpus|collection)\s+"
    r"(?:cover|contain|include|hold)\b", re.I)


def asks_for_everything(question: str) -> bool:
    """Whether `question` asks for every paper (of the library, or of the filters it names)."""
    return bool(_EVERYTHING.search(question) or _LIBRARY_ITSELF.search(question))


# "Which papers have scaling in the title?", "papers whose titles contain 'diffusion'", "titles
# containing mixture of experts": the words as written in the title (a metadata question: the
# topic words anywhere in the abstract are another). English titles, so English words only.
_Q = "[\"'“‘]?"
_EQ = "[\"'”’]?"
_IN_TITLE = re.compile(
    rf"\b(?:with|have|has|having|contain(?:s|ing)?|mention(?:s|ing)?|includ(?:e|es|ing)|use|uses|using)\s+(?:the\s+)?"
    rf"(?:words?\s+|terms?\s+|phrase\s+)?{_Q}(?P<a>[\w][\w\s-]{{0,40}}?){_EQ}\s+in\s+(?:the|their|its)\s+titles?\b"
    rf"|\bwhose\s+titles?\s+(?:contains?|mentions?|includes?|has|have)\s+(?:the\s+)?(?:words?\s+|terms?\s+|phrase\s+)?"
    rf"{_Q}(?P<b>[\w][\w\s-]{{0,40}}?){_EQ}\s*(?:[?.!]|$)|\btitles?\s+(?:containing|with|mentioning|that\s+(?:contain|mention)s?)"
    rf"\s+(?:the\s+)?(?:words?\s+|terms?\s+)?{_Q}(?P<c>[\w][\w\s-]{{0,40}}?){_EQ}\s*(?:[?.!]|$)", re.I)


def title_words(question: str) -> list[str]:
    """The words a question asks to find in the papers' titles (see above), or []."""
    m = _IN_TITLE.search(question)
    return next((g for g in m.groups() if g), "").split() if m else []


# "Which papers evaluate on KITTI?", "Which papers report results on ShanghaiTech?", "Which depth
# estimation papers use the KITTI dataset?", "Which papers mention SQuAD?": a dataset or benchmark by its
# name, as the abstracts write it (a mention, not a topic): read by the relevance model, the one word
# "ShanghaiTech" made no paper likely enough (over 20,000 papers it abstained; KITTI cited 2 papers).
_LEAD = r"^\W*(?:which|what|are\s+there(?:\s+any)?|(?:please\s+)?(?:list|show|find)(?:\s+me)?(?:\s+all)?(?:\s+the)?)\s+"
_BENCH = r"(?:dataset|benchmark|corpus|data\s+set|test\s+set|challenge|leaderboard|suite)"
_ON_NAMED = re.compile(
    rf"{_LEAD}(?P<topic>(?:[\w-]+\s+){{0,4}}?)(?:papers?|works?|studies|methods|approaches)\s+(?:that\s+|which\s+)?(?:"
    r"(?:(?:are|were|have\s+been)\s+)?(?:evaluated|tested|benchmarked|validated)\s+(?:on|with|against)"
    r"|(?:evaluate|test|benchmark|validate|experiment|run\s+experiments)\s+(?:on|with|against)"
    r"|report\s+(?:results|accuracy|performance|numbers|scores)\s+(?:on|for)"
    r"|(?:(?:are|were)\s+)?compared?\s+(?:against|with|to)|outperforms?|beats?|build\s+(?:on|upon)|extends?|improves?\s+(?:on|upon)"
    rf"|(?:use|uses|used|using)(?=\s+(?:the\s+)?\S+(?:\s+\S+)?\s+{_BENCH}\b))"
    rf"\s+(?:the\s+)?(?P<name>[\w][\w.+-]*(?:[\s-](?-i:[A-Z0-9])[\w.+-]*){{0,2}}?)(?:\s+{_BENCH}s?)?\s*[?.!]?\s*$", re.I)
_MENTION = re.compile(rf"{_LEAD}(?P<topic>(?:[\w-]+\s+){{0,4}}?)(?:papers?|works?|abstracts?)\s+(?:that\s+|which\s+)?"
                      r"(?:mention|mentions|cite|cites|refer\s+to|name)\s+[\"'“‘]?(?P<name>[^\"'”’?]{2,60}?)[\"'”’]?"
                      r"\s*[?.!]?\s*$", re.I)


# The same in Chinese: "哪些论文在KITTI上做了评测？", "哪些深度估计论文使用了KITTI数据集？", "哪些论文提到了SQuAD？".
# Only in a question for papers (哪些 / 哪篇 / 有哪些 / 列出 / 有没有 before it), and a name ends where the
# Chinese resumes on a particle or the question's end ("提到了3D高斯" names no "3D"; "超过90%" is a threshold).
_ZH_NAME = (r"(?P<{}>[A-Za-z][A-Za-z0-9_.+-]*(?:[ -][A-Za-z0-9][A-Za-z0-9_.+-]*){{0,2}}"
            r"|[0-9][A-Za-z0-9_.+-]*[A-Za-z][A-Za-z0-9_.+-]*)")  # a letter in it: not "90%"
_ZH_END = r"(?=\s*(?:数据集|基准|测试集|上|的|吗|呢|[？?。，,]|$))"
_ZH_MENTION = re.compile(rf"在\s*{_ZH_NAME.format('a')}\s*(?:数据集|基准|测试集)?上(?:做了?|进行了?|做过)?"
                         r"(?:评测|评估|测试|实验|验证)"
                         rf"|(?:使用|采用|用)了?\s*{_ZH_NAME.format('b')}\s*(?:数据集|基准|测试集)"
                         rf"|(?:提到|提及|引用|优于|超过|超越)了?\s*{_ZH_NAME.format('c')}{_ZH_END}")
_ZH_ASKS = re.compile(r"哪些|哪篇|有哪些|列出|有没有")
_ZH_TOPIC = re.compile(r"哪些(?P<t>[^，,。？?]{1,12}?)(?:论文|文章|工作)")


def _looks_named(name: str, title_case: bool = False) -> bool:
    """A dataset's or system's name, not a word: a digit or a capital (past the first letter in a
    question written in Title Case), and none of the field's generic words ("SOTA", "baseline", "RL")."""
    return bool(re.search(r"\d|.[A-Z]" if title_case else r"\d|[A-Z]", name)) and name.lower() not in _NOT_NAMES


def named_mention(question: str) -> tuple[str, str] | None:
    """(name, topic) of a question for the papers that mention a named dataset or benchmark (see
    above; `topic`: the words before "papers", "" when none), or None. The name must look like one
    (a capital or a digit: KITTI, Cityscapes, nuScenes, CIFAR-10; past its first letter in a question
    written in Title Case), except after "mention"."""
    if _CJK.search(question):
        zh = _ZH_MENTION.search(question)
        if zh is None or not (_ZH_ASKS.search(question[:zh.start()]) or _ZH_ASKS.search(question[zh.end():])):
            return None  # "NestQuant优于GPTQ吗？" asks about one paper
        name = (zh.group("a") or zh.group("b") or zh.group("c")).strip()
        topic = _ZH_TOPIC.search(question[:zh.start()])
        return (name, topic.group("t") if topic else "") if _looks_named(name) else None
    m = _MENTION.match(question)
    if m is None:
        m = _ON_NAMED.match(question)
        title_case = sum(w[:1].isupper() for w in question.split()[1:]) > len(question.split()) / 2
        if m is None or not _looks_named(m.group("name").rstrip("."), title_case):
            return None
    name = re.sub(r"^(?:the|a|an)\s+", "", m.group("name").strip().rstrip("."), flags=re.I)
    return name, " ".join(m.group("topic").split())


# "What is TAPE?", "What does PTQ stand for?", "Explain ALSpec.", "TAPE 是什么？": a question about a name
# alone. The paper that introduces the name answers it ("... Position Encoding (**TAPE**)"); read as a
# topic, the one word "TAPE" scored 0.43 (the question's vector reads adhesive tape) and it abstained.
_DEFINED = re.compile(r"^\W*(?:what\s+(?:is|are|does)\s+(?:the\s+)?|what'?s\s+|explain\s+|describe\s+|define\s+|"
                      r"tell\s+me\s+about\s+)(?P<n>[A-Za-z][\w.+-]*)(?:\s+(?:stand\s+for|mean|refer\s+to))?\s*[?.!]*\s*$"
                      r"|^\s*(?P<z>[A-Za-z][\w.+-]*)\s*(?:是什么|是指什么|指的是什么|代表什么|的全称是什么)[？?]?\s*$", re.I)


def defined_name(question: str) -> str | None:
    """The name a question asks about alone (see above; a capital or a digit in it), else None."""
    m = _DEFINED.match(question)
    name = (m.group("n") or m.group("z")).rstrip(".") if m else ""
    return name if name and _looks_named(name) and name.lower() not in _NOT_NAMES else None


# The field's words, not names: "Which papers outperform SOTA?", "... evaluate on RL benchmarks?".
_NOT_NAMES = frozenset("llm llms gpu gpus cpu cpus gnn gnns cnn cnns rnn rnns lstm lstms vit vits transformer transformers "
                       "sota baseline baselines rl nlp cv ml ai dl mt asr qa".split())


_CITE = re.compile(r"\b(?:cite|cites|citing|cited)\b|引用", re.I)
_RELATION = re.compile(r"\b(?:compared?|outperforms?|beats?|build\s+(?:on|upon)|extends?|improves?\s+(?:on|upon))\b"
                       r"|对比|比较|优于|超过|超越", re.I)


def asks_relation(question: str) -> str | None:
    """"cite" for "Which papers cite NeRF?" (the library holds no citation links, only the abstracts'
    words), "relation" for "Which papers compare against YOLO?" / "outperform BERT" (the abstracts that
    name it; each quote shows how), else None."""
    return "cite" if _CITE.search(question) else "relation" if _RELATION.search(question) else None


def named_topic(asked: str, topic_question: str) -> str | None:
    """The dataset a superlative asks about when its topic is one ("Which paper reports the lowest MAE
    on ShanghaiTech?": `text.superlatives.ranked` reads the topic "ShanghaiTech"): a name (a digit or a
    capital past its first letter; one word) written after "on"; else None."""
    m = re.match(r"^Which papers are about (?P<t>.+)\?$|^哪些论文研究(?P<z>.+)？$", topic_question)
    name = (m.group("t") or m.group("z")).strip() if m else ""
    if m and m.group("z"):  # "哪篇论文在ShanghaiTech上的MAE最低？"
        return name if _looks_named(name) and " " not in name and re.search(rf"在\s*{re.escape(name)}\s*上", asked) else None
    if not name or " " in name or not re.search(r"\d|\w[A-Z]|^[A-Z]{2,}$", name) or name.lower() in _NOT_NAMES:
        return None  # one word: "the largest speedup for LLM inference" asks about a topic
    return name if re.search(rf"\bon\s+(?:the\s+)?{re.escape(name)}\b", asked) else None


def asks_about_library(question: str) -> bool:
    """Whether `question` asks what the library holds in words that would otherwise read as a topic."""
    return bool(_LIBRARY_ITSELF.search(question))
