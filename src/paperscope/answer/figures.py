"""A pick among the previous answer's papers by a figure each reports ("Which one reports the
largest speedup?", "Which of them is the fastest?", "哪个最快？"; `text.superlatives.most_of`), or
among every paper on a topic ("Which paper reports the largest speedup for LLM inference?";
`text.superlatives.ranked`, `answer.shape`). A judgement ("Which one is most relevant?") picks the
previous answer's best match (`BEST_MATCH`).

Scope: each paper's own abstract is read for a number standing next to what is measured
("decode latency by up to 1.65x"); the quote is that sentence, verbatim. The papers are ordered
by their figures only when every figure is in the same terms (all "x", all "%", all "fps", all
"ms", ... or all plain numbers), and the answer says that each paper measures on its own models
and benchmarks: an abstract's figure is no head-to-head comparison. A paper that reports no such
figure is not cited (it is named apart); when none does, the answer says so. A pick by recency
("Which of them is the most recent?") orders the papers by publication year instead. Not read:
rates such as "tokens/s", conversions between units ("ms" and "s"), ranges, or which of two
numbers in a sentence is the baseline.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from paperscope.answer.plan import AbstainReason, Plan, best_match_text, figures_text
from paperscope.records import Evidence
from paperscope.relevance.features import stems
from paperscope.relevance.quotes import introduction
from paperscope.relevance.sentences import paper_sentences
from paperscope.text.superlatives import BEST_MATCH, YEAR, Most
from paperscope.text.zh import chinese

# A number, not part of a name or a size ("Llama-3-8B", "GPT-2", "128K", "3D", "$T^{2/3}$"), with its
# unit: "x" (1.65x, 5×, 3 times, 2-fold), "%" (15%, 15\%, 15 percent), a time, rate or size ("ms",
# "fps", "GB"); else plain.
_NUMBER = re.compile(r"(?<![\w.^_{}/$:-])(\d+(?:\.\d+)?)(?:\s*(\\?%|percent\b|×|x\b|times\b|-?fold\b|\$?\\times\$?|"
                     r"(?:ms|μs|us|s|sec|seconds?|fps|frames\s+per\s+second|Hz|kHz|GB|MB|hours?|minutes?)\b))?"
                     r"(?![\w.]*\d)(?![A-Za-wyz]|:\d|-[A-Za-z])", re.I)
# A figure in TeX ("$1.8\times$", "$5\%$") read as written out ("1.8x"): a number after "$" is else
# a symbol's part ("$T^{2/3}$", "$d=3$").
_TEX = re.compile(r"\$\s*(\d+(?:\.\d+)?)\s*(\\times|\\%)\s*\$")
_WORD = re.compile(r"[A-Za-z][\w-]*|\d+(?:\.\d+)?")
NEAR = 6  # words between a figure and what it measures


@dataclass(frozen=True)
class Figure:
    value: float
    unit: str  # "x", "%", a unit ("ms", "fps", "gb") or "" (a plain number)
    sentence: str


def _unit(raw: str | None) -> str:
    if not raw:
        return ""
    low = raw.lower().strip("$")
    if low in ("%", "\\%", "percent"):
        return "%"
    if low in ("x", "×", "times", "fold", "-fold", "\\times"):
        return "x"
    return _UNITS.get(re.sub(r"\s+", " ", low), low)


_UNITS = {"frames per second": "fps", "us": "μs", "sec": "s", "second": "s", "seconds": "s", "hours": "hour", "minutes": "minute"}


def _measures(word: str, targets: list[str]) -> bool:
    """`word` is of a measure word's family ("accurate" / "accuracy", "speed" / "speedup"; not "a", "per")."""
    stem = stems(word)
    return bool(stem) and len(stem[0]) >= 4 and stem[0] not in _OTHER_WORDS and any(
        stem[0].startswith(m[:5]) or m.startswith(stem[0]) for m in targets)


# Words that begin like a measure and are none ("navigated through a cluttered room": "3" in
# "Pioneer 3" was read as a throughput; "late fusion" is no latency).
_OTHER_WORDS = frozenset({"through", "throughout", "late"})


def figures(sentence: str, measure: tuple[str, ...], units: tuple[str, ...] = ()) -> list[Figure]:
    """The figures of `sentence` that stand within `NEAR` words of a word of `measure`, or are in
    one of `units` anywhere ("30 fps" is a speed)."""
    targets = [s for w in measure for s in stems(w)[:1] if len(s) >= 3]
    text = _TEX.sub(lambda m: f" {m.group(1)}{'%' if '%' in m.group(2) else 'x'} ", sentence)
    words = [(m.start(), m.group(0)) for m in _WORD.finditer(text)]
    at = [i for i, (_, w) in enumerate(words) if not w[0].isdigit() and _measures(w, targets)]
    if not at and not units:
        return []
    out = []
    for m in _NUMBER.finditer(text):
        i = next((k for k, (start, _) in enumerate(words) if start >= m.start()), len(words))
        unit = _unit(m.group(2))
        if unit in units or any(abs(i - j) <= NEAR for j in at):
            out.append(Figure(float(m.group(1)), unit, sentence))
    return out


_TIMES = frozenset({"ms", "μs", "s", "hour", "minute"})


def _key(f: Figure, most: Most) -> float:
    """What `most` ranks `f` by: a speed's time ("12 ms" latency, "2 hours" of training) the less the faster."""
    return -f.value if f.unit in _TIMES and most.units else f.value


