"""Questions about the library's records as a whole, and about records it does not keep.

"How many papers are in the library?", "Which years do the papers cover?", "Which venues are in
the library?", "Which authors have more than one paper?", "Who wrote the most papers?", "Which
paper has the most authors?", "Which papers are single-authored?", "库里有多少篇论文？": read as
topics, each abstained ("none covers “authors”", 库 glossed as "storehouse") or listed the
library under "38 papers ... address this". `asks_fact` reads what is asked; `Listings.facts`
answers from the records and `fact_text` says it.
Records the library does not keep, said plainly instead of searched as topics: the authors'
affiliations ("Which papers come from Google?", "Which universities are represented?"; the
papers whose title or abstract writes the name are listed as such) and citation counts ("Which
paper is the most cited?"; "the most cited paper on X" is a topic question, `asks`).
Only questions with no topic: "Who wrote the most papers on quantization?" asks who works on a
topic (`asks`), "How many papers use LoRA?" counts a topic's papers (`counts_papers`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

# The library in a question's words, and what may end a question about it ("... in the library?").
_LIB = r"(?:the\s+|this\s+|these\s+|my\s+|our\s+|your\s+)?(?:library|corpus|collection|list)"
_PAPERS = r"(?:papers|abstracts|articles|works|publications|entries|documents)"
_THE_PAPERS = rf"(?:(?:the|these|all(?:\s+the|\s+these)?|its|my|our)\s+)?{_PAPERS}"
_END = (rf"(?:\s+(?:in|of|across|among|within|from)\s+(?:{_LIB}|{_THE_PAPERS}))?"
        r"(?:\s+(?:here|overall|in\s+total|altogether))?\s*[?.!]*\s*$")
_ZH_LIB = r"(?:(?:这个|该|本)?(?:文献库|语料库|论文库|库)(?:里|中|内)?的?|这些|所有|全部)?"
_ZH_END = r"[？?。]*\s*$"
_MANY = r"(?:more\s+than\s+one|several|multiple|many|two\s+or\s+more|the\s+most)"


def _either(*alternatives: str) -> re.Pattern[str]:
    """One case-blind pattern of whole-question alternatives."""
    return re.compile("|".join(alternatives), re.I)


_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("count", _either(
        rf"^\s*how\s+many\s+{_PAPERS}\s+(?:are|is|does|do|have\s+been|were|got)\s+(?:there|in\s+total|in\s+{_LIB}"
        rf"|{_LIB}\s+(?:hold|contain|have|has|cover)s?|(?:you|we|I)\s+have|(?:being\s+)?(?:ingested|indexed|loaded|stored))"
        rf"(?:\s+(?:in\s+{_LIB}|in\s+total|overall|altogether))?{_END}",
        # "How many papers are from 2025?" once "from 2025" is read as a filter
        rf"^\s*how\s+many\s+{_PAPERS}(?:\s+(?:are|is|were|exist)(?:\s+there)?)?\s*[?.!]*\s*$",
        rf"^\s*how\s+(?:big|large)\s+is\s+{_LIB}{_END}", rf"^\s*what\s+is\s+the\s+size\s+of\s+{_LIB}{_END}",
        rf"^\s*{_ZH_LIB}(?:一共|总共|共)?有多少篇?(?:论文|文章){_ZH_END}",
        rf"^\s*{_ZH_LIB}(?:论文|文章)(?:一共|总共|共)?有多少篇?{_ZH_END}")),
    ("years", _either(
        rf"^\s*(?:what|which)\s+years?\s+(?:do|does|are|is)\s+(?:{_THE_PAPERS}|{_LIB})\s+"
        rf"(?:cover|span|come\s+from|from|published\s+in){_END}",
        rf"^\s*(?:what|which)\s+years?\s+(?:are|is)(?:\s+(?:covered|represented|included|in\s+{_LIB}))?{_END}",
        r"^\s*what\s+(?:is|are)\s+the\s+(?:publication\s+)?(?:years?|time|date)\s*(?:range|span|coverage|distribution)"
        rf"(?:\s+of\s+{_THE_PAPERS})?{_END}",
        rf"^\s*when\s+were\s+{_THE_PAPERS}\s+published{_END}",
        rf"^\s*(?:which|what)\s+years?\s+(?:has|have|had|saw)\s+the\s+most\s+{_PAPERS}{_END}",
        rf"^\s*{_ZH_LIB}(?:论文|文章)(?:都|主要)?(?:来自|覆盖|发表于|是)?(?:在)?(?:哪些|哪几|哪一?|什么)年(?:份)?(?:发表|出版)?的?{_ZH_END}",
        rf"^\s*{_ZH_LIB}(?:论文|文章)的?(?:发表)?年份(?:范围|分布)?(?:是什么|有哪些|如何)?{_ZH_END}")),
    ("venues", _either(
        rf"^\s*(?:what|which)\s+(?:venues|conferences|journals|workshops)\s+(?:are|do|does|is)\s+(?:(?:covered|represented"
        rf"|included|in\s+{_LIB})|(?:{_THE_PAPERS}|{_LIB})\s+(?:come\s+from|cover|include|span)){_END}",
        r"^\s*(?:what|which)\s+(?:venues|conferences|journals)\s+are\s*[?.!]*\s*$",  # "... in the library" read as the scope
        rf"^\s*where\s+were\s+{_THE_PAPERS}\s+published{_END}",
        rf"^\s*(?:which|what)\s+(?:venues?|conferences?|journals?)\s+(?:has|have|had)\s+the\s+most\s+{_PAPERS}{_END}",
        rf"^\s*{_ZH_LIB}(?:论文|文章)(?:都|主要)?(?:来自|发表于|发表在)(?:哪些|哪个|什么)(?:会议|期刊|刊物){_ZH_END}")),
    ("prolific", _either(
        r"^\s*(?:which|what)\s+(?:authors?|researchers?|people)\s+(?:have|has|wrote|authored|appears?|are|is|published"
        rf"|co-?authored)\s+(?:on\s+|in\s+|listed\s+on\s+)?{_MANY}(?:\s+{_PAPERS}|\s+paper)?{_END}",
        r"^\s*(?:which|what)\s+(?:authors?|researchers?|names?)\s+(?:appears?|recurs?|occurs?)\s+"
        rf"(?:most(?:\s+often)?|more\s+than\s+once|repeatedly|again){_END}",
        r"^\s*who\s+(?:wrote|authored|has|published|co-?authored|appears\s+on|is\s+on)\s+"
        rf"(?:the\s+most|more\s+than\s+one|several|multiple)(?:\s+{_PAPERS}|\s+paper)?{_END}",
        r"^\s*(?:who\s+are|which\s+are|list|show(?:\s+me)?)\s+the\s+(?:most\s+(?:prolific|frequent|common)|top)\s+"
        rf"(?:authors|researchers){_END}",
        rf"^\s*(?:most\s+prolific|top)\s+authors{_END}",
        rf"^\s*how\s+many\s+(?:authors|researchers|people)\s+(?:are\s+there|(?:does|do)\s+{_LIB}\s+(?:have|list|hold))?{_END}",
        rf"^\s*(?:who\s+is|which\s+is)\s+the\s+most\s+(?:prolific|frequent)\s+(?:author|researcher){_END}"
        rf"|^\s*(?:which|what)\s+(?:author|researcher)\s+(?:has\s+)?(?:written|authored|published|wrote|has)\s+the\s+most"
        rf"(?:\s+{_PAPERS})?{_END}|^\s*(?:which|what)\s+authors?\s+recurs?{_END}",
        rf"^\s*(?:哪些|哪位|哪个)(?:作者|研究者|学者)(?:有|发表了?|写了?)?(?:多篇|不止一篇|两篇以上|最多)(?:的)?(?:论文)?{_ZH_END}",
        rf"^\s*谁(?:的论文最多|发表的论文最多|写的论文最多|写了最多的?论文|发表了最多的?论文){_ZH_END}",
        rf"^\s*(?:哪位|哪个|哪些)(?:作者|研究者|学者)的论文最多{_ZH_END}")),
    ("most_authors", _either(
        r"^\s*(?:which|what)\s+(?:paper|papers|one)\s+(?:has|have)\s+the\s+(?:most|largest\s+number\s+of"
        rf"|highest\s+number\s+of|longest\s+list\s+of|biggest\s+team\s+of)\s+(?:authors|co-?authors){_END}",
        rf"^\s*(?:which|what)\s+(?:paper|papers)\s+(?:has|have)\s+the\s+(?:longest|largest|biggest)\s+author\s+lists?{_END}",
        rf"^\s*(?:哪篇|哪些)(?:论文|文章)的?作者最多{_ZH_END}")),
    ("fewest_authors", _either(
        r"^\s*(?:which|what)\s+(?:paper|papers|one)\s+(?:has|have)\s+the\s+(?:fewest|least|smallest\s+number\s+of"
        rf"|lowest\s+number\s+of)\s+(?:authors|co-?authors){_END}",
        rf"^\s*(?:哪篇|哪些)(?:论文|文章)的?作者最少{_ZH_END}")),
    ("single_author", _either(
        rf"^\s*(?:which|what)\s+papers?\s+(?:are|is|were|was)\s+(?:single|solo|sole)[- ]authored{_END}",
        rf"^\s*(?:which|what)\s+papers?\s+(?:has|have)\s+(?:a\s+single|one|only\s+one|just\s+one)\s+author{_END}",
        rf"^\s*(?:single|solo|sole)[- ]authored\s+papers{_END}",
        rf"^\s*(?:哪些|哪篇)(?:论文|文章)(?:是|只有)?(?:单作者|一位作者|一个作者)(?:的)?(?:论文)?{_ZH_END}")),
    ("citations", _either(
        r"^\s*(?:which|what)\s+(?:paper|papers|work|one)\s+(?:is|are|was|were|has|have)\s+(?:the\s+)?"
        rf"(?:most|highest|best|more)[- ]?(?:cited|citations|influential|impactful|impact|popular|read)"
        rf"(?:\s+{_PAPERS}|\s+paper)?{_END}",
        r"^\s*(?:which|what)\s+(?:paper|papers)\s+(?:has|have)\s+the\s+(?:most|highest\s+number\s+of|largest\s+number\s+of)"
        rf"\s+citations{_END}",
        rf"^\s*(?:what\s+(?:is|are)\s+)?the\s+most[- ]cited\s+(?:paper|papers|work){_END}",
        r"^\s*how\s+(?:many\s+(?:citations|times)|often)\s+(?:does|did|has|have|is|was)\b[^?]*?\b(?:cited|citations?|have|has|get|got"
        r"|received?)\s*[?.!]*\s*$",
        rf"^\s*(?:哪篇|哪些)?(?:论文|文章)?(?:被)?引用(?:次数|量)?最(?:多|高)的?(?:论文|文章)?(?:是哪篇|是哪些|有哪些)?{_ZH_END}",
        rf"^\s*被引(?:次数|量)?最(?:多|高)的(?:论文|文章)(?:是哪篇|是哪些|有哪些)?{_ZH_END}")),
)

# Affiliations: "Which papers come from Google?", "Which papers are by researchers at MIT?", "... affiliated with
# Stanford?"; "Which universities are represented?". Venues, years and authors named so are filters (`text.scope`),
# read before this. "by researchers at X", "affiliated with X", "with authors from X" say an affiliation of any
# capitalised name; "come from X" / "written by X" only of an organisation: its name says so ("University of
# Toronto", "Google Research") or it is a well-known one. "Which papers come from Reinforcement Learning / NLP /
# ImageNet?", "... written by GPT-4?" are topic questions.
_NAME = r"(?P<name>(?:the\s+)?[A-Z][\w&.'-]*(?:\s+(?:of\s+|at\s+)?[A-Z][\w&.'-]*){0,4})"
_WHICH_PAPERS = r"^\s*(?i:(?:which|what|any|list|show(?:\s+me)?)\s+(?:the\s+)?(?:papers?|works?|articles?|publications?)\s+"
_AFFILIATED = re.compile(_WHICH_PAPERS + r"(?:(?:(?:are|is|were|was)\s+(?:written\s+|authored\s+)?by|(?:have|has)|come\s+from"
                         r"|(?:are|is)\s+from)\s+(?:people|researchers|authors|teams?|groups?|scientists)\s+(?:at|from)"
                         r"|(?:are|is)\s+affiliated\s+with|(?:have|has)\s+(?:authors?|researchers?)\s+(?:from|at)))"
                         rf"\s+{_NAME}(?i:{_END})")
_FROM_ORG = re.compile(
    _WHICH_PAPERS + r"(?:(?:are|is|come|comes|came)\s+from|(?:are|were|is|was)\s+(?:written|authored|produced|published)\s+"
    rf"(?:at|by)))\s+{_NAME}(?i:{_END})")
_ORG_WORD = re.compile(r"\b(?:University|Universit[äéy]|Institute|Institut|Lab|Labs|Laboratory|Laboratories|Research|College|"
                       r"School|Academy|Center|Centre|Inc|Corp|Corporation|Company|Foundation|Hospital|Polytechnic)\b")
_KNOWN_ORGS = frozenset("""google deepmind meta facebook microsoft openai anthropic amazon apple nvidia ibm intel baidu
alibaba tencent huawei bytedance samsung sony adobe salesforce uber mit cmu stanford berkeley harvard princeton yale
caltech oxford cambridge eth epfl tsinghua peking toronto mila inria kaist""".split())
_WHICH_ORGS = re.compile(
    r"^\s*(?:which|what)\s+(?:institutions|universities|labs|laboratories|companies|organi[sz]ations|affiliations|countries)"
    rf"\s+(?:are|is)\s+(?:represented|listed|included|behind\s+{_THE_PAPERS}){_END}"
    r"|^\s*(?:which|what)\s+(?:institutions|universities|labs|companies|organi[sz]ations|countries)\s+(?:do|does)\s+"
    rf"(?:the\s+)?(?:authors|researchers|{_PAPERS})\s+(?:come\s+from|belong\s+to|work\s+(?:at|for)){_END}"
    rf"|^\s*what\s+are\s+the\s+authors['\u2019]?\s+(?:affiliations|institutions){_END}", re.I)
_ZH_AFFILIATED = re.compile(r"^\s*(?:哪些|哪篇)(?:论文|文章)(?:来自|出自)(?P<zh>[^？?。]+?)(?:的)?(?:团队|研究者|作者|实验室)?"
                            r"[？?。]*\s*$|(?:作者|论文)(?:来自|都来自)哪些(?:机构|大学|单位|公司|国家)")
# An organisation in Chinese: its name says so, or a well-known one ("哪些论文来自强化学习？" is a topic question).
_ZH_ORG = re.compile(r"(?:大学|学院|研究院|研究所|实验室|研究中心|公司|集团)$|^(?:谷歌|微软|脸书|英伟达|阿里巴巴|阿里|腾讯|"
                     r"百度|华为|字节跳动|清华|北大|麻省理工|斯坦福|伯克利|牛津|剑桥|苹果|亚马逊|深度思维)")
_NOT_A_NAME = frozenset({"the", "these", "this", "which", "what", "those", "them", "it"})


@dataclass(frozen=True)
class Fact:
    kind: str  # count | years | venues | prolific | most_authors | fewest_authors | single_author | citations | affiliations
    name: str = ""  # affiliations: the name asked about ("Google"), "" when none


def asks_fact(question: str) -> Fact | None:
    """What `question` asks of the library's records, or None (see the module docstring)."""
    for kind, pattern in _KINDS:
        if pattern.search(question):
            return Fact(kind)
    if _WHICH_ORGS.search(question):
        return Fact("affiliations")
    m = _AFFILIATED.search(question) or _FROM_ORG.search(question) or _ZH_AFFILIATED.search(question)
    if m is None:
        return None
    name = re.sub(r"^the\s+", "", (m.groupdict().get("name") or m.groupdict().get("zh") or "").strip())
    words = name.split()
    organisation = all(w.lower() in _KNOWN_ORGS for w in words) or len(words) >= 2 and bool(_ORG_WORD.search(name))
    if name.lower() in _NOT_A_NAME or m.re is _FROM_ORG and not organisation \
            or m.re is _ZH_AFFILIATED and name and not (organisation if name.isascii() else _ZH_ORG.search(name)):
        return None  # "Microsoft COCO", "Stanford Dogs" are datasets; "哪些论文来自强化学习？" a topic
    return Fact("affiliations", name)


