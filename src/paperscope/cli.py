"""The `paperscope` command: a thin click layer over `Assistant` (no logic of its own).

Errors are printed as one message naming what to do, never a traceback (set
PAPERSCOPE_DEBUG=1 to see the traceback). Exit codes: 0 ok, 1 problems reported (e.g. some
input files were skipped), 2 usage or configuration error.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from paperscope import _env  # noqa: F401
from paperscope.answer.export import FORMATS as EXPORT_FORMATS
from paperscope.ingest.readers.formats import describe

if TYPE_CHECKING:
    from paperscope.assistant import Assistant
    from paperscope.records import Answer
    from paperscope.retrieve import Filters

F = TypeVar("F", bound=Callable[..., Any])

EXAMPLES = """
\b
Examples:
  paperscope ingest seeds/
  paperscope ask "Which papers address MoE latency?"
  paperscope ask "Which papers compress LLMs?" --json --year 2025
  paperscope ask --all "Which papers use event cameras?" --output papers.csv
  paperscope search "mixture of experts latency" --k 5
  paperscope chat
  paperscope eval eval.jsonl --json
  paperscope ui --port 7860
\b
Configuration comes from the environment or .env (see .env.example):
  PAPERSCOPE_DATA_DIR, PAPERSCOPE_CHROMA_HOST/PORT, PAPERSCOPE_LLM, ...
"""


def _fail(message: str, code: int = 2) -> None:
    from paperscope.secrets import redact

    click.echo(f"error: {redact(message)}", err=True)
    sys.exit(code)


def friendly(fn: F) -> F:
    """Turn expected failures into one-line messages instead of tracebacks."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from paperscope.assistant import QuestionError
        from paperscope.index.store import StoreError

        try:
            return fn(*args, **kwargs)
        except (QuestionError, StoreError, ValueError, FileNotFoundError, PermissionError, OSError) as exc:
            if os.environ.get("PAPERSCOPE_DEBUG"):
                raise
            _fail(str(exc))
        except KeyboardInterrupt:
            _fail("interrupted", 130)

    return wrapper  # type: ignore[return-value]


def _assistant(data_dir: str | None) -> Assistant:
    from paperscope.assistant import Assistant

    return Assistant.open(data_dir=data_dir)


def _filters(venue: str | None, year: int | None, author: str | None) -> Filters | None:
    from paperscope.retrieve import Filters

    f = Filters(venue=venue or None, year=year, author=author or None)
    return None if f.empty() else f


data_dir_option = click.option("--data-dir", envvar="PAPERSCOPE_DATA_DIR", default=None,
                               help="Data directory (default: PAPERSCOPE_DATA_DIR or a per-user dir).")
filter_options = [
    click.option("--venue", default=None, help="Only papers of this venue (e.g. ICML)."),
    click.option("--year", type=int, default=None, help="Only papers of this year."),
    click.option("--author", default=None, help="Only papers with an author containing this text."),
]


def with_filters(fn: F) -> F:
    for opt in reversed(filter_options):
        fn = opt(fn)
    return fn


@click.group(epilog=EXAMPLES, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="paperscope")
def main() -> None:
    """paperscope: ask questions over research-paper abstracts; every claim cites its paper."""


@main.command(help=f"Ingest paper lists ({describe()}, or directories of them). Re-running adds nothing new.",
              epilog="\b\nExamples:\n  paperscope ingest seeds/\n  paperscope ingest papers.jsonl.gz more.csv")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@data_dir_option
