"""Counts and newest-first answers against the list-all topics' labels (part of the `listall`
section of `paperscope bench`).

For each topic with at least `MIN_GOLD` gold papers in the library whose first phrasing reads
"Which papers <verb> X?", three questions through `Assistant.ask`:
- "How many papers <verb> X?": the count the answer states (`text.asks.counts_papers`: every paper
  `find_all` lists) is scored against the labels: within 0.8 x gold .. 1.2 x (gold + acceptable);
- "Which are the latest papers that <verb> X?" (`text.asks.recency`): whether its first paper is
  from the newest year of the topic's gold papers, and the precision of what it cites (gold or
  acceptable, as `listall` counts it);
- the phrasing itself, the baseline of the same run: how often the plain answer's first paper is
  from that year, and its precision.
Latency: wall time of each, warm (the listall section has already asked its questions).
"""

from __future__ import annotations

import re
import statistics
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from paperscope.assistant import Assistant
    from paperscope.records import Answer

MIN_GOLD = 3
_COUNT = re.compile(r"^(\d+) papers? in the library")


def evaluate(assistant: Assistant, labelled: list[tuple[dict[str, Any], set[str], set[str]]]) -> dict[str, Any]:
    """The figures above, over listall's topics, each with its gold and acceptable papers in the
    library (`listall.labels`)."""
    rows = []
    for topic, gold, ok in labelled:
        base = topic["phrasings"][0]
        if len(gold) < MIN_GOLD or not base.startswith("Which papers "):
            continue
        rest = base[len("Which papers "):]
        timed = {}
        for key, question in (("count", f"How many papers {rest}"), ("newest", f"Which are the latest papers that {rest}"),
                              ("plain", base)):
            t = time.perf_counter()
            timed[key] = (assistant.ask(question), time.perf_counter() - t)
        years = [p.year for p in assistant.catalog.papers(sorted(gold)).values() if p.year]
        newest = max(years) if years else None
        m = _COUNT.match(timed["count"][0].text)
        count = int(m.group(1)) if m else 0
        rows.append({"id": topic["id"], "gold": len(gold), "acceptable": len(ok), "count": count,
                     "count_ok": 0.8 * len(gold) <= count <= 1.2 * (len(gold) + len(ok)), "newest_gold_year": newest,
                     "newest_first": _first_year(timed["newest"][0]) == newest,
                     "plain_first": _first_year(timed["plain"][0]) == newest,
                     "newest_precision": _precision(timed["newest"][0], gold, ok),
                     "plain_precision": _precision(timed["plain"][0], gold, ok),
                     **{f"{k}_s": round(v[1], 3) for k, v in timed.items()}})
    if not rows:
        return {"topics": 0}

    def p50(key: str) -> float:
        return round(float(statistics.median(r[key] for r in rows)), 3)

    return {"topics": len(rows), "count_ok": sum(r["count_ok"] for r in rows),
            "count_over_gold_p50": round(statistics.median(r["count"] / r["gold"] for r in rows), 3),
            "newest_first": sum(r["newest_first"] for r in rows), "plain_first": sum(r["plain_first"] for r in rows),
            "newest_precision": round(statistics.fmean(r["newest_precision"] for r in rows), 4),
            "plain_precision": round(statistics.fmean(r["plain_precision"] for r in rows), 4),
            "p50_s": {"count": p50("count_s"), "newest": p50("newest_s"), "plain": p50("plain_s")}, "per_topic": rows}


def _first_year(answer: Answer) -> int | None:
    return answer.citations[0].year if answer.citations else None


def _precision(answer: Answer, gold: set[str], acceptable: set[str]) -> float:
    """As `listall.score` counts it: gold or acceptable cited over cited (0 when none)."""
    cited, right = answer.citations, gold | acceptable
    return round(sum(c.paper_id in right for c in cited) / len(cited), 4) if cited else 0.0


def markdown_rows(size: str, res: dict[str, Any]) -> list[str]:
    """Rows for `run.markdown` (none when no topic qualified)."""
    if not res.get("topics"):
        return []
    n, lat = res["topics"], res["p50_s"]
    return [f"| ask, {size} papers, \"How many papers ...?\" over {n} topics: count within 0.8 x gold .. 1.2 x "
            f"(gold + acceptable) | {res['count_ok']} of {n}; median count / gold {res['count_over_gold_p50']:.2f} |",
            f"| ask, {size} papers, \"Which are the latest papers that ...?\": first paper from the newest gold year | "
            f"{res['newest_first']} of {n} (the plain question, same run: {res['plain_first']}); precision "
            f"{res['newest_precision']:.3f} (plain {res['plain_precision']:.3f}) |",
            f"| ask, {size} papers, p50 count / newest first / plain | {lat['count']:.2f} s / {lat['newest']:.2f} s / "
            f"{lat['plain']:.2f} s |"]
