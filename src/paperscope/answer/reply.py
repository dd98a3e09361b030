"""An LLM's drafted answer: the pydantic model it is parsed into, and the JSON schema the LLM
is asked to follow, generated from that same model.

`DraftReply` is {"answer": str, "citations": [{"marker": int, "quote": str}]}. `answer_schema`
narrows the generated schema for one question: `marker` must be one of the numbers shown and
the list is capped at that many items (a small model's grammar-constrained output then cannot
invent markers or loop over citations). `parse_reply` is defensive: code fences, prose
around the object, a reply cut off by max_tokens, or plain text with inline [n] markers
(servers that ignore the schema) all parse; malformed citation items are dropped one by one.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from paperscope.answer.base import Draft
from paperscope.answer.markers import MARKER, normalize_markers
from paperscope.records import Evidence
from paperscope.text.analyzer import terms
from paperscope.text.sentences import sentence_spans


class DraftCitation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    marker: int
    quote: str


class DraftReply(BaseModel):
    model_config = ConfigDict(extra="forbid")

    answer: str
    citations: list[DraftCitation]

    @field_validator("answer", mode="before")
    @classmethod
    def _text_or_nothing(cls, value: object) -> object:
        return value if isinstance(value, str) else ""

    @field_validator("citations", mode="before")
    @classmethod
    def _valid_items_only(cls, value: object) -> list[DraftCitation]:
        items: list[DraftCitation] = []
        for item in value if isinstance(value, list) else []:
            try:
                items.append(DraftCitation.model_validate(item, strict=False))
            except ValidationError:
                continue  # a malformed item costs that citation, not the answer
        return items


def _inline_refs(node: Any, defs: dict[str, Any]) -> Any:
    """The schema with `$ref`s replaced by their definitions and `title`s dropped (llama.cpp
    and strict structured outputs read the plain form best)."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            return _inline_refs(copy.deepcopy(defs[ref.rsplit("/", 1)[-1]]), defs)
        return {k: _inline_refs(v, defs) for k, v in node.items()
                if k != "$defs" and not (k == "title" and isinstance(v, str))}
    if isinstance(node, list):
        return [_inline_refs(v, defs) for v in node]
    return node


def answer_schema(evidence: list[Evidence]) -> dict[str, Any]:
    """`DraftReply`'s JSON schema, narrowed to the markers of `evidence`.

    No `maxLength`: llama.cpp unrolls it into nested rules and rejects the grammar (its server
    then dies); max_tokens bounds length instead.
    """
    raw = DraftReply.model_json_schema()
    schema: dict[str, Any] = _inline_refs(raw, raw.get("$defs", {}))
    markers = sorted({ev.marker for ev in evidence}) or [1]
    citations = schema["properties"]["citations"]
    citations["items"]["properties"]["marker"]["enum"] = markers
    citations["maxItems"] = len(markers)
    return schema


_FENCE = re.compile(r"^\s*```(?:json)?\s*|\s*```\s*$", re.IGNORECASE)
_ANSWER_FIELD = re.compile(r'"answer"\s*:\s*"((?:[^"\\]|\\.)*)', re.DOTALL)
_BACKSLASH_WORD = re.compile(r'(?<!\\)\\([A-Za-z]+)')
# LaTeX commands whose first letter is also a JSON escape (\t, \b, \f, \n, \r): abstracts are
# full of "$3.5\times$", and a model copying one into a JSON string means a backslash, not a tab.
_LATEX = frozenset("""times text textbf textit texttt textrm textsc textsf tau theta tilde top to tanh
    tfrac triangle beta bar bf bm boldsymbol big bigg bigl bigr binom bot backslash frac forall
    flat footnotesize nabla nu neq ne not notin neg nonumber rho right rightarrow rm rangle rceil
    rfloor rvert mathrm""".split())


def _latex_safe(body: str) -> str:
    """Double the backslash of LaTeX commands inside JSON text (see _LATEX)."""
    def fix(m: re.Match[str]) -> str:
        word = m.group(1)
        if word[0] not in "bfnrtu" or word in _LATEX:
            return "\\\\" + word
        if word[0] == "u" and not re.match(r"u[0-9a-fA-F]{4}", word + m.string[m.end():m.end() + 4]):
            return "\\\\" + word
        return m.group(0)
    return _BACKSLASH_WORD.sub(fix, body)


def _load_json(raw: str) -> object:
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


def parse_reply(raw: str) -> Draft:
    """The Draft (answer text with [n] markers, {marker: quote}) in a JSON or plain-text reply."""
    raw = (raw or "").strip()
    body = _latex_safe(_FENCE.sub("", raw).strip())
    data = _load_json(body) if "{" in body else None
    if not (isinstance(data, dict) and "answer" in data):
        if not body.startswith("{"):
            return Draft(normalize_markers(raw))  # plain text with inline markers
        # A JSON reply cut off by max_tokens or malformed: salvage the answer field, else nothing.
        m = _ANSWER_FIELD.search(body)
        if not m:
            return Draft("")
        try:
            return Draft(normalize_markers(json.loads(f'"{m.group(1)}"')))
        except json.JSONDecodeError:
            return Draft(normalize_markers(m.group(1).replace('\\"', '"')))
    reply = DraftReply.model_validate({"answer": data.get("answer"), "citations": data.get("citations")})
    quotes: dict[int, str] = {}
    for item in reply.citations:
        if item.quote.strip() and item.marker not in quotes:
            quotes[item.marker] = item.quote.strip()
    answer = normalize_markers(reply.answer.strip())
    if answer and quotes and not MARKER.search(answer):
        answer = _place_markers(answer, quotes)
    return Draft(answer, quotes)
