"""The "List all papers" mode of the UI and the downloads: every paper on a question in a
sortable table, and CSV / BibTeX files of a list or of a chat answer's sources.

The table sorts on a header click through Gradio's own column menu (`HEADER_SORT_JS`, passed
to `launch`); files are written per request under one folder per process and pruned by age.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypedDict

import gradio as gr

from paperscope.answer.export import csv_bytes, export_answer
from paperscope.assistant import Assistant, QuestionError, TextPiece
from paperscope.records import Answer
from paperscope.secrets import redact
from paperscope.ui import render

# Gradio copies a returned file into its own cache at once, so our copy is only needed briefly;
# older export folders are removed on the next export (the process may run for weeks).
EXPORT_KEEP_S = 600
# Gradio's Dataframe sorts a column from the \u22ee menu in its header; a click on the header itself
# only selects it. In the paper table a header click sorts too (ascending, then toggling) through
# that same menu: "Clear sort" first (the menu would otherwise add the column as a lower-priority
# key), then the direction. Menu items by position: sort ascending, descending, clear sort.
# Each step waits a tick first: Gradio closes an open menu on the click that started it. A new
# question clears the sort, which Gradio keeps across new data: a new list shows best match first,
# as its heading says.
HEADER_SORT_JS = """
() => {
  const tick = () => new Promise((done) => setTimeout(done, 0));
  let last = { col: null, dir: null };
  async function choose(th, item) {
    await tick();
    th.querySelector(".cell-menu-button")?.click();
    await tick();
    document.querySelectorAll(".cell-menu[role=menu] [role=menuitem]")[item]?.click();
    await tick();
  }
  async function clearSort() {
    last = { col: null, dir: null };
    const th = document.querySelector("#ps-table th.sorted");
    if (th) await choose(th, 2);
  }
  document.addEventListener("click", async (event) => {
    const target = event.isTrusted && event.target instanceof Element ? event.target : null;
    if (target?.closest("#ps-ask")) return clearSort();
    const th = target?.closest("#ps-table th[role=columnheader]");
    if (!th || target.closest(".cell-menu-button, a, [role=menu]")) return;
    const col = th.dataset.heading;
    const dir = last.col === col && last.dir === "asc" ? "desc" : "asc";
    last = { col, dir };
    await choose(th, 2);
    await choose(th, dir === "asc" ? 0 : 1);
  }, true);
  document.addEventListener("keydown", (event) => {
    const box = event.target instanceof Element ? event.target.closest("#ps-question") : null;
    if (box && event.key === "Enter" && !event.shiftKey) clearSort();
  }, true);
}
"""
Files = tuple[str, str]  # (CSV path, BibTeX path)


class ListStep(TypedDict, total=False):
    """One update of the list view; a missing key leaves that part as it is."""

    head: str  # HTML: pending heading, the list's heading, an abstention or an error
    rows: list[list[Any]]  # table rows (render.LIST_HEADERS)
    files: Files | None  # downloads; None disables them


def filters_of(venue: str | None, year: str | None, author: str | None) -> dict[str, Any] | None:
    f = {"venue": venue or None, "year": int(year) if year else None, "author": (author or "").strip() or None}
    return f if any(v is not None for v in f.values()) else None


def failure_text(exc: Exception) -> str:
    """An unexpected failure (e.g. the Chroma server went away) in words, secrets masked."""
    return f"The question could not be answered ({type(exc).__name__}: {redact(str(exc))[:300]})"


def file_stem(question: str) -> str:
    """A download name from the question, so that several saved lists can be told apart."""
    words = re.findall(r"[a-z0-9]+", question.lower())
    return "paperscope-" + ("-".join(words)[:60].rstrip("-") or "papers")


def prune(root: Path, keep_s: float) -> None:
    for folder in root.iterdir():
        if time.time() - folder.stat().st_mtime > keep_s:
            shutil.rmtree(folder, ignore_errors=True)


def export_files(answer: Answer, root: Path) -> Files:
    """The answer's citations as a CSV (UTF-8 with BOM, for spreadsheets) and a BibTeX file, in
    a fresh folder under `root` (one per request: concurrent users never share a file)."""
    root.mkdir(parents=True, exist_ok=True)
    prune(root, EXPORT_KEEP_S)
    folder = Path(tempfile.mkdtemp(dir=root))
    stem = file_stem(answer.question)
    csv_path, bib_path = folder / f"{stem}.csv", folder / f"{stem}.bib"
    csv_path.write_bytes(csv_bytes(answer.citations))
    bib_path.write_text(export_answer(answer, "bibtex"), encoding="utf-8")
    return str(csv_path), str(bib_path)


def list_turn(assistant: Assistant, question: str | None, venue: str | None, year: str | None,
              author: str | None, exports: Path) -> Iterator[ListStep]:
    """"List all papers" for one question: a cleared table under a pending heading that counts
    the papers as their quotes are chosen, then the heading, the rows and the downloads."""
    question = (question or "").strip()
    if not question:
        return
    yield {"head": render.list_pending_html(""), "rows": [], "files": None}
    streamed = ""
    try:
        for event in assistant.stream_all(question, filters=filters_of(venue, year, author)):
            if isinstance(event, TextPiece):
                streamed += event.text
                yield {"head": render.list_pending_html(streamed)}
            else:
                yield {"head": render.list_head_html(event), "rows": render.list_rows(event.citations),
                       "files": export_files(event, exports) if event.citations else None}
    except (QuestionError, ValueError) as exc:
        yield {"head": render.error_html(str(exc))}
    except Exception as exc:  # say so in the list panel, keep serving
        yield {"head": render.error_html(failure_text(exc))}


def downloads(files: Files | None) -> tuple[Any, Any]:
    """Updates for a (CSV, BibTeX) pair of download buttons: the files, or disabled."""
    if files is None:
        return gr.update(value=None, interactive=False), gr.update(value=None, interactive=False)
    return gr.update(value=files[0], interactive=True), gr.update(value=files[1], interactive=True)


def download_buttons(prefix: str, visible: bool) -> tuple[Any, Any]:
    """A (CSV, BibTeX) pair of download buttons, disabled until there is something to export."""
    return tuple(gr.DownloadButton(label, size="sm", interactive=False, visible=visible, scale=0, min_width=140,
                                   elem_id=f"{prefix}-{ext}") for label, ext in (("Download CSV", "csv"),
                                                                                ("Download BibTeX", "bib")))