@dataclass(frozen=True)
class Record:
    """What a fact is read from, per paper: its venue as written, year and authors as written."""
    paper_id: str
    venue: str
    year: int | None
    authors: Sequence[str]


def _n(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one}" if n == 1 else f"{n:,} {many or one + 's'}"


def _counted(counter: Counter[str], most: int, zh: bool = False, in_order: bool = False) -> str:
    """"A (3), B (2), and 4 more": the `most` largest counts, or the first `most` in the counter's order."""
    shown = list(counter.items())[:most] if in_order else counter.most_common(most)
    text = ", ".join(f"{k} ({v:,})" for k, v in shown)
    if len(counter) > most:
        text += f"，另有 {len(counter) - most:,} 项" if zh else f", and {len(counter) - most:,} more"
    return text


def _years(records: Sequence[Record]) -> tuple[Counter[str], int]:
    """Papers per year, oldest first, and how many record no year."""
    years = Counter(str(r.year) for r in records if r.year is not None)
    return Counter(dict(sorted(years.items()))), sum(1 for r in records if r.year is None)


def author_key(name: str) -> str:
    """One author however the records space or case the name ("Jane  Doe", "jane doe")."""
    return " ".join(name.split()).casefold()


def prolific(records: Sequence[Record]) -> list[tuple[str, list[str]]]:
    """(author as first written, their paper ids) for each author on two or more papers, most papers first."""
    papers: dict[str, list[str]] = {}
    written: dict[str, str] = {}  # each author as first written
    for r in records:
        for a in r.authors:
            if a.strip():
                key = author_key(a)
                written.setdefault(key, " ".join(a.split()))
                if papers.setdefault(key, [])[-1:] != [r.paper_id]:  # one paper once, however often it lists them
                    papers[key].append(r.paper_id)
    many = [(written[a], ids) for a, ids in papers.items() if len(ids) >= 2]
    return sorted(many, key=lambda x: (-len(x[1]), x[0].casefold()))


