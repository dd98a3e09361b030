"""find_all's list threshold for `relevance_train`: how the held-out deep list questions would be
listed (`list_outcomes`, with `Relevance.names_rule` applied through `names_flags`) and the
threshold chosen from them (`choose_list_threshold`)."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

import numpy as np

from paperscope.bench.relevance_items import Item
from paperscope.relevance import NAMES_MIN
from paperscope.relevance import features as F

if TYPE_CHECKING:
    from paperscope.assistant import Assistant


def names_flags(libs: dict[str, Assistant], items: dict[str, Item], rows: list[dict[str, Any]]) -> dict[tuple[str, str], bool]:
    """(deep item, paper) -> whether the paper names the question's main topic where a paper
    states its subject (`features.names_topic`, what find_all's `Relevance.names_rule` reads)."""
    out: dict[tuple[str, str], bool] = {}
    by_item: defaultdict[str, list[str]] = defaultdict(list)
    for r in rows:
        if r["_family"] == "deep":
            by_item[r["_item"]].append(r["_pid"])
    for iid, pids in by_item.items():
        a = libs[items[iid]["lib"]]
        snap = a.catalog.snapshot()
        cover = F.Cover(a.relevance.analyze(items[iid]["question"], snap), snap.acronyms)
        papers = a.catalog.papers(pids)
        for pid in pids:
            paper = papers.get(pid)
            out[(iid, pid)] = paper is None or F.names_topic(cover, a.relevance.texts.get(paper))
    return out


def list_outcomes(rows: list[dict[str, Any]], p: np.ndarray, items: dict[str, Item], cite: float,
                  listing: float, names: dict[tuple[str, str], bool] | None = None) -> dict[str, float]:
    """`find_all`'s decision on the deep questions: empty unless the best paper reaches `cite`,
    else every paper from `listing` up, less those `Relevance.names_rule` drops when `names` is
    given; macro recall, precision (unsure papers count as right) and strict precision (they
    count as wrong: a single passing mention is not a paper on the topic)."""
    by: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for r, pi in zip(rows, p):
        if r["_family"] == "deep":
            by[r["_item"]].append((float(pi), r["_pid"]))
    recall, precision, strict, empty = [], [], [], 0
    reach = min(listing, cite)
    for iid, lst in by.items():
        gold, ok = set(items[iid]["gold"]), set(items[iid]["gold"]) | set(items[iid]["unsure"])
        lst.sort(key=lambda x: -x[0])
        listed = [pid for pi, pid in lst if pi >= reach] if lst[0][0] >= cite else []
        if names is not None:
            naming = [(pi, pid) for pi, pid in lst if pi >= reach and names[(iid, pid)]]
            if len(naming) >= NAMES_MIN and naming[0][0] >= cite:
                listed = [pid for pid in listed if names[(iid, pid)]]
        recall.append(len(gold & set(listed)) / max(len(gold), 1))
        if listed:
            precision.append(sum(pid in ok for pid in listed) / len(listed))
            strict.append(sum(pid in gold for pid in listed) / len(listed))
        else:
            empty += 1
    return {"list": listing, "questions": len(by), "recall": float(np.mean(recall)) if recall else float("nan"),
            "precision": float(np.mean(precision)) if precision else float("nan"),
            "strict_precision": float(np.mean(strict)) if strict else float("nan"), "empty": empty}


def choose_list_threshold(rows: list[dict[str, Any]], p: np.ndarray, items: dict[str, Item], cite: float,
                          names: dict[tuple[str, str], bool] | None = None) -> tuple[float, list[dict[str, float]]]:
    """The list threshold, on the held-out deep questions with find_all's named-topic rule: the
    best mean of recall and strict precision (counted twice, as for the cite threshold), each
    threshold averaged with its neighbours; never above `cite`. (Until 2026-12-03: the lowest
    keeping lenient precision >= .90, which counted single passing mentions as right; with them
    counted wrong no threshold reaches .90.)"""
    table = [list_outcomes(rows, p, items, cite, float(t), names) for t in np.round(np.arange(0.1, cite + 0.001, 0.05), 2)]
    table = [m for m in table if m["questions"]]
    if not table:
        return cite, []
    for m in table:
        m["objective"] = (2 * m["strict_precision"] + m["recall"]) / 3
    obj = [m["objective"] for m in table]
    smooth = [sum(obj[max(0, i - 1):i + 2]) / len(obj[max(0, i - 1):i + 2]) for i in range(len(obj))]
    return table[int(np.argmax(smooth))]["list"], table
