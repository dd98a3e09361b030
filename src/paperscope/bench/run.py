"""`paperscope bench`: ingest throughput against two baselines, embedder quality, query latency,
list-all quality.

All timings that are compared are taken in the same run, on the same texts and model, in
fresh processes (so each peak RSS is that pipeline's own); on a shared machine report the
ratios, not the absolute numbers. Sections (the first three by default):
- ingest: paperscope vs naive sentence-transformers+Chroma vs llama-index default, on
  min(n, baseline_n) abstracts; when n is larger, paperscope alone also ingests all n.
- quality: cosine agreement of the int8 embedder with fp32 sentence-transformers on the
  same texts, and known-item R@1/R@5/MRR with each embedder (paperscope.bench.known_item).
- queries: warm p50/p95 of search and ask on the largest paperscope ingest, and the cold
  start of a `paperscope ask` process.
- listall (only when asked for: it runs ~110 find_all per library size): recall/precision of
  `find_all` against the labelled topics of questions/listall_topics.jsonl, per topic and mean,
  and its warm p50/p95, at min(20,000, n) and at n papers (paperscope.bench.listall).
- libraries (only when asked for): `ask` over the sixteen hand-labelled 38-abstract libraries,
  pooled citation precision/recall, abstention and key facts (paperscope.bench.libraries; in-sample
  for the relevance model, a regression check).
- phrasings (only when asked for): the libraries' "Which papers <verb> X?" questions asked in 50
  other wordings ("Who has worked on X?", "Recommend papers on X", a bare "X", typing slips), gold papers cited
  per wording beside the original (paperscope.bench.phrasings).
Leaves out: GPU measurements (gpu.sh beside this file).
"""

from __future__ import annotations

import os
import platform
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from paperscope.settings import Settings

from paperscope.bench.corpus import default_corpus, embed_texts, sample, write_jsonl
from paperscope.bench.pipelines import NAIVE_MAX_TOKENS, run_job

SECTIONS = ("ingest", "quality", "queries", "listall", "libraries", "phrasings")
DEFAULT_SECTIONS = ("ingest", "quality", "queries")
BASELINES = ("naive", "llama-index")
WARMUP = 5  # untimed questions before the timed ones (models loaded, indexes read)


def machine() -> dict[str, Any]:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        cpu = platform.processor()
    info = {"cpu": cpu, "cores": os.cpu_count(), "load_avg": [round(x, 2) for x in os.getloadavg()],
            "python": platform.python_version()}
    for mod in ("onnxruntime", "chromadb", "torch", "sentence_transformers", "llama_index.core"):
        try:
            info[mod] = __import__(mod, fromlist=["__version__"]).__version__
        except Exception:  # not installed: the baselines that need it are skipped
            info[mod] = None
    return info


def have_baseline_deps() -> str | None:
    import importlib.util

    for mod in ("torch", "sentence_transformers"):
        if importlib.util.find_spec(mod) is None:
            return f"{mod} is not installed (pip install 'paperscope[bench]')"
    return None


def _round(d: dict[str, Any]) -> dict[str, Any]:
    return {k: (round(v, 3) if isinstance(v, float) else v) for k, v in d.items()}


def agreement(texts: list[str], max_tokens: int, reference_tokens: int = NAIVE_MAX_TOKENS) -> dict[str, Any]:
    """Cosine between the int8 vectors paperscope stores (truncated at `max_tokens`) and the
    fp32 sentence-transformers vectors of the same texts: at `reference_tokens` (what the
    naive pipeline stores) and at `max_tokens` (quantisation alone)."""
    import numpy as np

    from paperscope.bench.pipelines import sentence_transformer
    from paperscope.index.embed import make_embedder
    from paperscope.settings import EmbedSettings

    a = make_embedder(EmbedSettings(model="minilm-int8", max_tokens=max_tokens)).embed(texts)
    st = sentence_transformer()
    out: dict[str, Any] = {"texts": len(texts), "max_tokens": max_tokens, "reference_tokens": reference_tokens}
    for key, tokens in (("vs_naive", reference_tokens), ("same_length", max_tokens)):
        st.max_seq_length = tokens
        b = st.encode(texts, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)
        cos = (a * b).sum(1)
        out[key] = {"mean_cos": round(float(cos.mean()), 4), "min_cos": round(float(cos.min()), 4),
                    "p01_cos": round(float(np.percentile(cos, 1)), 4)}
    return out


def embedder_config(spec: str) -> tuple[str, Settings]:
    """'minilm-int8' or 'minilm:256' (registry name, optional max_tokens) -> (label, Settings)."""
    from paperscope.settings import Settings

    name, _, tokens = spec.partition(":")
    base = Settings()
    embed = base.embed.model_copy(update={"model": name, **({"max_tokens": int(tokens)} if tokens else {})})
    return f"{name}:{embed.max_tokens}", base.model_copy(update={"embed": embed})