def _extreme(found: list[Figure], most: Most, unit: str | None = None) -> Figure | None:
    """The largest (else smallest) of `found` (in `unit` when given), or None."""
    some = [f for f in found if unit is None or f.unit == unit]
    if not some:
        return None
    return max(some, key=lambda f: _key(f, most)) if most.larger else min(some, key=lambda f: _key(f, most))


@dataclass(frozen=True)
class Picked:
    cited: list[Evidence]  # the papers with a figure, each quoting its figure's sentence; ordered when `ordered`
    without: list[Evidence]  # the papers that report no figure for the measure
    ordered: bool  # every figure in the same terms, so the papers are in the order asked
    larger_first: bool = True  # the order's figures run from the largest ("12 ms" latencies: the smallest first)


def by_figure(papers: list[Evidence], most: Most) -> Picked:
    """`papers` (the previous answer's, best first) as the pick asks for them (see the module)."""
    if most.measure == BEST_MATCH and papers:  # "Which one is most relevant?": the previous answer's first,
        sentences = paper_sentences(papers[0].paper)  # quoting what it is
        at = introduction(sentences) or 0
        return Picked([_quoting(papers[0], Figure(0.0, "", sentences[at]))] if sentences else papers[:1], [], True)
    if most.measure == YEAR:  # "Which of them is the most recent?": by year, each quoting its opening
        dated = sorted((ev for ev in papers if ev.paper.year), key=lambda ev: ev.paper.year or 0, reverse=most.larger)
        cited = [_quoting(ev, Figure(float(ev.paper.year or 0), "year", (ev.sentences[0][0] if ev.sentences else
                                                                          paper_sentences(ev.paper)[0])))
                 for ev in dated]
        return Picked(cited, [ev for ev in papers if not ev.paper.year], True, most.larger)
    # Each paper's figures read once; its extreme one, in the unit most papers' extremes share if it has one.
    found = {ev.paper.paper_id: [f for s in paper_sentences(ev.paper) for f in figures(s, most.measure, most.units)]
             for ev in papers}
    first = {pid: _extreme(fs, most) for pid, fs in found.items()}
    units = [f.unit for f in first.values() if f is not None]
    common = max(set(units), key=units.count) if units else None
    chosen: dict[str, Figure] = {}
    for pid, fs in found.items():
        f = _extreme(fs, most, common) or first[pid]
        if f is not None:
            chosen[pid] = f
    ordered = len({f.unit for f in chosen.values()}) == 1
    cited = [_quoting(ev, chosen[ev.paper.paper_id]) for ev in papers if ev.paper.paper_id in chosen]
    if ordered:
        cited.sort(key=lambda ev: _key(chosen[ev.paper.paper_id], most), reverse=most.larger)
    timed = ordered and bool(chosen) and _key(next(iter(chosen.values())), most) < 0
    return Picked(cited, [ev for ev in papers if ev.paper.paper_id not in chosen], ordered, most.larger != timed)


def _quoting(ev: Evidence, f: Figure) -> Evidence:
    """`ev` quoting the figure's sentence first (a copy: the candidates' evidence is shared)."""
    rest = [(s, score) for s, score in ev.sentences if s != f.sentence]
    return replace(ev, sentences=[(f.sentence, max((x for _, x in ev.sentences), default=1.0) + 1.0), *rest])


def figure_plan(question: str, standalone: str, papers: list[Evidence], most: Most, notes: list[str]) -> Plan:
    """The plan of a pick by a figure among `papers` (the previous answer's, best first): the papers
    with a figure, quoting it, in the order asked when they compare (`by_figure`); abstains, naming
    the measure, when none reports one."""
    picked = by_figure(papers, most)
    measure = most.name
    if not picked.cited:
        return Plan(question, standalone, papers, [], related=papers[:3], abstain=AbstainReason.NONE_OF_THOSE,
                    detail=measure, notes=notes)
    cited = [replace(ev, marker=i) for i, ev in enumerate(picked.cited, 1)]
    if most.measure == BEST_MATCH:
        return Plan(question, standalone, papers, cited, notes=notes, remarks=[best_match_text(measure, chinese(question))])
    return Plan(question, standalone, papers, cited, notes=notes,
                remarks=figures_text(measure, picked.larger_first, picked.ordered, len(cited), picked.without, chinese(question),
                                     by_year=most.measure == YEAR))


def reporting_plan(question: str, standalone: str, papers: list[Evidence], measure: str, notes: list[str]) -> Plan:
    """"Which of them report MAE?": the previous answer's `papers` (in their order) whose abstracts give a
    figure for `measure`, each quoting it; abstains, naming the measure, when none does. Read as topic
    words, "report MAE" matched none of 13 crowd counting papers and the answer abstained."""
    picked = {ev.paper.paper_id: ev for ev in by_figure(papers, Most("most", (measure.lower(),), True, label=measure)).cited}
    cited = [replace(picked[ev.paper.paper_id], marker=i) for i, ev in
             enumerate((ev for ev in papers if ev.paper.paper_id in picked), 1)]
    if not cited:
        return Plan(question, standalone, papers, [], related=papers[:3], abstain=AbstainReason.NONE_OF_THOSE,
                    detail=measure, notes=notes)
    return Plan(question, standalone, papers, cited, notes=notes)


def quoting_figures(cited: list[Evidence], most: Most) -> list[Evidence]:
    """`cited` in its order, each paper that reports the measure quoting its figure's sentence:
    set after the answer's quotes are ranked, which would put the most topical sentence first."""
    if most.measure == YEAR:  # ordered by year: each keeps its topical quote
        return cited
    picked = by_figure(cited, most)
    quoted = {ev.paper.paper_id: ev for ev in picked.cited}
    return [quoted.get(ev.paper.paper_id, ev) for ev in cited]
