"""The generative answerer: an LLM drafts the answer from numbered evidence; code verifies it.

`GenerativeAnswerer(llm, name)` implements the answerer contract of `answer.backends`:
- `draft` asks for JSON {"answer", "citations": [{"marker", "quote"}]} under a JSON schema
  (grammar-constrained on llama.cpp, Structured Outputs on OpenAI) and parses the reply
  defensively: code fences, prose around the object, a reply cut off by max_tokens, or plain
  text with inline [n] markers (servers that ignore the schema) all parse;
- `stream_draft` streams plain text with inline markers (quotes are chosen by `verify`);
- `rewrite` turns a follow-up into a standalone question (`rewrite_question`).
It never decides which citations stand: `answer.verify` does, and the Assistant falls back to
the extractive answer when none does. `stats` counts calls and markers drafted, so the share
of drafted citations that verification drops can be measured (see README).
Leaves out: retries and self-correction loops (a second LLM call costs more than the
extractive fallback is worth on a CPU).
"""

from __future__ import annotations

import json
import re
import threading
from collections import Counter
from collections.abc import Iterator

from paperscope.answer.prompts import answer_messages, answer_schema, rewrite_messages
from paperscope.answer.types import Evidence
from paperscope.answer.verify import MARKER
from paperscope.text import sentence_spans, terms

_FENCE = re.compile(r"^\s*```(?:json)?\s*|\s*```\s*$", re.IGNORECASE)
_ANSWER_FIELD = re.compile(r'"answer"\s*:\s*"((?:[^"\\]|\\.)*)', re.DOTALL)
# Marker spellings models use besides [n]: [Source 2], [source 2], 【2】.
_ALT_MARKER = re.compile(r"\[\s*(?:source|paper|ref)\s*(\d{1,3})\s*\]|【\s*(\d{1,3})\s*】", re.IGNORECASE)
_PREFIX = re.compile(r"^\s*(standalone question|rewritten question|question|follow-up)\s*:\s*", re.IGNORECASE)


def normalize_markers(text: str) -> str:
    return _ALT_MARKER.sub(lambda m: f"[{m.group(1) or m.group(2)}]", text)


_BACKSLASH_WORD = re.compile(r'(?<!\\)\\([A-Za-z]+)')
# LaTeX commands whose first letter is also a JSON escape (\t, \b, \f, \n, \r): abstracts are
# full of "$3.5\times$", and a model copying one into a JSON string means a backslash, not a tab.
_LATEX = frozenset("""times text textbf textit texttt textrm textsc textsf tau theta tilde top to tanh
    tfrac triangle beta bar bf bm boldsymbol big bigg bigl bigr binom bot backslash frac forall
    flat footnotesize nabla nu neq ne not notin neg nonumber rho right rightarrow rm rangle rceil
    rfloor rvert mathrm""".split())


def _latex_safe(body: str) -> str:
    """Double the backslash of LaTeX commands inside JSON text (see _LATEX)."""
    def fix(m: re.Match) -> str:
        word = m.group(1)
        if word[0] not in "bfnrtu" or word in _LATEX:
            return "\\\\" + word
        if word[0] == "u" and not re.match(r"u[0-9a-fA-F]{4}", word + m.string[m.end():m.end() + 4]):
            return "\\\\" + word
        return m.group(0)
    return _BACKSLASH_WORD.sub(fix, body)


def _load_json(raw: str):
    body = _FENCE.sub("", raw.strip())
    for candidate in (body, body[body.find("{"): body.rfind("}") + 1] if "{" in body else ""):
        if candidate:
            try:
                return json.loads(candidate)
            except json.JSONDecodeError:
                continue
    return None


def _place_markers(answer: str, quotes: dict[int, str]) -> str:
    """An answer without inline markers gets each cited marker after the sentence closest to its quote."""
    spans = sentence_spans(answer) or [(0, len(answer))]
    inserts: dict[int, list[int]] = {}
    for marker, quote in quotes.items():
        qt = set(terms(quote))
        best = max(range(len(spans)), key=lambda i: (len(qt & set(terms(answer[spans[i][0]:spans[i][1]]))), -i))
        inserts.setdefault(best, []).append(marker)
    out, last = [], 0
    for i, (s, e) in enumerate(spans):
        if i in inserts:
            sent = answer[s:e]
            stop = sent[-1] if sent and sent[-1] in ".!?" else ""
            body = sent[:-1] if stop else sent
            out.append(answer[last:s] + body + " " + "".join(f"[{m}]" for m in sorted(inserts[i])) + stop)
            last = e
    out.append(answer[last:])
    return "".join(out)


def parse_reply(raw: str) -> tuple[str, dict[int, str]]:
    """(answer text with [n] markers, {marker: quote}) from a JSON or plain-text reply."""
    raw = (raw or "").strip()
    body = _latex_safe(_FENCE.sub("", raw).strip())
    data = _load_json(body) if "{" in body else None
    if not (isinstance(data, dict) and "answer" in data):
        if not body.startswith("{"):
            return normalize_markers(raw), {}  # plain text with inline markers
        # A JSON reply cut off by max_tokens or malformed: salvage the answer field, else nothing.
        m = _ANSWER_FIELD.search(body)
        if not m:
            return "", {}
        try:
            return normalize_markers(json.loads(f'"{m.group(1)}"')), {}
        except json.JSONDecodeError:
            return normalize_markers(m.group(1).replace('\\"', '"')), {}
    answer = data.get("answer")
    answer = answer if isinstance(answer, str) else ""
    quotes: dict[int, str] = {}
    citations = data.get("citations")
    for item in citations if isinstance(citations, list) else []:
        if not isinstance(item, dict):
            continue
        try:
            marker = int(item.get("marker"))
        except (TypeError, ValueError):
            continue
        quote = item.get("quote")
        if isinstance(quote, str) and quote.strip() and marker not in quotes:
            quotes[marker] = quote.strip()
    answer = normalize_markers(answer.strip())
    if answer and quotes and not MARKER.search(answer):
        answer = _place_markers(answer, quotes)
    return answer, quotes


def normalized_stream(pieces) -> Iterator[str]:
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


def count_markers(text: str) -> int:
    return sum(len(m.group(1).split(",")) for m in MARKER.finditer(text))


def rewrite_question(llm, question: str, history: list | None) -> str:
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


class GenerativeAnswerer:
    """Answers drafted by an LLM (see the module docstring)."""

    def __init__(self, llm, name: str, structured: bool = True):
        self.llm, self.name, self.structured = llm, name, structured
        self.stats: Counter = Counter()
        self._lock = threading.Lock()

    def _count(self, **kw) -> None:
        with self._lock:
            self.stats.update(kw)

    def draft(self, question: str, evidence: list[Evidence]) -> tuple[str, dict[int, str]]:
        messages = answer_messages(question, evidence, as_json=self.structured)
        raw = self.llm.complete(messages, json_schema=answer_schema(evidence) if self.structured else None)
        text, quotes = parse_reply(raw)
        self._count(drafts=1, markers=count_markers(text), empty=int(not text.strip()))
        return text, quotes

    def stream_draft(self, question: str, evidence: list[Evidence]) -> Iterator[str]:
        pieces: list[str] = []
        for piece in normalized_stream(self.llm.stream(answer_messages(question, evidence, as_json=False))):
            pieces.append(piece)
            yield piece
        self._count(drafts=1, markers=count_markers("".join(pieces)))

    def rewrite(self, question: str, history: list | None) -> str:
        return rewrite_question(self.llm, question, history)
