"""The answerer registry: how an answer is drafted from numbered evidence.

An answerer has `name` and `draft(question, evidence) -> (text with [n] markers,
{marker: quote})`; it may also have `stream_draft(question, evidence) -> Iterator[str]`.
Whatever it writes, `answer.verify` decides which citations stand. Built-ins register here
the same way a plugin does (`register_answerer("name")(factory)`); the factory takes
`Settings` and returns the answerer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Protocol, runtime_checkable

from paperscope.answer.extractive import ExtractiveAnswerer
from paperscope.answer.types import Evidence
from paperscope.registry import Registry


@runtime_checkable
class Answerer(Protocol):
    name: str

    def draft(self, question: str, evidence: list[Evidence]) -> tuple[str, dict[int, str]]: ...


def _load_builtin_plugins() -> None:
    # LLM backends live in paperscope.llm; importing it registers them.
    import importlib
    import importlib.util

    if importlib.util.find_spec("paperscope.llm") is not None:
        importlib.import_module("paperscope.llm")


ANSWERERS: Registry[Callable] = Registry("answer backend", "set PAPERSCOPE_LLM; ", before_lookup=_load_builtin_plugins)
register_answerer = ANSWERERS.register
answerer_names = ANSWERERS.names


def make_answerer(settings) -> Answerer:
    return ANSWERERS.get(settings.llm.backend)(settings)


def stream_or_draft(answerer: Answerer, question: str, evidence: list[Evidence]) -> Iterator[str]:
    stream = getattr(answerer, "stream_draft", None)
    if stream is None:
        text, _ = answerer.draft(question, evidence)
        yield text
    else:
        yield from stream(question, evidence)


register_answerer("extractive")(lambda settings: ExtractiveAnswerer())
