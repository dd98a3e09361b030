"""A question asking what the library holds as a whole, and the themes its titles share.

"What are the main themes in this collection?", "What topics are covered?", "Give me an overview
of the papers.", "Summarize the corpus.", "这些论文主要涉及哪些主题？": read as topics, each
abstained ("none covers “themes”") or cited one paper that happened to use the word ("What is
this library about?" cited a tensor-product *library*). `themes` reads the titles: the words and
2-3-word phrases that at least two of them share, topical ones only (rare in the background
corpus's abstracts, not title scaffolding such as "Towards" or "Rethinking"), most papers first,
one per stem, so that each theme is a different one.
Leaves out: a summary of each paper (its own sentence is what a listing quotes) and clustering by
abstract: the themes are what the titles say, so a reader can check each count.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence

from paperscope.text.analyzer import STOPWORDS, _stemmer

# The whole library asked for, and nothing after it but the library itself ("... in this collection?"):
# "Summarize the papers on pruning." and "What are the main directions for future work in X?" ask about a topic.
_LIBRARY = r"(?:the\s+|this\s+|these\s+|my\s+|all\s+(?:the\s+|these\s+)?)?(?:papers|library|corpus|collection|list|abstracts)"
_END = rf"(?:\s+(?:in|of|across|among|within)\s+{_LIBRARY}|\s+(?:here|overall|in\s+general))?\s*[?.!]*\s*$"
_ASKED = re.compile(
    rf"\b(?:main|key|major|common|recurring|central)\s+(?:themes?|topics?|areas?|directions?|subjects?|trends?){_END}"
    r"|\b(?:what|which)\s+(?:themes?|topics?|(?:research\s+)?areas?|subjects?|fields?|directions?)\s+(?:are|is|do|does)"
    rf"(?:\s+(?:being|there|most\s+often|mostly|mainly))*(?:\s+(?:covered|addressed|studied|discussed|represented))?{_END}"
    rf"|\b(?:overview|summary|survey)\s+of\s+{_LIBRARY}{_END}|\bsummari[sz]e\s+{_LIBRARY}{_END}"
    rf"|\bwhat\s+(?:is|are)\s+(?:this|the|these|my)\s+(?:library|corpus|collection|list|papers)\s+(?:mostly\s+|mainly\s+)?about{_END}"
    r"|(?:这些|所有|全部|库中的?|库里的?)(?:论文|文章)?(?:主要|都)?(?:涉及|涵盖|包括|研究|关注)了?(?:哪些|什么)(?:主题|方向|领域|话题)"
    r"|(?:概述|总结|概括)(?:一下)?(?:这些|全部|所有|库中的?)(?:论文|文章)", re.I)
# Title words that frame a paper rather than name its topic ("Towards", "Rethinking", "A Perspective").
_FRAMING = frozenset(
    "toward towards via rethinking revisiting beyond understanding improving improved efficient effective novel new "
    "approach approaches method methods framework frameworks perspective position study analysis simple better "
    "learning learn model models using based through when what why how can does do best both without state-of-the-art".split())
MIN_PAPERS = 2  # a theme is shared by at least this many titles
MIN_IDF = 2.0  # background IDF of a theme's heaviest word: "learning" (0.99), "data" (1.22) name no theme
MIN_WORD_IDF = 2.5  # of a one-word theme: "graph" (2.70) is one, "detection" (2.17) and "neural" (2.01) are not
MAX_THEMES = 8


def asks_overview(question: str) -> bool:
    """Whether `question` asks what the library holds as a whole (see the module docstring)."""
    return bool(_ASKED.search(question))


_WORD = re.compile(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*")  # "3D" is a word


def themes(titles: Mapping[str, str], idf: Callable[[set[str]], Mapping[str, float]]) -> list[tuple[str, list[str]]]:
    """(theme as the titles write it, the ids of the papers whose titles carry it), most papers
    first: words and 2-3-word phrases of `titles` (id -> title) shared by `MIN_PAPERS` or more,
    each of whose words is topical (`idf`: stem -> background IDF, at least `MIN_IDF`)."""
    carried: dict[tuple[str, ...], set[str]] = defaultdict(set)
    written: dict[tuple[str, ...], Counter[str]] = defaultdict(Counter)
    skip_first, stem = STOPWORDS | _FRAMING, _stemmer().stemWord
    parts: dict[str, list[str]] = {}  # a hyphenated word's stem -> its parts' ("real-time": real, time), for IDF
    for pid, title in titles.items():
        for stretch in re.split(r"[:,;()\[\]?!.]", title):
            words = _WORD.findall(stretch)
            lower = [w.lower() for w in words]
            stems = [stem(w) for w in lower]
            for w, st in zip(lower, stems):
                if "-" in w and st not in parts:
                    parts[st] = [stem(p) for p in w.split("-") if p and p not in STOPWORDS]
            for n in (1, 2, 3):
                for i in range(len(words) - n + 1):
                    # Not from or to a function word; not framing alone or first ("reinforcement learning" stays).
                    if lower[i] in skip_first or lower[i + n - 1] in STOPWORDS:
                        continue
                    key = tuple(stems[i:i + n])
                    carried[key].add(pid)
                    written[key][" ".join(w if w.isupper() or w[0].isdigit() else w.lower() for w in words[i:i + n])] += 1
    shared = {k: v for k, v in carried.items() if len(v) >= MIN_PAPERS}
    # A hyphenated word weighs as its heaviest part: the background corpus never writes "real-tim" as one term,
    # which would read as the rarest word of all ("real-time", "large-scale" are no themes).
    units = {k: [p for s in k for p in parts.get(s, [s])] for k in shared}
    weights = idf({p for ps in units.values() for p in ps})
    # A word alone must be specific ("graph", "diffusion"; not "detection", "deep", "visual"); a phrase needs one
    # topical word, the others beside it ("language models": "model" alone names nothing).
    topical = [k for k, ps in units.items() if ps
               and max(weights.get(p, 0.0) for p in ps) >= (MIN_WORD_IDF if len(k) == 1 else MIN_IDF)
               and all(weights.get(p, 0.0) >= MIN_IDF / 4 or p in STOPWORDS for p in ps)]
    # Most papers first, a phrase counting a quarter more per word: "language models" (4 titles) names the
    # theme that "language" (5) only hints at; of equal scores, the longer phrase.
    order = sorted(topical, key=lambda k: (-len(shared[k]) * (1 + 0.25 * (len(k) - 1)), -len(k),
                                           written[k].most_common(1)[0][0]))
    out: list[tuple[str, list[str]]] = []
    used: set[str] = set()
    place = {pid: i for i, pid in enumerate(titles)}
    for key in order:
        if used & set(key):
            continue  # one theme per stem: "language models" and then "language" say the same
        used |= set(key)
        out.append((written[key].most_common(1)[0][0], sorted(shared[key], key=place.__getitem__)))
        if len(out) >= MAX_THEMES:
            break
    return out


def theme_line(found: Sequence[tuple[str, list[str]]], n: int, chinese: bool = False) -> str:
    """The answer's lead: the themes with their counts, out of `n` papers."""
    if chinese:
        listed = "，".join(f"{t}（{len(ids)} 篇）" for t, ids in found)
        return f"库中 {n} 篇论文的标题中最常见的主题：{listed}。以下列出其中的论文。"
    listed = ", ".join(f"{t} ({len(ids)} paper{'s' if len(ids) > 1 else ''})" for t, ids in found)
    return f"The most frequent themes in the titles of the library's {n} papers: {listed}. Below, papers on them."
