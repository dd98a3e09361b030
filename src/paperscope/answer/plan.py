"""What a question is going to get, decided before any text is drafted: a `Plan`.

A plan either cites (`cited` is non-empty) or abstains for a typed `AbstainReason`; the
abstention text is rendered from the reason (`abstention_text`), never parsed back from notes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import Enum

from paperscope.answer.extractive import where
from paperscope.answer.followup import asks_code
from paperscope.records import Answer, Evidence, NearestPaper
from paperscope.text.zh import chinese


class AbstainReason(Enum):
    EMPTY_LIBRARY = "the library is empty"
    NO_SEARCHABLE_WORDS = "the question has no searchable words"
    NO_MATCH_FOR_FILTERS = "no papers match the filters"
    NO_SUPPORTING_PAPER = "no paper supports an answer"
    NONE_OF_THOSE = "no paper of the previous answer supports an answer"  # "Which of those ...?"
    NO_OTHER_PAPER = "no paper beyond the previous answer's supports an answer"  # "Any others?"
    NOT_RECORDED = "the library does not record what the question asks"  # affiliations, citation counts


@dataclass
class Plan:
    question: str  # as asked (at most MAX_QUESTION_CHARS)
    standalone: str  # what is answered: the question, or a follow-up made standalone
    evidence: list[Evidence] = field(default_factory=list)  # candidates, best support first
    cited: list[Evidence] = field(default_factory=list)  # chosen to cite; empty when abstaining
    related: list[Evidence] = field(default_factory=list)  # weaker matches, shown apart (never cited)
    uncovered: list[str] = field(default_factory=list)  # parts of the question no candidate covers
    partial: bool = False  # each part is covered somewhere, but no paper addresses them together
    abstain: AbstainReason | None = None
    detail: str = ""  # what the reason refers to (the filters asked for, what to ingest)
    notes: list[str] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)  # said after the answer: its order, that more papers exist
    lead: list[str] = field(default_factory=list)  # said before it: what the question asked of the papers (who, by venue)
    # Abstaining within filters: the papers that address the question without them, and how many
    # (`Gatherer.outside`); `detail` says the filters. Among the previous answer's papers (NONE_OF_THOSE):
    # the library's other papers that do (`Gatherer.elsewhere`).
    outside: list[Evidence] = field(default_factory=list)
    outside_n: int = 0

    @property
    def nearest(self) -> list[Evidence]:
        """Shown when abstaining: the papers outside the filters that address the question, else
        the closest papers, as weaker matches."""
        return self.outside or self.related or self.evidence[:3]


RELATED_HEAD = "Related, but weaker matches"
# The framing of abstentions and weaker matches, in the question's language (titles and quotes
# stay as the papers write them).
_TEXT = {
    "en": {"no_words": "The question has no searchable words, so no paper can be matched to it.",
           "empty": "The library is empty: {detail}.", "filters": "No paper matches the filters: {detail}.",
           "uncovered": "No paper in the corpus addresses this question: none covers {parts}.",
           "partial": "No paper in the corpus addresses this question: its parts appear in different papers, "
                      "but no paper covers them together.",
           "none": "No paper in the corpus addresses this question.",
           "outside": "No paper {scope} addresses this question. Without that filter, {n} in the library {verb}; "
                      "the best:\n",
           "none_of_those": "None of the papers of the previous answer addresses this.",
           "no_code": "None of the abstracts of the previous answer's papers says whether its code is available "
                      "(no repository or release is mentioned); the papers' pages may link it.",
           "elsewhere": "None of the papers of the previous answer addresses this. Elsewhere in the library, {n} "
                        "{verb}; the best:\n",
           "no_other": "No other paper in the library addresses this: the previous answer showed every one.",
           "nearest": "\nThe nearest papers are weaker matches:\n", "related": f"{RELATED_HEAD} (not cited):\n",
           "or": " or ", "more": "More papers in the library address this; `paperscope ask --all` (or `find_all`) "
                                 "lists every one.",
           "newest": "Newest first: {n} in the library {verb} this, published {span}.",
           "oldest": "Oldest first: {n} in the library {verb} this, published {span}.",
           "newest_one": "Of the {n} in the library that {verb} this, the newest are from {year}.",
           "shown": " The {k} best are listed; `paperscope ask --all` (or `find_all`) lists every one.",
           "left_out": "Left out as asked: papers that use \u201c{thing}\u201d{n}.",
           "ordered": "Ordered by the figure each abstract reports for \u201c{measure}\u201d, {way} first. Each paper "
                      "measures it on its own models and benchmarks: this is no head-to-head comparison.",
           "unordered": "The abstracts report \u201c{measure}\u201d in different terms (a factor, a percentage), so the "
                        "papers are not ordered; each quote holds its paper's figure.",
           "no_figure": "No figure for \u201c{measure}\u201d in: {titles}.",
           "none_figure": "None of the papers of the previous answer reports a figure for \u201c{measure}\u201d.",
           "by_year": "Ordered by publication year, {way} first.",
           "best_match": "Of the previous answer's papers, this one matches its question best: \u201c{word}\u201d is read "
                         "as that, since the library holds no citation counts, reviews or other judgement of the papers.",
           "reported": "Of the {n} papers in the library that address this, {k} {verb} a figure for \u201c{measure}\u201d "
                       "in {its} abstract; only {those} {are} shown.",
           "reported_all": "Each of the {n} papers in the library that address this reports a figure for "
                           "\u201c{measure}\u201d in its abstract.",
           "reported_one": "The one paper in the library that addresses this reports a figure for \u201c{measure}\u201d "
                           "in its abstract.",
           "reported_none": "No paper in the library that addresses this reports a figure for \u201c{measure}\u201d in "
                            "its abstract; {listed}."},
    "zh": {"no_words": "问题中没有可检索的词，无法匹配任何论文。", "empty": "文献库为空：{detail}。",
           "filters": "没有论文符合筛选条件：{detail}。", "uncovered": "语料库中没有论文回答这个问题：没有论文涉及{parts}。",
           "partial": "语料库中没有论文回答这个问题：问题的各部分出现在不同的论文中，但没有一篇同时涉及。",
           "none": "语料库中没有论文回答这个问题。", "nearest": "\n最接近的论文（较弱的匹配）：\n",
           "outside": "没有{scope}的论文涉及这个问题。不加这个筛选条件，库中有 {n} 篇论文与此相关；最相关的：\n",
           "none_of_those": "上一个回答中的论文都不涉及这个问题。",
           "no_code": "上一个回答中论文的摘要都没有提到代码是否公开（没有提到代码仓库或发布）；论文页面上可能有链接。",
           "elsewhere": "上一个回答中的论文都不涉及这个问题。库中其他论文里有 {n} 篇与此相关；最相关的：\n",
           "no_other": "库中没有其他论文与此相关：上一个回答已列出全部。",
           "related": "相关但较弱的匹配（未引用）：\n", "or": "或",
           "more": "库中还有更多相关论文；`paperscope ask --all`（或 find_all）可列出全部。",
           "newest": "按年份从新到旧：库中有 {n} 篇论文与此相关，发表于 {span}。",
           "oldest": "按年份从旧到新：库中有 {n} 篇论文与此相关，发表于 {span}。",
           "newest_one": "库中与此相关的 {n} 篇论文中，最新的发表于 {year} 年。",
           "shown": "下面列出最相关的 {k} 篇；`paperscope ask --all`（或 find_all）可列出全部。",
           "left_out": "已按要求排除使用“{thing}”的论文{n}。",
           "ordered": "按各篇摘要报告的“{measure}”数值排序（{way}在前）。各篇论文在各自的模型和基准上测量，并非直接对比。",
           "unordered": "各篇摘要报告“{measure}”的方式不同（倍数、百分比），因此未排序；每条引文都含该论文的数值。",
           "no_figure": "以下论文没有报告“{measure}”的数值：{titles}。",
           "none_figure": "上一个回答中的论文都没有报告“{measure}”的数值。",
           "by_year": "按发表年份排序，最{way}的在前。",
           "best_match": "上一个回答的论文中，这篇与问题最匹配：“{word}”按匹配程度理解，库中没有引用次数、评审等对论文的评价。",
           "reported": "库中与此相关的 {n} 篇论文中，有 {k} 篇在摘要中报告了“{measure}”的数值；只列出这些论文。",
           "reported_all": "库中与此相关的 {n} 篇论文都在摘要中报告了“{measure}”的数值。",
           "reported_one": "库中与此相关的 1 篇论文在摘要中报告了“{measure}”的数值。",
           "reported_none": "库中与此相关的 {n} 篇论文的摘要都没有报告“{measure}”的数值；以下按相关程度列出。"},
}


def _names(papers: list[Evidence]) -> str:
    return "\n".join(f"- {ev.paper.display_title}{where(ev)}" for ev in papers)


def related_text(related: list[Evidence], chinese: bool = False) -> str:
    """The weaker matches of an answer, apart from its citations."""
    return _TEXT["zh" if chinese else "en"]["related"] + _names(related)


def more_text(chinese: bool = False) -> str:
    """Said after a list that reached the answer's cap: the library holds more such papers."""
    return _TEXT["zh" if chinese else "en"]["more"]