@click.option("--encoding", default="utf-8", show_default=True, help="Text encoding of the input files.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@friendly
def ingest(paths: tuple[Path, ...], data_dir: str | None, encoding: str, as_json: bool, quiet: bool) -> None:
    a = _assistant(data_dir)
    summary = a.ingest(paths, progress=not quiet and not as_json, encoding=encoding)
    if as_json:
        click.echo(json.dumps(summary.as_dict(), ensure_ascii=False))
    else:
        for issue in summary.issues:
            click.echo(f"warning: {issue}", err=True)
        click.echo(summary.line())
    if summary.issues:
        sys.exit(1)


def _print_answer(answer: Answer, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(answer.model_dump(mode="json"), ensure_ascii=False))
        return
    click.echo(answer.text)
    if answer.citations:
        click.echo("")
        for c in answer.citations:
            authors = ", ".join(c.authors[:3]) + (" et al." if len(c.authors) > 3 else "")
            click.echo(f"[{c.marker}] {c.title}" + (f" — {authors}" if authors else ""))
            if c.url:
                click.echo(f"    {c.url}")
            if c.quote not in answer.text:  # the extractive answer already quotes it
                click.echo(f"    \u201c{c.quote}\u201d")
    for note in answer.notes:
        click.echo(f"note: {note}", err=True)


ASK_EXAMPLES = """
\b
Examples:
  paperscope ask "Which papers address MoE latency?"
  paperscope ask "Which papers use Langevin dynamics?" --json
  paperscope ask --all "Which papers use event cameras?"            # every paper on it, streamed
  paperscope ask --all "Which papers use NeRF?" --output nerf.csv   # ... and saved for a spreadsheet
  paperscope ask --all "Is there work on RAG?" --format bibtex > rag.bib
  paperscope ask "Which papers compress LLMs?" --output refs.bib    # the cited papers, as BibTeX
  PAPERSCOPE_LLM=openai-compatible PAPERSCOPE_LLM_BASE_URL=http://127.0.0.1:8080/v1 paperscope ask "..."
\b
--output infers the format from the file name (.csv, .bib, .json, else text) unless --format
says it; CSV files are UTF-8 with a BOM (Excel reads the names right).
"""
SUFFIX_FORMATS = {".csv": "csv", ".bib": "bibtex", ".bibtex": "bibtex", ".json": "json"}


def _export_format(fmt: str | None, output: Path | None) -> str:
    if fmt:
        return fmt
    return SUFFIX_FORMATS.get(output.suffix.lower(), "text") if output is not None else "text"


def _write_export(answer: Answer, fmt: str, output: Path) -> None:
    """The answer's export in `fmt` to `output` (CSV as UTF-8 with BOM), and one line on stderr."""
    from paperscope.answer.export import csv_bytes, export_answer

    data = csv_bytes(answer.citations) if fmt == "csv" else export_answer(answer, fmt).encode("utf-8")
    output.write_bytes(data)
    n = len(answer.citations)
    click.echo(f"paperscope: wrote {n} paper{'' if n == 1 else 's'} as {fmt} to {output}", err=True)


def _print_list(answer: Answer) -> None:
    click.echo(answer.text)
    for note in answer.notes:
        click.echo(f"note: {note}", err=True)


def _stream_list(a: Assistant, question: str, filters: Filters | None) -> Answer:
    """`stream_all` to the terminal: the heading, then each paper's line as its quote is chosen."""
    from paperscope.assistant import TextPiece

    streamed = ""
    for event in a.stream_all(question, filters=filters):
        if isinstance(event, TextPiece):
            click.echo(event.text, nl=False)
            streamed += event.text
            continue
        if not streamed:  # an abstention comes whole
            _print_answer(event, False)
        else:
            click.echo("")
            if event.text.strip() != streamed.strip():  # verification changed a line: show the checked list
                click.echo("\n--- verified list ---")
                click.echo(event.text)
            for note in event.notes:
                click.echo(f"note: {note}", err=True)
        return event
    raise RuntimeError("stream_all ended without an answer")


@main.command(epilog=ASK_EXAMPLES)
@click.argument("question")
@data_dir_option
@click.option("--all", "list_all", is_flag=True,
              help="List every paper in the library that addresses the question (no cap), best first.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (answer, abstained, citations, timings).")
@click.option("--format", "fmt", type=click.Choice(EXPORT_FORMATS), default=None,
              help="Export the cited papers: text, json, csv or bibtex (to stdout, or to --output).")
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True, path_type=Path), default=None,
              help="Write the export to FILE (format from --format or the file name); the answer still prints.")
@click.option("--k", type=int, default=None, help="Most papers to cite (not with --all).")
@click.option("--no-stream", is_flag=True, help="Print the answer only when complete.")
@with_filters
@friendly
def ask(question: str, data_dir: str | None, list_all: bool, as_json: bool, fmt: str | None, output: Path | None,
        k: int | None, no_stream: bool, venue: str | None, year: int | None, author: str | None) -> None:
    """Answer a question with citations (or say that no paper covers it); --all lists every paper."""
    from paperscope.answer.export import export_answer
    from paperscope.assistant import TextPiece

    if list_all and k is not None:
        raise click.UsageError("--k limits an answer's citations; --all lists every paper (leave one out)")
    if as_json and fmt in ("csv", "bibtex") and output is None:
        raise click.UsageError(f"--json and --format {fmt} both print to stdout; add --output FILE for the {fmt}")
    export_to_stdout = fmt not in (None, "text") and output is None and not as_json
    a = _assistant(data_dir)
    filters = _filters(venue, year, author)
    quiet = as_json or export_to_stdout or no_stream
    answer: Answer | None = None
    if list_all:
        answer = a.find_all(question, filters=filters) if quiet else _stream_list(a, question, filters)
        if as_json:
            click.echo(json.dumps(answer.model_dump(mode="json"), ensure_ascii=False))
        elif no_stream and not export_to_stdout:
            _print_list(answer)
    elif quiet or not a.answerer.streams:
        answer = a.ask(question, filters=filters, max_citations=k)
        if not export_to_stdout:
            _print_answer(answer, as_json)
    else:
        for event in a.stream(question, filters=filters, max_citations=k):
            if isinstance(event, TextPiece):
                click.echo(event.text, nl=False)
            else:
                click.echo("\n\n--- verified answer ---")
                _print_answer(event, False)
                answer = event
    assert answer is not None
    if export_to_stdout:
        assert fmt is not None
        click.echo(export_answer(answer, fmt), nl=False)
        if answer.abstained:
            click.echo(f"paperscope: {answer.text.splitlines()[0]}", err=True)
    if output is not None:
        _write_export(answer, _export_format(fmt, output), output)


