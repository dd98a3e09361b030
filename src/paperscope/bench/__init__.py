"""Benchmarks: `paperscope bench` (ingest throughput vs baselines, embedder quality, query
latency) and the known-item retrieval benchmark, reusable from Python:

    from paperscope.bench import KnownItem, known_item, run_bench

Heavy imports (torch, chromadb, llama-index) happen inside the functions, so importing this
package, and `paperscope --help`, stay fast.
Leaves out: GPU measurements, which live in gpu.sh beside this file (a script, not a CLI command).
"""

from __future__ import annotations

import json
from typing import Any

import click

__all__ = ["KnownItem", "known_item", "run_bench", "command"]


def __getattr__(name: str) -> Any:
    if name in ("KnownItem", "known_item"):
        from paperscope.bench import known_item as module

        return getattr(module, name)
    if name == "run_bench":
        from paperscope.bench.run import run_bench

        return run_bench
    raise AttributeError(name)


EXAMPLES = """
\b
Examples:
  paperscope bench                       # 5,000 abstracts, every section
  paperscope bench --n 200 --json        # quick
  paperscope bench --known-item          # known-item table only (tldr -> paper)
  paperscope bench --n 85864 --sections listall --work-dir /tmp/bench   # list-all quality, 20,000 and 85,864
  paperscope bench --crosslingual --n 20000 --work-dir /tmp/xl          # Chinese vs English questions
  paperscope bench --n 100 --sections libraries --work-dir /tmp/libs    # ask over the hand-labelled libraries
  paperscope bench --n 85864 --baseline-n 5000 --json > bench.json   # full scale
"""


@click.command(name="bench", epilog=EXAMPLES)
@click.option("--n", "n", type=int, default=5000, show_default=True, help="Abstracts to ingest (hash-of-id sample).")
@click.option("--corpus", type=click.Path(exists=True, dir_okay=False, path_type=str), default=None,
              help="JSONL(.gz) corpus (default: ../shared/corpora/conference_abstracts.jsonl.gz "
                   "or PAPERSCOPE_BENCH_CORPUS).")
@click.option("--baseline-n", type=int, default=5000, show_default=True,
              help="Abstracts for the three-way comparison (paperscope alone ingests all --n; 0: no comparison).")
@click.option("--sections", default="ingest,quality,queries", show_default=True,
              help="Comma-separated subset of: ingest, quality, queries, listall (find_all recall/precision "
                   "and latency on labelled topics, at 20,000 and --n papers), libraries (ask over the sixteen "
                   "hand-labelled libraries, pooled; independent of --n).")
@click.option("--baselines", default="naive,llama-index", show_default=True, help="Baselines to run ('' for none).")
@click.option("--questions", "n_questions", type=int, default=200, show_default=True, help="Questions for query latency.")
@click.option("--cold-runs", type=int, default=3, show_default=True, help="`paperscope ask` processes timed for cold start.")
@click.option("--known-item", "known_item_only", is_flag=True, help="Only the known-item benchmark (bm25/dense/hybrid).")
@click.option("--known-item-papers", type=int, default=2000, show_default=True,
              help="Papers indexed for known-item (all tldr papers + distractors).")
@click.option("--embedder", "embedders", multiple=True,
              help="Embedder(s) for known-item, NAME[:MAX_TOKENS] (default: the configured embedder and "
                   "the naive pipeline's minilm:256).")
@click.option("--crosslingual", "crosslingual_only", is_flag=True,
              help="Only the cross-lingual benchmark: hand-written Chinese vs English questions (known item at "
                   "--n papers; list topics at 20,000), and ask latency per language.")
@click.option("--work-dir", type=click.Path(file_okay=False, path_type=str), default=None,
              help="Keep data dirs here (default: a temp dir, removed afterwards).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (else the markdown table).")
def command(n: int, corpus: str | None, baseline_n: int, sections: str, baselines: str, n_questions: int, cold_runs: int,
            known_item_only: bool, known_item_papers: int, embedders: tuple[str, ...], crosslingual_only: bool,
            work_dir: str | None, as_json: bool) -> None:
    """Benchmark ingest (vs naive sentence-transformers and llama-index), quality, and query latency."""
    from paperscope.bench.run import default_quality_configs, embedder_config, markdown, run_bench

    def log(msg: str) -> None:
        click.echo(f"bench: {msg}", err=True)

    if crosslingual_only:
        from pathlib import Path

        from paperscope.bench import crosslingual

        report = crosslingual.run(n, Path(work_dir or "/tmp/paperscope-crosslingual"), corpus, log=log)
        click.echo(json.dumps(report, indent=1, ensure_ascii=False) if as_json else crosslingual.markdown(report))
        return
    if known_item_only:
        from paperscope.bench.known_item import KnownItem, table

        results = []
        for spec in embedders or default_quality_configs()[:1]:
            label, settings = embedder_config(spec)
            log(f"known-item with {label}, {known_item_papers} papers")
            kb = KnownItem.build(None if work_dir is None else f"{work_dir}/known_item_{label.replace(':', '_')}",
                                 n_papers=known_item_papers, corpus=corpus, settings=settings)
            results.append(kb.evaluate() | {"ingest_seconds": round(kb.ingest_seconds, 2)})
        click.echo(json.dumps(results, indent=1) if as_json else table(results))
        return
    report = run_bench(
        n=n, corpus=corpus, baseline_n=baseline_n,
        sections=tuple(s.strip() for s in sections.split(",") if s.strip()),
        baselines=tuple(b.strip() for b in baselines.split(",") if b.strip()),
        n_questions=n_questions, known_item_papers=known_item_papers,
        known_item_embedders=tuple(embedders) or None, work_dir=work_dir,
        cold_runs=cold_runs, log=log)
    click.echo(json.dumps(report, indent=1) if as_json else markdown(report))
