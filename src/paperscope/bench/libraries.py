"""The hand-labelled libraries (the `libraries` section of `paperscope bench`): sixteen 38-abstract
libraries of other conferences (questions/libraries.json) with 56-60 researcher questions each,
labelled by reading every abstract (questions/lib<X>_questions.jsonl), answered by `ask` and scored
as `paperscope eval` scores (paperscope.bench.evaluate), then pooled over all questions.

In-sample: the relevance model is fitted on these questions (`relevance_train`), so the figures
check that a change to question analysis, quotes or the decision does not undo what the model
learned; held-out figures come from `relevance_train`'s report and from dev2.jsonl. Pooled, not
averaged: citation precision = right citations / all citations over every question, and so on.
Leaves out: `find_all` (the listall section) and LLM backends (extractive answers only).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from paperscope.bench.corpus import iter_records
from paperscope.bench.evaluate import load_items, run_eval
from paperscope.bench.relevance_items import DATA as QUESTIONS


def open_libraries(corpus: Path, work: Path, names: Sequence[str] | None = None) -> Iterator[tuple[str, Any]]:
    """(name, Assistant) of each library (all, or `names`), ingested once under
    `work`/libraries/<name> from `corpus` records (as `relevance_train` builds them)."""
    from paperscope.bench.relevance_train import library

    libraries: dict[str, list[str]] = json.loads((QUESTIONS / "libraries.json").read_text())
    chosen = list(names) if names else sorted(libraries)
    unknown = [n for n in chosen if n not in libraries]
    if unknown:
        raise ValueError(f"unknown hand-labelled library {', '.join(unknown)}; choose from {', '.join(sorted(libraries))}")
    wanted = {i for n in chosen for i in libraries[n]}

    @functools.cache
    def by_id() -> dict[str, dict[str, Any]]:  # the corpus is read only when a library is built
        return {str(r["id"]): r for r in iter_records(corpus) if str(r.get("id")) in wanted}

    def records(name: str) -> Iterator[dict[str, Any]]:
        missing = [i for i in libraries[name] if i not in by_id()]
        if missing:
            raise ValueError(f"{corpus} lacks {len(missing)} papers of {name} (e.g. {missing[0]}): "
                             "pass the shared conference_abstracts corpus with --corpus")
        yield from (by_id()[i] for i in libraries[name])

    (work / "libraries").mkdir(parents=True, exist_ok=True)
    for name in chosen:
        yield name, library(work / "libraries", name, records(name))


def run_libraries(corpus: Path, work: Path, names: Sequence[str] | None = None,
                  log: Callable[[str], None] = lambda s: None) -> dict[str, Any]:
    """Each library (`open_libraries`) with its questions asked; per-library metrics and the
    pooled totals."""
    totals = {"questions": 0, "cited": 0, "cited_ok": 0, "gold": 0, "gold_cited": 0, "abstain_ok": 0,
              "keys": 0, "keys_ok": 0}
    per_library: dict[str, Any] = {}
    chosen = []
    for name, assistant in open_libraries(corpus, work, names):
        chosen.append(name)
        items = load_items(QUESTIONS / f"{name}_questions.jsonl")
        log(f"libraries: {name}, {len(items)} questions")
        result = run_eval(assistant, items)
        per_library[name] = result["metrics"]
        for row in result["items"]:
            totals["questions"] += 1
            totals["cited"] += len(row["cited"])
            totals["cited_ok"] += len(row["cited"]) - len(row["wrong_citations"])
            totals["gold"] += len(row["gold"])
            totals["gold_cited"] += len(set(row["gold"]) & set(row["cited"]))
            totals["abstain_ok"] += int(row["abstain_ok"])
            if row["key_ok"] is not None:
                totals["keys"] += 1
                totals["keys_ok"] += int(row["key_ok"])
    pooled = {
        "citation_precision": round(totals["cited_ok"] / totals["cited"], 4) if totals["cited"] else None,
        "citation_recall": round(totals["gold_cited"] / totals["gold"], 4) if totals["gold"] else None,
        "abstention_accuracy": round(totals["abstain_ok"] / totals["questions"], 4) if totals["questions"] else None,
        "key_fact_rate": round(totals["keys_ok"] / totals["keys"], 4) if totals["keys"] else None,
    }
    return {"libraries": chosen, "totals": totals, "pooled": pooled, "per_library": per_library}


def markdown_rows(res: dict[str, Any]) -> list[str]:
    t, p = res["totals"], res["pooled"]
    return [f"| hand-labelled libraries ({len(res['libraries'])}, {t['questions']} questions, in-sample): citation "
            f"precision / recall / abstention / key facts | {p['citation_precision']} ({t['cited_ok']}/{t['cited']}) / "
            f"{p['citation_recall']} ({t['gold_cited']}/{t['gold']}) / {p['abstention_accuracy']} / "
            f"{p['key_fact_rate']} ({t['keys_ok']}/{t['keys']}) |"]
