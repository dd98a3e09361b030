"""The Gradio app over an `Assistant`: chat with streamed, cited answers; a "List all papers"
mode (every paper on the question, in a sortable table); CSV and BibTeX downloads of either;
filters; ingest panel.

`build_app(assistant)` returns the `gr.Blocks`; `launch_kwargs()` holds the launch settings
that keep it offline and local (system fonts, no share link, upload size cap). The UI holds
no retrieval or answer logic: per-request choices (max citations, backend) run on a shallow
copy of the Assistant that shares its store, catalog, embedder and caches. Besides the chat,
it exposes one clean API endpoint, `ask`, for gradio_client users (see `api_ask`).
"""

from __future__ import annotations

import copy
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gradio as gr

from paperscope.assistant import Assistant, QuestionError, TextPiece
from paperscope.ingest.readers.formats import COMPRESSED, FORMATS, SUFFIXES, describe
from paperscope.records import Answer
from paperscope.secrets import redact
from paperscope.ui import render
from paperscope.ui.listing import (
    HEADER_SORT_JS,
    download_buttons,
    downloads,
    export_files,
    failure_text,
    filters_of,
    list_turn,
)

EXAMPLES = [
    "Which papers address MoE latency?",
    "Which paper proposes test-time training layers?",
    "Which papers compress LLMs?",
    "Which papers study data mixtures for pretraining?",
]
MAX_FILE_MB = 20
MAX_FILES = 10
# A 20 MB .gz of repetitive text can expand to gigabytes, read whole by the ingest: refuse it
# before reading (the real 85,864-abstract corpus is 123 MB uncompressed, 5x its .gz).
MAX_EXPANDED_MB = 200
ANY = ""
ANSWER_MODE, LIST_MODE = "Answer", "List all papers"
PLACEHOLDERS = {ANSWER_MODE: "Ask a question, e.g. Which papers address MoE latency?",
                LIST_MODE: "List every paper on a question, e.g. Which papers are about large language models?"}
CSS = (Path(__file__).with_name("style.css")).read_text(encoding="utf-8")
# System fonts only: nothing is fetched from a font CDN, and nothing needs bundling.
THEME = gr.themes.Soft(
    primary_hue="indigo", neutral_hue="slate",
    font=["system-ui", "-apple-system", "Segoe UI", "Roboto", "Helvetica Neue", "Arial", "sans-serif"],
    font_mono=["ui-monospace", "SFMono-Regular", "Menlo", "Consolas", "monospace"],
)


Messages = list[dict[str, str]]
ChatHistory = list[tuple[str, Answer]]
Turn = tuple[Messages, ChatHistory, str]


def launch_kwargs() -> dict[str, Any]:
    return {"theme": THEME, "css": CSS, "js": HEADER_SORT_JS, "max_file_size": f"{MAX_FILE_MB}mb", "share": False,
            "show_error": True, "ssr_mode": False, "footer_links": ["api"]}


# -- helpers over the Assistant (no logic of their own) ---------------------------------------
def variant(assistant: Assistant, max_citations: int | None, backend: str | None) -> Assistant:
    """The assistant with this request's answer settings; shares every index and cache."""
    k = int(max_citations) if max_citations else assistant.settings.answer.max_citations
    use_extractive = backend == "extractive" and assistant.answerer is not assistant.extractive
    if k == assistant.settings.answer.max_citations and not use_extractive:
        return assistant
    v = copy.copy(assistant)
    answer = assistant.settings.answer.model_copy(update={"max_citations": k})
    v.settings = assistant.settings.model_copy(update={"answer": answer})
    if use_extractive:
        v.answerer = assistant.extractive
    return v


def backend_choices(assistant: Assistant) -> list[str]:
    """Extractive is always available; an LLM backend only when it is the configured one."""
    names = ["extractive"]
    if assistant.answerer.name not in names:
        names.insert(0, assistant.answerer.name)
    return names


def venue_choices(assistant: Assistant) -> list[tuple[str, str]]:
    """(label, value): labels spelled as in a stored record (the catalog keys are lower case)."""
    out = [("Any venue", ANY)]
    for key, count in assistant.catalog.venues():
        if not key:
            continue
        ids = assistant.catalog.allowed(venue=key)
        paper = assistant.catalog.papers([min(ids)]).get(min(ids)) if ids else None
        out.append((f"{(paper.venue.strip() if paper else key)} ({count})", key))
    return out