def left_out_text(n: int, thing: str, chinese: bool = False) -> str:
    """Said after an answer that left out the papers using what the question excludes; `n`: how
    many of them it would have cited."""
    if chinese:
        return _TEXT["zh"]["left_out"].format(thing=thing, n=f"（{n} 篇本会被引用）" if n else "")
    count = "" if not n else (" (one would have been cited)" if n == 1 else f" ({n} would have been cited)")
    return _TEXT["en"]["left_out"].format(thing=thing, n=count)


_NAMED = 5  # papers without a figure named by title


def figures_text(measure: str, larger: bool, ordered: bool, n: int, without: list[Evidence],
                 chinese: bool = False, by_year: bool = False) -> list[str]:
    """Said after a pick by a figure among `n` cited papers ("Which one reports the largest
    speedup?", `answer.figures`): how they are ordered (when more than one), which report no
    figure; `by_year`: a pick by recency ("the most recent"), ordered by publication year."""
    t = _TEXT["zh" if chinese else "en"]
    if by_year:
        way = ("新" if larger else "早") if chinese else ("newest" if larger else "oldest")
        return [t["by_year"].format(way=way)] if n > 1 else []
    way = ("最大" if larger else "最小") if chinese else ("largest" if larger else "smallest")
    out = [t["ordered" if ordered else "unordered"].format(measure=measure, way=way)] if n > 1 else []
    if without:
        titles = ("、" if chinese else "; ").join(ev.paper.display_title for ev in without[:_NAMED])
        if len(without) > _NAMED:
            titles += f" 等 {len(without)} 篇" if chinese else f" and {len(without) - _NAMED} more"
        out.append(t["no_figure"].format(measure=measure, titles=titles))
    return out