def default_quality_configs() -> tuple[str, ...]:
    """The shipped embedder as configured, and the naive pipeline's (fp32 sentence-transformers
    at its default 256 tokens): the R@1 change is what paperscope's speed costs, if anything."""
    from paperscope.settings import Settings

    embed = Settings().embed
    return (f"{embed.model}:{embed.max_tokens}", f"minilm:{NAIVE_MAX_TOKENS}")


def run_bench(n: int = 5000, corpus: str | Path | None = None, baseline_n: int = 5000,
              sections: tuple[str, ...] = DEFAULT_SECTIONS, baselines: tuple[str, ...] = BASELINES, n_questions: int = 200,
              known_item_papers: int = 2000, known_item_embedders: tuple[str, ...] | None = None,
              work_dir: str | Path | None = None, cold_runs: int = 3, listall_topics: str | Path | None = None,
              log: Callable[[str], None] = lambda s: None) -> dict[str, Any]:
    unknown = [s for s in sections if s not in SECTIONS]
    if unknown:
        raise ValueError(f"unknown bench section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    corpus = Path(corpus or default_corpus())
    if not corpus.exists():
        raise FileNotFoundError(f"benchmark corpus not found: {corpus}; pass --corpus PATH")
    work = Path(work_dir) if work_dir else Path(tempfile.mkdtemp(prefix="paperscope-bench-"))
    keep = work_dir is not None
    report: dict[str, Any] = {"machine": machine(), "corpus": str(corpus), "n": n, "started": time.strftime("%Y-%m-%d %H:%M:%S")}
    try:
        records = sample(corpus, n)
        n = report["n"] = len(records)
        largest: tuple[Path, int] | None = None
        missing = have_baseline_deps()
        if "ingest" in sections:
            m = min(n, max(baseline_n, 0))
            if m:
                part = write_jsonl(records[:m], work / f"sample_{m}.jsonl")
                ingest: dict[str, Any] = {"n": m}
                log(f"ingest: paperscope on {m} abstracts")
                ingest["paperscope"] = _round(run_job("paperscope", part, work / f"paperscope_{m}"))
                largest = (work / f"paperscope_{m}" / "data", m)
                for job in baselines:
                    if missing:
                        ingest[job] = {"skipped": missing}
                        continue
                    log(f"ingest: {job} on {m} abstracts")
                    ingest[job] = _round(run_job(job, part, work / job))
                ours = ingest["paperscope"]
                ingest["ratios"] = {f"paperscope_vs_{job.replace('-', '_')}":
                                    round(ours["abstracts_per_s"] / ingest[job]["abstracts_per_s"], 2)
                                    for job in baselines if "abstracts_per_s" in ingest[job]}
                ingest["cpu_ratios"] = {f"paperscope_vs_{job.replace('-', '_')}":
                                        round(ours["abstracts_per_cpu_s"] / ingest[job]["abstracts_per_cpu_s"], 2)
                                        for job in baselines if "abstracts_per_cpu_s" in ingest[job]}
                report["ingest"] = ingest
            if n > m:
                full = write_jsonl(records, work / f"sample_{n}.jsonl")
                log(f"scale: paperscope on {n} abstracts")
                report["scale"] = _round(run_job("paperscope", full, work / f"paperscope_{n}"))
                largest = (work / f"paperscope_{n}" / "data", n)
        if "quality" in sections:
            quality: dict[str, Any] = {}
            texts = embed_texts(records[: min(n, 512)])
            if missing:
                quality["agreement"] = {"skipped": missing}
            else:
                log(f"quality: embedder agreement on {len(texts)} texts")
                from paperscope.settings import Settings

                quality["agreement"] = agreement(texts, Settings().embed.max_tokens)
            from paperscope.bench.known_item import KnownItem

            kip = min(n, known_item_papers)
            quality["known_item"] = {}
            configs = [embedder_config(spec) for spec in (known_item_embedders or default_quality_configs())]
            for label, settings in configs:
                if settings.embed.model == "minilm" and missing:
                    quality["known_item"][label] = {"skipped": missing}
                    continue
                log(f"quality: known-item with {label} ({kip} papers)")
                kb = KnownItem.build(work / f"known_item_{label.replace(':', '_')}", n_papers=kip, corpus=corpus,
                                     settings=settings)
                res = kb.evaluate()
                res["ingest_seconds"] = round(kb.ingest_seconds, 2)
                quality["known_item"][label] = res
            ki = quality["known_item"]
            if len(configs) >= 2 and all("hybrid" in ki.get(label, {}) for label, _ in configs[:2]):
                ours, ref = (ki[label] for label, _ in configs[:2])
                quality["r1_change"] = {"of": configs[0][0], "vs": configs[1][0]} | {
                    w: round(ours[w]["R@1"] - ref[w]["R@1"], 4) for w in ("dense", "hybrid")}
            report["quality"] = quality
        if "queries" in sections:
            from paperscope.assistant import Assistant
            from paperscope.bench.query import cold_start, latency, questions

            if largest is None:
                part = write_jsonl(records, work / f"sample_{n}.jsonl")
                log(f"queries: ingesting {n} abstracts")
                report["queries_ingest"] = _round(run_job("paperscope", part, work / f"paperscope_{n}"))
                largest = (work / f"paperscope_{n}" / "data", n)
            qs = questions(corpus, n_questions + WARMUP)  # the first WARMUP are not timed
            log(f"queries: {len(qs)} questions over {largest[1]} papers")
            a = Assistant.open(largest[0])
            q = latency(a, qs, warmup=WARMUP)
            del a
            q["cold_start_ask"] = cold_start(largest[0], qs[0], runs=cold_runs)
            report["queries"] = q
        if "listall" in sections:
            from paperscope.bench.listall import run_listall

            report["listall"] = run_listall(records, work, topics_file=listall_topics, log=log)
        if "libraries" in sections:
            from paperscope.bench.libraries import run_libraries

            report["libraries"] = run_libraries(corpus, work, log=log)
        if "phrasings" in sections:
            from paperscope.bench.phrasings import run_phrasings

            report["phrasings"] = run_phrasings(corpus, work, log=log)
        report["finished"] = time.strftime("%Y-%m-%d %H:%M:%S")
        report["machine"]["load_avg_end"] = [round(x, 2) for x in os.getloadavg()]
        return report
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)