def year_choices(assistant: Assistant) -> list[tuple[str, str]]:
    return [("Any year", ANY)] + [(str(y), str(y)) for y in reversed(assistant.catalog.years())]


def stats_line(assistant: Assistant) -> str:
    s = assistant.stats()
    return f"**{s['papers']:,}** papers in the library \u00b7 answers: {s['answer_backend']}"


def expands_beyond(path: str, limit_bytes: int) -> bool:
    """True when the gzip file decompresses to more than `limit_bytes` (read in 1 MiB steps,
    stopping at the limit). A broken file is not judged here: the reader names its problem."""
    import gzip
    import zlib

    total = 0
    try:
        with gzip.open(path, "rb") as fh:
            while chunk := fh.read(1 << 20):
                total += len(chunk)
                if total > limit_bytes:
                    return True
    except (OSError, EOFError, zlib.error):
        return False
    return False


def check_uploads(paths: list[str] | None) -> tuple[list[str], list[str]]:
    """(files to ingest, messages about rejected ones)."""
    paths = [p for p in (paths or []) if p]
    rejected: list[str] = []
    if len(paths) > MAX_FILES:
        rejected.append(f"{len(paths) - MAX_FILES} file(s) over the limit of {MAX_FILES} per upload were left out")
        paths = paths[:MAX_FILES]
    keep: list[str] = []
    for p in paths:
        name = Path(p).name
        lower = name.lower()
        inner = lower[: -len(COMPRESSED)] if lower.endswith(COMPRESSED) else lower
        if not inner.endswith(tuple(FORMATS)):
            rejected.append(f"{name}: not a paper list (use {describe()})")
        elif os.path.getsize(p) > MAX_FILE_MB * 1024 * 1024:
            rejected.append(f"{name}: larger than {MAX_FILE_MB} MB")
        elif lower.endswith(COMPRESSED) and expands_beyond(p, MAX_EXPANDED_MB * 1024 * 1024):
            rejected.append(f"{name}: expands to more than {MAX_EXPANDED_MB} MB; split it, or use `paperscope ingest`")
        else:
            keep.append(p)
    return keep, rejected


def chat_turn(assistant: Assistant, question: str | None, messages: Messages | None, history: ChatHistory | None,
              venue: str | None, year: str | None, author: str | None, k: int | None,
              backend: str | None) -> Iterator[Turn]:
    """One chat turn as a generator of (messages, history, textbox value): the question, a
    pending answer that fills in as pieces stream, then the verified answer with its cards."""
    question = (question or "").strip()
    messages, history = list(messages or []), list(history or [])
    if not question:
        yield list(messages), list(history), ""
        return
    messages.append({"role": "user", "content": render.esc(question)})
    messages.append({"role": "assistant", "content": render.pending_html("")})
    yield list(messages), list(history), ""

    def abstract_of(paper_id: str) -> str:
        paper = assistant.catalog.papers([paper_id]).get(paper_id)
        return paper.abstract if paper else ""

    streamed = ""
    try:
        for event in variant(assistant, k, backend).stream(question, history=history,
                                                            filters=filters_of(venue, year, author)):
            if isinstance(event, TextPiece):
                streamed += event.text
                messages[-1] = {"role": "assistant", "content": render.pending_html(streamed)}
            else:
                history.append((question, event))
                messages[-1] = {"role": "assistant", "content": render.answer_html(event, len(history), abstract_of)}
            yield list(messages), list(history), ""
    except (QuestionError, ValueError) as exc:
        messages[-1] = {"role": "assistant", "content": render.error_html(str(exc))}
        yield list(messages), list(history), ""
    except Exception as exc:  # e.g. the Chroma server went away: say so in the chat, keep serving
        messages[-1] = {"role": "assistant", "content": render.error_html(failure_text(exc))}
        yield list(messages), list(history), ""


