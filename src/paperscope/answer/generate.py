"""The generative answerer: an LLM drafts the answer from numbered evidence; code verifies it.

`GenerativeAnswerer(llm, name)` wraps any LLM client (paperscope.llm) in the answerer contract:
- `draft` asks for JSON under `reply.answer_schema` (grammar-constrained on llama.cpp,
  Structured Outputs on OpenAI) and parses it with `reply.parse_reply`;
- `stream_draft` streams plain text with inline markers (quotes are chosen by `verify`);
- `rewrite` turns a follow-up into a standalone question (`rewrite_question`);
- `sources` shows the drafter two papers beyond those chosen to cite, to compare against.
It never decides which citations stand: `answer.verify` does, and the Assistant falls back to
the extractive answer when none does. `stats` counts calls and markers drafted, so the share
of drafted citations that verification drops can be measured (docs/measurements.md).
Leaves out: retries and self-correction loops (a second LLM call costs more than the
extractive fallback is worth on a CPU).
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Generator, Iterable, Iterator

from paperscope.answer.base import Answerer, Draft, History
from paperscope.answer.markers import MARKER, count_markers, normalize_markers
from paperscope.answer.prompts import answer_messages, rewrite_messages
from paperscope.answer.reply import answer_schema, parse_reply
from paperscope.llm.base import LLM
from paperscope.records import Evidence
from paperscope.text.analyzer import terms

_PREFIX = re.compile(r"^\s*(standalone question|rewritten question|question|follow-up)\s*:\s*", re.IGNORECASE)
EXTRA_SOURCES = 2  # papers shown beyond those chosen to cite


def normalized_stream(pieces: Iterable[str]) -> Iterator[str]:
    """`pieces` with marker spellings normalized; text after an unclosed bracket is held back
    (at most a few characters) until the bracket closes, so a marker is never split."""
    buf = ""
    for piece in pieces:
        buf += piece
        cut = max(buf.rfind("["), buf.rfind("【"))
        if cut >= 0 and not any(c in buf[cut:] for c in "]】") and len(buf) - cut <= 16:
            head, buf = buf[:cut], buf[cut:]
        else:
            head, buf = buf, ""
        if head:
            yield normalize_markers(head)
    if buf:
        yield normalize_markers(buf)


def rewrite_question(llm: LLM, question: str, history: History | None) -> str:
    """A standalone version of a follow-up question; the question itself when there is no
    history or the model's reply is not a usable question. LLM errors propagate (LLMError)."""
    if not history:
        return question
    raw = llm.complete(rewrite_messages(question, history))
    line = next((ln for ln in (raw or "").splitlines() if ln.strip()), "")
    line = _PREFIX.sub("", line).strip().strip('"“”\'').strip()
    if not line or len(line) > 300 or not terms(line) or MARKER.search(line):
        return question
    return line


class GenerativeAnswerer(Answerer):
    """Answers drafted by an LLM (see the module docstring)."""

    streams = True

    def __init__(self, llm: LLM, name: str, structured: bool = True) -> None:
        self.llm, self.name, self.structured = llm, name, structured
        self.stats: Counter[str] = Counter()
        self._lock = threading.Lock()

    def _count(self, **kw: int) -> None:
        with self._lock:
            self.stats.update(kw)

    def draft(self, question: str, evidence: list[Evidence]) -> Draft:
        messages = answer_messages(question, evidence, as_json=self.structured)
        raw = self.llm.complete(messages, json_schema=answer_schema(evidence) if self.structured else None)
        draft = parse_reply(raw)
        self._count(drafts=1, markers=count_markers(draft.text), empty=int(not draft.text.strip()))
        return draft

    def stream_draft(self, question: str, evidence: list[Evidence]) -> Generator[str, None, Draft]:
        pieces: list[str] = []
        for piece in normalized_stream(self.llm.stream(answer_messages(question, evidence, as_json=False))):
            pieces.append(piece)
            yield piece
        text = "".join(pieces)
        self._count(drafts=1, markers=count_markers(text))
        return Draft(text)

    def rewrite(self, question: str, history: History) -> str | None:
        return rewrite_question(self.llm, question, history)

    def sources(self, cited: list[Evidence], evidence: list[Evidence]) -> list[Evidence]:
        return evidence[: len(cited) + EXTRA_SOURCES]