def similar_abstain(cited: bool, others: bool) -> AbstainReason | None:
    """Why a request for papers like one ("Find papers similar to SLiM") or for more of the previous
    answer's ("Any others?") abstains, or None when it cites."""
    return None if cited else AbstainReason.NO_OTHER_PAPER if others else AbstainReason.NO_SUPPORTING_PAPER


def best_match_text(word: str, chinese: bool = False) -> str:
    """Said after "Which one is most relevant / important?" picks the previous answer's best match."""
    return _TEXT["zh" if chinese else "en"]["best_match"].format(word=word)


def reported_text(k: int, n: int, measure: str, chinese: bool = False) -> str:
    """Said first after a superlative question over the library ("Which paper reports the largest
    speedup for X?"): how many of the `n` papers on its topic report the measure."""
    t = _TEXT["zh" if chinese else "en"]
    key = "reported_none" if not k else ("reported_one" if n == 1 else "reported_all") if k == n else "reported"
    one = (k or n) == 1
    return t[key].format(k=k, n=n, measure=measure, verb="reports" if one else "report", its="its" if one else "their",
                         those="that one" if one else "those", are="is" if one else "are",
                         listed="the one on the topic is shown" if one else "the papers on the topic are shown, best match first")


_TALLIED = 12  # venues named in a tally; the rest counted


