"""The `local` LLM backend: llama.cpp in-process (llama-cpp-python) over a GGUF file.

PAPERSCOPE_LOCAL_MODEL names the .gguf file; PAPERSCOPE_LLM_N_GPU_LAYERS offloads layers to
the GPU when llama-cpp-python was built with CUDA (ignored by a CPU build);
PAPERSCOPE_LLM_N_CTX sizes the context. JSON answers are grammar-constrained by llama.cpp
(`response_format={"type": "json_object", "schema": ...}`), so the reply always parses.
llama_cpp is imported and the model loaded on first use, so `import paperscope.llm` and
`paperscope stats` stay fast. One Llama object is not thread-safe: calls are serialized.
PAPERSCOPE_LLM_TIMEOUT is enforced between tokens (prompt evaluation itself cannot be cut).
Leaves out: model download (offline by design), LoRA, multimodal projectors.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from paperscope.llm.base import LLMConfigError, LLMError, Messages, local_model_path
from paperscope.settings import LLMSettings


class LlamaCppChat:
    backend = "local"

    def __init__(self, llm_settings: LLMSettings, model_path: Path) -> None:
        self.settings, self.model_path = llm_settings, model_path
        self._llama: Any = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return f"local:{self.model_path.name}"

    def _model(self) -> Any:
        if self._llama is None:
            try:
                from llama_cpp import Llama
            except ImportError as exc:
                raise LLMConfigError("the local backend needs llama-cpp-python: pip install "
                                     "'paperscope[local]' (see README for CPU/CUDA build flags)") from exc
            # One thread count for prompt and generation: llama.cpp's default batch threads (all
            # CPUs) ran prompts 2.3x slower than this on a 2-vCPU box with anything else busy.
            threads = self.settings.threads or max(1, (os.cpu_count() or 2) // 2)
            try:
                self._llama = Llama(model_path=str(self.model_path), n_ctx=self.settings.n_ctx,
                                    n_gpu_layers=self.settings.n_gpu_layers, n_threads=threads,
                                    n_threads_batch=threads, verbose=False)
            except (ValueError, RuntimeError) as exc:
                raise LLMError(f"local: cannot load {self.model_path.name} ({type(exc).__name__}); is it "
                               "a GGUF file llama.cpp supports? (PAPERSCOPE_LOCAL_MODEL)") from None
        return self._llama

    def _generate(self, messages: Messages, response_format: dict[str, Any] | None = None) -> Iterator[str]:
        """Text pieces as llama.cpp samples them; stops (and raises) past the deadline.

        Always streamed, even for `complete`: leaving the loop is the only way to stop
        llama.cpp mid-generation, which is how PAPERSCOPE_LLM_TIMEOUT is enforced.
        """
        deadline = time.monotonic() + self.settings.timeout
        with self._lock:
            llama = self._model()
            chunks = llama.create_chat_completion(
                messages=messages, stream=True, temperature=self.settings.temperature,
                max_tokens=self.settings.max_tokens, response_format=response_format)
            try:
                for chunk in chunks:
                    piece = chunk["choices"][0]["delta"].get("content")
                    if piece:
                        yield piece
                    if time.monotonic() > deadline:
                        raise LLMError(f"local: generation passed {self.settings.timeout:g} s "
                                       "(PAPERSCOPE_LLM_TIMEOUT)")
            finally:
                chunks.close()

    def complete(self, messages: Messages, json_schema: dict[str, Any] | None = None) -> str:
        fmt = {"type": "json_object", "schema": json_schema} if json_schema is not None else None
        return "".join(self._generate(messages, fmt))

    def stream(self, messages: Messages) -> Iterator[str]:
        yield from self._generate(messages)


def make_local(llm_settings: LLMSettings) -> LlamaCppChat:
    return LlamaCppChat(llm_settings, local_model_path(
        llm_settings, "the local backend needs a GGUF model file (e.g. SmolLM2-135M-Instruct.Q4_1.gguf)",
        file_only=True))
