"""List-all quality: recall and precision of `Assistant.find_all` against labelled topics, and its
warm latency (the `listall` section of `paperscope bench`).

The topics (questions/listall_topics.jsonl, 28 topics, built by build_topics.py of the issue-11 list-all research)
carry, per topic, 3 English phrasings (`phrasing_kinds`: "direct" names the topic, "paraphrase" does
not) and one Chinese (`zh`), and the corpus record ids of its papers over the whole shared corpus:
`gold_85k` (title or author keywords name the topic) and `acceptable_85k` (not gold, but the
abstract names the topic prominently). Labels depend on the paper alone, so a library of any
subset of the corpus takes the intersection (for the 20,000 sample this equals the file's
`gold_20k` / `acceptable_20k`). Topics with no gold paper in the library are skipped.

Scoring, per question: recall = gold listed / gold; precision = (gold + acceptable) listed / listed
(0 when nothing is listed; `empty` is the share of questions that listed nothing, so a mean
precision of 0.67 can be 1.0 on two phrasings and an empty list on the third); strict precision
counts gold only. Per topic: the mean over its English phrasings (Chinese reported apart);
overall: the mean over topics (macro). Latency: wall time of
each `find_all` after WARMUP_QUESTIONS untimed ones in the same process (models loaded, indexes read);
`*_cpu`: the process's CPU time (all threads) per question, steadier on a shared machine.
Leaves out: streaming (time to the first listed paper); filters.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from paperscope.assistant import Assistant

from paperscope.bench import shaped
from paperscope.bench.corpus import write_jsonl
from paperscope.bench.query import percentiles

TOPICS_FILE = Path(__file__).with_name("questions") / "listall_topics.jsonl"
SMALL = 20_000  # the smaller library reported besides the full one
# Untimed first: models loaded, indexes read; the Chinese one loads the zh dictionary.
WARMUP_QUESTIONS = ("Which papers study graph neural networks?", "Is there work on speech recognition?",
                    "有哪些关于图神经网络的论文？")
TARGETS = {"recall": 0.90, "precision": 0.90, "p50_s": 2.0}  # issue 11, at the full corpus
METRICS = ("recall", "precision", "strict_precision", "found", "empty")


def load_topics(path: str | Path | None = None) -> list[dict[str, Any]]:
    with open(path or TOPICS_FILE, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def labels(topic: dict[str, Any], library: set[str]) -> tuple[set[str], set[str]]:
    """(gold, acceptable) paper ids of `topic` present in `library`."""
    return set(topic["gold_85k"]) & library, set(topic["acceptable_85k"]) & library


def score(found: Sequence[str], gold: set[str], acceptable: set[str]) -> dict[str, float]:
    listed = set(found)
    hits = len(listed & gold)
    return {"recall": hits / len(gold) if gold else 0.0,
            "precision": len(listed & (gold | acceptable)) / len(listed) if listed else 0.0,
            "strict_precision": hits / len(listed) if listed else 0.0,
            "found": float(len(listed)), "empty": float(not listed)}


def _mean(rows: list[dict[str, Any]]) -> dict[str, float]:
    return {k: round(statistics.fmean(r[k] for r in rows), 4) for k in METRICS} if rows else {}


def evaluate(assistant: Assistant, topics: list[dict[str, Any]], library: set[str], chinese: bool = True,
             warmup: Sequence[str] = WARMUP_QUESTIONS, log: Callable[[str], None] = lambda s: None) -> dict[str, Any]:
    """find_all for every phrasing of every topic with gold papers in `library`; see the module doc."""
    errors: list[str] = []

    def find_all(question: str) -> list[str] | None:
        """The listed ids, or None when find_all raised (counted, scored 0: one bad question
        must not end a run of hundreds)."""
        try:
            return [c.paper_id for c in assistant.find_all(question).citations]
        except Exception as exc:
            errors.append(f"{question}: {type(exc).__name__}: {exc}"[:300])
            log(f"listall: find_all failed: {errors[-1]}")
            return None

    for q in warmup:
        find_all(q)
    warmup_errors = len(errors)
    per_topic: list[dict[str, Any]] = []
    seconds: dict[str, list[float]] = {"english": [], "zh": [], "english_cpu": [], "zh_cpu": []}
    for topic in topics:
        gold, ok = labels(topic, library)
        if not gold:
            continue
        asks = list(zip(topic["phrasings"], topic["phrasing_kinds"], strict=True))
        if chinese and topic.get("zh"):
            asks.append((topic["zh"], "zh"))
        rows = []
        for question, kind in asks:
            t, cpu = time.perf_counter(), time.process_time()
            found = find_all(question)
            took = time.perf_counter() - t
            if found is not None:  # a failure's time is not find_all's latency
                lang = "zh" if kind == "zh" else "english"
                seconds[lang].append(took)
                seconds[f"{lang}_cpu"].append(time.process_time() - cpu)
            m = score(found or [], gold, ok)
            rows.append({"question": question, "kind": kind, **{k: round(v, 4) for k, v in m.items()},
                         "seconds": round(took, 3)} | ({} if found is not None else {"error": errors[-1]}))
        english = [r for r in rows if r["kind"] != "zh"]
        zh = [r for r in rows if r["kind"] == "zh"]
        entry = {"id": topic["id"], "gold": len(gold), "acceptable": len(ok), "english": _mean(english),
                 "zh": _mean(zh), "questions": rows}
        per_topic.append(entry)
        log(f"listall: {topic['id']}: recall {entry['english']['recall']:.2f} "
            f"precision {entry['english']['precision']:.2f} ({len(gold)} gold)")

    def macro(kinds: tuple[str, ...]) -> dict[str, float]:
        means = [_mean([r for r in t["questions"] if r["kind"] in kinds]) for t in per_topic]
        return _mean([m for m in means if m])

    return {"papers": len(library), "topics": len(per_topic),
            "questions": {kind: sum(r["kind"] in kinds for t in per_topic for r in t["questions"])
                          for kind, kinds in (("english", ("direct", "paraphrase")), ("zh", ("zh",)))},
            "errors": {"warmup": warmup_errors, "questions": len(errors) - warmup_errors, "first": errors[warmup_errors:][:5]},
            "mean": {"english": macro(("direct", "paraphrase")), "direct": macro(("direct",)),
                     "paraphrase": macro(("paraphrase",)), "zh": macro(("zh",))},
            "latency": {key: percentiles(values) for key, values in seconds.items()},
            "per_topic": per_topic}


def targets(result: dict[str, Any]) -> dict[str, bool]:
    mean, lat = result["mean"]["english"], result["latency"]["english"]
    return {"no_errors": not result["errors"]["questions"], "recall": mean.get("recall", 0.0) >= TARGETS["recall"],
            "precision": mean.get("precision", 0.0) >= TARGETS["precision"],
            "p50": lat.get("p50_ms", float("inf")) <= 1000 * TARGETS["p50_s"]}


def library_for(records: list[dict[str, Any]], work: Path, log: Callable[[str], None] = lambda s: None) -> Path:
    """A paperscope data dir holding exactly `records` (work/paperscope_N/data, the name the other
    sections use): reused when a previous run left it complete, else ingested in a fresh process."""
    from paperscope.assistant import Assistant
    from paperscope.bench.pipelines import run_job

    n = len(records)
    data = work / f"paperscope_{n}" / "data"
    if data.exists():
        ids = [r["id"] for r in records]
        a = Assistant.open(data)
        a.refresh()
        if a.catalog.paper_count() == n and len(a.catalog.hashes(ids)) == n:
            log(f"listall: reusing the ingest of {n} papers in {data}")
            return data
    log(f"listall: ingesting {n} abstracts into {data}")
    run_job("paperscope", write_jsonl(records, work / f"sample_{n}.jsonl"), data.parent)
    return data


def run_listall(records: list[dict[str, Any]], work: Path, topics_file: str | Path | None = None,
                sizes: Sequence[int] | None = None, chinese: bool = True,
                log: Callable[[str], None] = lambda s: None) -> dict[str, Any]:
    """The section: for each size (default min(SMALL, n) and n), the library of the first `size`
    records (hash-of-id order) and `evaluate` on it, in this process."""
    from paperscope.assistant import Assistant

    topics = load_topics(topics_file)
    n = len(records)
    out: dict[str, Any] = {"topics_file": str(topics_file or TOPICS_FILE), "targets": TARGETS, "by_size": {}}
    for size in sorted(set(sizes or (min(SMALL, n), n))):
        part = records[:size]
        data = library_for(part, work, log)
        log(f"listall: {len(topics)} topics over {size} papers")
        a = Assistant.open(data)
        library = {r["id"] for r in part}
        res = evaluate(a, topics, library, chinese=chinese, log=log)
        res["targets_met"] = targets(res)
        res["shaped"] = shaped.evaluate(a, [(t, *labels(t, library)) for t in topics])  # counts, newest first
        out["by_size"][str(size)] = res
        del a
    return out


def markdown_rows(section: dict[str, Any]) -> list[str]:
    """Rows for `run.markdown`: per size, the means and latency, then per topic (English)."""
    lines = []
    for size, res in section["by_size"].items():
        for key, what in (("english", "English"), ("direct", "English, direct"), ("paraphrase", "English, paraphrase"),
                          ("zh", "Chinese")):
            m = res["mean"][key]
            if m:
                lines.append(f"| find_all, {size} papers, {res['topics']} topics, {what}: recall / precision (strict) | "
                             f"{m['recall']:.3f} / {m['precision']:.3f} ({m['strict_precision']:.3f}), "
                             f"{m['found']:.0f} listed, {m.get('empty', 0.0):.0%} of questions list nothing |")
        lat = res["latency"]["english"]
        if lat.get("n"):
            cpu = res["latency"]["english_cpu"]
            lines.append(f"| find_all, {size} papers, warm ({lat['n']} questions) | p50 {lat['p50_ms'] / 1000:.2f} s, "
                         f"p95 {lat['p95_ms'] / 1000:.2f} s (CPU time p50 {cpu['p50_ms'] / 1000:.2f} s, "
                         f"p95 {cpu['p95_ms'] / 1000:.2f} s) |")
        lines += shaped.markdown_rows(size, res.get("shaped", {}))
        if res["errors"]["questions"]:
            lines.append(f"| find_all, {size} papers, questions that raised (scored 0) | {res['errors']['questions']}: "
                         f"{res['errors']['first'][0][:120]} |")
    for size, res in section["by_size"].items():
        for t in res["per_topic"]:
            e, z = t["english"], t["zh"]
            lines.append(f"| find_all, {size} papers, {t['id']} ({t['gold']} gold) | recall {e['recall']:.2f}, precision "
                         f"{e['precision']:.2f}" + (f"; zh {z['recall']:.2f} / {z['precision']:.2f}" if z else "") + " |")
    return lines