def tally_text(papers: list[Evidence], kind: str, chinese: bool = False, previous: bool = False) -> str:
    """The papers that address a question counted by venue (most first) or by year (in order), for
    "Which venues publish most on X?" / "How has research on X evolved over the years?" (`text.tallies`);
    `previous`: the previous answer's papers ("Which venues are they from?")."""
    n = len(papers)
    if previous:
        whose = "上一个回答的" if chinese else "the previous answer's papers"
        body = tally_text(papers, kind, chinese).split("：" if chinese else ": ", 1)[-1]
        return (f"按{'会议' if kind == 'venue' else '年份'}统计{whose} {n} 篇论文：" if chinese else
                f"By {kind}, {whose} ({n}): ") + body
    if kind == "venue":
        counts = Counter(ev.paper.venue or ("未注明" if chinese else "no venue given") for ev in papers).most_common()
        more = len(counts) - _TALLIED
        parts = [f"{v}（{k}）" if chinese else f"{v} ({k})" for v, k in counts[:_TALLIED]]
        if chinese:
            tail = f"，另有 {more} 个会议" if more > 0 else ""
            return f"按会议统计，库中与此相关的 {n} 篇论文：" + "、".join(parts) + tail + "。"
        tail = f", and {more} more venues" if more > 0 else ""
        return f"By venue, of the {_papers(n)} in the library that address this: " + ", ".join(parts) + tail + "."
    years = sorted(Counter(ev.paper.year for ev in papers if ev.paper.year).items())
    undated = n - sum(k for _, k in years)
    if not years:
        return "库中与此相关的论文都没有年份。" if chinese else "The catalogue gives no year for the papers that address this."
    peak = max(years, key=lambda yk: (yk[1], yk[0]))  # the most; the later year on a tie
    if chinese:
        return (f"按年份统计，库中与此相关的 {n} 篇论文：" + "、".join(f"{y}（{k}）" for y, k in years)
                + (f"，{undated} 篇无年份" if undated else "") + f"；{peak[0]} 年最多（{peak[1]} 篇）。")
    return (f"By year, of the {_papers(n)} in the library that address this: " + ", ".join(f"{y} ({k})" for y, k in years)
            + (f", {undated} undated" if undated else "") + f"; most in {peak[0]} ({peak[1]}).")


def _papers(n: int) -> str:
    return "one paper" if n == 1 else f"{n} papers"


def names_text(name: str, relation: str, chinese: bool = False) -> str:
    """Said before the papers that write a name, for "Which papers cite X?" (`relation` "cite": no
    citation links here) or "... compare against X?" ("relation": whether they do is in each quote)."""
    if chinese:
        return (f"库中没有论文之间的引用关系；以下论文在摘要中提到了“{name}”：" if relation == "cite"
                else f"以下论文在摘要中提到了“{name}”，引文说明了如何提到：")
    if relation == "cite":
        return f"The library holds no citation links between papers; these papers name \u201c{name}\u201d in their abstracts:"
    return f"These papers name \u201c{name}\u201d in their abstracts; each quote shows how:"


def datasets_text(names: list[tuple[str, int]], n: int, chinese: bool = False) -> str:
    """Said first for a question about the datasets of a topic's papers (`answer.datasets`)."""
    if chinese:
        listed = "、".join(f"{name}（{k} 篇）" for name, k in names)
        return f"这 {n} 篇论文的摘要中最常提到的数据集或基准：{listed}。"
    listed = ", ".join(f"{name} ({k} papers)" for name, k in names)
    return f"Named most in the abstracts of these {n} papers, as datasets or benchmarks: {listed}."


def judged_text(word: str, chinese: bool = False) -> str:
    """Said before the papers on a topic asked for by a judgement ("the most cited paper on X")."""
    if chinese:
        return f"库中没有引用次数、评审等对论文的评价，“最{word}”按匹配程度理解；以下论文与此相关，按匹配程度排序："
    return (f"The library holds no citation counts, reviews or other judgement of the papers, so \u201cmost {word}\u201d "
            "is read as the best match; these papers address the topic, best match first:")


def origin_text(name: str, chinese: bool = False) -> str:
    """Said before the papers on X when asked which paper introduced X and no paper is named X."""
    if chinese:
        return f"库中没有名为“{name}”的论文，摘要也没有说明它由哪篇论文提出；以下论文与之相关："
    return (f"No paper in the library is named \u201c{name}\u201d, and the abstracts do not say which paper introduced "
            "it; these papers address it:")


def unheld_text(names: list[str], chinese: bool = False) -> str:
    """Said before the answer to a comparison when the library holds no paper named by some of its names."""
    if chinese:
        return f"库中没有名为{'、'.join(f'“{n}”' for n in names)}的论文；库中有以下被比较的论文："
    said = " or ".join(f"\u201c{n}\u201d" for n in names)
    return f"No paper in the library is named {said}, and no cited abstract mentions it; of the papers compared, it holds:"


def shown_text(k: int, chinese: bool = False) -> str:
    """Said after a count's heading when only the `k` best papers are listed."""
    return _TEXT["zh" if chinese else "en"]["shown"].format(k=k)