@main.command(epilog="\b\nExample:\n  paperscope chat\n  > Which paper proposes test-time training layers?\n"
              "  > How large were the models evaluated?")
@data_dir_option
@with_filters
@friendly
def chat(data_dir: str | None, venue: str | None, year: int | None, author: str | None) -> None:
    """Multi-turn chat in the terminal (follow-up questions use earlier answers). Ctrl-D quits."""
    from paperscope.assistant import TextPiece

    a = _assistant(data_dir)
    filters = _filters(venue, year, author)
    history: list[tuple[str, Answer]] = []
    click.echo("paperscope chat — ask about the ingested papers; empty line or Ctrl-D to quit.")
    while True:
        try:
            question = input("> ").strip()
        except EOFError:
            break
        if not question:
            break
        try:
            for event in a.stream(question, history=history, filters=filters, live=a.answerer.streams):
                if isinstance(event, TextPiece):
                    click.echo(event.text, nl=False)
                else:
                    if a.answerer.streams:
                        click.echo("\n--- verified answer ---")
                    _print_answer(event, False)
                    history.append((question, event))
        except ValueError as exc:
            click.echo(f"error: {exc}", err=True)
            continue
        click.echo("")


@main.command(epilog="\b\nExamples:\n  paperscope search \"mixture of experts latency\"\n"
              "  paperscope search \"diffusion\" --venue ICML --year 2025 --json")
@click.argument("query")
@data_dir_option
@click.option("--k", type=int, default=10, show_default=True, help="Papers to return.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@with_filters
@friendly
def search(query: str, data_dir: str | None, k: int, as_json: bool, venue: str | None, year: int | None,
           author: str | None) -> None:
    """Hybrid (BM25 + dense) search; prints papers, best first."""
    assistant = _assistant(data_dir)
    hits = assistant.search(query, k=k, filters=_filters(venue, year, author))
    if not hits and assistant.catalog.paper_count() == 0:
        click.echo(f"paperscope: the library is empty: {assistant.empty_reason()}", err=True)
    if as_json:
        click.echo(json.dumps([h.model_dump(mode="json") for h in hits], ensure_ascii=False))
        return
    if not hits:
        click.echo("no papers found")
    for i, h in enumerate(hits, 1):
        meta = " ".join(x for x in (h.venue, str(h.year or "")) if x)
        click.echo(f"{i:2d}. {h.title}" + (f" ({meta})" if meta else "") + f"  [{h.paper_id}]")


@main.command()
@data_dir_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@friendly
def stats(data_dir: str | None, as_json: bool) -> None:
    """Papers stored, data dir, embedder, collection."""
    info = _assistant(data_dir).stats()
    if as_json:
        click.echo(json.dumps(info, ensure_ascii=False))
        return
    for key, value in info.items():
        click.echo(f"{key}: {value}")


@main.command(name="eval", epilog="\b\nExample:\n  paperscope eval ../shared/eval/dev.jsonl")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@data_dir_option
@click.option("--json", "as_json", is_flag=True, help="Print metrics and per-item rows as JSON.")
@friendly
def eval_cmd(file: Path, data_dir: str | None, as_json: bool) -> None:
    """Score answers against a JSONL of questions with gold papers."""
    from paperscope.bench.evaluate import load_items, run_eval

    report = run_eval(_assistant(data_dir), load_items(file))
    if as_json:
        click.echo(json.dumps(report, ensure_ascii=False))
        return
    for row in report["items"]:
        flag = "ok " if row["abstain_ok"] and not row["wrong_citations"] and not row["missed_gold"] else "!! "
        click.echo(f"{flag}{row['question'][:70]:70s} cited={len(row['cited'])} "
                   f"wrong={row['wrong_citations']} missed={row['missed_gold']} key={row['key_ok']}")
    click.echo("")
    for key, value in report["metrics"].items():
        click.echo(f"{key:22s} {value}")


def _register_optional_commands() -> None:
    """Commands whose modules may be absent in a slim install register themselves here."""
    import importlib
    import importlib.util

    for module in ("paperscope.ui.cli", "paperscope.bench"):
        if importlib.util.find_spec(module) is not None:
            cmd = getattr(importlib.import_module(module), "command", None)
            if cmd is not None:
                main.add_command(cmd)


_register_optional_commands()

if __name__ == "__main__":
    main()
