"""LLM clients, registered by name (the answer layer wraps each in a GenerativeAnswerer).

    PAPERSCOPE_LLM=openai              hosted OpenAI (PAPERSCOPE_LLM_API_KEY / OPENAI_API_KEY)
    PAPERSCOPE_LLM=openai-compatible   vLLM, llama.cpp server, Ollama, SGLang, TGI
                                       (PAPERSCOPE_LLM_BASE_URL required)
    PAPERSCOPE_LLM=local               llama.cpp in-process (PAPERSCOPE_LOCAL_MODEL=*.gguf)
    PAPERSCOPE_LLM=transformers        Hugging Face model dir or GGUF on torch (CUDA when present)

Built-ins register exactly as a plugin would, `register_llm(name)(factory(LLMSettings))`; a
plugin may instead declare an entry point in the group `paperscope.llms`. This package holds
clients only and imports nothing from `paperscope.answer`. Importing it is cheap: the
openai SDK, llama_cpp and torch are imported only when a backend is first used. A
misconfigured backend raises `LLMConfigError` naming the variable to set; nothing ever falls
back to a cloud service.
"""

from __future__ import annotations

from paperscope.llm.base import LLM, LLMConfigError, LLMError, llm_names, make_llm, register_llm
from paperscope.settings import LLMSettings

__all__ = ["LLM", "LLMError", "LLMConfigError", "register_llm", "make_llm", "llm_names"]


def _openai(llm_settings: LLMSettings) -> LLM:
    from paperscope.llm.openai_chat import make_openai

    return make_openai(llm_settings)


def _openai_compatible(llm_settings: LLMSettings) -> LLM:
    from paperscope.llm.openai_chat import make_openai_compatible

    return make_openai_compatible(llm_settings)


def _local(llm_settings: LLMSettings) -> LLM:
    from paperscope.llm.local import make_local

    return make_local(llm_settings)


def _transformers(llm_settings: LLMSettings) -> LLM:
    from paperscope.llm.hf import make_transformers

    return make_transformers(llm_settings)


for _name, _factory in (("openai", _openai), ("openai-compatible", _openai_compatible),
                        ("local", _local), ("transformers", _transformers)):
    register_llm(_name)(_factory)