def extreme_authors(records: Sequence[Record], fewest: bool) -> tuple[int, list[str]]:
    """(the most or fewest authors any paper lists, the papers that list that many); papers without authors left out."""
    sized = [(n, r.paper_id) for r in records if (n := len({author_key(a) for a in r.authors if a.strip()}))]
    if not sized:
        return 0, []
    n = (min if fewest else max)(s for s, _ in sized)
    return n, [pid for s, pid in sized if s == n]


NOT_RECORDED = ("The library does not record the authors' affiliations: it holds each paper's title, authors, "
                "venue, year, link and abstract.")
NOT_RECORDED_ZH = "库中没有记录作者的单位：每篇论文只有标题、作者、会议、年份、链接和摘要。"
NO_CITATIONS = ("The library holds no citation counts, reviews or other judgement of the papers, so it cannot say "
                "which is the most cited; ask about a topic to see the papers that match it best.")
NO_CITATIONS_ZH = "库中没有引用次数、评审等对论文的评价，无法判断哪篇被引用最多；可以就某个主题提问，查看与之最相关的论文。"
MAX_AUTHORS_SHOWN = 10
MAX_SHOWN = 8
MAX_YEARS = 40  # years listed one by one, oldest first


def fact_text(fact: Fact, records: Sequence[Record], titles: dict[str, str], zh: bool = False,
              within: str = "") -> str:
    """What `fact` is over `records` (the library's papers within the filters, described by `within`, e.g.
    "from 2025"), in the question's language; `titles`: the titles of the papers it names."""
    n = len(records)
    where = f" {within}" if within else ""
    if fact.kind in ("count", "years", "venues"):
        venues = Counter(r.venue or ("未注明" if zh else "no venue given") for r in records)
        years, undated = _years(records)
        span = (next(iter(years)) if len(years) == 1 else f"{next(iter(years))}\u2013{list(years)[-1]}") if years else ""
        busiest = max(years.items(), key=lambda kv: (kv[1], kv[0])) if len(years) > 1 else None
        if zh:
            no_year = f"（{undated:,} 篇未注明年份）" if undated else ""
            if fact.kind == "count":
                return (f"库中{within}共有 {n:,} 篇论文。按会议：{_counted(venues, MAX_SHOWN, True)}"
                        + (f"；发表于 {span}。" if span else "。"))
            if fact.kind == "years":
                if not years:
                    return f"库中{within}的 {n:,} 篇论文都没有注明年份。"
                return (f"库中{within}的 {n:,} 篇论文发表于 {span}：{_counted(years, MAX_YEARS, True, True)}{no_year}。"
                        + (f"最多的一年：{busiest[0]}（{busiest[1]:,} 篇）。" if busiest else ""))
            return f"库中{within}的 {n:,} 篇论文来自 {len(venues):,} 个会议/期刊：{_counted(venues, 12, True)}。"
        were, come = ("was", "comes") if n == 1 else ("were", "come")
        if fact.kind == "count":
            text = f"The library holds {_n(n, 'paper')}{where}. By venue: {_counted(venues, MAX_SHOWN)}."
            return text + (f" Published {'in ' + span if len(years) == 1 else span}." if span else "")
        if fact.kind == "years":
            if not years:
                return f"None of the library's {_n(n, 'paper')}{where} records a year."
            listed = _counted(years, MAX_YEARS, in_order=True)
            text = f"The library's {_n(n, 'paper')}{where} {were} published in {span}: {listed}."
            text += f" Most: {busiest[0]} ({busiest[1]:,})." if busiest else ""
            return text + (f" {_n(undated, 'paper')} record{'s' if undated == 1 else ''} no year." if undated else "")
        return f"The library's {_n(n, 'paper')}{where} {come} from {_n(len(venues), 'venue')}: {_counted(venues, 12)}."
    if fact.kind == "prolific":
        many = prolific(records)
        people = len({author_key(a) for r in records for a in r.authors if a.strip()})
        if not many:
            return (f"库中{within}的 {n:,} 篇论文中，没有作者出现在多篇论文里：{people:,} 位作者每人只有一篇。" if zh else
                    f"No author is on more than one of the library's {_n(n, 'paper')}{where}: "
                    + ("its one author is on one." if people == 1 else f"each of its {people:,} authors is on one."))
        shown = ", ".join(f"{a} ({len(ids)})" for a, ids in many[:MAX_AUTHORS_SHOWN])
        more = len(many) - MAX_AUTHORS_SHOWN
        if zh:
            return (f"库中{within}的 {n:,} 篇论文、{people:,} 位作者中，{len(many):,} 位有不止一篇：{shown}"
                    + (f"，另有 {more:,} 位" if more > 0 else "") + "。他们的论文（每人依次列出）：")
        return (f"Of the {_n(people, 'author')} of the library's {_n(n, 'paper')}{where}, {len(many):,} "
                f"{'is' if len(many) == 1 else 'are'} on more than one paper: {shown}"
                + (f", and {more:,} more" if more > 0 else "")
                + (". Their papers:" if len(many) == 1 else ". Their papers, taking each author in turn:"))
    if fact.kind in ("most_authors", "fewest_authors", "single_author"):
        size, ids = extreme_authors(records, fact.kind != "most_authors")
        if not ids:
            return f"库中{within}的论文没有记录作者。" if zh else f"None of the library's papers{where} records its authors."
        which = "最多" if fact.kind == "most_authors" else "最少"
        on = f"\u201c{titles[ids[0]]}\u201d" if len(ids) == 1 and ids[0] in titles else f"{len(ids):,} papers"
        if fact.kind == "single_author" and size == 1:
            return f"库中{within}有 {len(ids)} 篇单作者论文：" if zh else f"{_n(len(ids), 'paper')} of the library{where} " \
                f"{'has' if len(ids) == 1 else 'have'} a single author:"
        if fact.kind == "single_author":
            return (f"库中{within}没有单作者论文；作者最少的论文有 {size} 位作者（{len(ids)} 篇）：" if zh else
                    f"No paper of the library{where} has a single author; the fewest authors on one paper are {size}, on {on}:")
        if zh:
            return f"库中{within}作者{which}的论文有 {size} 位作者（{len(ids)} 篇）："
        word = "most" if fact.kind == "most_authors" else "fewest"
        return f"The {word} authors on one paper{where}: {_n(size, 'author')}, on {on}."
    return NO_CITATIONS_ZH if zh else NO_CITATIONS


