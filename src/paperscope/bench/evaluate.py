"""The eval harness behind `paperscope eval`: runs questions, scores papers and citations.

Input lines: {"question": ...} or {"turns": [...]}, "gold" (paper ids that must be cited;
empty = no paper covers it), "acceptable" (may also be cited), "key" (a fact the answer must
contain, or null). Multi-turn items are asked turn by turn with history; the last turn is
scored. Metrics:
- recall@5: share of gold papers among the first five papers of the answer (cited papers,
  then the remaining evidence by support), over items with gold;
- citation precision: cited papers that are gold or acceptable, over all citations;
- citation recall: gold papers cited, over all gold papers;
- abstention accuracy: abstained exactly when gold is empty, over all items;
- key-fact rate: answers containing the key (case-insensitive), over items with a key.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from paperscope.assistant import Assistant
    from paperscope.records import Answer


def load_items(path: Path) -> list[dict[str, Any]]:
    items = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{n}: invalid JSON ({exc.msg})") from exc
        if "question" not in item and "turns" not in item:
            raise ValueError(f"{path}:{n}: an eval item needs 'question' or 'turns'")
        items.append(item)
    return items


def run_eval(assistant: Assistant, items: list[dict[str, Any]]) -> dict[str, Any]:
    rows = []
    totals = {"gold": 0, "gold_in_5": 0, "cited": 0, "cited_ok": 0, "gold_cited": 0,
              "abstain_ok": 0, "keys": 0, "keys_ok": 0, "items_with_gold": 0}
    recall_sum = 0.0
    for item in items:
        turns = item.get("turns") or [item["question"]]
        history: list[tuple[str, Answer]] = []
        t0 = time.perf_counter()
        for turn in turns:
            answer = assistant.ask(turn, history=history)
            history.append((turn, answer))
        seconds = time.perf_counter() - t0
        gold = set(item.get("gold") or [])
        ok_set = gold | set(item.get("acceptable") or [])
        cited = [c.paper_id for c in answer.citations]
        ranked = (cited + [p for p in answer.evidence_ids if p not in cited])[:5]
        if gold:
            totals["items_with_gold"] += 1
            hit = len(gold & set(ranked))
            recall_sum += hit / len(gold)
            totals["gold"] += len(gold)
            totals["gold_cited"] += len(gold & set(cited))
        totals["cited"] += len(cited)
        totals["cited_ok"] += sum(1 for c in cited if c in ok_set)
        abstain_ok = answer.abstained == (not gold)
        totals["abstain_ok"] += int(abstain_ok)
        key = item.get("key")
        key_ok = None
        if key:
            totals["keys"] += 1
            key_ok = key.lower() in answer.text.lower()
            totals["keys_ok"] += int(key_ok)
        rows.append({
            "question": turns[-1], "gold": sorted(gold), "cited": cited, "abstained": answer.abstained,
            "abstain_ok": abstain_ok, "key_ok": key_ok, "seconds": round(seconds, 3), "backend": answer.backend,
            "wrong_citations": [c for c in cited if c not in ok_set], "missed_gold": sorted(gold - set(ranked)),
        })
    n = len(items)
    metrics = {
        "items": n,
        "recall@5": round(recall_sum / totals["items_with_gold"], 4) if totals["items_with_gold"] else None,
        "citation_precision": round(totals["cited_ok"] / totals["cited"], 4) if totals["cited"] else None,
        "citation_recall": round(totals["gold_cited"] / totals["gold"], 4) if totals["gold"] else None,
        "abstention_accuracy": round(totals["abstain_ok"] / n, 4) if n else None,
        "key_fact_rate": round(totals["keys_ok"] / totals["keys"], 4) if totals["keys"] else None,
        "mean_seconds": round(sum(r["seconds"] for r in rows) / n, 3) if n else None,
    }
    return {"metrics": metrics, "items": rows}
