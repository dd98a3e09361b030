"""Test doubles, shipped as a plugin distribution (entry points in ../pyproject.toml):

- `fake` embedder: a deterministic hashed bag of words (64-d), fast; counts a text's words
  and punctuation marks as its word pieces;
- `test-echo` LLM client: answers with the first source sentence of the prompt, cited [n];
- `test-first-sentence` answerer: quotes the best sentence of the best paper.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from paperscope.answer.base import Answerer, Draft
from paperscope.records import Evidence
from paperscope.settings import EmbedSettings, LLMSettings, Settings
from paperscope.text.analyzer import terms

_PIECES = re.compile(r"\w+|[^\w\s]")


class FakeEmbedder:
    name = "fake"
    dim = 64
    independent = True  # a text's vector depends on that text only

    def __init__(self, settings: EmbedSettings | None = None) -> None:
        self.max_tokens = (settings or EmbedSettings()).max_tokens

    @property
    def window(self) -> int:
        return self.max_tokens - 2

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        return [len(_PIECES.findall(t)) for t in texts]

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for term in terms(text) or ["<empty>"]:
                h = int(hashlib.md5(term.encode()).hexdigest()[:8], 16)
                out[row, h % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return (out / np.maximum(norms, 1e-12)).astype(np.float32)


class EchoLLM:
    """Replies with the first sentence of source [n] for the first source in the prompt."""

    def __init__(self, settings: LLMSettings) -> None:
        self.name = "test-echo:v1"

    @staticmethod
    def _first_source(messages: list[dict[str, str]]) -> tuple[int, str]:
        user = messages[-1]["content"]
        m = re.search(r"^\[(\d+)\] .*\n(.+)$", user, flags=re.MULTILINE)
        if not m:
            return 1, ""
        sentence = re.split(r"(?<=[.!?…])\s", m.group(2))[0]  # the prompt cuts long sentences with an ellipsis
        return int(m.group(1)), sentence

    def complete(self, messages: list[dict[str, str]], json_schema: dict[str, Any] | None = None) -> str:
        n, sentence = self._first_source(messages)
        text = f"{sentence.rstrip('.')} [{n}]."
        return json.dumps({"answer": text, "citations": [{"marker": n, "quote": sentence}]}) if json_schema else text

    def stream(self, messages: list[dict[str, str]]) -> Iterator[str]:
        n, sentence = self._first_source(messages)
        yield from (f"{sentence.rstrip('.')} ", f"[{n}].")


class FirstSentenceAnswerer(Answerer):
    name = "test-first-sentence"

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def draft(self, question: str, evidence: list[Evidence]) -> Draft:
        ev = evidence[0]
        return Draft(f"According to one paper: \u201c{ev.best_sentence}\u201d [{ev.marker}]", {ev.marker: ev.best_sentence})