def newest_text(every: list[Evidence], newest_year_only: bool, chinese: bool = False, oldest: bool = False) -> str:
    """How a newest-first (`oldest`: oldest-first) answer was chosen: of how many papers, and their years."""
    t = _TEXT["zh" if chinese else "en"]
    years = sorted({ev.paper.year for ev in every if ev.paper.year})
    n = f"{len(every)}" if chinese else ("one paper" if len(every) == 1 else f"{len(every)} papers")
    verb = "addresses" if len(every) == 1 else "address"
    if not years:
        return t["oldest" if oldest else "newest"].format(n=n, verb=verb, span="年份不详" if chinese else
                                                         "in years the catalogue does not give")
    if newest_year_only:
        return t["newest_one"].format(n=n, verb=verb, year=years[-1])
    span = f"{years[0]}" if len(years) == 1 else f"{years[0]}\u2013{years[-1]}"
    return t["oldest" if oldest else "newest"].format(n=n, verb=verb, span=(f"{span} 年" if chinese else f"in {span}"))


def abstention_text(plan: Plan) -> str:
    """Why the plan abstains, in the question's language (Chinese for a Chinese question)."""
    t = _TEXT["zh" if chinese(plan.question) else "en"]
    if plan.outside:
        n = plan.outside_n if chinese(plan.question) else "one paper" if plan.outside_n == 1 else f"{plan.outside_n} papers"
        key = "elsewhere" if plan.abstain is AbstainReason.NONE_OF_THOSE else "outside"
        return t[key].format(scope=plan.detail, n=n, verb="does" if plan.outside_n == 1 else "do") + _names(plan.outside)
    if plan.abstain is AbstainReason.NO_SEARCHABLE_WORDS:
        text = t["no_words"]
    elif plan.abstain is AbstainReason.EMPTY_LIBRARY:
        text = t["empty"].format(detail=plan.detail)
    elif plan.abstain is AbstainReason.NO_MATCH_FOR_FILTERS:
        text = t["filters"].format(detail=plan.detail)
    elif plan.abstain is AbstainReason.NO_OTHER_PAPER:
        text = t["no_other"]
    elif plan.abstain is AbstainReason.NOT_RECORDED:  # said by `text.facts`, in the question's language
        text = plan.detail
    elif plan.abstain is AbstainReason.NONE_OF_THOSE:
        text = (t["none_figure"].format(measure=plan.detail) if plan.detail
                else t["no_code"] if asks_code(plan.question) else t["none_of_those"])
    elif plan.uncovered:
        text = t["uncovered"].format(parts=_listing(plan.uncovered, t["or"]))
    elif plan.partial:
        text = t["partial"]
    else:
        text = t["none"]
    if plan.nearest and plan.abstain in (AbstainReason.NO_SUPPORTING_PAPER, AbstainReason.NONE_OF_THOSE,
                                         AbstainReason.NO_OTHER_PAPER):
        text += t["nearest"] + _names(plan.nearest)
    return text


def _listing(parts: list[str], joiner: str = " or ") -> str:
    quoted = [f"\u201c{p}\u201d" for p in parts]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + joiner + quoted[-1]


def nearest_paper(ev: Evidence) -> NearestPaper:
    return NearestPaper(paper_id=ev.paper.paper_id, title=ev.paper.display_title, url=ev.paper.url, score=ev.support)


def abstention(plan: Plan, timings: dict[str, float]) -> Answer:
    """The answer of a plan that abstains: why, and the nearest papers as weaker matches."""
    return Answer(text=abstention_text(plan), citations=[], abstained=True, backend="abstain", question=plan.question,
                  standalone_question=plan.standalone, notes=plan.notes, timings=timings, outside=bool(plan.outside),
                  evidence_ids=[ev.paper.paper_id for ev in plan.evidence],
                  nearest=[nearest_paper(ev) for ev in plan.nearest])


def authors_text(authors: list[tuple[str, int]], n: int, chinese: bool = False) -> str:
    """Who wrote most of the `n` papers that address a question ("Who works on X?")."""
    if chinese:
        if not authors:
            return f"在 {n} 篇相关论文中，没有作者署名超过一篇。"
        return f"在 {n} 篇相关论文中，论文最多的作者：" + "、".join(f"{a}（{k} 篇）" for a, k in authors) + "。"
    papers = "one paper" if n == 1 else f"{n} papers"
    if not authors:
        return f"No author wrote more than one of the {papers} in the library that address this."
    return f"Authors with the most of the {papers} in the library that address this: " + \
        ", ".join(f"{a} ({k})" for a, k in authors) + "."
