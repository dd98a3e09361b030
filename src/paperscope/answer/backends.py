"""The answer backends: which `Answerer` drafts the answer for `PAPERSCOPE_LLM=<name>`.

A name resolves to a registered answerer (`register_answerer(name)(factory(Settings))`, or an
entry point in the group `paperscope.answerers`), else to an LLM client of that name (see
`paperscope.llm`) wrapped in a `GenerativeAnswerer`: a plugin that ships only an LLM client
is an answer backend too. `extractive` (the offline default) registers here like any plugin.
"""

from __future__ import annotations

from collections.abc import Callable

from paperscope.answer.base import Answerer
from paperscope.answer.extractive import ExtractiveAnswerer
from paperscope.answer.generate import GenerativeAnswerer
from paperscope.llm import LLMConfigError, llm_names, make_llm
from paperscope.llm.base import LLMS
from paperscope.registry import Registry
from paperscope.settings import Settings

AnswererFactory = Callable[[Settings], Answerer]
ANSWERERS: Registry[AnswererFactory] = Registry("answer backend", "paperscope.answerers", "set PAPERSCOPE_LLM; ",
                                                error=LLMConfigError)
register_answerer = ANSWERERS.register


def answerer_names() -> list[str]:
    """Every name PAPERSCOPE_LLM accepts: answerers and LLM clients."""
    return sorted(set(ANSWERERS.names()) | set(llm_names()))


def make_answerer(settings: Settings) -> Answerer:
    name = settings.llm.backend
    if name in ANSWERERS:
        return ANSWERERS.get(name)(settings)
    if name in LLMS:
        return GenerativeAnswerer(make_llm(settings.llm, name), name=name, structured=settings.llm.structured)
    raise LLMConfigError(f"unknown answer backend {name!r}; set PAPERSCOPE_LLM to one of {', '.join(answerer_names())}")


register_answerer("extractive")(lambda settings: ExtractiveAnswerer())