# -- the app ----------------------------------------------------------------------------------
def build_app(assistant: Assistant) -> gr.Blocks:
    exports = Path(tempfile.mkdtemp(prefix="paperscope-exports-"))

    def api_ask(question: str, venue: str = "", year: int | None = None, author: str = "",
                max_citations: int = 0, history: list[Any] | None = None) -> dict[str, Any]:
        """Answer a question over the library. Returns Answer.model_dump(mode="json"): answer,
        abstained, backend, citations [{paper_id, title, authors, url, venue, year, quote, marker,
        ...}], nearest, notes, timings, ... `history` is a list of [question, earlier returned
        dict] for follow-ups (each dict is read back with Answer.model_validate)."""
        prior = [(q, Answer.model_validate(d)) for q, d in (history or [])]
        filters = filters_of(venue, str(year) if year else None, author)
        answer = variant(assistant, max_citations or None, None).ask(question, history=prior, filters=filters)
        return answer.model_dump(mode="json")

    def ingest(files: list[Any] | None, progress: gr.Progress = gr.Progress(track_tqdm=True)) -> tuple[Any, ...]:
        paths = [f if isinstance(f, str) else getattr(f, "name", "") for f in (files or [])]
        keep, rejected = check_uploads(paths)
        lines = [f"\u26a0\ufe0f {render.esc(r)}" for r in rejected]
        if not keep:
            lines.insert(0, f"Nothing to add: choose up to {MAX_FILES} paper-list files ({describe()}).")
            return "\n\n".join(lines), gr.update(), gr.update(), gr.update(), None
        progress(0, desc=f"Reading and embedding {len(keep)} file(s)")
        try:
            summary = assistant.ingest(keep, progress=True)
        except Exception as exc:  # e.g. the store is unreachable: report it in the panel
            lines.insert(0, f"\u274c Nothing was added ({type(exc).__name__}: {render.esc(redact(str(exc))[:300])})")
            return "\n\n".join(lines), gr.update(), gr.update(), gr.update(), None
        lines.insert(0, f"\u2705 {render.esc(summary.line())}. New papers are searchable now.")
        lines += [f"\u26a0\ufe0f {render.esc(str(i))}" for i in summary.issues[:20]]
        return ("\n\n".join(lines), gr.update(choices=venue_choices(assistant)),
                gr.update(choices=year_choices(assistant)), stats_line(assistant), None)

    def example_text(selected: gr.SelectData) -> str:
        return str(selected.value["text"])

    with gr.Blocks(title="paperscope", fill_width=True) as demo:
        history = gr.State([])
        with gr.Row(elem_id="ps-header"):
            gr.Markdown("## paperscope\nAsk questions about research papers; answers quote and cite them.",
                        elem_id="ps-brand")
            stats = gr.Markdown(stats_line(assistant), elem_id="ps-stats")
        with gr.Row(equal_height=False):
            with gr.Column(scale=3, min_width=480):
                chatbot = gr.Chatbot(
                    elem_id="ps-chat", show_label=False, height="68vh", latex_delimiters=[],
                    feedback_options=None, buttons=[], layout="panel",
                    placeholder="**Ask about the papers in the library.** Answers quote the papers they cite.",
                    examples=[{"text": q} for q in EXAMPLES],
                )
                with gr.Column(visible=False, elem_id="ps-list") as list_panel:
                    list_head = gr.HTML(render.list_intro_html(), elem_id="ps-list-head")
                    table = gr.Dataframe(headers=render.LIST_HEADERS, datatype=render.LIST_TYPES, interactive=False,
                                         wrap=True, max_height=620, show_label=False, elem_id="ps-table",
                                         column_widths=["24%", "15%", "8%", "6%", "39%", "8%"])
                # The mode, and the downloads of what is shown: the last answer's sources, or the list.
                with gr.Row(elem_id="ps-toolbar", equal_height=True):
                    mode = gr.Radio([ANSWER_MODE, LIST_MODE], value=ANSWER_MODE, show_label=False, container=False,
                                    scale=1, elem_id="ps-mode")
                    chat_csv, chat_bib = download_buttons("ps-chat", visible=True)
                    list_csv, list_bib = download_buttons("ps-list", visible=False)
                with gr.Row(elem_id="ps-ask-row"):
                    box = gr.Textbox(show_label=False, placeholder=PLACEHOLDERS[ANSWER_MODE],
                                     scale=6, lines=1, max_lines=4, elem_id="ps-question", autofocus=True)
                    ask_btn = gr.Button("Ask", variant="primary", scale=1, min_width=90, elem_id="ps-ask")
            with gr.Column(scale=1, min_width=290, elem_id="ps-side"):
                with gr.Accordion("Filters", open=True):
                    venue = gr.Dropdown(venue_choices(assistant), value=ANY, label="Venue", elem_id="ps-venue")
                    year = gr.Dropdown(year_choices(assistant), value=ANY, label="Year", elem_id="ps-year")
                    author = gr.Textbox(label="Author contains", placeholder="e.g. Hashimoto", elem_id="ps-author")
                with gr.Accordion("Answer", open=True):
                    k = gr.Slider(1, 30, value=assistant.settings.answer.max_citations, step=1,
                                  label="Most papers cited", elem_id="ps-k")
                    choices = backend_choices(assistant)
                    backend = gr.Dropdown(choices, value=choices[0], label="Answer backend",
                                          interactive=len(choices) > 1, elem_id="ps-backend")
                with gr.Accordion("Add papers", open=True):
                    files = gr.File(label=f"Paper lists (≤ {MAX_FILES} files, ≤ {MAX_FILE_MB} MB each)",
                                    file_count="multiple", file_types=list(SUFFIXES),
                                    type="filepath", elem_id="ps-files")
                    add = gr.Button("Add to library", variant="secondary", elem_id="ps-add")
                    status = gr.Markdown(elem_id="ps-ingest-status")

        def chat_steps(question: str | None, messages: Messages | None, turns: ChatHistory | None,
                       *options: Any) -> Iterator[dict[Any, Any]]:
            before, after = len(turns or []), list(turns or [])
            for shown, after, text in chat_turn(assistant, question, messages, turns, *options):
                yield {chatbot: shown, history: after, box: text}
            if not (question or "").strip():  # nothing was asked: the last answer's downloads stay
                return
            new = after[-1][1] if len(after) > before else None  # None: the turn failed
            files = export_files(new, exports) if new is not None and new.citations else None
            yield dict(zip((chat_csv, chat_bib), downloads(files)))

        def list_steps(question: str | None, venue_: str | None, year_: str | None,
                       author_: str | None) -> Iterator[dict[Any, Any]]:
            yield {box: ""}
            for step in list_turn(assistant, question, venue_, year_, author_, exports):
                out: dict[Any, Any] = {list_head: step["head"]} if "head" in step else {}
                if "rows" in step:
                    out[table] = step["rows"]
                if "files" in step:
                    out.update(zip((list_csv, list_bib), downloads(step["files"])))
                yield out

        def respond(mode_: str | None, question: str | None, messages: Messages | None, turns: ChatHistory | None,
                    venue_: str | None, year_: str | None, author_: str | None, k_: int | None,
                    backend_: str | None) -> Iterator[dict[Any, Any]]:
            if mode_ == LIST_MODE:  # every paper on the question; answer settings (k, backend) do not apply
                yield from list_steps(question, venue_, year_, author_)
            else:
                yield from chat_steps(question, messages, turns, venue_, year_, author_, k_, backend_)

        def show_mode(mode_: str | None) -> tuple[Any, ...]:
            listing = mode_ == LIST_MODE
            chat_side, list_side = gr.update(visible=not listing), gr.update(visible=listing)
            return (chat_side, chat_side, chat_side, list_side, list_side, list_side,
                    gr.update(placeholder=PLACEHOLDERS[LIST_MODE if listing else ANSWER_MODE]))

        chat_inputs = [mode, box, chatbot, history, venue, year, author, k, backend]
        chat_outputs = [chatbot, history, box, chat_csv, chat_bib, list_head, table, list_csv, list_bib]
        # One event for Enter and the Ask button, trigger_mode "once": while an answer streams,
        # a second question from the same page is ignored instead of interleaving two answers
        # in one history. (Examples show only in the empty chat, so they cannot overlap one.)
        gr.on([box.submit, ask_btn.click], respond, chat_inputs, chat_outputs, api_visibility="private",
              trigger_mode="once")
        chatbot.example_select(example_text, None, box, api_visibility="private", queue=False).then(
            respond, chat_inputs, chat_outputs, api_visibility="private")
        # The chatbot's own trash button starts a new conversation: forget the answers too.
        chatbot.clear(lambda: ([], *downloads(None)), None, [history, chat_csv, chat_bib],
                      api_visibility="private", queue=False)
        # The chat and the list keep their contents while the other is shown.
        mode.change(show_mode, mode, [chatbot, chat_csv, chat_bib, list_panel, list_csv, list_bib, box],
                    api_visibility="private", queue=False)
        add.click(ingest, [files], [status, venue, year, stats, files], api_visibility="private",
                  concurrency_limit=1, concurrency_id="ingest")
        gr.api(api_ask, api_name="ask")
        # Papers may have been added by `paperscope ingest` since start-up: refresh on each visit.
        demo.load(lambda: (stats_line(assistant), gr.update(choices=venue_choices(assistant)),
                           gr.update(choices=year_choices(assistant))),
                  None, [stats, venue, year], api_visibility="private", queue=False)
    return demo
