"""The `transformers` LLM backend: a Hugging Face causal LM on torch, on CUDA when present.

For machines with a GPU and torch (the `bench` extra) but no CUDA build of llama.cpp.
PAPERSCOPE_LOCAL_MODEL names a local model directory (config + safetensors + tokenizer) or a
.gguf file (transformers dequantizes it; needs the `gguf` package). Nothing is downloaded:
loading is local_files_only. CUDA is used when torch sees a GPU, in bfloat16, unless
PAPERSCOPE_LLM_N_GPU_LAYERS=0, which forces the CPU (float32). PAPERSCOPE_LLM_TIMEOUT bounds
generation (transformers' max_time); the reply is then incomplete, so it is an error.
Leaves out: constrained decoding (transformers has no JSON grammar built in: the prompt asks
for JSON and the answerer parses defensively, falling back to plain [n] markers), batching,
quantized loading (bitsandbytes).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from paperscope.llm.base import LLMConfigError, LLMError, Messages, local_model_path
from paperscope.settings import LLMSettings


class TransformersChat:
    backend = "transformers"

    def __init__(self, llm_settings: LLMSettings, path: Path) -> None:
        self.settings, self.path = llm_settings, path
        self._model: Any = None
        self._tok: Any = None
        self.device = "cpu"
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return f"transformers:{self.path.name}"

    def _load(self) -> tuple[Any, Any]:
        if self._model is not None:
            return self._model, self._tok
        try:
            import torch
            from transformers import AutoModelForCausalLM, AutoTokenizer
            from transformers.utils import logging as hf_logging
        except ImportError as exc:
            raise LLMConfigError("the transformers backend needs torch and transformers: pip install "
                                 "'paperscope[bench]'") from exc
        hf_logging.set_verbosity_error()
        hf_logging.disable_progress_bar()
        use_cuda = torch.cuda.is_available() and self.settings.n_gpu_layers != 0
        self.device = "cuda" if use_cuda else "cpu"
        kwargs: dict[str, Any] = {"local_files_only": True}
        where = self.path
        if self.path.is_file():  # a .gguf file inside some directory
            where, kwargs["gguf_file"] = self.path.parent, self.path.name
        try:
            tok = AutoTokenizer.from_pretrained(str(where), **kwargs)
            model = AutoModelForCausalLM.from_pretrained(
                str(where), dtype=torch.bfloat16 if use_cuda else torch.float32, **kwargs)
        except (OSError, ValueError) as exc:
            raise LLMError(f"transformers: cannot load {self.path.name} ({type(exc).__name__}); "
                           "PAPERSCOPE_LOCAL_MODEL must be a model directory or a .gguf file") from None
        self._model, self._tok = model.to(self.device).eval(), tok
        return self._model, self._tok

    def _prepare(self, messages: Messages) -> dict[str, Any]:
        model, tok = self._load()
        inputs = tok.apply_chat_template(messages, add_generation_prompt=True, return_tensors="pt",
                                         return_dict=True).to(self.device)
        temp = self.settings.temperature
        return dict(**inputs, max_new_tokens=self.settings.max_tokens, do_sample=temp > 0,
                    **({"temperature": temp} if temp > 0 else {}), max_time=self.settings.timeout,
                    pad_token_id=tok.pad_token_id if tok.pad_token_id is not None else tok.eos_token_id)

    def _timed_out(self) -> LLMError:
        return LLMError(f"transformers: generation passed {self.settings.timeout:g} s (PAPERSCOPE_LLM_TIMEOUT)")

    def complete(self, messages: Messages, json_schema: dict[str, Any] | None = None) -> str:
        with self._lock:
            kwargs = self._prepare(messages)
            start = time.monotonic()
            out = self._model.generate(**kwargs)
            if time.monotonic() - start >= self.settings.timeout:
                raise self._timed_out()
            new = out[0][kwargs["input_ids"].shape[1]:]
            return str(self._tok.decode(new, skip_special_tokens=True))

    def stream(self, messages: Messages) -> Iterator[str]:
        from transformers import TextIteratorStreamer

        with self._lock:
            kwargs = self._prepare(messages)
            streamer = TextIteratorStreamer(self._tok, skip_prompt=True, skip_special_tokens=True,
                                            timeout=self.settings.timeout + 5)
            failure: list[BaseException] = []

            def run() -> None:
                try:
                    self._model.generate(**kwargs, streamer=streamer)
                except BaseException as exc:  # surfaced to the caller below, not lost in a thread
                    failure.append(exc)
                    streamer.end()

            start = time.monotonic()
            worker = threading.Thread(target=run, daemon=True)
            worker.start()
            for piece in streamer:
                if piece:
                    yield piece
            worker.join()
        if failure:
            raise LLMError(f"transformers: generation failed ({type(failure[0]).__name__})")
        if time.monotonic() - start >= self.settings.timeout:
            raise self._timed_out()


def make_transformers(llm_settings: LLMSettings) -> TransformersChat:
    return TransformersChat(llm_settings, local_model_path(
        llm_settings, "the transformers backend needs a model directory or a .gguf file", file_only=False))