def markdown(report: dict[str, Any]) -> str:
    """The README table: one row per measurement, with the machine it ran on."""
    m = report["machine"]
    lines = [f"Machine: {m['cores']} cores, {m['cpu']} (load average {m['load_avg'][0]} at start; shared, so "
             "compare ratios). ", "", "| measurement | value |", "|---|---|"]
    ing = report.get("ingest")
    if ing:
        for job in ("paperscope", "naive", "llama-index"):
            r = ing.get(job, {})
            if "abstracts_per_s" in r:
                lines.append(f"| ingest {ing['n']} abstracts, {job} | {r['abstracts_per_s']:.1f} abstracts/s, "
                             f"peak RSS {r['peak_rss_mb']:.0f} MB |")
        for key, val in ing.get("ratios", {}).items():
            cpu = ing.get("cpu_ratios", {}).get(key)
            lines.append(f"| speed-up, {key.replace('_', ' ')} | {val:.2f}x wall"
                         + (f", {cpu:.2f}x per CPU-second |" if cpu else " |"))
    sc = report.get("scale")
    if sc:
        lines.append(f"| ingest {sc['papers']} abstracts, paperscope ({sc.get('max_tokens', '?')} tokens) | "
                     f"{sc['seconds'] / 60:.1f} min "
                     f"({sc['abstracts_per_s']:.1f} abstracts/s), peak RSS {sc['peak_rss_mb']:.0f} MB |")
    qual = report.get("quality", {})
    ag = qual.get("agreement", {})
    if "vs_naive" in ag:
        for key, what in (("vs_naive", f"fp32 at {ag['reference_tokens']} tokens (naive)"),
                          ("same_length", f"fp32 at {ag['max_tokens']} tokens")):
            lines.append(f"| int8 ({ag['max_tokens']} tokens) vs {what}, cosine mean / min | "
                         f"{ag[key]['mean_cos']:.4f} / {ag[key]['min_cos']:.4f} |")
    for emb, res in qual.get("known_item", {}).items():
        if "hybrid" in res:
            lines.append(f"| known-item R@1 / R@5 / MRR, {emb} (bm25 / dense / hybrid) | "
                         + " · ".join(f"{res[w]['R@1']:.3f} / {res[w]['R@5']:.3f} / {res[w]['MRR']:.3f}"
                                      for w in ("bm25", "dense", "hybrid"))
                         + f" ({res['n_queries']} queries, {res['n_papers']} papers) |")
    rc = qual.get("r1_change")
    if rc:
        lines.append(f"| R@1 change, {rc['of']} vs {rc['vs']} (dense / hybrid) | {rc['dense']:+.3f} / {rc['hybrid']:+.3f} |")
    q = report.get("queries")
    if q:
        lines.append(f"| search, warm, {q['papers']} papers, {q['questions']} questions | p50 {q['search']['p50_ms']} ms, "
                     f"p95 {q['search']['p95_ms']} ms |")
        lines.append(f"| ask (extractive), warm | p50 {q['ask']['p50_ms']} ms, p95 {q['ask']['p95_ms']} ms |")
        lines.append(f"| `paperscope ask` cold start | {q['cold_start_ask']['median_s']} s |")
    if report.get("listall"):
        from paperscope.bench.listall import markdown_rows

        lines.extend(markdown_rows(report["listall"]))
    if report.get("libraries"):
        from paperscope.bench import libraries

        lines.extend(libraries.markdown_rows(report["libraries"]))
    if report.get("phrasings"):
        from paperscope.bench import phrasings

        lines.extend(phrasings.markdown_rows(report["phrasings"]))
    return "\n".join(lines)
