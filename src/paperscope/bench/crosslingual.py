"""Chinese questions over English abstracts, against the same questions in English, in one run.

    python -m paperscope.bench.crosslingual --n 20000 --work /tmp/xl   (or `paperscope bench --crosslingual`)

Questions (questions/crosslingual_*.jsonl, written by hand in both languages; no machine
translation): 160 known-item questions (one paper each, sampled across 23 venues of the
20,000-paper sample) and 18 list topics (12-133 papers each; gold = the sample's papers whose
title or author keywords match the topic's pattern, which was refined by reading matches and
near-misses), and 26 "rare" topics (crosslingual_rare_topics.jsonl, 6-59 papers each: phrases
of the Chinese glossary's second pass, gold = the sample's titles naming the phrase; the Chinese
question written here in its own words, e.g. 目标候选框 where the glossary says 目标候选).
The 18 topics are also asked in German, French, Spanish, Italian, Portuguese, Dutch and Japanese
(crosslingual_language_topics.jsonl, written here), each against the same library with the
multilingual path off (`*_multilingual_off`: before these languages were detected, a Latin-script
question went down the English path).
Reported, for Chinese, for English, and for Chinese on the glossing-only path
(`PAPERSCOPE_RETRIEVE_MULTILINGUAL=false`: the baseline, same library, same run):
- known item: R@1/R@5/R@10 of `Assistant.search`;
- topics: recall and precision of `Assistant.find_all` (precision counts only pattern-matched
  papers as on topic, so it is a lower bound), and recall@100 of `search`;
- latency: `ask` p50/p95 per language (warm).
The gold ids are the corpus records' ids; the topics' gold is defined on the 20,000 sample
(`paperscope.bench.corpus.sample`), so other sizes report known-item only.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from importlib import resources
from pathlib import Path
from typing import Any

TOPICS_N = 20_000


LANGUAGES = ("de", "fr", "es", "it", "pt", "nl", "ja")


def language_topics() -> list[dict[str, Any]]:
    """The 18 topics with their questions in `LANGUAGES` (crosslingual_language_topics.jsonl)."""
    base = {t["id"]: t for t in load("crosslingual_topics.jsonl")}
    return [{**base[t["id"]], **t} for t in load("crosslingual_language_topics.jsonl")]


def load(name: str) -> list[dict[str, Any]]:
    text = resources.files("paperscope.bench").joinpath(f"questions/{name}").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _rank(ids: list[str], gold: str) -> int | None:
    return ids.index(gold) + 1 if gold in ids else None


def known_item(a: Any, items: list[dict[str, Any]], lang: str) -> dict[str, float]:
    ranks = [_rank([h.paper_id for h in a.search(it[lang], k=10)], it["gold"][0]) for it in items]
    return {f"R@{k}": round(sum(1 for r in ranks if r is not None and r <= k) / len(ranks), 3) for k in (1, 5, 10)}


def topics(a: Any, items: list[dict[str, Any]], lang: str) -> dict[str, Any]:
    rows = []
    for it in items:
        gold = set(it["gold"])
        t = time.perf_counter()
        found = [c.paper_id for c in a.find_all(it[lang]).citations]
        seconds = time.perf_counter() - t
        top = {h.paper_id for h in a.search(it[lang], k=100)}
        hit = len(gold & set(found))
        rows.append({"id": it["id"], "gold": len(gold), "found": len(found),
                     "recall": round(hit / len(gold), 3), "precision": round(hit / len(found), 3) if found else 0.0,
                     "recall@100": round(len(gold & top) / len(gold), 3), "seconds": round(seconds, 2)})
    mean = {k: round(statistics.mean(r[k] for r in rows), 3) for k in ("recall", "precision", "recall@100")}
    return {"mean": mean, "find_all_p50_s": round(statistics.median(r["seconds"] for r in rows), 2), "topics": rows}


def latency(a: Any, questions: list[str]) -> dict[str, float]:
    times = []
    for q in questions:
        t = time.perf_counter()
        a.ask(q)
        times.append(time.perf_counter() - t)
    times.sort()
    return {"ask_p50_ms": round(1000 * times[len(times) // 2]), "ask_p95_ms": round(1000 * times[int(len(times) * .95)])}


def run(n: int, work: Path, corpus: str | None = None, log: Any = print) -> dict[str, Any]:
    from paperscope import Assistant
    from paperscope.bench.corpus import default_corpus, sample, write_jsonl
    from paperscope.settings import Settings

    data = work / f"library_{n}"
    a = Assistant.open(data)
    ingest_s = None
    if a.catalog.paper_count() < n:
        recs = sample(Path(corpus) if corpus else default_corpus(), n)
        src = write_jsonl(recs, work / f"sample_{n}.jsonl")
        t = time.perf_counter()
        a.ingest([src])
        ingest_s = round(time.perf_counter() - t, 1)
        log(f"ingested {n} in {ingest_s} s")
    t = time.perf_counter()
    a.catalog.multilingual(a.catalog.snapshot().generation)
    index_s = round(time.perf_counter() - t, 1)
    base_settings = Settings().with_data_dir(data)
    base_settings = base_settings.model_copy(update={"retrieve": base_settings.retrieve.model_copy(
        update={"multilingual": False})})
    glossing = Assistant.open(data, settings=base_settings)
    ki = load("crosslingual_known_item.jsonl")
    report: dict[str, Any] = {"papers": a.catalog.paper_count(), "ingest_s": ingest_s,
                              "multilingual_index_load_or_build_s": index_s, "known_item": {}, "topics": {}}
    for label, assistant, lang in (("zh", a, "zh"), ("en", a, "en"), ("zh_glossing_only", glossing, "zh")):
        report["known_item"][label] = known_item(assistant, ki, lang)
        log(f"known item {label}: {report['known_item'][label]}")
    if n == TOPICS_N:
        for name, prefix in (("crosslingual_topics.jsonl", ""), ("crosslingual_rare_topics.jsonl", "rare ")):
            tp = load(name)
            for label, assistant, lang in (("zh", a, "zh"), ("en", a, "en"), ("zh_glossing_only", glossing, "zh")):
                report["topics"][prefix + label] = topics(assistant, tp, lang)
                log(f"topics {prefix}{label}: {report['topics'][prefix + label]['mean']}")
        more = language_topics()
        for lang in LANGUAGES:
            for label, assistant in ((lang, a), (f"{lang}_multilingual_off", glossing)):
                report["topics"][label] = topics(assistant, more, lang)
                log(f"topics {label}: {report['topics'][label]['mean']}")
    qs = [it["zh"] for it in ki[:40]]
    latency(a, qs[:5])  # warm-up: models loaded, indexes read
    report["latency_zh"] = latency(a, qs)
    report["latency_en"] = latency(a, [it["en"] for it in ki[:40]])
    log(f"latency zh {report['latency_zh']} en {report['latency_en']}")
    return report


def markdown(r: dict[str, Any]) -> str:
    lines = [f"Cross-lingual benchmark, {r['papers']:,} papers", "",
             "| questions | R@1 | R@5 | R@10 |", "|---|---|---|---|"]
    for label, m in r["known_item"].items():
        lines.append(f"| known item, {label} | {m['R@1']} | {m['R@5']} | {m['R@10']} |")
    if r["topics"]:
        lines += ["", "| topics (find_all) | recall | precision (lower bound) | search recall@100 | find_all p50 s |",
                  "|---|---|---|---|---|"]
        for label, m in r["topics"].items():
            mm = m["mean"]
            lines.append(f"| {label} | {mm['recall']} | {mm['precision']} | {mm['recall@100']} | {m['find_all_p50_s']} |")
    lines += ["", f"ask p50/p95: Chinese {r['latency_zh']['ask_p50_ms']}/{r['latency_zh']['ask_p95_ms']} ms, "
              f"English {r['latency_en']['ask_p50_ms']}/{r['latency_en']['ask_p95_ms']} ms"]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=TOPICS_N)
    ap.add_argument("--work", type=Path, default=Path("/tmp/paperscope-crosslingual"))
    ap.add_argument("--corpus", default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    report = run(args.n, args.work, args.corpus, log=lambda m: print(f"bench: {m}", file=sys.stderr))
    print(json.dumps(report, indent=1, ensure_ascii=False) if args.json else markdown(report))


if __name__ == "__main__":
    main()