def affiliation_text(name: str, found: int, zh: bool = False) -> str:
    """Said for a question about affiliations: they are not recorded; `found` papers write `name`."""
    if zh:
        return NOT_RECORDED_ZH + (f"标题或摘要中写到“{name}”的论文有 {found} 篇：" if found else
                                  (f"也没有论文的标题或摘要写到“{name}”。" if name else ""))
    if not name:
        return NOT_RECORDED
    if not found:
        return NOT_RECORDED + f" No paper writes \u201c{name}\u201d in its title or abstract."
    says, whose = ("writes", "its") if found == 1 else ("write", "their")
    return NOT_RECORDED + f" {_n(found, 'paper')} {says} \u201c{name}\u201d in {whose} title or abstract:"


def not_using_text(total: int, dropped: int, thing: str, zh: bool = False, about: bool = False) -> str:
    """Said before the papers of a library of `total` that do not mention `thing` ("Which papers are not about
    LLMs?"), `dropped` of them left out because they do; when none do, all are listed for "not about X"
    (`about`), and for "don't use X" the abstracts cannot tell; when all do, none is listed."""
    if zh:
        if dropped == total:
            return f"库中 {total:,} 篇论文都在标题或摘要中写到“{thing}”。"
        if not dropped:
            return (f"库中 {total:,} 篇论文都没有在标题或摘要中写到“{thing}”" +
                    ("，全部列出：" if about else "，无法据此判断哪些论文不用它。"))
        return f"库中 {total:,} 篇论文里，有 {total - dropped:,} 篇没有写到“{thing}”（已排除写到它的 {dropped:,} 篇）："
    if dropped == total:
        return f"All of the library's {_n(total, 'paper')} mention \u201c{thing}\u201d in their title, keywords or abstract."
    if not dropped:
        said = f"None of the library's {_n(total, 'paper')} mentions \u201c{thing}\u201d in its title, keywords or abstract"
        # "don't use deep learning" where no abstract says "deep learning": listing them all would claim they do without it
        return said + (", so none is about it; all are listed:" if about else
                       ", so the abstracts do not tell which papers do without it.")
    kept, left = total - dropped, "1 that does is" if dropped == 1 else f"{dropped:,} that do are"
    return (f"Of the library's {_n(total, 'paper')}, {kept:,} {'does' if kept == 1 else 'do'} not mention \u201c{thing}\u201d "
            f"in {'its' if kept == 1 else 'their'} title, keywords or abstract ({left} left out):")
